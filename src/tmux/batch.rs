//! Several tmux commands sent as one client call, so that an agent's hook
//! costs one tmux process whatever it records: as arguments when they fit
//! the one message a client sends, else as the lines of a private file the
//! server sources (`source-file`). A pane's state stamped in it can start
//! the event runner inside the server, on a real change only.

use super::agent_state::known_format;
use super::agent_state::AgentState;
use super::client::{Tmux, TmuxError, TmuxResult};
use super::literal;
use super::options::STATE;
use std::io::Write;

/// The most of a command list sent as arguments: the client packs them
/// into one 16 KiB message and refuses anything longer.
const MAX_ARGS: usize = 8 * 1024;

/// A list of tmux commands, each a list of words roost built.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Batch {
    commands: Vec<Vec<String>>,
}

/// Whether `word` can stand between single quotes in a file tmux sources:
/// printable ASCII without `'` (pane text is stored that way).
fn quotable(word: &str) -> bool {
    word.bytes()
        .all(|b| (0x20..0x7f).contains(&b) && b != b'\'')
}

impl Batch {
    pub fn new() -> Batch {
        Batch::default()
    }

    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }

    fn push(&mut self, words: &[&str]) {
        self.commands
            .push(words.iter().map(|w| w.to_string()).collect());
    }

    /// Sets options of `pane`, each to its value as it is.
    pub fn set_options(&mut self, pane: &str, options: &[(&str, &str)]) {
        for (name, value) in options {
            self.push(&["set-option", "-p", "-t", pane, name, value]);
        }
    }

    /// Stores any bytes in an option of `pane` as `Tmux::set_pane_text`
    /// does (printable ASCII, read back byte for byte).
    pub fn set_text(&mut self, pane: &str, name: &str, text: &[u8]) {
        let stored = super::pane_option::encode(text);
        self.push(&["set-option", "-p", "-t", pane, name, &stored]);
    }

    /// Runs the shell command `run` (built by roost of words it trusts)
    /// in the background, inside the server, when the pane's options `a`
    /// and `b` differ at that moment. The format compares two options by
    /// name: neither value is part of a command.
    pub fn run_if_options_differ(&mut self, pane: &str, a: &str, b: &str, run: &str) {
        let test = format!("#{{!=:#{{{a}}},#{{{b}}}}}");
        let job = background(pane, run);
        self.push(&["if-shell", "-F", "-t", pane, &test, &job]);
    }

    /// Stamps `pane` with `state` and wakes its waiters (as `Tmux::stamp`).
    /// With `fire`, the pane's state before the stamp decides in the
    /// server, before the stamp: when it is not `state` already, the shell
    /// command `fire(previous)` runs in the background, where `previous` is
    /// a format that prints the state the pane had (a known word, or
    /// nothing). A re-stamp of the same state runs nothing.
    pub fn stamp(&mut self, pane: &str, state: AgentState, fire: Option<&dyn Fn(&str) -> String>) {
        if let Some(fire) = fire {
            let test = format!("#{{!=:#{{{STATE}}},{}}}", state.word());
            let job = background(pane, &fire(&known_format()));
            self.push(&["if-shell", "-F", "-t", pane, &test, &job]);
        }
        let channel = super::state::channel(pane);
        self.push(&["set-option", "-p", "-t", pane, STATE, state.word()]);
        self.push(&["wait-for", "-S", &channel]);
    }

    /// The words as one argument list, commands apart by `;`.
    fn args(&self) -> Vec<std::ffi::OsString> {
        let mut args = Vec::new();
        for (i, words) in self.commands.iter().enumerate() {
            if i > 0 {
                args.push(";".into());
            }
            args.extend(words.iter().map(literal::word));
        }
        args
    }

    /// The list as the lines of a file tmux sources, each word between
    /// single quotes; `None` when a word cannot be held so.
    fn lines(&self) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        for words in &self.commands {
            let quoted: Option<Vec<String>> = words
                .iter()
                .map(|w| quotable(w).then(|| format!("'{w}'")))
                .collect();
            out.extend_from_slice(quoted?.join(" ").as_bytes());
            out.push(b'\n');
        }
        Some(out)
    }
}

