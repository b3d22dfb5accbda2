# fish completion for roost, as `roost completions fish` prints it.
# Every TAB asks the roost on PATH: `roost __complete fish CWORD WORDS...`
# prints one `candidate<TAB>description` per line, or a line holding TAB
# "dirs" when the word is a directory.
function __roost_complete
    set -l words (commandline -opc) (commandline -ct)
    set -l answer (command roost __complete fish (math (count $words) - 1) $words 2>/dev/null)
    if test (count $answer) -gt 0; and test "$answer[1]" = \tdirs
        __fish_complete_directories (commandline -ct)
        return
    end
    printf '%s\n' $answer
end
complete -c roost -f -a '(__roost_complete)'
