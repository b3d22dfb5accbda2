# bash completion for roost, as `roost completions bash` prints it.
# Needs nothing but bash (no bash-completion package). In ~/.bashrc:
#     source <(roost completions bash)
# Every TAB asks the roost on PATH: `roost __complete bash CWORD WORDS...`
# prints one candidate per line, already filtered by the current word, or
# a line holding TAB "dirs" when the word is a directory.
_roost() {
    local line=${COMP_LINE:0:COMP_POINT} cur=${COMP_WORDS[COMP_CWORD]} keep= candidate
    local -a words=() answer=()
    read -ra words <<<"$line"
    if [[ -z $line || $line == *[[:space:]] ]]; then
        words+=("")
    fi
    # bash splits words at ':' and '=' (COMP_WORDBREAKS) while roost sees
    # whole words: drop what bash keeps in front of the current fragment.
    local whole=${words[${#words[@]}-1]}
    if [[ -n $cur && $whole == *"$cur" ]]; then
        keep=${whole%"$cur"}
    fi
    COMPREPLY=()
    while IFS= read -r candidate; do
        answer+=("$candidate")
    done < <(command roost __complete bash "$((${#words[@]} - 1))" "${words[@]}" 2>/dev/null)
    if [[ ${answer[0]-} == $'\tdirs' ]]; then
        compopt -o filenames 2>/dev/null
        while IFS= read -r candidate; do
            COMPREPLY+=("$candidate")
        done < <(compgen -d -- "$cur")
        return 0
    fi
    for candidate in "${answer[@]}"; do
        candidate=${candidate#"$keep"}
        # A window name with a blank or a quote is inserted quoted.
        if [[ $candidate == *[[:space:]\'\"\\\$\`\;\&\|\<\>\(\)]* ]]; then
            printf -v candidate '%q' "$candidate"
        fi
        COMPREPLY+=("$candidate")
    done
}
complete -F _roost roost