/// `run-shell -b -t PANE "RUN"`: `run` holds no quote, `$`, `\` or `~`
/// (roost built it of plain words), so tmux reads it as it is; it runs
/// with no input and its output thrown away, and never fails, so tmux
/// shows nothing in the pane.
fn background(pane: &str, run: &str) -> String {
    debug_assert!(!run.contains(['"', '\'', '$', '\\', '~']), "{run}");
    format!("run-shell -b -t {pane} \"{run} </dev/null >/dev/null 2>&1 || :\"")
}

/// `run-shell -b "RUN"` for a hook of the server (see `background`).
pub fn hook_job(run: &str) -> String {
    debug_assert!(!run.contains(['"', '\'', '$', '\\', '~']), "{run}");
    format!("run-shell -b \"{run} </dev/null >/dev/null 2>&1 || :\"")
}

/// The server-start words that run `died` (a shell command, see
/// `background`) when a pane's program ends and the pane stays
/// (`pane-died`), and `exited` when the pane goes with it (`pane-exited`);
/// and `started` once the first session is there. Each hook in a slot of
/// its own beside the waiters' wake-up.
pub fn event_hooks(died: &str, exited: &str) -> Vec<String> {
    let mut words = Vec::new();
    for (hook, run) in [("pane-died[78]", died), ("pane-exited[78]", exited)] {
        for w in ["set-hook", "-g", hook, &hook_job(run), ";"] {
            words.push(w.to_string());
        }
    }
    words.pop();
    words
}

/// The words that run `run` in the background at once.
pub fn run_now(run: &str) -> Vec<String> {
    let job = format!("{run} </dev/null >/dev/null 2>&1 || :");
    vec!["run-shell".into(), "-b".into(), job]
}

impl Tmux {
    /// Sends `batch` in one tmux call.
    pub fn run_batch(&self, batch: &Batch) -> TmuxResult<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let args = batch.args();
        let size: usize = args.iter().map(|a| a.len() + 1).sum();
        if size <= MAX_ARGS {
            return self.run(&args).map(drop);
        }
        let lines = batch.lines().ok_or_else(|| {
            TmuxError("a value too long for one tmux command holds a quote".into())
        })?;
        let temp = |e: std::io::Error| TmuxError(format!("cannot write a temporary file: {e}"));
        let mut file = tempfile::Builder::new()
            .prefix("roost-batch-")
            .tempfile()
            .map_err(temp)?;
        file.write_all(&lines)
            .and_then(|()| file.flush())
            .map_err(temp)?;
        let path = file.path().as_os_str();
        let args: [&std::ffi::OsStr; 2] = ["source-file".as_ref(), path];
        self.run(&args).map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_one_list_and_its_file_form_quotes_every_word() {
        let mut b = Batch::new();
        b.set_options("%1", &[("@roost-agent", "claude")]);
        b.set_text("%1", "@roost-reply", b"it's done; $HOME");
        b.stamp(
            "%1",
            AgentState::Done,
            Some(&|prev: &str| format!("/bin/roost __event fire agent.done --previous={prev}")),
        );
        let args: Vec<String> = b
            .args()
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(args.iter().filter(|a| *a == ";").count(), 4, "{args:?}");
        assert!(args.contains(&"#{!=:#{@agent_state},done}".to_string()));
        let job = args.iter().find(|a| a.starts_with("run-shell")).unwrap();
        assert!(job
            .starts_with("run-shell -b -t %1 \"/bin/roost __event fire agent.done --previous=#{?"));
        let lines = String::from_utf8(b.lines().unwrap()).unwrap();
        assert_eq!(lines.lines().count(), 5);
        assert!(lines.contains("'it%27s done%3B %24HOME'"), "{lines}");
        let mut odd = Batch::new();
        odd.set_options("%1", &[("@x", "a'b")]);
        assert_eq!(odd.lines(), None);
    }
}
