# bash completion for roost, as `roost completions bash` prints it.
# Needs nothing but bash (no bash-completion package). In ~/.bashrc:
#     source <(roost completions bash)
# Every TAB asks the roost on PATH: `roost __complete bash CWORD WORDS...`
# prints one candidate per line, already filtered by the current word, or
# a line starting with TAB that hands the word to bash: "dirs" (a
# directory), "files" (a file), "commands" (a command name), "line K" (a
# word of the command line that began K words before it).

# Splits LINE into `words` as the shell would pass them to a command:
# blanks outside quotes end a word; quotes and backslashes are taken away.
# The last word is the one being completed (empty after a blank).
_roost_words() {
    local s=$1 w= c q= i=0 started=
    words=()
    while ((i < ${#s})); do
        c=${s:i:1}
        i=$((i + 1))
        if [[ $q == "'" ]]; then
            if [[ $c == "'" ]]; then q=; else w+=$c; fi
        elif [[ $q == '"' ]]; then
            if [[ $c == '"' ]]; then
                q=
            elif [[ $c == '\' && ${s:i:1} == [\"\\\$\`] ]]; then
                w+=${s:i:1}
                i=$((i + 1))
            else
                w+=$c
            fi
        elif [[ $c == '\' ]]; then
            w+=${s:i:1}
            i=$((i + 1))
            started=1
        elif [[ $c == "'" || $c == '"' ]]; then
            q=$c
            started=1
        elif [[ $c == [[:space:]] ]]; then
            [[ -n $started ]] && words+=("$w")
            w= started=
        else
            w+=$c
            started=1
        fi
    done
    words+=("$w")
}

_roost() {
    local line=${COMP_LINE:0:COMP_POINT} cur=${COMP_WORDS[COMP_CWORD]} keep= candidate
    local -a words=() answer=()
    _roost_words "$line"
    # bash splits words at ':' and '=' (COMP_WORDBREAKS) while roost sees
    # whole words: drop what bash keeps in front of the current fragment.
    # Right after the ':' or '=', the fragment is empty (bash shows the
    # separator itself as the word).
    local whole=${words[${#words[@]}-1]}
    if [[ $cur == [=:] ]]; then
        cur= keep=$whole
    elif [[ -n $cur && $whole == *"$cur" ]]; then
        keep=${whole%"$cur"}
    fi
    # Inside an open quote readline quotes what it inserts itself.
    local quoted=
    [[ $cur == [\"\']* ]] && quoted=1
    COMPREPLY=()
    while IFS= read -r candidate; do
        answer+=("$candidate")
    done < <(command roost __complete bash "$((${#words[@]} - 1))" "${words[@]}" 2>/dev/null)
    # A TAB line hands the word over to bash: a directory, a command name
    # (spawn's CMD), or a word of that command's own (files, as bash
    # completes a command that has no completion of its own).
    local own=
    case ${answer[0]-} in
    $'\tdirs') own=-d ;;
    $'\tfiles') own=-f ;;
    $'\tcommands') own=-c ;;
    $'\tline '*) own=-f ;;
    esac
    if [[ -n $own ]]; then
        [[ $own == -c ]] || compopt -o filenames 2>/dev/null
        while IFS= read -r candidate; do
            COMPREPLY+=("$candidate")
        done < <(compgen "$own" -- "${whole#"$keep"}")
        return 0
    fi
    for candidate in "${answer[@]}"; do
        candidate=${candidate#"$keep"}
        # A window name with a blank or a quote is inserted quoted.
        if [[ -z $quoted && $candidate == *[[:space:]\'\"\\\$\`\;\&\|\<\>\(\)]* ]]; then
            printf -v candidate '%q' "$candidate"
        fi
        COMPREPLY+=("$candidate")
    done
}
complete -F _roost roost
