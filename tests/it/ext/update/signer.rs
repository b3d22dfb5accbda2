//! Who signed the pinned commit: SSH-signed commits made with git and
//! ssh-keygen (OpenPGP ones with gpg), read by roost from the commit object
//! with nothing run; the line before every re-pin's question for each
//! transition, `--yes` refusing a new signer or a downgrade unless
//! `--accept-signer` names it, and a forged signature reported as not
//! verifying.

use super::line_above;
use crate::common::ext::{edit_lock, install, lock};
use crate::common::*;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// An SSH key made by ssh-keygen under the test's directory; its path and
/// its SHA256 fingerprint as ssh-keygen prints it.
pub(crate) fn ssh_key(env: &TestEnv, name: &str) -> (PathBuf, String) {
    ssh_key_of(env, name, &["-t", "ed25519"])
}

/// An SSH key of the kind `kind` names (ssh-keygen's `-t` and `-b`).
fn ssh_key_of(env: &TestEnv, name: &str, kind: &[&str]) -> (PathBuf, String) {
    let key = env.path(name);
    let made = Command::new("ssh-keygen")
        .args(["-q", "-N", "", "-C", name])
        .args(kind)
        .arg("-f")
        .arg(&key)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", describe(&made));
    let listed = Command::new("ssh-keygen")
        .args(["-l", "-E", "sha256", "-f"])
        .arg(key.with_extension("pub"))
        .output()
        .unwrap();
    let text = String::from_utf8(listed.stdout).unwrap();
    let fingerprint = text.split_whitespace().nth(1).unwrap().to_string();
    assert!(fingerprint.starts_with("SHA256:"), "{text}");
    (key, fingerprint)
}

/// Commits everything signed with the SSH `key` (git runs ssh-keygen), and
/// pushes it; the commit id.
pub(crate) fn ssh_commit(f: &Fixture, key: &Path, message: &str) -> String {
    f.git(&["add", "-A"]);
    let signing = format!("user.signingkey={}", key.display());
    f.git(&[
        "-c",
        "gpg.format=ssh",
        "-c",
        &signing,
        "commit",
        "-q",
        "-S",
        "--allow-empty",
        "-m",
        message,
    ]);
    f.push();
    f.head()
}

/// A new version of note's command, so that every commit changes a file.
pub(crate) fn touch(f: &Fixture, says: &str) {
    f.exec("bin/roost-note", &format!("#!/bin/sh\necho {says}\n"));
}

fn signer(env: &TestEnv) -> serde_json::Value {
    lock(env)["note"]["signer"].clone()
}

#[test]
fn install_records_an_ssh_signer_that_verifies_against_the_key_it_carries() {
    let env = TestEnv::new();
    let (key, fpr) = ssh_key(&env, "alice");
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    touch(&f, "one");
    ssh_commit(&f, &key, "signed");
    let out = env.run(["ext", "install", "owner/roost-note", "--yes"]);
    exits(&out, Exit::Ok);
    let text = stdout(&out);
    assert!(
        text.contains(&format!(
            "  signer    SSH key {fpr}: the signature verifies against the key it carries\n"
        )),
        "{text}"
    );
    assert!(
        text.contains("It says\nnothing about who wrote the lines in it or what the code does."),
        "{text}"
    );
    assert_eq!(signer(&env), format!("ssh:{fpr}"));
    assert_eq!(
        lock(&env)["note"]["signers"],
        serde_json::json!([format!("ssh:{fpr}")])
    );
    let json: serde_json::Value = serde_json::from_str(&env.ok(["ext", "list", "--json"])).unwrap();
    assert_eq!(json[0]["signer"], format!("ssh:{fpr}"));
    assert_eq!(
        json[0]["signers"],
        serde_json::json!([format!("ssh:{fpr}")])
    );
    let info = env.ok(["ext", "info", "note"]);
    assert!(
        info.contains(&format!(
            "signer     ssh:{fpr} (the key that made the pinned commit object)\n"
        )),
        "{info}"
    );
}

