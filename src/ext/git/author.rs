//! For extension authors: a directory turned into a git repository with one
//! commit (in-process, with gix: roost runs no git program), and the
//! scaffold `roost ext new` writes.

use super::cause::{GitError, Result};
use gix::bstr::{BStr, BString, ByteSlice};
use gix::objs::tree::{Entry, EntryKind};
use gix::ObjectId;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

fn err(what: &str, e: impl std::fmt::Display) -> GitError {
    GitError::new(format!("{what}: {e}"))
}

/// The name and email a commit is made as when nobody else is named.
const PLACEHOLDER_NAME: &str = "roost";
const PLACEHOLDER_EMAIL: &str = "roost@localhost";

/// Who to make the commit as.
#[derive(Clone, Copy)]
enum Who {
    /// `roost <roost@localhost>`, whatever the environment says.
    Placeholder,
    /// The author and committer git would name for a commit in the new
    /// repository; the placeholder for whatever part nothing names.
    Author,
}

/// Makes `dir` a git repository (branch main) whose one commit holds every
/// file in it, with modes as on disk, and an index matching it, so that
/// `git status` is clean. The commit is made as `roost <roost@localhost>`
/// (the demo's example extension, which is nobody's work). Returns the
/// commit id.
pub fn commit_dir(dir: &Path, message: &str) -> Result<ObjectId> {
    commit(dir, message, Who::Placeholder).map(|c| c.id)
}

/// [`commit_dir`], the commit made as the author and committer git would
/// name in the new repository (see [`identities`]), with
/// `roost <roost@localhost>` standing in for a name or email nothing sets.
pub fn commit_dir_as_author(dir: &Path, message: &str) -> Result<Committed> {
    commit(dir, message, Who::Author)
}

/// A commit made, and who it was made as.
pub struct Committed {
    pub id: ObjectId,
    /// The author, `Name <email>`, as the commit records it (printable).
    pub author: String,
    /// Whether the placeholder stood in for the author's name or email:
    /// nothing git reads named one.
    pub stood_in: bool,
}

fn commit(dir: &Path, message: &str, who: Who) -> Result<Committed> {
    let repo = gix::ThreadSafeRepository::init_opts(
        dir,
        gix::create::Kind::WithWorktree,
        gix::create::Options::default(),
        gix::open::Options::isolated(),
    )
    .map_err(|e| err("cannot create the repository", e))?
    .to_thread_local();
    let tree = write_tree(&repo, dir, true)?
        .unwrap_or_else(|| ObjectId::empty_tree(gix::hash::Kind::Sha1));
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let time = format!("{seconds} +0000");
    let (author, committer) = match who {
        Who::Placeholder => (Person::placeholder(), Person::placeholder()),
        Who::Author => identities(repo.path()),
    };
    let commit = repo
        .commit_as(
            committer.signature(&time),
            author.signature(&time),
            "HEAD",
            message,
            tree,
            Vec::<ObjectId>::new(),
        )
        .map_err(|e| err("cannot commit", e))?
        .detach();
    let mut index = repo
        .index_from_tree(&tree)
        .map_err(|e| err("cannot build the index", e))?;
    index
        .write(gix::index::write::Options::default())
        .map_err(|e| err("cannot write the index", e))?;
    Ok(Committed {
        id: commit,
        author: crate::untrusted::printable(
            format!("{} <{}>", author.name, author.email).as_bytes(),
        ),
        stood_in: author.name == PLACEHOLDER_NAME || author.email == PLACEHOLDER_EMAIL,
    })
}

/// A name and an email, as a commit records them.
#[derive(Debug, PartialEq)]
struct Person {
    name: BString,
    email: BString,
}

impl Person {
    fn placeholder() -> Person {
        Person {
            name: PLACEHOLDER_NAME.into(),
            email: PLACEHOLDER_EMAIL.into(),
        }
    }

    /// `name` and `email` as git would write them (see [`without_crud`]),
    /// the placeholder's for either that is left empty.
    fn from_parts(name: &BStr, email: &BStr) -> Person {
        let or = |value: BString, fallback: &str| {
            if value.is_empty() {
                fallback.into()
            } else {
                value
            }
        };
        Person {
            name: or(without_crud(name), PLACEHOLDER_NAME),
            email: or(without_crud(email), PLACEHOLDER_EMAIL),
        }
    }

    fn signature<'a>(&'a self, time: &'a str) -> gix::actor::SignatureRef<'a> {
        gix::actor::SignatureRef {
            name: self.name.as_bstr(),
            email: self.email.as_bstr(),
            time,
        }
    }
}

/// `value` as git puts it in a commit: without the leading and trailing
/// whitespace and punctuation git calls crud, and without any `<`, `>` or
/// newline (which a commit header cannot hold).
fn without_crud(value: &BStr) -> BString {
    let crud = |b: &u8| *b <= b' ' || b",:;<>\"\\'".contains(b);
    let start = value.iter().position(|b| !crud(b)).unwrap_or(value.len());
    let end = value
        .iter()
        .rposition(|b| !crud(b))
        .map_or(start, |i| i + 1);
    value[start..end]
        .iter()
        .copied()
        .filter(|b| !b"<>\n".contains(b))
        .collect::<Vec<u8>>()
        .into()
}

