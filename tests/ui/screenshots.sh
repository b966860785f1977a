#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs PerfLab under Xvfb through its views (set-up, live, history, a stored run, compare,
# hosts) and saves a PNG of each, for review by eye.
#   tests/ui/screenshots.sh [PERFLAB_BINARY] [OUTPUT_DIR]
# Needs xvfb and imagemagick (.ci/install-deps.sh) and memcached for the live run.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-$root/build/release/app/perflab}"
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
shot() {
  local name="$1" wait="$2"
  shift 2
  "$bin" gui "$@" >"$work/$name.log" 2>&1 &
  local pid=$!
  sleep "$wait"
  import -window root "$out/$name.png"
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