#[test]
fn rsa_and_ecdsa_signatures_verify_too() {
    let env = TestEnv::new();
    let kinds: [&[&str]; 4] = [
        &["-t", "rsa", "-b", "2048"],
        &["-t", "ecdsa", "-b", "256"],
        &["-t", "ecdsa", "-b", "384"],
        &["-t", "ed25519"],
    ];
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    for (i, kind) in kinds.iter().enumerate() {
        let (key, fpr) = ssh_key_of(&env, &format!("key{i}"), kind);
        touch(&f, &format!("v{i}"));
        ssh_commit(&f, &key, &format!("v{i}"));
        let accept = format!("ssh:{fpr}");
        let out = match i {
            0 => env.run(["ext", "install", "owner/roost-note", "--yes"]),
            _ => env.run(["ext", "update", "note", "--yes", "--accept-signer", &accept]),
        };
        exits(&out, Exit::Ok);
        assert!(
            stdout(&out).contains(&format!(
                "SSH key {fpr}: the signature verifies against the key it carries"
            )),
            "{kind:?}: {}",
            describe(&out)
        );
        assert_eq!(signer(&env), accept, "{kind:?}");
    }
}

#[test]
fn every_signer_transition_prints_its_line_and_yes_refuses_what_was_not_accepted() {
    let env = TestEnv::new();
    let (alice, a) = ssh_key(&env, "alice");
    let (bob, b) = ssh_key(&env, "bob");
    let (carol, c) = ssh_key(&env, "carol");
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    touch(&f, "one");
    ssh_commit(&f, &alice, "one");
    install(&env, "owner/roost-note");
    let update = |extra: &[&str]| {
        let mut args = vec!["ext", "update", "note", "--yes"];
        args.extend_from_slice(extra);
        env.run(args)
    };
    let above = |out: &std::process::Output| line_above(&stdout(out), "Update? [y/N]").to_string();

    // The same key.
    touch(&f, "two");
    ssh_commit(&f, &alice, "two");
    let out = update(&[]);
    exits(&out, Exit::Ok);
    assert_eq!(
        above(&out),
        format!(
            "signer: the same as the commit you agreed to before: SSH key {a}: \
             the signature verifies against the key it carries"
        )
    );

    // Another key: refused under --yes, nothing changed.
    touch(&f, "three");
    let three = ssh_commit(&f, &bob, "three");
    let before = std::fs::read(lock_file(&env)).unwrap();
    let out = update(&[]);
    assert_eq!(
        exits(&out, Exit::Failed),
        format!(
            "roost ext update: note: not updated: its signer is now ssh:{b}, and --yes does not accept a new signer\n\
             read the change and the signer line above; to accept it from a script, add --accept-signer ssh:{b}\n"
        )
    );
    assert!(
        stdout(&out).ends_with(&format!(
            "SIGNER CHANGED (ssh:{a}, now ssh:{b}): SSH key {b}: the signature verifies against the key it carries\n"
        )),
        "{}",
        describe(&out)
    );
    assert_eq!(std::fs::read(lock_file(&env)).unwrap(), before);
    // Another signer named is not this one.
    exits(
        &update(&["--accept-signer", &format!("ssh:{c}")]),
        Exit::Failed,
    );
    assert_eq!(std::fs::read(lock_file(&env)).unwrap(), before);
    let out = update(&["--accept-signer", &format!("ssh:{b}")]);
    exits(&out, Exit::Ok);
    assert!(
        above(&out).starts_with("SIGNER CHANGED"),
        "{}",
        describe(&out)
    );
    assert_eq!(lock(&env)["note"]["commit"], three);
    assert_eq!(signer(&env), format!("ssh:{b}"));
    let mut both = vec![format!("ssh:{a}"), format!("ssh:{b}")];
    both.sort();
    assert_eq!(lock(&env)["note"]["signers"], serde_json::json!(both));

    // Back to the first key: accepted before, so asked no more.
    touch(&f, "four");
    ssh_commit(&f, &alice, "four");
    let out = update(&[]);
    exits(&out, Exit::Ok);
    assert_eq!(
        above(&out),
        format!(
            "signer: SSH key {a}: the signature verifies against the key it carries; \
             another than the last commit's (ssh:{b}), but one you accepted before"
        )
    );

    // Unsigned: a downgrade, refused unless `unsigned` is accepted.
    touch(&f, "five");
    let five = f.commit("five");
    let before = std::fs::read(lock_file(&env)).unwrap();
    let out = update(&[]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext update: note: not updated: its signer is now unsigned, and --yes does not accept a new signer\n\
         read the change and the signer line above; to accept it from a script, add --accept-signer unsigned\n"
    );
    assert!(
        stdout(&out).ends_with(&format!("NOW UNSIGNED (was ssh:{a})\n")),
        "{}",
        describe(&out)
    );
    assert_eq!(std::fs::read(lock_file(&env)).unwrap(), before);
    exits(&update(&["--accept-signer", "unsigned"]), Exit::Ok);
    assert_eq!(lock(&env)["note"]["commit"], five);
    assert_eq!(signer(&env), "unsigned");

    // Signed again by a key never seen: first seen, not a downgrade.
    touch(&f, "six");
    ssh_commit(&f, &carol, "six");
    let out = update(&[]);
    exits(&out, Exit::Ok);
    assert_eq!(
        above(&out),
        format!(
            "signer: now signed (first seen): SSH key {c}: the signature verifies against the key it carries"
        )
    );

    // An entry from before signers were recorded: first seen.
    edit_lock(&env, |v| {
        let note = v["note"].as_object_mut().unwrap();
        note.remove("signer");
        note.remove("signers");
    });
    touch(&f, "seven");
    ssh_commit(&f, &bob, "seven");
    let out = update(&[]);
    exits(&out, Exit::Ok);
    assert_eq!(
        above(&out),
        format!(
            "signer: SSH key {b}: the signature verifies against the key it carries \
             (first seen: ext.lock recorded none before)"
        )
    );
    assert_eq!(signer(&env), format!("ssh:{b}"));
}

