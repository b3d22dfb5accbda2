//! `roost ext rollback NAME [--yes] [--grant AUTHORITY]`: back to the pin
//! recorded before the last update, fetched again by its commit id from the
//! recorded source and held to the recorded tree, with the diff, checks
//! and consent update shows (`repin`). Never runs git inside the installed
//! clone.

use crate::cli::model::RollbackArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::consent::{Offer, Purpose};
use crate::ext::diff;
use crate::ext::dirs;
use crate::ext::display;
use crate::ext::fetch;
use crate::ext::git::{self, entries};
use crate::ext::installed;
use crate::ext::lock::{Pin, Previous, Source};
use crate::ext::origin;
use crate::ext::output::Out;
use crate::ext::repin;
use crate::ext::store;
use crate::ext::swap;
use crate::untrusted::printable;

const CMD: &str = "ext rollback";

pub fn run(a: RollbackArgs) -> Result<Exit> {
    let grants = repin::grants(CMD, a.grant)?;
    let name = a.name;
    let fail = |e: String| Error::fail(CMD, e);
    let paths = dirs::writable_paths(CMD)?;
    let lock = store::read_lock(&paths).map_err(|e| e.at(CMD))?;
    let entry = installed::readable(CMD, &lock, &name)?;
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
    origin::recorded_ids(current).map_err(|e| {
        fail(format!("{name}: {e}")).hint(format!("roost ext remove {name}, then install it again"))
    })?;
    let (old, url) = checked(&name, previous)?;
    if old.commit == current.commit {
        return Err(fail(format!(
            "{name}: the pin ext.lock records before the last update is {}, the commit it is pinned to now; nothing to roll back",
            current.commit
        )));
    }
    let commit = entries::object_id(&old.commit)
        .map_err(|e| fail(format!("{name}: ext.lock's earlier commit: {e}")))?;
    // By its id alone: it is the commit the user agreed to before, whether
    // or not a branch or tag still leads to it.
    let stays = format!(
        "nothing was changed, and {name} stays at {}",
        display::short(&current.commit)
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
    if let Some((command, owner)) = repin::claimed_elsewhere(&lock, &name, manifest) {
        return Err(fail(format!(
            "{name}: the earlier commit claims {command}, which the installed extension {owner} now holds; nothing was changed"
        ))
        .hint(format!(
            "remove {owner} first (roost ext remove {owner}) to roll {name} back"
        )));
    }
    let from = current.commit.clone();
    let whole = format!("`roost ext rollback {name} --diff` prints the whole diff");
    let cut = match a.diff {
        true => diff::Shown::Whole,
        false => diff::Shown::Capped { whole: &whole },
    };
    repin::show_change(
        Out::stdout(),
        &paths,
        &name,
        &from,
        &current.tree,
        &fetched,
        cut,
    )
    .map_err(|h| h.error_about(CMD, &name))?;
    if a.diff {
        println!(
            "{name}: nothing was changed (--diff); roost ext rollback {name} asks before it does"
        );
        return Ok(Exit::Ok);
    }
    repin::show_offer(
        Out::stdout(),
        &Offer {
            source: display::source(&url),
            reference: &old.git_ref,
            commit: Some(&fetched.commit),
            manifest,
            purpose: Purpose::Rollback,
        },
    );
    repin::agree(
        Out::stdout(),
        &entry.needs,
        manifest,
        a.yes,
        &grants,
        Purpose::Rollback,
    )
    .map_err(|h| h.error_about(CMD, &name))?;
    let extra = previous.extra.clone();
    let pin = Pin {
        url: Some(url),
        ..old
    };
    let disabled = swap::swap(&paths, &name, &from, &fetched, |current| {
        // So a second rollback returns to where this one started.
        let mut entry = repin::repinned(&fetched.manifest, pin, current);
        entry.extra = extra;
        entry
    })
    .map_err(|e| fail(e.to_string()))?;
    println!("rolled back {name}: {from} -> {}", fetched.commit);
    if disabled {
        println!("{}", swap::still_disabled(&name));
    }
    Ok(Exit::Ok)
}

/// The recorded earlier pin, its values held to the same rules as the ones
/// typed on a command line (ext.lock is untrusted).
/// Returns it with the URL to fetch it from.
fn checked(name: &str, previous: &Previous) -> Result<(Pin, String)> {
    let pin = &previous.pin;
    let earlier = |e: origin::OriginError| {
        Error::fail(CMD, format!("{name}: the pin before the last update: {e}"))
    };
    origin::recorded_ids(pin).map_err(earlier)?;
    let url = origin::recorded_url(pin).map_err(earlier)?;
    origin::recorded_ref(pin).map_err(earlier)?;
    Ok((pin.clone(), url))
}
