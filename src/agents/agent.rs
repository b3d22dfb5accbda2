//! The agent CLIs roost knows by name: what each is called, which versions
//! roost was checked against, how it starts and resumes by session id. One
//! type that the command line parses and every place matches on, so the
//! compiler finds every place a new agent needs. Pure data: it stands in
//! the base of the house, below the command line.

/// One agent CLI roost knows. Its command-line name is its program's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Agent {
    Claude,
    Codex,
    Gemini,
    Opencode,
    Aider,
    Copilot,
    Pi,
}

impl Agent {
    pub const ALL: [Agent; 7] = [
        Agent::Claude,
        Agent::Codex,
        Agent::Gemini,
        Agent::Opencode,
        Agent::Aider,
        Agent::Copilot,
        Agent::Pi,
    ];

    /// The name roost's commands take (`roost hooks install NAME`), which
    /// is also the program's name on PATH.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Opencode => "opencode",
            Agent::Aider => "aider",
            Agent::Copilot => "copilot",
            Agent::Pi => "pi",
        }
    }

    /// What people call it.
    pub fn title(self) -> &'static str {
        match self {
            Agent::Claude => "Claude Code",
            Agent::Codex => "Codex CLI",
            Agent::Gemini => "Gemini CLI",
            Agent::Opencode => "opencode",
            Agent::Aider => "aider",
            Agent::Copilot => "GitHub Copilot CLI",
            Agent::Pi => "pi",
        }
    }

    pub fn from_name(name: &str) -> Option<Agent> {
        Agent::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The agent a program is, by the basename of its path.
    pub fn from_program(program: &str) -> Option<Agent> {
        let base = program.rsplit('/').next().unwrap_or(program);
        Agent::from_name(base)
    }

    /// The versions roost's wiring was checked against.
    pub fn known_versions(self) -> &'static [&'static str] {
        match self {
            Agent::Claude => &["2.1.332"],
            Agent::Codex => &["0.171.0"],
            Agent::Gemini => &["0.61.0"],
            Agent::Opencode => &["1.18.33"],
            Agent::Aider => &["0.86.2"],
            Agent::Copilot => &["1.0.102"],
            Agent::Pi => &["0.73.1"],
        }
    }

    /// The arguments that resume session `id` (after the program), with
    /// `given`, the arguments the agent was spawned with, where its resume
    /// syntax takes them: codex's `resume` is a subcommand that takes them
    /// after the id; the others take them before their resume option.
    pub fn resume_args(self, id: &str, given: &[String]) -> Vec<String> {
        let words: &[&str] = match self {
            Agent::Claude => &["--resume"],
            Agent::Codex => &["--no-daemon", "resume"],
            Agent::Gemini => &["--resume"],
            Agent::Opencode => &["--session"],
            // aider has no session ids: its chat history file in the
            // working directory is what it restores.
            Agent::Aider => &["--restore-chat-history"],
            // copilot's --resume takes its value optionally, so only the
            // joined form says for sure that the id is its value.
            Agent::Copilot => &[],
            // pi's --session takes an id (or a prefix of one: a whole id
            // is exact), and refuses one it cannot find.
            Agent::Pi => &["--session"],
        };
        let words = words.iter().map(|w| w.to_string());
        let given = given.iter().cloned();
        match self {
            Agent::Codex => words.chain([id.to_string()]).chain(given).collect(),
            Agent::Aider => given.chain(words).collect(),
            Agent::Copilot => given.chain([format!("--resume={id}")]).collect(),
            _ => given.chain(words).chain([id.to_string()]).collect(),
        }
    }

    /// The arguments of a spawn as the user gave them: CMD's words after
    /// the program, less those roost adds itself (`spawn_args`), which
    /// resume adds again.
    pub fn given_args(self, after_program: &[std::ffi::OsString]) -> Vec<String> {
        after_program
            .iter()
            .map(|w| w.to_string_lossy().into_owned())
            .filter(|w| !self.spawn_args().contains(&w.as_str()))
            .collect()
    }

    /// What ends the agent the way a person ends it, typed at its prompt
    /// and submitted (`roost close`): each agent's own command, checked
    /// against the versions above. Each saves its session as it exits.
    pub fn exit_command(self) -> &'static str {
        match self {
            Agent::Claude | Agent::Opencode | Agent::Aider | Agent::Copilot => "/exit",
            Agent::Codex | Agent::Gemini | Agent::Pi => "/quit",
        }
    }

    /// Arguments roost puts right after the program when it spawns this
    /// agent: codex's shared background server runs every pane's turns
    /// (and hooks) with the first pane's environment, so each codex pane
    /// gets its own.
    pub fn spawn_args(self) -> &'static [&'static str] {
        match self {
            Agent::Codex => &["--no-daemon"],
            _ => &[],
        }
    }

    /// The list of names, for messages.
    pub fn names() -> String {
        Agent::ALL.map(Agent::name).join(", ")
    }
}

/// What `roost hook` and `roost hooks show` take: an agent roost knows, or
/// `generic` (any CLI that can run a command at a turn's moments).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookAgent {
    Known(Agent),
    Generic,
}

impl HookAgent {
    const ALL: [HookAgent; 8] = [
        HookAgent::Known(Agent::Claude),
        HookAgent::Known(Agent::Codex),
        HookAgent::Known(Agent::Gemini),
        HookAgent::Known(Agent::Opencode),
        HookAgent::Known(Agent::Aider),
        HookAgent::Known(Agent::Copilot),
        HookAgent::Known(Agent::Pi),
        HookAgent::Generic,
    ];

