#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets of tests/fuzz (the fuzz preset: clang, ASan + UBSan) and runs
# each for SECONDS (default 600), one after another, on a copy of its seed corpus in a scratch
# directory: the committed corpus is never changed. Prints a line per target: executions, the
# corpus it grew to and its crashes, each crash's input path after it. Exit 1 if any crashed.
# Usage: tests/bench/fuzz.sh [SECONDS [TARGET...]]   (TARGET: a directory of tests/fuzz/corpus)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-600}
shift $(($# > 0 ? 1 : 0))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for dir in tests/fuzz/corpus/*/; do targets+=("$(basename "$dir")"); done
fi

.ci/install-deps.sh
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target "${targets[@]/#/fuzz_}"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/perflab-fuzz.XXXXXX")
echo "fuzzing ${#targets[@]} targets for ${seconds} s each; corpora, logs and crashes in $scratch"
# A figure of libFuzzer's final stats in the log $work/log.
final() { sed -n "s/^stat::$1: *//p" "$work/log"; }
crashed=0
for t in "${targets[@]}"; do
  work=$scratch/$t
  mkdir -p "$work/corpus" "$work/crashes"
  cp tests/fuzz/corpus/"$t"/* "$work/corpus/"
  seeds=$(find "$work/corpus" -type f | wc -l)
  # libFuzzer stops at its first crash (a timeout, a leak or running out of memory too);
  # its exit status says so, its artifact is the input.
  build/fuzz/tests/fuzz/fuzz_"$t" "$work/corpus" -max_total_time="$seconds" \
    -print_final_stats=1 -artifact_prefix="$work/crashes/" -timeout=30 -rss_limit_mb=2048 \
    >"$work/log" 2>&1 || true
  found=$(find "$work/crashes" -type f \
    \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort)
  count=$(grep -c . <<<"$found" || true)
  printf '%-17s %10s executions (%s/s)  corpus %d -> %d files  crashes %d\n' "$t" \
    "$(final number_of_executed_units)" "$(final average_exec_per_sec)" "$seeds" \
    "$(find "$work/corpus" -type f | wc -l)" "$count"
  if [ "$count" -gt 0 ]; then
    crashed=1
    sed 's/^/    /' <<<"$found"
    echo "    log: $work/log; replay: build/fuzz/tests/fuzz/fuzz_$t FILE"
  fi
done
exit $crashed
