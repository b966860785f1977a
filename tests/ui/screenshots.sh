#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs PerfLab under Xvfb through its views (set-up, live, history, a stored run, compare,
# hosts) and saves a PNG of each, for review by eye.
#   tests/ui/screenshots.sh [PERFLAB_BINARY] [OUTPUT_DIR]
# Needs xvfb, imagemagick and poppler-utils (.ci/install-deps.sh), memcached and a JDK.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-$root/build/ci/app/perflab}"
out="${2:-$root/build/screenshots}"
mkdir -p "$out"

display=99
while [ -e "/tmp/.X${display}-lock" ]; do display=$((display + 1)); done
Xvfb ":$display" -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
work="$(mktemp -d)"
cleanup() { kill "$xvfb" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
export DISPLAY=":$display" HOME="$work" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
export XDG_RUNTIME_DIR="$work/runtime" PERFLAB_DB="$work/runs.db"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
sleep 1  # Xvfb accepts connections within a moment

# shot NAME SECONDS [perflab gui options]: starts the app, waits, grabs the screen, closes it.
# Waits are long enough for runs to end first, so the app's own memcached is stopped cleanly.
# With SHOT_SIZE=WxH the window has that size and the picture is cut to it.
shot() {
  local name="$1" wait="$2"
  shift 2
  local size=()
  [ -n "${SHOT_SIZE:-}" ] && size=(--size "$SHOT_SIZE")
  "$bin" gui "${size[@]}" "$@" >"$work/$name.log" 2>&1 &
  local pid=$!
  sleep "$wait"
  if [ -n "${SHOT_SIZE:-}" ]; then
    import -window root -crop "${SHOT_SIZE}+0+0" "$out/$name.png"
  else
    import -window root "$out/$name.png"
  fi
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  echo "$out/$name.png"
}

shot 1-setup-first-start 4
sed 's/"count": 1000000/"count": "a million"/; s/"duration_s": 120/"duration_s": -5/' \
  "$root/resources/specs/cache-aside-hot.json" >"$work/invalid.json"
shot 2-setup-invalid-field 4 --spec "$work/invalid.json"
shot 3-live-quick-start 16 --quick-start 12
# A second stored run with other phases, so history and compare have two runs to show, and
# a saved host for the Hosts view (its connection is not tested here).
"$bin" demo --seconds 6 >"$work/demo.log" 2>&1
"$bin" hosts add "cache server" "perflab@127.0.0.1:2222" --per-core --notes "memcached host" \
  >>"$work/demo.log"
shot 4-history 5 --view history
shot 5-history-stored-run 7 --open 1
shot 6-compare 7 --compare 1,2
shot 7-hosts 5 --view hosts

# The smallest size people use, and a run with the memcached probe's panels: a small cache
# that fills and evicts while a 5k/s open phase is followed by a closed one.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
memcached -u root -l 127.0.0.1 -p "$port" -U 0 -m 8 -t 1 &
memcached=$!
trap 'kill "$memcached" 2>/dev/null || true; cleanup' EXIT
cat >"$work/collapse.json" <<SPEC
{"name": "small cache, 5k/s then closed", "kind": "cache", "tick_ms": 1000,
 "phases": [{"duration_s": 8, "rate": 5000}, {"duration_s": 6, "concurrency": 8}],
 "cache": {"servers": ["127.0.0.1:$port"], "workload": "cache-aside",
           "keys": {"count": 200000}, "value_size": {"min": 1024, "max": 4096}},
 "probes": [{"local": true}, {"memcached": "127.0.0.1:$port"}]}
SPEC
shot 8-live-memcached-probe 18 --spec "$work/collapse.json" --start
SHOT_SIZE=1024x700 shot 9-live-1024x700 18 --spec "$work/collapse.json" --start
SHOT_SIZE=1024x700 shot 10-setup-invalid-1024x700 4 --spec "$work/invalid.json"
SHOT_SIZE=1024x700 shot 11-compare-1024x700 7 --compare 1,2

# Two runs with long names side by side, at the smallest size.
for n in 1 2; do
  sed "s/\"name\": \"small cache, 5k\/s then closed\"/\"name\": \"cache-aside against an 8 MB memcached, 5k\/s then closed, take $n\"/; s/\"duration_s\": 8/\"duration_s\": 3/; s/\"duration_s\": 6/\"duration_s\": 2/" \
    "$work/collapse.json" >"$work/long-$n.json"
  "$bin" run "$work/long-$n.json" -q >>"$work/demo.log" 2>&1
done
long_ids="$("$bin" runs --json | python3 -c 'import json, sys; print(",".join(str(r["id"]) for r in json.load(sys.stdin)[:2]))')"
SHOT_SIZE=1024x700 shot 12-compare-long-names-1024x700 7 --compare "$long_ids"

# A JVM under load with its probe: heap, old generation, GC time and full GCs on the time axis.
javac -d "$work" "$root/tests/fixtures/jvm/PerflabGcServer.java"
jvm_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
java -Xmx256m -XX:+UseG1GC -cp "$work" PerflabGcServer "$jvm_port" 500 >"$work/jvm.log" 2>&1 &
jvm=$!
trap 'kill "$memcached" "$jvm" 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$jvm_port") 2>/dev/null && break; sleep 0.1; done
cat >"$work/jvm.json" <<SPEC
{"name": "JVM service, 300/s then 700/s", "kind": "http", "tick_ms": 1000,
 "phases": [{"duration_s": 6, "rate": 300}, {"duration_s": 8, "rate": 700}],
 "http": {"targets": [{"url": "http://127.0.0.1:$jvm_port/"}]},
 "probes": [{"local": true}, {"jvm": {"match": "PerflabGcServer"}}]}
SPEC
shot 13-live-jvm-probe 18 --spec "$work/jvm.json" --start

# Page 1 of the last run's PDF report, as a reader of the file sees it.
last_id="$("$bin" runs --json | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["id"])')"
"$bin" export "$last_id" --format pdf -o "$work/report.pdf" 2>>"$work/demo.log"
pdftoppm -png -r 80 -f 1 -l 1 -singlefile "$work/report.pdf" "$out/14-pdf-report-page1"
echo "$out/14-pdf-report-page1.png"
