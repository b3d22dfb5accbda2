//! The signer of a commit about to be pinned, against what ext.lock
//! recorded: the one line said before the question at every re-pin, and
//! whether `--yes` alone may agree to it. The extension's accepted set
//! holds every signer agreed to, so a project that alternates two keys is
//! asked once for each. An unchanged signer says nothing about an update
//! but that the same key made its commit object.

use super::Signer;

/// How the signer moved since the commit agreed to before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// ext.lock recorded no signer (an entry from before signers were).
    FirstRecorded,
    /// The same as the commit agreed to before.
    Same,
    /// Another than the last, but one agreed to before: `was`.
    KnownBefore { was: String },
    /// Another than the last, never agreed to.
    Changed { was: String },
    /// No signature now, where there was one, never agreed to unsigned.
    NowUnsigned { was: String },
    /// Signed now, where the last commit was not.
    NowSigned,
}

/// `now` against the signer `recorded` with the last pin and the
/// `accepted` set.
pub fn compare(recorded: Option<&str>, accepted: &[String], now: &Signer) -> Change {
    let id = now.id();
    let Some(was) = recorded else {
        return Change::FirstRecorded;
    };
    if was == id {
        return Change::Same;
    }
    let was = was.to_string();
    if accepted.contains(&id) {
        return Change::KnownBefore { was };
    }
    match (was == "unsigned", now.is_signed()) {
        (true, true) => Change::NowSigned,
        (false, false) => Change::NowUnsigned { was },
        _ => Change::Changed { was },
    }
}

impl Change {
    /// The line said before the question.
    pub fn line(&self, now: &Signer) -> String {
        let what = now.describe();
        match self {
            Change::FirstRecorded => {
                format!("signer: {what} (first seen: ext.lock recorded none before)")
            }
            Change::Same => format!(
                "signer: the same as the commit you agreed to before: {what}"
            ),
            Change::KnownBefore { was } => format!(
                "signer: {what}; another than the last commit's ({was}), but one you accepted before"
            ),
            Change::Changed { was } => format!("SIGNER CHANGED ({was}, now {}): {what}", now.id()),
            Change::NowUnsigned { was } => format!("NOW UNSIGNED (was {was})"),
            Change::NowSigned => format!("signer: now signed (first seen): {what}"),
        }
    }

    /// Whether `--yes` needs `--accept-signer` naming the new signer.
    pub fn needs_accepting(&self) -> bool {
        matches!(self, Change::Changed { .. } | Change::NowUnsigned { .. })
    }
}

/// The accepted set after agreeing to `now`, with the last signer kept.
pub fn accepted_after(recorded: Option<&str>, accepted: &[String], now: &Signer) -> Vec<String> {
    let mut set: Vec<String> = accepted.to_vec();
    for id in recorded.map(str::to_string).into_iter().chain([now.id()]) {
        if !set.contains(&id) {
            set.push(id);
        }
    }
    set.sort();
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ssh(f: &str) -> Signer {
        Signer::Ssh {
            fingerprint: f.into(),
        }
    }

    #[test]
    fn every_transition_is_named_and_only_a_change_or_a_downgrade_needs_accepting() {
        let a = ssh("SHA256:a");
        let b = ssh("SHA256:b");
        let set: Vec<String> = vec!["ssh:SHA256:a".into()];
        assert_eq!(compare(None, &[], &a), Change::FirstRecorded);
        assert_eq!(compare(Some("ssh:SHA256:a"), &set, &a), Change::Same);
        let changed = compare(Some("ssh:SHA256:a"), &set, &b);
        assert_eq!(
            changed,
            Change::Changed {
                was: "ssh:SHA256:a".into()
            }
        );
        assert!(changed.needs_accepting());
        assert!(changed
            .line(&b)
            .starts_with("SIGNER CHANGED (ssh:SHA256:a, now ssh:SHA256:b)"));
        let down = compare(Some("ssh:SHA256:a"), &set, &Signer::Unsigned);
        assert_eq!(
            down.line(&Signer::Unsigned),
            "NOW UNSIGNED (was ssh:SHA256:a)"
        );
        assert!(down.needs_accepting());
        let up = compare(Some("unsigned"), &[], &a);
        assert_eq!(up, Change::NowSigned);
        assert!(!up.needs_accepting());
        // Both keys accepted: alternating between them asks nothing more.
        let both = accepted_after(Some("ssh:SHA256:a"), &set, &b);
        assert_eq!(
            both,
            vec!["ssh:SHA256:a".to_string(), "ssh:SHA256:b".into()]
        );
        let back = compare(Some("ssh:SHA256:b"), &both, &a);
        assert_eq!(
            back,
            Change::KnownBefore {
                was: "ssh:SHA256:b".into()
            }
        );
        assert!(!back.needs_accepting());
    }
}