/// The author and committer git would name for a commit in the repository
/// at `git_dir`, each name and email resolved on its own: the `GIT_AUTHOR_*`
/// or `GIT_COMMITTER_*` variable, then `author.*` or `committer.*`, then
/// `user.*` (and `EMAIL` for an email), from the configuration git reads
/// there: the system's (unless `GIT_CONFIG_NOSYSTEM`), the global one
/// (`GIT_CONFIG_GLOBAL`, else `$XDG_CONFIG_HOME/git/config` and
/// `~/.gitconfig`), with their includes, the repository's own (new, and
/// ours), and `GIT_CONFIG_COUNT`. The placeholder stands in for a name or
/// email that is unset or empty, and for everything when that
/// configuration cannot be read.
///
/// This reads configuration and nothing else: the repository is opened a
/// second time for the purpose, only `author()` and `committer()` are asked
/// of it, and git's own installation configuration, which gix could find
/// only by running git, is left out.
fn identities(git_dir: &Path) -> (Person, Person) {
    use gix::open::permissions::{Attributes, Config, Environment};
    use gix::sec::Permission::{Allow, Deny};
    let permissions = gix::open::Permissions {
        config: Config {
            git_binary: false,
            system: true,
            git: true,
            user: true,
            env: true,
            includes: true,
        },
        env: Environment {
            xdg_config_home: Allow,
            home: Allow,
            git_prefix: Allow,
            identity: Allow,
            http_transport: Deny,
            objects: Deny,
            other: Deny,
            ssh_prefix: Deny,
        },
        attributes: Attributes::isolated(),
    };
    let fallback = |key: &str, value: &str| format!("gitoxide.{key}Fallback={value}");
    let options = gix::open::Options::isolated()
        .permissions(permissions)
        .config_overrides([
            fallback("author.name", PLACEHOLDER_NAME),
            fallback("author.email", PLACEHOLDER_EMAIL),
            fallback("committer.name", PLACEHOLDER_NAME),
            fallback("committer.email", PLACEHOLDER_EMAIL),
        ]);
    let Ok(repo) = gix::open_opts(git_dir, options) else {
        return (Person::placeholder(), Person::placeholder());
    };
    let person = |who: Option<gix::Result<gix::actor::SignatureRef<'_>>>| match who {
        Some(Ok(who)) => Person::from_parts(who.name, who.email),
        _ => Person::placeholder(),
    };
    (person(repo.author()), person(repo.committer()))
}

fn write_tree(repo: &gix::Repository, dir: &Path, top: bool) -> Result<Option<ObjectId>> {
    let mut entries = Vec::new();
    let listing =
        std::fs::read_dir(dir).map_err(|e| err(&format!("cannot read {}", dir.display()), e))?;
    for entry in listing {
        let entry = entry.map_err(|e| err(&format!("cannot read {}", dir.display()), e))?;
        let name = entry.file_name();
        if top && name == ".git" {
            continue;
        }
        let path = entry.path();
        let meta = std::fs::symlink_metadata(&path)
            .map_err(|e| err(&format!("cannot stat {}", path.display()), e))?;
        let (mode, oid) = if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&path).map_err(|e| err("cannot read a symlink", e))?;
            let id = repo
                .write_blob(target.as_os_str().as_bytes())
                .map_err(|e| err("cannot write", e))?;
            (EntryKind::Link, id.detach())
        } else if meta.is_dir() {
            match write_tree(repo, &path, false)? {
                Some(id) => (EntryKind::Tree, id),
                None => continue,
            }
        } else {
            let bytes = std::fs::read(&path)
                .map_err(|e| err(&format!("cannot read {}", path.display()), e))?;
            let id = repo.write_blob(bytes).map_err(|e| err("cannot write", e))?;
            let kind = if meta.permissions().mode() & 0o100 != 0 {
                EntryKind::BlobExecutable
            } else {
                EntryKind::Blob
            };
            (kind, id.detach())
        };
        entries.push(Entry {
            mode: mode.into(),
            filename: name.as_bytes().into(),
            oid,
        });
    }
    if entries.is_empty() {
        return Ok(None);
    }
    entries.sort();
    let id = repo
        .write_object(&gix::objs::Tree { entries })
        .map_err(|e| err("cannot write a tree", e))?;
    Ok(Some(id.detach()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_or_email_loses_git_crud_at_its_ends_and_angle_brackets_and_newlines_inside() {
        // Each as `git var GIT_AUTHOR_IDENT` shows it.
        let clean = |s: &str| without_crud(s.into());
        assert_eq!(clean("Ada Lovelace"), "Ada Lovelace");
        assert_eq!(clean("  'Ada, Jr.';\n"), "Ada, Jr.");
        assert_eq!(clean("<ada@example.org>"), "ada@example.org");
        assert_eq!(clean("Ada <x>\nLovelace"), "Ada xLovelace");
        assert_eq!(clean("Ada. "), "Ada.");
        assert_eq!(clean(" ,;: "), "");
    }

    #[test]
    fn the_placeholder_stands_in_for_an_empty_name_or_email_only() {
        let person = Person::from_parts("Ada".into(), " ".into());
        assert_eq!(
            person,
            Person {
                name: "Ada".into(),
                email: "roost@localhost".into()
            }
        );
        assert_eq!(
            Person::from_parts("".into(), "<>".into()),
            Person::placeholder()
        );
    }
}