    pub fn name(self) -> &'static str {
        match self {
            HookAgent::Known(a) => a.name(),
            HookAgent::Generic => "generic",
        }
    }

    pub fn known(self) -> Option<Agent> {
        match self {
            HookAgent::Known(a) => Some(a),
            HookAgent::Generic => None,
        }
    }
}

impl clap::ValueEnum for HookAgent {
    fn value_variants<'a>() -> &'a [Self] {
        &HookAgent::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()))
    }
}

/// What `roost hook` takes: an agent roost knows or `generic`, else a word
/// an enabled extension's preset may teach. Parsing never reads a file:
/// the handler looks the word up, so only a word that is no built-in
/// agent costs a read of ext.agents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookWord {
    Builtin(HookAgent),
    Other(String),
}

/// The parser of `HookWord`: offers the built-in names (for completion and
/// the refusal's list) and takes any other word for the handler to judge.
#[derive(Debug, Clone, Copy)]
pub struct HookWordParser;

impl clap::builder::TypedValueParser for HookWordParser {
    type Value = HookWord;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<HookWord, clap::Error> {
        let text = value.to_string_lossy();
        Ok(match HookAgent::ALL.iter().find(|a| a.name() == text) {
            Some(a) => HookWord::Builtin(*a),
            None => HookWord::Other(text.into_owned()),
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            HookAgent::ALL
                .iter()
                .map(|a| clap::builder::PossibleValue::new(a.name())),
        ))
    }
}

impl HookAgent {
    /// Every name, for messages: the built-in agents, then `generic`.
    pub fn names() -> String {
        HookAgent::ALL.map(HookAgent::name).join(", ")
    }
}

/// A session id as agents report it: short, and plain characters only (it
/// goes into a command line at resume).
pub fn valid_session_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b))
        && !id.starts_with('-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_known_by_their_basename() {
        assert_eq!(Agent::from_program("claude"), Some(Agent::Claude));
        assert_eq!(
            Agent::from_program("/usr/local/bin/codex"),
            Some(Agent::Codex)
        );
        assert_eq!(Agent::from_program("claude-code"), None);
        assert_eq!(Agent::from_program("bash"), None);
    }

    #[test]
    fn resume_is_by_exact_id_never_continue() {
        for a in Agent::ALL {
            let args = a.resume_args("abc-123", &[]);
            assert!(!args.iter().any(|w| w.contains("continue")), "{a:?}");
        }
        assert_eq!(Agent::Claude.resume_args("x", &[]), ["--resume", "x"]);
        assert_eq!(
            Agent::Codex.resume_args("x", &[]),
            ["--no-daemon", "resume", "x"]
        );
        assert_eq!(Agent::Opencode.resume_args("x", &[]), ["--session", "x"]);
        assert_eq!(Agent::Copilot.resume_args("x", &[]), ["--resume=x"]);
        assert_eq!(Agent::Pi.resume_args("x", &[]), ["--session", "x"]);
    }

    #[test]
    fn the_spawn_arguments_come_back_where_each_resume_syntax_takes_them() {
        let given = ["-m".to_string(), "m1".to_string()];
        assert_eq!(
            Agent::Claude.resume_args("x", &given),
            ["-m", "m1", "--resume", "x"]
        );
        assert_eq!(
            Agent::Gemini.resume_args("x", &given),
            ["-m", "m1", "--resume", "x"]
        );
        assert_eq!(
            Agent::Opencode.resume_args("x", &given),
            ["-m", "m1", "--session", "x"]
        );
        assert_eq!(
            Agent::Codex.resume_args("x", &given),
            ["--no-daemon", "resume", "x", "-m", "m1"]
        );
        assert_eq!(
            Agent::Aider.resume_args("", &given),
            ["-m", "m1", "--restore-chat-history"]
        );
        assert_eq!(
            Agent::Copilot.resume_args("x", &given),
            ["-m", "m1", "--resume=x"]
        );
        assert_eq!(
            Agent::Pi.resume_args("x", &given),
            ["-m", "m1", "--session", "x"]
        );
        let spawned: Vec<std::ffi::OsString> = ["--no-daemon", "-m", "m1"].map(Into::into).to_vec();
        assert_eq!(Agent::Codex.given_args(&spawned), ["-m", "m1"]);
        assert_eq!(
            Agent::Claude.given_args(&spawned),
            ["--no-daemon", "-m", "m1"]
        );
    }

    #[test]
    fn hook_takes_every_known_agent_and_generic() {
        let names: Vec<&str> = HookAgent::ALL.iter().map(|a| a.name()).collect();
        let mut want: Vec<&str> = Agent::ALL.iter().map(|a| a.name()).collect();
        want.push("generic");
        assert_eq!(names, want);
        for a in Agent::ALL {
            let v = clap::ValueEnum::to_possible_value(&a).unwrap();
            assert_eq!(v.get_name(), a.name());
        }
    }

    #[test]
    fn session_ids_are_plain() {
        assert!(valid_session_id("0199a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b"));
        assert!(valid_session_id("ses_abc123"));
        for bad in ["", "-x", "a b", "a;b", "$(x)", &"a".repeat(129)] {
            assert!(!valid_session_id(bad), "{bad}");
        }
    }
}
