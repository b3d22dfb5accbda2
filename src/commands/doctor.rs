//! `doctor`: checks the pieces roost depends on and says what to fix.

use super::ctx::Ctx;
use crate::cli::model::JsonArgs;
use crate::error::{Exit, Result};
use crate::tmux;
use crate::untrusted::printable;
use serde::Serialize;

/// The checks so far. As text each is printed as it is made; with --json
/// they are kept and printed together at the end.
struct Report {
    json: bool,
    /// The name the next checks are reported under.
    name: &'static str,
    checks: Vec<Check>,
    paint: crate::colour::Paint,
}

/// What a check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Verdict {
    Ok,
    Note,
    Problem,
}

/// One check, as `doctor --json` gives it.
#[derive(Serialize)]
struct Check {
    name: &'static str,
    verdict: Verdict,
    message: String,
    /// What to do: set for a problem only.
    fix: Option<String>,
}

impl Report {
    /// The checks that follow are about `name`.
    fn at(&mut self, name: &'static str) {
        self.name = name;
    }
    fn ok(&mut self, what: &str) {
        self.add(Verdict::Ok, what, None);
    }
    fn note(&mut self, what: &str) {
        self.add(Verdict::Note, what, None);
    }
    fn bad(&mut self, what: &str, fix: &str) {
        self.add(Verdict::Problem, what, Some(fix));
    }
    /// Every line goes through the printer: the checks quote server
    /// options, paths and what programs printed, none of it roost's.
    fn add(&mut self, verdict: Verdict, what: &str, fix: Option<&str>) {
        use crate::colour::Colour;
        if !self.json {
            let tag = match verdict {
                Verdict::Ok => "ok  ".to_string(),
                Verdict::Note => self.paint.paint(Colour::Yellow, "note"),
                Verdict::Problem => self.paint.paint(Colour::Red, "FAIL"),
            };
            println!("{tag}  {}", printable(what.as_bytes()));
            if let Some(fix) = fix {
                println!("      {}", printable(fix.as_bytes()));
            }
        }
        self.checks.push(Check {
            name: self.name,
            verdict,
            message: what.to_string(),
            fix: fix.map(String::from),
        });
    }
    fn problems(&self) -> usize {
        self.checks
            .iter()
            .filter(|c| c.verdict == Verdict::Problem)
            .count()
    }
}

/// What `doctor --json` prints.
#[derive(Serialize)]
struct Doctor<'a> {
    /// The format's version: raised when a field changes meaning or goes.
    version: u32,
    problems: usize,
    checks: &'a [Check],
}

/// Oldest tmux with everything roost uses (pane options, `new-window -e`).
const MIN_TMUX: (u32, u32) = (3, 0);

pub fn run(ctx: &Ctx, a: JsonArgs) -> Result<Exit> {
    let mut r = Report {
        json: a.json,
        name: "tmux",
        checks: Vec::new(),
        paint: crate::colour::Paint::stdout(),
    };
    let tmux_missing = tmux_line(&mut r);
    r.at("locale");
    locale(&mut r);
    r.at("socket");
    socket(&mut r, ctx, tmux_missing);
    r.at("paths");
    match ctx.paths() {
        Err(e) => r.bad(&format!("paths: {e}"), "set HOME to an absolute path"),
        Ok(paths) => {
            files(&mut r, paths);
            r.at("git");
            git(&mut r);
            r.at("switch");
            switch(&mut r, &ctx.tmux, &paths.user_conf());
            r.at("extensions");
            extensions(&mut r, paths);
            hidden_presets(&mut r, paths);
            r.at("agents");
            agents(&mut r, &paths.state);
        }
    }
    Ok(finish(&r))
}

/// The tmux on PATH and its version; whether there is none.
fn tmux_line(r: &mut Report) -> bool {
    let missing = tmux::installed().is_err();
    match tmux::version() {
        Ok(text) => match tmux::Version::parse(&text) {
            tmux::Version::Release(major, minor) if (major, minor) >= MIN_TMUX => r.ok(&text),
            tmux::Version::Release(..) => r.bad(
                &format!("{text}: roost needs tmux 3.0 or later"),
                "install a newer tmux",
            ),
            tmux::Version::Development => r.ok(&format!("{text} (a development version)")),
            tmux::Version::Unknown => r.note(&format!(
                "{text:?}: not a version roost knows how to read; it needs tmux 3.0 or later"
            )),
        },
        Err(e) => r.bad(&e.0, "then run roost doctor again"),
    }
    missing
}

