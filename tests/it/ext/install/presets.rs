//! `roost ext install` of an extension that teaches roost agents
//! (`agents` in its manifest): the consent line that shows what will run,
//! what ext.lock records, and every collision and incomplete form refused
//! with nothing written.

use crate::common::*;
use crate::ext::install::{ext_with, install, read_lock, url_of};

use serde_json::{json, Value};

/// A complete preset for an agent called `name`.
fn preset(name: &str) -> Value {
    json!({
        "name": name,
        "program": "qwen",
        "args": ["--approval-mode", "default"],
        "first_message": {"by": "option", "option": "-i"},
        "resume": ["--resume", "{id}"],
        "state": {
            "hooks": true,
            "screen_lines": 4,
            "rules": [
                {"state": "blocked", "text": "Allow execution"},
                {"state": "idle", "text": "Type your message"}
            ]
        },
        "send": {"bracketed_paste": true, "settle_ms": 300}
    })
}

/// A repository `repo` for extension `name` claiming `command` and
/// teaching `agents`.
fn teaching(env: &TestEnv, repo: &str, name: &str, command: &str, agents: Value) -> Fixture {
    ext_with(
        env,
        repo,
        json!({"name": name, "contract": 1, "commands": [command], "agents": agents}),
        &[command],
    )
}

/// Installing `repo` is refused with exactly `want` on stderr, nothing on
/// stdout, and nothing on disk changed.
fn assert_refused(env: &TestEnv, repo: &str, want: &str) {
    let before = snapshot(env);
    let out = install(env, &[repo, "--yes"]);
    let err = refused(&out);
    assert_eq!(err, want, "{}", describe(&out));
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    assert_eq!(snapshot(env), before);
}

#[test]
fn consent_says_literally_what_a_preset_will_run_and_the_lock_keeps_it() {
    let env = TestEnv::new();
    teaching(
        &env,
        "owner/roost-qwen",
        "qwen",
        "qwen-hooks",
        json!([preset("qwen")]),
    );
    let out = install(&env, &["owner/roost-qwen", "--yes"]);
    let text = succeeded(&out);
    assert!(
        text.contains(
            "\n  teaches   roost the agent `qwen`: started as `qwen --approval-mode default`, \
             resumed as `qwen --approval-mode default --resume ID`, \
             state from its hooks, else by 2 screen rules\n"
        ),
        "{text}"
    );
    let lock = read_lock(&env);
    let recorded = &lock["qwen"]["agents"][0];
    assert_eq!(recorded["name"], "qwen");
    assert_eq!(recorded["resume"], json!(["--resume", "{id}"]));
    assert_eq!(
        recorded["send"],
        json!({"bracketed_paste": true, "settle_ms": 300})
    );
}

#[test]
fn a_preset_named_like_a_builtin_agent_is_refused_naming_it() {
    for name in ["claude", "codex", "gemini", "opencode", "aider", "generic"] {
        let env = TestEnv::new();
        teaching(
            &env,
            "owner/roost-qwen",
            "qwen",
            "qwen-hooks",
            json!([preset(name)]),
        );
        let out = install(&env, &["owner/roost-qwen", "--yes"]);
        let err = refused(&out);
        assert!(
            err.starts_with(&format!(
                "roost ext install: refusing {} at ",
                url_of(&env, "owner/roost-qwen")
            )),
            "{err}"
        );
        assert!(
            err.contains(&format!("agent \"{name}\" is "))
                && err.contains("a preset cannot shadow it"),
            "{err}"
        );
        assert!(!env.path("data/roost").exists(), "{name}");
    }
}

#[test]
fn a_preset_another_extension_teaches_is_refused_naming_its_owner() {
    let env = TestEnv::new();
    teaching(
        &env,
        "owner/roost-qwen",
        "qwen",
        "qwen-hooks",
        json!([preset("qwen")]),
    );
    succeeded(&install(&env, &["owner/roost-qwen", "--yes"]));
    teaching(
        &env,
        "other/roost-qwen2",
        "qwen2",
        "qwen2",
        json!([preset("qwen")]),
    );
    assert_refused(
        &env,
        "other/roost-qwen2",
        "roost ext install: agent qwen is already taught by the installed extension qwen\n\
         remove qwen first (roost ext remove qwen) to install this one\n",
    );
    // Disabled, its presets still hold their names: enabling it again
    // never meets a collision.
    env.ok(["ext", "disable", "qwen"]);
    refused(&install(&env, &["other/roost-qwen2", "--yes"]));
    // Removed, the name is free.
    env.ok(["ext", "remove", "qwen"]);
    succeeded(&install(&env, &["other/roost-qwen2", "--yes"]));
}

#[test]
fn an_incomplete_preset_is_refused_and_nothing_is_written() {
    let missing_send = {
        let mut p = preset("qwen");
        p.as_object_mut().unwrap().remove("send");
        p
    };
    let continue_form = {
        let mut p = preset("qwen");
        p["resume"] = json!(["--continue"]);
        p
    };
    let no_state = {
        let mut p = preset("qwen");
        p["state"] = json!({"hooks": false});
        p
    };
    for (p, needle) in [
        (
            missing_send,
            "field \"send\" of agents[0] (agent \"qwen\") is required",
        ),
        (continue_form, "must hold {id} exactly once"),
        (no_state, "no way to know the agent's state"),
    ] {
        let env = TestEnv::new();
        teaching(&env, "owner/roost-qwen", "qwen", "qwen-hooks", json!([p]));
        let out = install(&env, &["owner/roost-qwen", "--yes"]);
        let err = refused(&out);
        assert!(err.contains(needle), "want {needle:?} in {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(out.stdout.is_empty(), "{}", describe(&out));
        assert!(!env.path("data/roost").exists());
    }
}
