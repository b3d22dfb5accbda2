//! `roost hooks` writes the agents' own configuration by merging, keeps a
//! backup, and gives the bytes back at remove.

mod files;

use crate::common::*;

#[test]
fn install_merges_keeps_a_backup_is_idempotent_and_remove_restores_the_bytes() {
    let env = TestEnv::new();
    let original = "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}]\n  }\n}\n";
    let settings = env.write("home/.claude/settings.json", original);
    let out = env.ok(["hooks", "install", "claude"]);
    assert!(
        out.starts_with(&format!(
            "claude: hooks written to {}\n",
            settings.display()
        )),
        "{out}"
    );
    assert!(out.contains(".roost-backup"), "{out}");
    let merged = std::fs::read_to_string(&settings).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&merged).unwrap();
    assert_eq!(doc["model"], "opus");
    let stop = doc["hooks"]["Stop"].as_array().unwrap();
    assert_eq!(stop.len(), 2);
    assert_eq!(stop[0]["hooks"][0]["command"], "notify-send done");
    let roost = assert_cmd::cargo::cargo_bin("roost");
    assert_eq!(
        stop[1]["hooks"][0]["command"],
        format!(
            "{} hook claude Stop # written by roost hooks install",
            roost.display()
        )
    );
    assert_eq!(
        doc["sandbox"]["network"]["allowUnixSockets"][0],
        env.socket_file()
            .parent()
            .unwrap()
            .to_string_lossy()
            .as_ref()
    );
    assert!(merged.find("\"model\"") < merged.find("\"hooks\""));
    let again = env.ok(["hooks", "install", "claude"]);
    assert!(again.starts_with("claude: hooks already in "), "{again}");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), merged);
    let status = env.ok(["hooks", "status"]);
    assert!(
        status.contains(&format!(
            "\n  user     wired       {}\n",
            settings.display()
        )),
        "{status}"
    );
    let out = env.ok(["hooks", "remove", "claude"]);
    assert!(out.contains("is as it was before install"), "{out}");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), original);
    assert!(!env.path("home/.claude/settings.json.roost-backup").exists());
}

#[test]
fn every_agent_installs_into_a_project_and_leaves_nothing_behind() {
    let env = TestEnv::new();
    let project = env.path("work/proj");
    std::fs::create_dir_all(&project).unwrap();
    let dir = project.to_string_lossy().into_owned();
    for (agent, file) in [
        ("claude", ".claude/settings.local.json"),
        ("codex", ".codex/hooks.json"),
        ("gemini", ".gemini/settings.json"),
        ("opencode", ".opencode/plugin/roost.js"),
        ("aider", ".aider.conf.yml"),
    ] {
        env.ok(["hooks", "install", agent, "--project", &dir]);
        assert!(project.join(file).is_file(), "{agent}");
        let json = env.ok(["hooks", "status", "--json"]);
        let rows: serde_json::Value = serde_json::from_str(&json).unwrap();
        let row = rows
            .as_array()
            .unwrap()
            .iter()
            .find(|r| {
                r["agent"] == agent && r["file"] == project.join(file).to_string_lossy().as_ref()
            })
            .cloned();
        // status looks at the current directory's project: not this one.
        assert!(row.is_none(), "{agent}: {json}");
        env.ok(["hooks", "remove", agent, "--project", &dir]);
        assert!(!project.join(file).exists(), "{agent}");
    }
}

#[test]
fn a_file_roost_cannot_read_is_refused_and_left_as_it_was() {
    let env = TestEnv::new();
    let settings = env.write("home/.gemini/settings.json", "{ \"ui\": ");
    let out = env.run(["hooks", "install", "gemini"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!(
            "roost hooks: cannot merge into {}: it is not JSON",
            settings.display()
        )),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), "{ \"ui\": ");
    let out = env.run(["hooks", "install", "nosuch"]);
    assert_eq!(exit_of(&out), Exit::Usage, "{}", describe(&out));
}

#[test]
fn show_generic_prints_the_four_commands() {
    let env = TestEnv::new();
    let out = env.ok(["hooks", "show", "generic"]);
    let roost = assert_cmd::cargo::cargo_bin("roost");
    // Each command stands alone on its line, so copying the line copies
    // the command and nothing else; what it is for is a comment above it.
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8, "{out}");
    for (i, state) in ["working", "blocked", "done", "error"].iter().enumerate() {
        assert!(lines[2 * i].starts_with("# "), "{out}");
        assert_eq!(
            lines[2 * i + 1],
            format!("{} hook generic {state}", roost.display()),
            "{out}"
        );
    }
}

#[test]
fn status_lists_each_preset_agent_with_the_extension_that_claims_it() {
    let env = TestEnv::new();
    let before = env.ok(["hooks", "status"]);
    assert!(!before.contains("qwen"), "{before}");
    crate::core::resume::install_qwen_preset(&env);
    let out = env.ok(["hooks", "status"]);
    assert!(
        out.ends_with(
            "qwen: a preset of the extension qwen\n\
             \x20 its own hooks report: wire them with the commands roost hooks show qwen prints, or a command its extension ships\n"
        ),
        "{out}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&env.ok(["hooks", "status", "--json"])).unwrap();
    let row = |json: &serde_json::Value| {
        json.as_array()
            .unwrap()
            .iter()
            .find(|r| r["agent"] == "qwen")
            .cloned()
            .unwrap_or_else(|| panic!("no qwen row: {json}"))
    };
    assert_eq!(
        row(&json),
        serde_json::json!({"agent": "qwen", "program": null, "scope": "preset", "file": null,
            "state": "hooks", "why": null, "extension": "qwen"})
    );
    env.ok(["ext", "disable", "qwen"]);
    let out = env.ok(["hooks", "status"]);
    assert!(
        out.contains("qwen: a preset of the extension qwen (disabled)\n"),
        "{out}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&env.ok(["hooks", "status", "--json"])).unwrap();
    assert_eq!(row(&json)["state"], "disabled");
    // A disabled preset's commands are not shown: its word is unknown.
    let out = env.run(["hooks", "show", "qwen"]);
    assert_eq!(exit_of(&out), Exit::Usage, "{}", describe(&out));
}

/// `hooks show PRESET`: the generic form's four commands, naming the
/// preset, which is what its own hooks run.
#[test]
fn show_of_a_preset_prints_the_generic_commands_naming_it() {
    let env = TestEnv::new();
    crate::core::resume::install_qwen_preset(&env);
    let out = env.ok(["hooks", "show", "qwen"]);
    let generic = env.ok(["hooks", "show", "generic"]);
    assert_eq!(out, generic.replace(" hook generic ", " hook qwen "));
    assert!(out.contains(" hook qwen done\n"), "{out}");
}