/// roost's socket: whether a server answers there, or why not.
fn socket(r: &mut Report, ctx: &Ctx, tmux_missing: bool) {
    let socket = &ctx.tmux.socket;
    let value = socket.value().to_string_lossy().into_owned();
    let file = socket.file();
    let where_ = if file.as_os_str() == socket.value() {
        format!("socket {} {value}", socket.flag())
    } else {
        format!("socket {} {value} ({})", socket.flag(), file.display())
    };
    let running = ctx.tmux.is_running();
    if tmux_missing {
        // One cause, one problem: the tmux line above says it.
        match tmux::listening::listener(&file) {
            tmux::listening::Listener::Ours(pid) => r.note(&format!(
                "{where_}: a server listens (process {pid}), but there is no tmux on PATH to talk to it"
            )),
            _ => r.note(&format!("{where_}: not checked without tmux")),
        }
    } else if let Err(e) = &running {
        r.bad(
            &format!("{where_}: {}", e.0),
            "run roost doctor outside the sandbox to check the rest",
        );
    } else if let Ok(true) = running {
        r.ok(&format!("{where_}: server running"));
        r.at("terminal");
        terminal(r, &ctx.tmux);
    } else if let tmux::listening::Listener::Ours(pid) = tmux::listening::listener(&socket.file()) {
        // Someone listens, yet tmux did not answer: no tmux to ask with, or
        // one that does not speak this server's protocol.
        r.bad(
            &format!("{where_}: a server listens (process {pid}), but the tmux on PATH could not talk to it"),
            "check the tmux line above; a server started by another tmux version answers only that version",
        );
    } else if ctx.tmux.socket_exists() {
        r.note(&format!(
            "{where_}: stale socket, no server answers (the next roost command starts one)"
        ));
    } else if let Some((why, hint)) = crate::tmux::socket_dir::problem(socket) {
        r.bad(&format!("{where_}: {why}"), &hint);
    } else {
        r.ok(&format!(
            "{where_}: no server running (roost starts one when needed)"
        ));
    }
}

/// The directories roost writes, roost.conf and the scripts' link.
fn files(r: &mut Report, paths: &crate::paths::Paths) {
    for ((dir, var), label) in paths.written().into_iter().zip(["data", "state"]) {
        r.at(label);
        match crate::fsutil::check_writable(dir) {
            Ok(()) => r.ok(&format!("{label} {} (writable)", dir.display())),
            Err(why) => r.bad(
                &format!("{label} {}: {why}", dir.display()),
                &format!("make it writable, or set {var} to a directory you can write"),
            ),
        }
    }
    r.at("roost.conf");
    let conf = paths.user_conf();
    if !conf.exists() {
        r.ok(&format!("roost.conf {} (absent; optional)", conf.display()));
    } else {
        conf_check(r, &conf);
    }
    r.at("scripts");
    let link = paths.scripts_dir().join("roost");
    match (std::fs::read_link(&link), std::env::current_exe()) {
        (Ok(target), Ok(exe)) if target == exe => r.ok(&format!("scripts {}", link.display())),
        (Ok(target), _) => r.note(&format!(
            "scripts {} runs {} (the next server start points it here)",
            link.display(),
            target.display()
        )),
        (Err(_), _) => r.note(&format!(
            "scripts {} not written yet (written at server start)",
            link.display()
        )),
    }
}

/// The report's end: the JSON, or the count of problems; the exit.
fn finish(r: &Report) -> Exit {
    let problems = r.problems();
    if r.json {
        println!(
            "{}",
            crate::untrusted::json(&Doctor {
                version: 1,
                problems,
                checks: &r.checks,
            })
        );
    } else if problems > 0 {
        println!("{} found", crate::words::count(problems, "problem"));
    }
    if problems == 0 {
        Exit::Ok
    } else {
        Exit::Failed
    }
}

/// The terminal type the running server gives its panes: one without
/// bracketed paste is only a note (roost then refuses prompts of several
/// lines rather than have them split).
fn terminal(r: &mut Report, tmux: &crate::tmux::Tmux) {
    let Ok(value) = tmux.default_terminal() else {
        return;
    };
    match tmux::terminal::problem(&value) {
        None => r.ok(&format!("terminal {} for the panes", value.trim())),
        Some(why) => r.note(&format!("terminal: {why}")),
    }
}

