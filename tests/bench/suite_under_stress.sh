#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the whole test suite ROUNDS times (default 3) while `stress-ng --cpu N` (default: one
# worker per core) keeps every core busy: the suite asserts no timing, so it must pass on a
# loaded machine as on a quiet one. Prints each round's ctest summary and the load average,
# and exits 1 if any round failed. Expects the ci build (./test.sh builds it).
# Usage: tests/bench/suite_under_stress.sh [ROUNDS [CPU_WORKERS]]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
workers=${2:-$(nproc)}

command -v stress-ng >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q stress-ng
[ -x build/ci/app/perflab ] || { echo "build first: ./test.sh (or cmake --build --preset ci)"; exit 2; }

stress-ng --cpu "$workers" --timeout 0 --quiet &
stress=$!
trap 'kill $stress 2>/dev/null; wait $stress 2>/dev/null || true' EXIT

failed=0
for round in $(seq 1 "$rounds"); do
  log=$(mktemp "${TMPDIR:-/tmp}/perflab-stress-$round.XXXXXX")
  started=$(date +%s)
  if ctest --preset ci >"$log" 2>&1; then status=passed; else status=FAILED; failed=1; fi
  echo "round $round: $status in $(($(date +%s) - started)) s, $(uptime | sed 's/.*load/load/')"
  grep -E "tests passed|tests failed|\*\*\*Failed|\*\*\*Timeout|Exception" "$log" || true
  echo "  log: $log"
done
exit $failed
