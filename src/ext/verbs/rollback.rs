//! `roost ext rollback NAME [--yes] [--grant AUTHORITY]`: back to the pin
//! recorded before the last update, fetched again by its commit id from the
//! recorded source and held to the recorded tree, with update's diff,
//! checks and consent. Never runs git inside the installed clone.

use super::consent::{self, Offer, Purpose};
use super::lock::{Pin, Previous, Source};
use super::{diff, fetch, git, install, store, swap, update};
use crate::cli::model::RollbackArgs;
use crate::error::{Error, Exit, Result};
use crate::untrusted::printable;

const CMD: &str = "ext rollback";

pub fn run(a: RollbackArgs) -> Result<Exit> {
    let grants = update::grants(CMD, a.grant)?;
    let name = a.name;
    let fail = |e: String| Error::fail(CMD, e);
    let paths = super::writable_paths(CMD)?;
    let lock = store::read_lock(&paths).map_err(fail)?;
    let entry = update::readable(CMD, &lock, &name)?;
    let current = match &entry.source {
        Source::Pinned(pin) => pin,
        Source::Linked { dir } => {
            return Err(fail(format!(
                "{name} is linked to {}: nothing is pinned, so there is no earlier pin to go back to",
                printable(dir.as_bytes())
            ))
            .hint("a linked extension runs what its checkout holds: change it there"));
        }
    };
    let Some(previous) = entry.previous.as_deref() else {
        return Err(fail(format!(
            "{name}: nothing to roll back to: ext.lock records no pin before its last update"
        ))
        .hint(format!(
            "only `roost ext update {name}` records the pin it replaces; `roost ext info {name}` shows the current one"
        )));
    };
    super::recorded_ids(current).map_err(|e| {
        fail(format!("{name}: {e}")).hint(format!("roost ext remove {name}, then install it again"))
    })?;
    let (old, url) = checked(&name, previous).map_err(fail)?;
    if old.commit == current.commit {
        return Err(fail(format!(
            "{name}: the pin ext.lock records before the last update is {}, the commit it is pinned to now; nothing to roll back",
            current.commit
        )));
    }
    let commit = gix::ObjectId::from_hex(old.commit.as_bytes())
        .map_err(|e| fail(format!("{name}: ext.lock's earlier commit: {e}")))?;
    // By its id alone: it is the commit the user agreed to before, whether
    // or not a branch or tag still leads to it.
    let stays = format!(
        "nothing was changed, and {name} stays at {}",
        super::short(&current.commit)
    );
    let gone = "the repository may no longer hold that commit";
    let fetched =
        fetch::fetch_commit(&paths, git::Remote::new(&url), &url, commit).map_err(|e| match e {
            // Reaching the source failed: what happened, and what to do.
            fetch::FetchError::Remote(f) => fail(format!("{name}: {}", f.what))
                .detail(f.detail)
                .hint(format!("{}; {stays}", f.hint.as_deref().unwrap_or(gone))),
            other => fail(format!("{name}: cannot go back to {}: {other}", old.commit))
                .hint(format!("{gone}; {stays}")),
        })?;
    if fetched.tree != old.tree {
        return Err(fail(format!(
            "{name}: commit {} has tree {}, but ext.lock recorded tree {} for it; refusing to install other files than the ones agreed to",
            old.commit, fetched.tree, old.tree
        ))
        .hint(format!(
            "nothing was changed; `roost ext info {name}` shows both pins"
        )));
    }
    let manifest = &fetched.manifest;
    if manifest.name != name {
        return Err(fail(format!(
            "{name}: the earlier commit's manifest names it '{}'; refusing a renamed extension",
            manifest.name
        )));
    }
    let claims = lock.claims();
    for command in &manifest.commands {
        if let Some(owner) = claims.get(command.as_str()).filter(|o| **o != name) {
            return Err(fail(format!(
                "{name}: the earlier commit claims {command}, which the installed extension {owner} now holds; nothing was changed"
            ))
            .hint(format!(
                "remove {owner} first (roost ext remove {owner}) to roll {name} back"
            )));
        }
    }
    let from = current.commit.clone();
    let whole = format!("`roost ext rollback {name} --diff` prints the whole diff");
    let shown = match a.diff {
        true => diff::Shown::Whole,
        false => diff::Shown::Capped { whole: &whole },
    };
    update::show_change(
        update::Out::stdout(),
        &paths,
        &name,
        &from,
        &current.tree,
        &fetched,
        shown,
    )
    .map_err(|e| Error::fail(CMD, format!("{name}: {e}")))?;
    if a.diff {
        println!(
            "{name}: nothing was changed (--diff); roost ext rollback {name} asks before it does"
        );
        return Ok(Exit::Ok);
    }
    print!(
        "{}",
        consent::render(
            &Offer {
                source: install::source(&url),
                reference: &old.git_ref,
                commit: Some(&fetched.commit),
                manifest,
                purpose: Purpose::Rollback,
            },
            crate::colour::Paint::stdout()
        )
    );
    update::agreed(
        CMD,
        &name,
        &entry.needs,
        manifest,
        a.yes,
        &grants,
        Purpose::Rollback,
    )?;
    let extra = previous.extra.clone();
    let pin = Pin {
        url: Some(url),
        ..old
    };
    let disabled = swap::swap(&paths, &name, &from, &fetched, |current| {
        let mut entry = install::entry_for(&fetched.manifest, Source::Pinned(pin));
        // So a second rollback returns to where this one started.
        entry.previous = current.as_previous().map(Box::new);
        entry.disabled = current.disabled;
        entry.extra = extra;
        entry
    })
    .map_err(fail)?;
    println!("rolled back {name}: {from} -> {}", fetched.commit);
    if disabled {
        println!("{}", swap::still_disabled(&name));
    }
    Ok(Exit::Ok)
}

/// The recorded earlier pin, its values held to the same rules as the ones
/// typed on a command line (ext.lock is untrusted).
/// Returns it with the URL to fetch it from.
fn checked(name: &str, previous: &Previous) -> std::result::Result<(Pin, String), String> {
    let pin = &previous.pin;
    let earlier = |e: String| format!("{name}: the pin before the last update: {e}");
    super::recorded_ids(pin).map_err(earlier)?;
    let url = super::recorded_url(pin).map_err(earlier)?;
    super::recorded_ref(pin).map_err(earlier)?;
    Ok((pin.clone(), url))
}