/// The agent CLIs on PATH: their versions (asked of all at once, each
/// bounded) and their hooks' wiring in user scope.
fn agents(r: &mut Report, state: &std::path::Path) {
    use crate::agents::wiring::{self, Scope, Setting, Target, Wiring};
    use crate::agents::{programs, Agent};
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = programs::on_path(&path);
    if found.is_empty() {
        let looked = if path.is_empty() {
            "PATH is empty".to_string()
        } else {
            format!("looked in {}", path.to_string_lossy())
        };
        return r.note(&format!(
            "agents: none of {} is on PATH ({looked})",
            Agent::names()
        ));
    }
    let (Ok(roost), Ok(home)) = (std::env::current_exe(), wiring::home()) else {
        return r.bad(
            "agents: HOME is not an absolute path, so the agents' files cannot be found",
            "set HOME to your home directory",
        );
    };
    let setting = Setting {
        roost: &roost,
        socket_dir: std::path::Path::new(""),
        state,
        home: &home,
    };
    for ((agent, program), version) in found.iter().zip(programs::versions(&found)) {
        let name = agent.name();
        let at = program.display();
        match version {
            Ok(v) if agent.known_versions().contains(&v.as_str()) => {
                r.ok(&format!("{name} {v} at {at} (a version roost knows)"))
            }
            Ok(v) => r.note(&format!(
                "{name} {v} at {at}: roost's wiring was checked against {}",
                agent.known_versions().join(", ")
            )),
            Err(why) => r.note(&format!("{name} at {at}: {why}")),
        }
        let target = Target {
            agent: *agent,
            scope: &Scope::User,
            path: wiring::file(*agent, &Scope::User, &home),
        };
        let file = target.path.display();
        match wiring::status(&target, &setting) {
            Wiring::Wired => r.ok(&format!("{name} hooks in {file} run this roost")),
            Wiring::NotWired => r.note(&format!(
                "{name} hooks not wired ({file}): roost sees its state only on screen"
            )),
            Wiring::NotTrusted(why) => r.note(&format!("{name} hooks in {file}: {why}")),
            Wiring::Stale(why) | Wiring::Unreadable(why) => r.bad(
                &format!("{name} hooks in {file}: {why}"),
                &format!("run roost hooks install {name}"),
            ),
        }
    }
}

/// The locale roost runs in. roost reads tmux the same in every locale; a
/// terminal outside UTF-8 is only worth a note, for what attaching shows.
fn locale(r: &mut Report) {
    let var = ["LC_ALL", "LC_CTYPE", "LANG"].into_iter().find_map(|v| {
        std::env::var(v)
            .ok()
            .filter(|s| !s.is_empty())
            .map(|s| (v, s))
    });
    match var {
        Some((v, value)) if !crate::locale::installed(&value) => r.note(&format!(
            "locale {v}={value}: not installed here, so programs fall back to C; roost works the same, but an attached tmux shows non-ASCII text as '_' (locale -a lists the installed ones)"
        )),
        Some((v, value)) if is_utf8(&value) => r.ok(&format!("locale {v}={value}")),
        Some((v, value)) => r.note(&format!(
            "locale {v}={value}: not UTF-8; roost works the same, but an attached tmux shows non-ASCII text as '_' (set LANG=C.UTF-8 for your terminal)"
        )),
        None => r.note(
            "locale not set (LC_ALL, LC_CTYPE and LANG are empty): roost works the same, but an attached tmux shows non-ASCII text as '_' (set LANG=C.UTF-8 for your terminal)",
        ),
    }
}

fn is_utf8(locale: &str) -> bool {
    crate::locale::names_utf8(locale)
}

/// What installing needs of git: a file:// or ssh source (ROOST_EXT_GIT_BASE)
/// runs git's upload-pack or ssh; https runs neither. Looked up on PATH,
/// never run.
fn git(r: &mut Report) {
    let url = match crate::ext::origin::url_for("owner/repo") {
        Ok(url) => url,
        Err(e) => {
            return r.bad(
                &format!("git source: {e}"),
                "fix or unset ROOST_EXT_GIT_BASE",
            )
        }
    };
    let Some(source) = crate::ext::git::url::requirements(&url) else {
        return r.bad(
            &format!("git source {url}: not a URL roost can fetch from"),
            "fix or unset ROOST_EXT_GIT_BASE",
        );
    };
    let path = std::env::var_os("PATH").unwrap_or_default();
    let git = crate::fsutil::find_program("git", &path);
    let scheme = source.scheme.as_str();
    match source.program {
        Some(p) if !p.found => r.bad(
            &format!("git: ROOST_EXT_GIT_BASE names a {scheme}:// source, which needs {what}, and {what} is not on PATH", what = p.what),
            &format!("install {what}, or unset ROOST_EXT_GIT_BASE to install over https (which needs neither git nor ssh)", what = p.what),
        ),
        Some(p) => r.ok(&format!(
            "git: installs come from {scheme}:// sources, and {} is on PATH",
            p.names.join(" or ")
        )),
        None => match git {
            Some(p) => r.ok(&format!(
                "git {} (installs over {scheme} need none)",
                p.display()
            )),
            None => r.ok(&format!(
                "git not installed (installs over {scheme} need none)"
            )),
        },
    }
}

