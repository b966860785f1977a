#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Rewrites tests/fixtures/memtier/ with files a real memtier_benchmark wrote: builds memtier
# 2.3.0 from its source outside the repository, runs it against a memcached of its own on
# loopback (a fresh server per run, so its counters are the run's alone) and keeps memtier's
# --json-out-file, its --hdr-file-prefix logs, its printed report and the server's `stats`
# after the run. Not run by CI: the tests read the committed files.
# Usage: tests/bench/memtier_fixtures.sh [MEMTIER_SOURCE_DIR]
#   Without a source directory, memtier 2.3.0 is cloned from GitHub into a scratch directory.
# Needs: autoconf automake libtool libevent-dev libpcre3-dev libssl-dev zlib1g-dev memcached
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$PWD/tests/fixtures/memtier
scratch=$(mktemp -d "${TMPDIR:-/tmp}/perflab-memtier.XXXXXX")
src=${1:-}
if [ -z "$src" ]; then
  src=$scratch/memtier_benchmark
  git clone -q --depth 1 --branch 2.3.0 https://github.com/RedisLabs/memtier_benchmark "$src"
fi
if [ ! -x "$src/memtier_benchmark" ]; then
  (cd "$src" && autoreconf -ivf >/dev/null 2>&1 && ./configure >/dev/null && make -j2 >/dev/null)
fi
memtier=$src/memtier_benchmark
version=$("$memtier" --version | head -1)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
stats() {
  python3 - "$1" <<'EOF'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"stats\r\n")
data = b""
while not data.endswith(b"END\r\n"):
    data += s.recv(65536)
for line in data.decode().splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[1] in ("cmd_get", "get_hits", "get_misses", "cmd_set"):
        print(parts[1], parts[2])
EOF
}

# run NAME SIGINT_AFTER_S ARGS...: one memtier run against a fresh memcached; SIGINT_AFTER_S
# > 0 interrupts it as Ctrl+C would, for "Interrupted": "true".
run() {
  local name=$1 interrupt=$2
  shift 2
  local port pid args
  port=$(free_port)
  memcached -u root -l 127.0.0.1 -p "$port" -U 0 -m 64 -t 1 &
  pid=$!
  until stats "$port" >/dev/null 2>&1; do sleep 0.1; done
  args=(-s 127.0.0.1 -p "$port" -P memcache_text "$@" --json-out-file="$name.json"
        --hdr-file-prefix="$name" --hide-histogram)
  (cd "$scratch" && exec "$memtier" "${args[@]}" >"$name.stdout" 2>"$name.stderr") &
  local memtier_pid=$!
  if [ "$interrupt" -gt 0 ]; then
    sleep "$interrupt"
    kill -INT "$memtier_pid"
  fi
  wait "$memtier_pid" || true
  {
    echo "# Written by: memtier_benchmark ${args[*]}"
    echo "# (PORT was $port; the server: memcached -u root -l 127.0.0.1 -p PORT -U 0 -m 64 -t 1," \
      "fresh for this run)"
    echo "# memtier: $version; memcached: $(memcached -V)"
    echo "# memcached's stats after the run:"
    stats "$port" | sed 's/^/#   /'
  } >"$out/$name.README"
  kill "$pid"
  wait "$pid" || true
  cp "$scratch/$name.json" "$out/$name.json"
  cp "$scratch/$name.stdout" "$out/$name.stdout.txt"
  cp "$scratch/${name}_FULL_RUN_1.hgrm" "$out/$name.FULL_RUN_1.hlog"
  cp "$scratch/${name}_GET_command_run_1.hgrm" "$out/$name.GET_command_run_1.hlog"
}

common=(--clients=2 --threads=2 --ratio=1:10 --data-size=100 --key-prefix=memtier-
        --key-maximum=4000 --key-pattern=R:R --pipeline=1)
run real-3s 0 "${common[@]}" --test-time=3
run interrupted 2 "${common[@]}" --test-time=30
echo "fixtures in $out (scratch: $scratch)"