#[test]
fn rollback_compares_the_signer_too() {
    let env = TestEnv::new();
    let (alice, a) = ssh_key(&env, "alice");
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    touch(&f, "one");
    f.commit("unsigned one");
    install(&env, "owner/roost-note");
    touch(&f, "two");
    ssh_commit(&f, &alice, "two");
    let out = env.run(["ext", "update", "note", "--yes"]);
    exits(&out, Exit::Ok);
    assert_eq!(
        line_above(&stdout(&out), "Update? [y/N]"),
        format!(
            "signer: now signed (first seen): SSH key {a}: the signature verifies against the key it carries"
        )
    );
    // Back to the unsigned commit: agreed to before, so no downgrade.
    let out = env.run(["ext", "rollback", "note", "--yes"]);
    exits(&out, Exit::Ok);
    assert_eq!(
        line_above(&stdout(&out), "Roll back? [y/N]"),
        format!(
            "signer: unsigned (the commit carries no signature); another than the last \
             commit's (ssh:{a}), but one you accepted before"
        )
    );
    assert_eq!(signer(&env), "unsigned");
}

/// Replaces the tip of main with `object` (a commit object written as is)
/// and pushes it; its id.
fn push_object(f: &Fixture, object: &[u8]) -> String {
    let path = f.work.join("../forged-object");
    std::fs::write(&path, object).unwrap();
    let id = f
        .git(&[
            "hash-object",
            "-t",
            "commit",
            "-w",
            "--literally",
            &path.to_string_lossy(),
        ])
        .trim()
        .to_string();
    f.git(&["update-ref", "refs/heads/main", &id]);
    f.push();
    id
}

