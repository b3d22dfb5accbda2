# fish completion for roost, as `roost completions fish` prints it.
# Every TAB asks the roost on PATH: `roost __complete fish CWORD WORDS...`
# prints one `candidate<TAB>description` per line, or a line holding TAB
# "dirs" when the word is a directory. Words go to roost as the shell would
# pass them: quotes and backslashes taken away.
function __roost_complete
    # The earlier words come unescaped already; the current one as typed.
    set -l current (commandline -ct)
    set -l plain (string unescape -- "$current"); or set plain "$current"
    set -l words (commandline -opc) "$plain"
    set -l answer (command roost __complete fish (math (count $words) - 1) $words 2>/dev/null)
    if test (count $answer) -gt 0; and test "$answer[1]" = \tdirs
        # `--link=DI`: the directory after `=`, offered with what precedes it.
        set -l token (commandline -ct)
        set -l before (string match -r -- '^-[^=]*=' $token; or echo '')
        for dir in (__fish_complete_directories (string replace -r -- '^-[^=]*=' '' $token))
            echo $before$dir
        end
        return
    end
    printf '%s\n' $answer
end
complete -c roost -f -a '(__roost_complete)'
