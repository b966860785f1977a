#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_bash_completion.sh COMPLETION PERFLAB: sources the bash completion and checks what Tab
# offers for a subcommand prefix, an option prefix, an option's choices, a nested subcommand,
# spec files and the run ids of a database.
set -uo pipefail
completion=$1 perflab=$(realpath "$2")
source "$completion"
failures=0

# complete WORD...: COMPREPLY, sorted, one line, for the command line whose last word is being
# completed.
complete_line() {
    COMP_WORDS=("$perflab" "$@")
    COMP_CWORD=$#
    COMPREPLY=()
    _perflab
    printf '%s\n' "${COMPREPLY[@]}" | sort | paste -sd' '
}

expect() {
    local want=$1
    shift
    local got
    got=$(complete_line "$@")
    if [[ $got != "$want" ]]; then
        echo "perflab $* <Tab>: got '$got', want '$want'"
        failures=$((failures + 1))
    fi
}

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
mkdir specs
touch specs/a.json specs/b.json specs/notes.txt

expect "export" ex
expect "import import-host" imp
expect "--json" runs --j
expect "pdf probes-csv" export 1 --format p
expect "bundle" export 1 --format b
expect "trust" hosts tr
expect "--per-core" hosts add --p
expect "specs/a.json specs/b.json" run specs/
expect "specs/a.json specs/b.json" gui --spec specs/

# Run ids of the database given with --db, for the commands that take one.
source_dir=$(cd "$(dirname "$completion")/../.." && pwd)
"$perflab" import "$source_dir/tests/fixtures/memtier/interrupted.json" --format memtier \
    --db "$dir/runs.db" >/dev/null 2>&1 || { echo "import failed"; exit 1; }
"$perflab" import "$source_dir/tests/fixtures/memtier/real-3s.json" --format memtier \
    --db "$dir/runs.db" >/dev/null 2>&1 || { echo "import failed"; exit 1; }
expect "1 2" show --db "$dir/runs.db" ""
expect "2" compare --db "$dir/runs.db" 1 2
expect "1 2" import-host x.nmon --db "$dir/runs.db" --run ""
expect "" show --db "$dir/runs.db" 1 ""

exit $((failures > 0))