#[test]
fn a_forged_ssh_signature_is_reported_as_not_verifying() {
    let env = TestEnv::new();
    let (alice, a) = ssh_key(&env, "alice");
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    touch(&f, "one");
    ssh_commit(&f, &alice, "signed by alice");
    install(&env, "owner/roost-note");
    assert_eq!(signer(&env), format!("ssh:{a}"));
    // The signed commit with one byte of its message changed.
    touch(&f, "two");
    let signed = ssh_commit(&f, &alice, "signed by alice, two");
    let object = f.git(&["cat-file", "commit", &signed]);
    let forged = object.replace("signed by alice, two", "signed by alice, tw0");
    assert_ne!(forged, object);
    let id = push_object(&f, forged.as_bytes());
    let before = std::fs::read(lock_file(&env)).unwrap();
    let out = env.run(["ext", "update", "note", "--yes"]);
    let err = exits(&out, Exit::Failed);
    let not = format!("ssh-not-verifying:{a}");
    assert!(err.contains(&format!("its signer is now {not}")), "{err}");
    let text = stdout(&out);
    assert!(
        text.contains(&format!(
            "  signer    an SSH signature that does NOT verify (the signature does not verify \
             against the key it carries); the key it carries is {a}\n"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("SIGNER CHANGED (ssh:{a}, now {not})")),
        "{text}"
    );
    assert_eq!(std::fs::read(lock_file(&env)).unwrap(), before);

    // A signature made over another object, on a commit of its own.
    let other = ssh_commit(&f, &alice, "another object");
    let other_object = f.git(&["cat-file", "commit", &other]);
    let sig_start = other_object.find("gpgsig ").unwrap();
    let sig_end = other_object.find("\n\n").unwrap();
    let grafted = format!(
        "{}{}\n\nnot what was signed\n",
        &other_object[..sig_start],
        &other_object[sig_start..sig_end]
    );
    let grafted_id = push_object(&f, grafted.as_bytes());
    assert_ne!(grafted_id, id);
    let out = env.run(["ext", "install", "owner/roost-note", "--yes"]);
    // Installed already: install refuses; a second HOME shows the block.
    exits(&out, Exit::Failed);
    let second = TestEnv::new();
    let remote = env.path("remote");
    let out = second
        .roost(["ext", "install", "owner/roost-note", "--yes"])
        .env(
            "ROOST_EXT_GIT_BASE",
            format!("file://{}/", remote.display()),
        )
        .output()
        .unwrap();
    exits(&out, Exit::Ok);
    assert!(
        stdout(&out).contains("  signer    an SSH signature that does NOT verify"),
        "{}",
        describe(&out)
    );
    assert_eq!(lock(&second)["note"]["signer"], not);
    assert_eq!(lock(&second)["note"]["commit"], grafted_id);
}

/// A directory of programs named as the signature tools and the user's git
/// configuration naming them too: each would write `marker` if run.
fn tripwires(env: &TestEnv) -> (PathBuf, PathBuf, PathBuf) {
    let marker = env.path("ran");
    let bin = env.path("tripwire-bin");
    std::fs::create_dir_all(&bin).unwrap();
    for name in ["gpg", "gpg2", "gpgsm", "ssh-keygen", "ssh-agent"] {
        let p = bin.join(name);
        std::fs::write(
            &p,
            format!("#!/bin/sh\necho {name} >> '{}'\nexit 1\n", marker.display()),
        )
        .unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let s = bin.join("gpg").display().to_string();
    let config = env.write(
        "tripwire.gitconfig",
        &format!(
            "[gpg]\n\tprogram = {s}\n[gpg \"ssh\"]\n\tprogram = {s}\n\tallowedSignersFile = {s}\n\
             [gpg \"x509\"]\n\tprogram = {s}\n[commit]\n\tgpgSign = true\n"
        ),
    );
    (marker, bin, config)
}

#[test]
fn reading_a_signature_runs_no_program() {
    let env = TestEnv::new();
    let (alice, a) = ssh_key(&env, "alice");
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    touch(&f, "one");
    ssh_commit(&f, &alice, "signed");
    let (marker, bin, config) = tripwires(&env);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let run = |args: &[&str]| {
        env.roost(args)
            .env("PATH", &path)
            .env("GIT_CONFIG_GLOBAL", &config)
            .output()
            .unwrap()
    };
    exits(
        &run(&["ext", "install", "owner/roost-note", "--yes"]),
        Exit::Ok,
    );
    assert_eq!(signer(&env), format!("ssh:{a}"));
    touch(&f, "two");
    f.commit("unsigned");
    exits(&run(&["ext", "update", "note", "--yes"]), Exit::Failed);
    exits(
        &run(&[
            "ext",
            "update",
            "note",
            "--yes",
            "--accept-signer",
            "unsigned",
        ]),
        Exit::Ok,
    );
    exits(&run(&["ext", "rollback", "note", "--yes"]), Exit::Ok);
    std::fs::remove_dir_all(env.path("data/roost/ext/note")).unwrap();
    exits(&run(&["ext", "repair", "note"]), Exit::Ok);
    assert!(
        !marker.exists(),
        "ran: {}",
        std::fs::read_to_string(&marker).unwrap()
    );
}

/// gpg with a throwaway home under the test's HOME: (fingerprint, home).
fn gpg_key(env: &TestEnv) -> Option<String> {
    if !on_path("gpg") {
        skip_without("gpg is not installed");
        return None;
    }
    let home = env.path("home/.gnupg");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o700)).unwrap();
    let gpg = |args: &[&str]| {
        let out = Command::new("gpg")
            .args(["--batch", "--homedir"])
            .arg(&home)
            .args(args)
            .env("GNUPGHOME", &home)
            .output()
            .unwrap();
        assert!(out.status.success(), "gpg {args:?}: {}", describe(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    gpg(&[
        "--passphrase",
        "",
        "--pinentry-mode",
        "loopback",
        "--quick-gen-key",
        "Tester <tester@example.invalid>",
        "ed25519",
        "sign",
        "never",
    ]);
    let listed = gpg(&["--with-colons", "--list-secret-keys"]);
    let fpr = listed
        .lines()
        .find_map(|l| l.strip_prefix("fpr:"))
        .and_then(|l| l.split(':').find(|f| f.len() == 40))
        .unwrap()
        .to_string();
    Some(fpr)
}

/// Stops the gpg-agent the test's gpg started.
fn stop_agent(env: &TestEnv) {
    let _ = Command::new("gpgconf")
        .args(["--kill", "gpg-agent"])
        .env("GNUPGHOME", env.path("home/.gnupg"))
        .output();
}

#[test]
fn an_openpgp_signer_is_recorded_by_its_issuer_and_labelled_not_checked() {
    let env = TestEnv::new();
    let Some(fpr) = gpg_key(&env) else { return };
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    touch(&f, "one");
    f.git(&["add", "-A"]);
    let signing = format!("user.signingkey={fpr}");
    f.git(&["-c", &signing, "commit", "-q", "-S", "-m", "pgp"]);
    f.push();
    stop_agent(&env);
    let (marker, bin, config) = tripwires(&env);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = env
        .roost(["ext", "install", "owner/roost-note", "--yes"])
        .env("PATH", &path)
        .env("GIT_CONFIG_GLOBAL", &config)
        .output()
        .unwrap();
    exits(&out, Exit::Ok);
    assert!(
        stdout(&out).contains(&format!(
            "  signer    OpenPGP key {fpr}, not checked: the key is not in the commit\n"
        )),
        "{}",
        describe(&out)
    );
    assert_eq!(signer(&env), format!("openpgp:{fpr}"));
    assert!(!marker.exists());
}

/// A self-signed certificate made by openssl with `subject` and, when
/// given, `alt` as its subject alternative name: (certificate, key).
fn certificate(env: &TestEnv, name: &str, subject: &str, alt: Option<&str>) -> (PathBuf, PathBuf) {
    let (cert, key) = (
        env.path(&format!("{name}.crt")),
        env.path(&format!("{name}.key")),
    );
    let mut req = Command::new("openssl");
    req.args([
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
    ])
    .args(["-nodes", "-days", "1", "-subj", subject, "-keyout"])
    .arg(&key)
    .arg("-out")
    .arg(&cert);
    if let Some(alt) = alt {
        req.args(["-addext", &format!("subjectAltName={alt}")]);
    }
    let out = req.output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    (cert, key)
}

/// The tip of main signed as gitsign and smimesign sign (CMS, armoured as
/// a SIGNED MESSAGE) with `cert`, pushed; the new commit id.
fn x509_commit(env: &TestEnv, f: &Fixture, cert: &Path, key: &Path) -> String {
    let payload = f.git(&["cat-file", "commit", "HEAD"]);
    let unsigned = env.write("payload", &payload);
    let out = Command::new("openssl")
        .args(["cms", "-sign", "-binary", "-outform", "PEM", "-in"])
        .arg(&unsigned)
        .arg("-signer")
        .arg(cert)
        .arg("-inkey")
        .arg(key)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let pem = String::from_utf8(out.stdout).unwrap();
    let armoured = pem
        .replace("-----BEGIN CMS-----", "-----BEGIN SIGNED MESSAGE-----")
        .replace("-----END CMS-----", "-----END SIGNED MESSAGE-----");
    let header = format!("gpgsig {}", armoured.trim_end().replace('\n', "\n "));
    let (head, message) = payload.split_once("\n\n").unwrap();
    push_object(f, format!("{head}\n{header}\n\n{message}").as_bytes())
}

#[test]
fn an_x509_signer_is_recorded_by_the_identity_it_claims() {
    let env = TestEnv::new();
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    touch(&f, "one");
    f.commit("one");
    let (cert, key) = certificate(
        &env,
        "carol",
        "/CN=Carol Example",
        Some("email:carol@example.invalid"),
    );
    x509_commit(&env, &f, &cert, &key);
    let out = env.run(["ext", "install", "owner/roost-note", "--yes"]);
    exits(&out, Exit::Ok);
    assert!(
        stdout(&out).contains(
            "  signer    an X.509 certificate that claims to be carol@example.invalid \
             (as claimed, not checked)\n"
        ),
        "{}",
        describe(&out)
    );
    assert_eq!(signer(&env), "x509:carol@example.invalid");
    // Without an alternative name, the subject's common name, as one word.
    touch(&f, "two");
    f.commit("two");
    let (cert, key) = certificate(&env, "dave", "/CN=Dave Example", None);
    x509_commit(&env, &f, &cert, &key);
    let out = env.run(["ext", "update", "note", "--yes"]);
    exits(&out, Exit::Failed);
    assert!(
        stdout(&out).contains("SIGNER CHANGED (x509:carol@example.invalid, now x509:Dave?Example)"),
        "{}",
        describe(&out)
    );
}
