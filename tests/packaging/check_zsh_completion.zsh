#!/usr/bin/env zsh
# SPDX-License-Identifier: MIT
# check_zsh_completion.zsh COMPLETION PERFLAB: runs the zsh completion function outside a
# completion widget, with compadd, _describe and _files replaced by recorders, and checks what it
# offers for subcommands, an option prefix, an option's choices, spec files and run ids.
completion=$1 perflab=${2:A}
offered=()
compadd() {
  while [[ $1 == -* && $1 != -- ]]; do
    [[ $1 == -X ]] && shift
    shift
  done
  [[ $1 == -- ]] && shift
  offered+=("$@")
}
_describe() { offered+=(${${(P)4}%%:*}); }
_files() { offered+=("files $*"); }
# The file ends by calling the function for the widget; here each check calls it.
source <(sed '$d' $completion)

failures=0
expect() {
  local want=$1
  shift
  words=($perflab "$@")
  CURRENT=$#words
  PREFIX=${words[-1]}
  offered=()
  _perflab
  local got=${(j: :)${(o)offered}}
  if [[ $got != $want ]]; then
    print -r -- "perflab $* <Tab>: got '$got', want '$want'"
    (( failures++ ))
  fi
}

expect "--db --help --json --kind --name --tag -h" runs --
expect "bundle csv hgrm hlog html json md pdf probes-csv" export 1 --format ""
expect "add list remove trust" hosts ""
expect "files -g *.json" run ""
expect "files -g *.json" gui --spec ""

dir=$(mktemp -d)
trap 'rm -rf $dir' EXIT
source_dir=${completion:A:h:h:h}
for f in interrupted real-3s; do
  $perflab import $source_dir/tests/fixtures/memtier/$f.json --format memtier --db $dir/runs.db \
    >/dev/null 2>&1 || { print "import failed"; exit 1 }
done
expect "1 2" show --db $dir/runs.db ""
expect "1 2" import-host x.nmon --db $dir/runs.db --run ""
exit $(( failures > 0 ))