/// Whether extension commands run, and what decides it: the running
/// server's switch (kept beside its socket or asked of tmux), roost.conf
/// when no server runs, and ROOST_NO_EXT in this shell. Nothing is said
/// where nothing turns them off and no server runs.
fn switch(r: &mut Report, tmux: &crate::tmux::Tmux, conf: &std::path::Path) {
    use crate::switch::{read, Reading, OPTION};
    match read(tmux, conf) {
        Reading::Kept(false) => r.ok(
            "switch: extension commands are on; the server keeps the switch beside its socket, so they ask tmux nothing",
        ),
        Reading::Asked(false) => r.note(
            "switch: extension commands are on; the switch is no longer kept beside the socket (a hook changed after the server started, or the server is not one roost started), so each one asks tmux: restarting roost's server keeps it again",
        ),
        Reading::Kept(true) | Reading::Asked(true) => r.note(&format!(
            "switch: extension commands are off: {OPTION} is off on the running server (set -g {OPTION} on turns them on)"
        )),
        Reading::Conf(true) => r.note(&format!(
            "switch: extension commands are off: roost.conf sets {OPTION} off"
        )),
        Reading::Conf(false) => {}
    }
    if crate::dispatch::seam_off() {
        r.note("switch: extension commands are off in this shell: ROOST_NO_EXT is set");
    }
}

/// Extension health: ext.lock and ext.index agree, every clone is there and
/// still hashes to its pinned tree (what `roost ext verify` checks).
fn extensions(r: &mut Report, paths: &crate::paths::Paths) {
    use crate::ext;
    let lock = match ext::store::read_lock(paths) {
        Ok(lock) => lock,
        Err(e) => {
            return r.bad(
                &format!("extensions: {e}"),
                "roost ext list shows what roost can read of it",
            )
        }
    };
    let names: Vec<String> = lock.valid_names().map(String::from).collect();
    for bad in lock.invalid_names() {
        r.bad(
            &format!(
                "extension {}: {}",
                crate::untrusted::printable(bad.as_bytes()),
                ext::integrity::INVALID
            ),
            "remove that entry from ext.lock by hand (roost ext remove refuses names outside the grammar)",
        );
    }
    let problems = ext::disagreements::disagreements(&lock, paths);
    if names.is_empty() && problems.is_empty() {
        return r.ok("extensions: none installed");
    }
    if problems.is_empty() {
        let off = names
            .iter()
            .filter(|n| lock.entry(n).is_some_and(|e| e.disabled))
            .count();
        let disabled = if off > 0 {
            format!(" ({off} disabled)")
        } else {
            String::new()
        };
        r.ok(&format!(
            "extensions: {} installed{disabled}; ext.lock and ext.index agree",
            names.len()
        ));
    }
    for p in problems {
        r.bad(
            &format!("extensions: ext.lock and ext.index disagree: {p}"),
            "ext.index is obeyed; roost ext repair writes it again from ext.lock",
        );
    }
    for name in &names {
        let Some(slot) = lock.get(name) else {
            continue;
        };
        for (what, fix) in ext::settings::secrets::complaints(&paths.ext_secrets(name), name) {
            r.bad(&what, &fix);
        }
        if let Ok(entry) = slot.typed() {
            events_health(r, paths, name, entry);
        }
        // Its files are checked all the same: enable runs what is there.
        if slot.typed().is_ok_and(|e| e.disabled) {
            r.note(&format!(
                "extension {name}: disabled, its commands do not run (roost ext enable {name} turns it on)"
            ));
        }
        let pin = match slot.typed().map(|e| &e.source) {
            Ok(ext::lock::Source::Pinned(pin)) => pin,
            Ok(ext::lock::Source::Linked { dir }) => {
                let shown = crate::untrusted::printable(dir.as_bytes());
                if std::path::Path::new(dir).is_dir() {
                    r.note(&format!(
                        "extension {name}: linked to {shown} (not pinned, not hashed)"
                    ));
                } else {
                    r.bad(
                        &format!("extension {name}: linked to {shown}, which is missing"),
                        &format!("roost ext remove {name}, or put the checkout back"),
                    );
                }
                continue;
            }
            Err(u) => {
                r.bad(
                    &format!("extension {name}: {}", ext::integrity::unreadable(&u.why)),
                    &format!("roost ext remove {name}, then install it again"),
                );
                continue;
            }
        };
        let clone = paths.ext_clone(name);
        if !clone.is_dir() {
            r.bad(
                &format!("extension {name}: its clone {} is missing", clone.display()),
                &format!("roost ext repair {name} fetches the pinned commit again"),
            );
            continue;
        }
        let report = ext::integrity::check(&clone, &pin.tree);
        if report.ok {
            r.ok(&format!(
                "extension {name}: ok (matches the tree pinned at install)"
            ));
        } else {
            r.bad(
                &format!("extension {name}: {}", report.verdict),
                &format!(
                    "roost ext verify {name} names the files; roost ext repair {name} puts them back"
                ),
            );
        }
        source_tools(r, name, pin);
    }
}

