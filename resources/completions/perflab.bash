# SPDX-License-Identifier: MIT
# bash completion for perflab. Subcommands, options and an option's choices are read from the
# --help of the perflab being completed, so they follow the binary; stored run ids come from
# `perflab runs --json` (with the command line's --db), spec files are *.json.

# Prints the rows of one section ("Subcommands", "Options"...) of `perflab WORDS... --help`.
_perflab_section() {
    local bin=$1 section=$2
    shift 2
    "$bin" "$@" --help 2>/dev/null | awk -v want="$section:" '
        /^[A-Z][A-Za-z ]*:$/ { on = ($0 == want); next }
        on && /^  [^ ]/ { sub(/^  /, ""); print }'
}

# Run ids of the database the command line names, newest first.
_perflab_run_ids() {
    local bin=$1 db=$2
    "$bin" runs --json ${db:+--db "$db"} 2>/dev/null | grep -o '"id": *[0-9]*' | grep -o '[0-9]*$'
}

# Files ending in $1 (any file when empty) and directories, for the word being completed.
_perflab_files() {
    local suffix=$1 f
    local IFS=$'\n'
    COMPREPLY=()
    for f in $(compgen -f -- "$cur"); do
        if [[ -d $f || -z $suffix || $f == *"$suffix" ]]; then
            COMPREPLY+=("$f")
        fi
    done
    compopt -o filenames 2>/dev/null
}

_perflab() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local bin=${COMP_WORDS[0]}
    [[ -x $bin && ! -d $bin ]] || bin=perflab
    COMPREPLY=()

    # The subcommand path (perflab hosts add ...), the positionals after it and --db.
    local -a path=() positionals=()
    local db="" i word expect_value=""
    local subcommands
    subcommands=$(_perflab_section "$bin" Subcommands | awk '{print $1}')
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if [[ -n $expect_value ]]; then
            [[ $expect_value == --db ]] && db=$word
            expect_value=""
        elif [[ $word == -* ]]; then
            # An option followed by a value type in --help takes the next word.
            if _perflab_section "$bin" Options "${path[@]}" |
                awk -v o="$word" '{ split($1, n, ","); for (k in n) if (n[k] == o && $2 != "" && $2 != "Excludes:" && $2 != "Needs:") f = 1 } END { exit !f }'; then
                expect_value=$word
            fi
        elif [[ ${#positionals[@]} -eq 0 ]] && grep -qx -- "$word" <<<"$subcommands"; then
            path+=("$word")
            subcommands=$(_perflab_section "$bin" Subcommands "${path[@]}" | awk '{print $1}')
        else
            positionals+=("$word")
        fi
    done

    local options
    options=$(_perflab_section "$bin" Options "${path[@]}")
    if [[ $prev == -* && -n $expect_value ]]; then
        case $prev in
        --run | --open) COMPREPLY=($(compgen -W "$(_perflab_run_ids "$bin" "$db")" -- "$cur")) ;;
        --compare) ;;
        --spec) _perflab_files .json ;;
        --db | -o | --output | --key | --known-hosts) _perflab_files "" ;;
        *)
            # An option with its choices listed, such as --format TEXT:{md,html,...}.
            local choices
            choices=$(awk -v o="$prev" '{ split($1, n, ","); for (k in n) if (n[k] == o && match($2, /\{[^}]*\}/)) print substr($2, RSTART + 1, RLENGTH - 2) }' <<<"$options" | tr , ' ')
            COMPREPLY=($(compgen -W "$choices" -- "$cur"))
            ;;
        esac
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(awk '{ n = split($1, o, ","); for (k = 1; k <= n; k++) print o[k] }' <<<"$options")" -- "$cur"))
        return
    fi
    if [[ -n $subcommands && ${#positionals[@]} -eq 0 ]]; then
        COMPREPLY=($(compgen -W "$subcommands" -- "$cur"))
        return
    fi
    case ${path[*]} in
    run | ab) _perflab_files .json ;;
    import | import-host) _perflab_files "" ;;
    compare) COMPREPLY=($(compgen -W "$(_perflab_run_ids "$bin" "$db")" -- "$cur")) ;;
    show | export | delete | note | tag | baseline)
        if [[ ${#positionals[@]} -eq 0 ]]; then
            COMPREPLY=($(compgen -W "$(_perflab_run_ids "$bin" "$db")" -- "$cur"))
        fi
        ;;
    esac
}

complete -F _perflab perflab
