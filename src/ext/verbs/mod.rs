//! `roost ext VERB`: one file per verb, each a `run` that calls only the
//! domain modules beside `verbs/` in `ext/`, never another verb; this file
//! picks the verb, after finishing what a killed verb left half done.

mod check;
mod config;
mod disable;
mod enable;
mod exec;
mod export;
mod info;
mod install;
mod list;
mod log;
mod new;
mod outdated;
mod remove;
mod repair;
mod rollback;
mod sync;
mod update;
mod verify;

use crate::cli::model::ExtVerb;
use crate::error::{Error, Exit, Kind, Result};
use crate::ext::dirs;
use crate::ext::error::At;
use crate::ext::git::INTERRUPTED;
use crate::ext::granted;
use crate::ext::store;

/// `roost ext [VERB ARGS...]`: without a verb, the list of verbs.
pub fn run(verb: Option<ExtVerb>) -> Result<Exit> {
    let Some(verb) = verb else {
        let mut root = crate::cli::built();
        let ext = root
            .find_subcommand_mut("ext")
            .expect("ext is in the model");
        print!("{}", ext.render_help());
        return Ok(Exit::Ok);
    };
    // What a verb creates (the clone, its files, the state directory) is
    // never group- or other-writable, whatever the umask; an extension run
    // through `ext exec` keeps the user's.
    if !matches!(verb, ExtVerb::Exec(_)) {
        crate::fsutil::narrow_umask();
    }
    if matches!(
        verb,
        ExtVerb::Install(_)
            | ExtVerb::Update(_)
            | ExtVerb::Rollback(_)
            | ExtVerb::Repair(_)
            | ExtVerb::Disable(_)
            | ExtVerb::Enable(_)
            | ExtVerb::Remove(_)
    ) || matches!(&verb, ExtVerb::Sync(a) if !a.frozen)
    {
        store::recover_leftovers(&dirs::paths().at("ext")?).map_err(|e| e.at("ext"))?;
        let (cmd, about) = match &verb {
            ExtVerb::Install(_) => ("ext install", None),
            // Updating or rolling back the entry itself is refused by
            // the verb (its entry cannot be read), in its own words.
            ExtVerb::Update(a) => ("ext update", a.name.as_deref()),
            ExtVerb::Rollback(a) => ("ext rollback", Some(a.name.as_str())),
            // It rewrites ext.index: an unreadable entry it still runs
            // stops it, whatever NAME is.
            ExtVerb::Repair(_) => ("ext repair", None),
            ExtVerb::Disable(_) => ("ext disable", None),
            ExtVerb::Enable(_) => ("ext enable", None),
            ExtVerb::Remove(a) => ("ext remove", Some(a.name.as_str())),
            // --frozen changes nothing, not even to finish what a killed
            // command left: it only reads.
            ExtVerb::Sync(_) => ("ext sync", None),
            _ => ("ext", None),
        };
        let p = dirs::paths().at(cmd)?;
        // A lock that cannot be read at all is each verb's own refusal.
        if let Ok(lock) = store::read_lock(&p) {
            granted::check_nothing_dropped(&p, &lock, about).at(cmd)?;
        }
    }
    let json = wants_json(&verb);
    let result = match verb {
        ExtVerb::Install(a) => install::run(a),
        ExtVerb::List(a) => list::run(a),
        ExtVerb::Info(a) => info::run(a),
        ExtVerb::Verify(a) => verify::run(a),
        ExtVerb::Outdated(a) => outdated::run(a),
        ExtVerb::Update(a) => update::run(a),
        ExtVerb::Rollback(a) => rollback::run(a),
        ExtVerb::Repair(a) => repair::run(a),
        ExtVerb::Disable(a) => disable::run(a),
        ExtVerb::Enable(a) => enable::run(a),
        ExtVerb::Remove(a) => remove::run(a),
        ExtVerb::Config(a) => config::run(a),
        ExtVerb::New(a) => new::run(a),
        ExtVerb::Check(a) => check::run(a),
        ExtVerb::Exec(a) => exec::run(a),
        ExtVerb::Export(a) => export::run(a),
        ExtVerb::Sync(a) => sync::run(a),
        ExtVerb::Log(a) => log::run(a),
    };
    if json {
        if let Err(e) = &result {
            println!("{}", failure_json(e));
        }
    }
    // Ctrl-C (at a question or during a fetch) ends a verb as an interrupt
    // ends any command: 130, after what was begun has been undone.
    if INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
        return match result {
            Ok(Exit::Ok) => Ok(Exit::Ok),
            Ok(_) => Ok(Exit::Interrupted),
            Err(e) => Err(e.code(Exit::Interrupted)),
        };
    }
    result
}

/// Whether the verb was asked for JSON on stdout.
fn wants_json(verb: &ExtVerb) -> bool {
    match verb {
        ExtVerb::List(a) => a.json,
        ExtVerb::Info(a) => a.json,
        ExtVerb::Verify(a) => a.json,
        ExtVerb::Outdated(a) => a.json,
        ExtVerb::Update(a) => a.json,
        ExtVerb::Check(a) => a.json,
        ExtVerb::Log(a) => a.json,
        ExtVerb::Config(a) => a.json,
        _ => false,
    }
}

/// A verb asked for JSON that ended in an error (before it had anything
/// else to print) prints it as JSON too, on stdout, beside the message on
/// stderr: whether it was refused (the input, the state or a check said
/// no) or failed (something broke), the message and the hint, as `update`
/// gives each extension's status.
fn failure_json(e: &Error) -> String {
    #[derive(serde::Serialize)]
    struct Failure<'a> {
        status: &'static str,
        error: &'a str,
        hint: Option<&'a str>,
    }
    let (kind, msg, hint) = match e {
        Error::Fail {
            kind, msg, hint, ..
        } => (*kind, msg.as_str(), hint.as_deref()),
        Error::Usage { msg, .. } => (Kind::Refused, msg.as_str(), None),
    };
    crate::untrusted::json(&Failure {
        status: match kind {
            Kind::Refused => "refused",
            Kind::Failed => "failed",
        },
        error: msg,
        hint,
    })
}