/// How many failed runs in a row, short of a pause, doctor reports.
const FAILING_RUNS: usize = 3;

/// Whether its event handler runs: paused after failing again and again,
/// failing every recent run, or declared in its files but never agreed to.
fn events_health(
    r: &mut Report,
    paths: &crate::paths::Paths,
    name: &str,
    entry: &crate::ext::lock::Entry,
) {
    use crate::events::{log, pause};
    if pause::is_paused(paths, name) {
        r.bad(
            &format!("extension {name}: its event handler is paused after failing again and again"),
            &format!("roost ext log {name} --failed shows why; roost ext enable {name} resumes it"),
        );
    } else {
        let recent = log::last(paths, name, FAILING_RUNS, false);
        if recent.len() == FAILING_RUNS && recent.iter().all(|run| run.failed) {
            r.bad(
                &format!("extension {name}: its event handler failed its last {FAILING_RUNS} runs"),
                &format!("roost ext log {name} --failed shows why"),
            );
        }
    }
    if let Some(on) = crate::ext::events_review::unreviewed(paths, name, entry) {
        let hint = crate::ext::events_review::hint(name);
        r.note(&format!("extension {name}: declares events ({on}); {hint}"));
    }
}

/// Presets named like an agent this roost knows (install refuses them, so
/// a later roost made the name built in): the built-in wins at spawn and
/// resume, and the preset is named here so its user knows it is hidden.
fn hidden_presets(r: &mut Report, paths: &crate::paths::Paths) {
    for t in crate::ext::taught::read(paths) {
        if let Some(what) = crate::ext::presets::shadows_builtin(&t.preset.name) {
            r.note(&format!(
                "agent {}: the preset of the extension {} is hidden: {} is {what}, which wins",
                t.preset.name, t.extension, t.preset.name
            ));
        }
    }
}

/// Whether the program the entry's recorded source needs (git's
/// upload-pack for file://, ssh for ssh://) is on PATH: the extension runs
/// without it, but update, outdated and rollback cannot reach its source.
fn source_tools(r: &mut Report, name: &str, pin: &crate::ext::lock::Pin) {
    let Some(url) = &pin.url else { return };
    let Some(program) = crate::ext::git::url::requirements(url).and_then(|s| s.program) else {
        return;
    };
    if !program.found {
        let what = program.what;
        r.note(&format!(
            "extension {name}: its source {} needs {what}, which is not on PATH: install {what} before update, outdated or rollback",
            crate::untrusted::printable(url.as_bytes())
        ));
    }
}

/// What roost's server will say of roost.conf at its next start: roost's
/// base configuration and roost.conf are loaded into a throwaway server, so
/// anything in roost.conf that reaches outside tmux (run-shell) runs then too.
fn conf_check(r: &mut Report, conf: &std::path::Path) {
    if let Err(why) = crate::fsutil::read_regular(conf, 1 << 20) {
        return r.bad(
            &format!("roost.conf {}: {why}", conf.display()),
            "make it a regular file (roost's server skips it as it is)",
        );
    }
    match tmux::check_conf(crate::home::BASE_CONF, conf) {
        Ok(errors) if errors.is_empty() => r.ok(&format!(
            "roost.conf {} loads without errors",
            conf.display()
        )),
        Ok(errors) => r.bad(
            &format!("roost.conf {}: {}", conf.display(), errors.join("; ")),
            "fix each line named; roost's server warns of the same at its start",
        ),
        Err(e) => r.note(&format!(
            "roost.conf {}: not checked: {}",
            conf.display(),
            e.0
        )),
    }
}
