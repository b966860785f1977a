#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What an SSH probe costs the probed host: starts a private sshd on loopback (as root), runs
# `perflab probe` against it at 1 s for SECONDS, and reads the CPU time of the remote shell
# loop (with the `head` it runs each tick) and of the sshd session serving it from /proc.
# Usage: tests/bench/probe_loop_cost.sh PERFLAB_BINARY [SECONDS]
set -euo pipefail

perflab=${1:?usage: $0 PERFLAB_BINARY [SECONDS]}
seconds=${2:-60}
dir=$(mktemp -d /tmp/perflab-bench-XXXXXX)
sshd_pid=""
probe_pid=""
cleanup() {
  [ -n "$probe_pid" ] && kill "$probe_pid" 2>/dev/null || true
  [ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$dir/client_key"
cp "$dir/client_key.pub" "$dir/authorized_keys"
chmod 600 "$dir/authorized_keys"
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$dir/host_key.pub")" > "$dir/known_hosts"
cat > "$dir/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host_key
PidFile $dir/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
CONF
mkdir -p /run/sshd && chmod 755 /run/sshd
/usr/sbin/sshd -D -f "$dir/sshd_config" -E "$dir/sshd.log" &
sshd_pid=$!
for _ in $(seq 50); do (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done

"$perflab" probe "root@127.0.0.1:$port" --key "$dir/client_key" --known-hosts "$dir/known_hosts" \
  --interval-ms 1000 --count $((seconds + 10)) > "$dir/probe.out" &
probe_pid=$!
loop=""
for _ in $(seq 100); do
  loop=$(pgrep -n -f '@@end' || true)
  [ -n "$loop" ] && break
  sleep 0.1
done
[ -n "$loop" ] || { echo "the remote loop did not start"; cat "$dir/sshd.log"; exit 1; }
session=$(awk '{print $4}' "/proc/$loop/stat")

# utime + stime (+ cutime + cstime: the waited-for `head` children) in clock ticks.
ticks() { awk -v kids="$2" '{ t = $14 + $15; if (kids) t += $16 + $17; print t }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
loop0=$(ticks "$loop" 1); session0=$(ticks "$session" 0); t0=$(date +%s.%N)
sleep "$seconds"
loop1=$(ticks "$loop" 1); session1=$(ticks "$session" 0); t1=$(date +%s.%N)

awk -v l=$((loop1 - loop0)) -v s=$((session1 - session0)) -v hz="$hz" -v t0="$t0" -v t1="$t1" \
    -v n="$(wc -l < "$dir/probe.out")" 'BEGIN {
  wall = t1 - t0
  printf "probe at 1 s for %.1f s (%d samples printed)\n", wall, n
  printf "remote loop (sh + head): %.2f s CPU = %.3f%% of one core\n", l / hz, 100 * l / hz / wall
  printf "sshd session:            %.2f s CPU = %.3f%% of one core\n", s / hz, 100 * s / hz / wall
  printf "together:                %.3f%% of one core\n", 100 * (l + s) / hz / wall
}'
