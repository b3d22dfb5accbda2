//! The set file carries the settings you set, never a secret: `sync` sets
//! them on another HOME, names each secret still to set, and `--frozen`
//! lists a setting that differs.

use super::sync;
use crate::common::*;
use crate::ext::config::{notify_installed, with_stdin};

#[test]
fn settings_travel_with_the_set_and_secrets_never_do() {
    let one = TestEnv::new();
    notify_installed(&one);
    one.ok(["ext", "config", "notify", "level", "all"]);
    one.ok(["ext", "config", "notify", "notify_command", "echo a,b=c d"]);
    let out = with_stdin(&one, &["ext", "config", "notify", "token"], b"sekrit-42\n");
    assert!(out.status.success(), "{}", describe(&out));
    let text = one.ok(["ext", "export"]);
    assert!(
        text.contains(" level=all,notify_command=echo%20a%2Cb%3Dc%20d\n"),
        "{text}"
    );
    assert!(!text.contains("sekrit"), "{text}");
    let file = one.write("sets/roost.set", &text);

    let two = TestEnv::new();
    let said = succeeded(&sync(&two, &file, &["--yes", "--grant", "events"]));
    assert!(
        said.contains("; settings level, notify_command set\n"),
        "{said}"
    );
    assert!(
        said.contains(
            "notify: the secret token is not set: `roost ext config notify token` reads it from stdin\n"
        ),
        "{said}"
    );
    assert_eq!(two.ok(["ext", "export"]), text);
    let config = two.ok(["ext", "config", "notify"]);
    assert!(config.contains("\nlevel "), "{config}");
    assert!(config.contains(" all "), "{config}");
    succeeded(&sync(&two, &file, &["--frozen"]));

    // A setting changed here is a difference --frozen lists, and sync puts
    // it back.
    two.ok(["ext", "config", "notify", "level", "blocked"]);
    let out = sync(&two, &file, &["--frozen"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(
        stdout(&out),
        "  notify: setting level blocked here, all in the file\n"
    );
    let said = succeeded(&sync(&two, &file, &["--yes", "--grant", "events"]));
    assert!(said.contains("notify: settings level set\n"), "{said}");
    assert_eq!(two.ok(["ext", "export"]), text);

    // A set file that gives a secret a value is refused for that extension.
    let forged = two.write(
        "forged.set",
        &text.replace(" level=all,", " level=all,token=x,"),
    );
    let out = sync(&two, &forged, &["--yes", "--grant", "events"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("a set file never carries one"),
        "{}",
        describe(&out)
    );
    assert!(!two.path("config/roost/ext/notify/secrets/token").exists());
}
