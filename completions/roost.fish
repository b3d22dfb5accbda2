# fish completion for roost, as `roost completions fish` prints it.
# Every TAB asks the roost on PATH: `roost __complete fish CWORD WORDS...`
# prints one `candidate<TAB>description` per line, or a line starting with
# TAB that hands the word to fish: "dirs" (a directory), "files" (a file),
# "commands" (a command name), "line K" (a word of the command line that
# began K words before it). Words go to roost as the shell would
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
    if test (count $answer) -gt 0; and test "$answer[1]" = \tfiles
        # `--out=FI`: the file after `=`, offered with what precedes it.
        set -l token (commandline -ct)
        set -l before (string match -r -- '^-[^=]*=' $token; or echo '')
        for file in (__fish_complete_path (string replace -r -- '^-[^=]*=' '' $token))
            echo $before$file
        end
        return
    end
    if test (count $answer) -gt 0; and test "$answer[1]" = \tcommands
        __fish_complete_command
        return
    end
    if test (count $answer) -gt 0; and string match -q -- \tline\ '*' $answer[1]
        # The command line that began K words back, completed as its own.
        set -l k (string replace -- \tline\  '' $answer[1])
        set -l line $words[(math (count $words) - $k)..-2]
        complete -C (string join ' ' -- (string escape -- $line) $current)
        return
    end
    printf '%s\n' $answer
end
complete -c roost -f -a '(__roost_complete)'
