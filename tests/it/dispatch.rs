//! The extension dispatcher against the real binary: an
//! ext.index written by the test, fixture extensions, a real tmux server.

use crate::common::*;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Command, Output};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// Copies fixture FILE to the clone of EXT as `bin/roost-CMD`.
fn install_fixture(env: &TestEnv, ext: &str, cmd: &str, file: &str) -> PathBuf {
    let bin = env.path(&format!("data/roost/ext/{ext}/bin"));
    std::fs::create_dir_all(&bin).unwrap();
    let dest = bin.join(format!("roost-{cmd}"));
    std::fs::copy(format!("{FIXTURES}/{file}"), &dest).unwrap();
    dest
}

fn write_index(env: &TestEnv, text: &str) {
    env.write("state/roost/ext.index", text);
}

/// One indexed command CMD of extension EXT running fixture FILE.
fn one_command(env: &TestEnv, cmd: &str, file: &str, authorities: Option<&str>) -> PathBuf {
    let path = install_fixture(env, "fixture", cmd, file);
    let line = match authorities {
        Some(a) => format!("{cmd}\tfixture\t{}\t{a}\n", path.display()),
        None => format!("{cmd}\tfixture\t{}\n", path.display()),
    };
    write_index(env, &line);
    path
}

/// The miss: exactly the bytes the same word gets where nothing was ever
/// installed (a fresh environment), and exit 2.
fn assert_usage_error(word: &str, out: &Output) {
    let reference = TestEnv::new().run([word]);
    assert_eq!(exit_of(&reference), Exit::Usage);
    assert_eq!(exit_of(out), Exit::Usage, "{}", describe(out));
    assert!(out.stdout.is_empty(), "{}", describe(out));
    assert_eq!(out.stderr, reference.stderr);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .starts_with(&format!("roost: unknown command '{word}'")),
        "{}",
        describe(out)
    );
}

/// `NAME=value` lines of the env fixture.
fn env_report(out: &Output) -> std::collections::BTreeMap<String, String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            l.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
        })
        .collect()
}

#[test]
fn the_extension_exit_status_passes_through() {
    let env = TestEnv::new();
    one_command(&env, "envx", "env-ext", Some(""));
    let out = env.run(["envx"]);
    assert_eq!(out.status.code(), Some(7), "{}", describe(&out));
    assert!(out.stderr.is_empty());
}

#[test]
fn arguments_pass_byte_for_byte() {
    let env = TestEnv::new();
    one_command(&env, "args", "argv-ext", Some(""));
    let args: Vec<&OsStr> = vec![
        OsStr::new("%200"),
        OsStr::new("sess:win"),
        OsStr::new("--force"),
        OsStr::new("an argument with spaces"),
        OsStr::new(""),
        OsStr::from_bytes(b"bytes\xff\xfe"),
        OsStr::new("--help"),
        OsStr::new("-V"),
        OsStr::new("*"),
    ];
    let out = env
        .roost(std::iter::once(OsStr::new("args")).chain(args.iter().copied()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let mut expected = Vec::new();
    for a in &args {
        expected.extend_from_slice(a.as_bytes());
        expected.push(b'\n');
    }
    assert_eq!(out.stdout, expected);
}

#[test]
fn without_fleet_the_socket_variables_are_unset_and_path_untouched() {
    let env = TestEnv::new();
    let program = one_command(&env, "envx", "env-ext", Some(""));
    let out = env.run(["envx"]);
    let got = env_report(&out);
    assert_eq!(got["ROOST_SOCKET"], "<unset>");
    assert_eq!(got["ROOST_SOCKET_FLAG"], "<unset>");
    let path = std::env::var("PATH").unwrap();
    assert_eq!(got["PATH1"], path.split(':').next().unwrap());
    assert_eq!(got["ROOST_CONTRACT"], "1");
    assert_eq!(got["ROOST_VERSION"], env!("CARGO_PKG_VERSION"));
    assert_eq!(
        got["ROOST_HOME"],
        env.path("data/roost/home").display().to_string()
    );
    let clone = program.parent().unwrap().parent().unwrap();
    assert_eq!(got["ROOST_EXT_DIR"], clone.display().to_string());
    let state = env.path("state/roost/ext/fixture");
    assert_eq!(got["ROOST_EXT_STATE"], state.display().to_string());
    assert!(
        state.is_dir(),
        "the state directory exists before the extension runs"
    );
}

#[test]
fn a_three_field_line_grants_nothing() {
    let env = TestEnv::new();
    one_command(&env, "envx", "env-ext", None);
    let got = env_report(&env.run(["envx"]));
    assert_eq!(got["ROOST_SOCKET"], "<unset>");
    assert_eq!(got["ROOST_SOCKET_FLAG"], "<unset>");
    assert_eq!(got["ROOST_CONTRACT"], "1");
}

fn assert_fleet_env(env: &TestEnv, flag: &str) {
    one_command(env, "envx", "env-ext", Some("fleet"));
    let out = env.run(["envx"]);
    assert_eq!(out.status.code(), Some(7), "{}", describe(&out));
    let got = env_report(&out);
    assert_eq!(got["ROOST_SOCKET"], env.socket);
    assert_eq!(got["ROOST_SOCKET_FLAG"], flag);
    let scripts = env.path("data/roost/home/bin");
    assert_eq!(got["PATH1"], scripts.display().to_string());
    let link = std::fs::canonicalize(scripts.join("roost")).unwrap();
    assert_eq!(
        link,
        std::fs::canonicalize(ROOST).unwrap(),
        "scripts/roost runs this same roost"
    );
}

#[test]
fn fleet_hands_over_a_socket_name_with_dash_l() {
    assert_fleet_env(&TestEnv::with_socket_name("fleet-name"), "-L");
}

#[test]
fn fleet_hands_over_a_socket_path_with_dash_s() {
    assert_fleet_env(&TestEnv::new(), "-S");
}

#[test]
fn roost_no_ext_disables_for_any_non_empty_value() {
    let env = TestEnv::new();
    one_command(&env, "envx", "env-ext", Some(""));
    for value in ["1", "0", "yes", " "] {
        let out = env
            .roost(["envx"])
            .env("ROOST_NO_EXT", value)
            .output()
            .unwrap();
        assert_usage_error("envx", &out);
    }
    let out = env
        .roost(["envx"])
        .env("ROOST_NO_EXT", "")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(7),
        "an empty ROOST_NO_EXT leaves the seam on"
    );
}

#[test]
fn the_server_switch_off_disables_and_on_or_unset_do_not() {
    let env = TestEnv::new();
    one_command(&env, "envx", "env-ext", Some(""));
    env.ok(["spawn", "idle", "sleep 100"]);
    assert_eq!(
        env.run(["envx"]).status.code(),
        Some(7),
        "unset means enabled"
    );
    env.tmux_ok(&["set", "-g", "@roost-ext-enabled", "on"]);
    assert_eq!(env.run(["envx"]).status.code(), Some(7));
    env.tmux_ok(&["set", "-g", "@roost-ext-enabled", "OFF"]);
    assert_eq!(
        env.run(["envx"]).status.code(),
        Some(7),
        "only exactly `off` disables"
    );
    env.tmux_ok(&["set", "-g", "@roost-ext-enabled", "off"]);
    assert_usage_error("envx", &env.run(["envx"]));
}

#[test]
fn asking_the_switch_never_starts_a_server() {
    let env = TestEnv::new();
    one_command(&env, "envx", "env-ext", Some("fleet"));
    assert_eq!(env.run(["envx"]).status.code(), Some(7));
    assert!(!env.socket_file().exists(), "dispatch created a server");
    assert!(!env.server_running());
}

#[test]
fn roost_conf_switches_the_seam_off_when_no_server_runs() {
    let env = TestEnv::new();
    one_command(&env, "envx", "env-ext", Some(""));
    env.write(
        "config/roost/roost.conf",
        "set -g status on\nset -g @roost-ext-enabled off\n",
    );
    assert_usage_error("envx", &env.run(["envx"]));
    env.write(
        "config/roost/roost.conf",
        "set -g @roost-ext-enabled off\nset-option -g @roost-ext-enabled on\n",
    );
    assert_eq!(
        env.run(["envx"]).status.code(),
        Some(7),
        "the last line wins"
    );
    assert!(!env.socket_file().exists());
}

#[test]
fn a_running_server_overrides_roost_conf() {
    let env = TestEnv::new();
    one_command(&env, "envx", "env-ext", Some(""));
    env.ok(["spawn", "idle", "sleep 100"]);
    // Written after the server started: the server's own value speaks.
    env.write("config/roost/roost.conf", "set -g @roost-ext-enabled off\n");
    assert_eq!(env.run(["envx"]).status.code(), Some(7));
}

#[test]
fn an_unknown_authority_refuses_and_runs_nothing() {
    let env = TestEnv::new();
    one_command(&env, "envx", "env-ext", Some("fleet network"));
    let out = env.run(["envx"]);
    assert_eq!(exit_of(&out), Exit::Failed);
    assert!(
        out.stdout.is_empty(),
        "the extension ran: {}",
        describe(&out)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(
        lines[0].contains("fixture") && lines[0].contains("'network'"),
        "{err}"
    );
    assert!(lines[1].contains("refusing"), "{err}");
    assert!(
        lines[2].contains("roost ext remove fixture") && lines[2].contains("ROOST_NO_EXT=1"),
        "{err}"
    );
}

#[test]
fn a_hostile_authority_is_printed_neutralised() {
    let env = TestEnv::new();
    one_command(&env, "envx", "env-ext", Some("\x1b[2Jevil"));
    let out = env.run(["envx"]);
    assert_eq!(exit_of(&out), Exit::Failed);
    assert!(
        !out.stderr.contains(&0x1b),
        "an escape reached the terminal"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("\\x1b[2Jevil"));
}

#[test]
fn a_path_that_is_not_an_executable_file_is_a_miss() {
    let env = TestEnv::new();
    let program = one_command(&env, "envx", "env-ext", Some(""));
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_usage_error("envx", &env.run(["envx"]));
    std::fs::remove_file(&program).unwrap();
    assert_usage_error("envx", &env.run(["envx"]));
    std::fs::create_dir(&program).unwrap();
    assert_usage_error("envx", &env.run(["envx"]));
}

#[test]
fn a_missing_index_or_line_is_a_miss() {
    let env = TestEnv::new();
    assert_usage_error("envx", &env.run(["envx"]));
    one_command(&env, "envx", "env-ext", Some(""));
    assert_usage_error("other", &env.run(["other"]));
}

#[test]
fn a_prefix_of_an_indexed_command_is_a_miss() {
    let env = TestEnv::new();
    one_command(&env, "notes", "env-ext", Some(""));
    assert_usage_error("note", &env.run(["note"]));
    assert_usage_error("notesx", &env.run(["notesx"]));
    assert_eq!(env.run(["notes"]).status.code(), Some(7));
}

#[test]
fn an_extension_name_outside_the_grammar_never_becomes_a_path() {
    let env = TestEnv::new();
    let program = install_fixture(&env, "fixture", "envx", "env-ext");
    write_index(&env, &format!("envx\t../escape\t{}\t\n", program.display()));
    assert_usage_error("envx", &env.run(["envx"]));
    assert!(!env.path("state/roost/escape").exists());
}

#[test]
fn an_index_line_claiming_a_core_command_never_shadows_it() {
    let env = TestEnv::new();
    let program = install_fixture(&env, "fixture", "status", "env-ext");
    write_index(&env, &format!("status\tfixture\t{}\t\n", program.display()));
    let out = env.run(["status"]);
    assert_eq!(exit_of(&out), Exit::Ok);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "roost: not running\n");
}

#[test]
fn an_index_line_claiming_an_ext_verb_never_runs() {
    let env = TestEnv::new();
    let program = install_fixture(&env, "squat", "remove", "argv-ext");
    write_index(&env, &format!("remove\tsquat\t{}\t\n", program.display()));
    let out = env.run(["remove", "squat"]);
    assert_usage_error("remove", &out);
}

#[test]
fn dispatch_needs_no_python3_or_jq() {
    let env = TestEnv::new();
    one_command(&env, "args", "argv-ext", Some("fleet"));
    let bin = env.path("minimal-bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink("/bin/sh", bin.join("sh")).unwrap();
    let out = env.roost(["args", "x"]).env("PATH", &bin).output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(out.stdout, b"x\n");
}

/// A fixed fleet: two sessions, panes with and without a state.
fn fixed_fleet(env: &TestEnv) {
    let alice = env.spawn("alice", "sleep 300");
    env.spawn("bob", "sleep 300");
    env.tmux_ok(&["set", "-p", "-t", &alice, "@agent_state", "working"]);
    env.ok(["session", "work"]);
}

fn assert_status_conformance(env: &TestEnv) {
    let program = install_fixture(env, "status-twin", "fleet-status", "status-ext");
    write_index(
        env,
        &format!("fleet-status\tstatus-twin\t{}\tfleet\n", program.display()),
    );
    let core = env.run(["status"]);
    let ext = env.run(["fleet-status"]);
    assert!(ext.status.success(), "{}", describe(&ext));
    assert_eq!(
        String::from_utf8_lossy(&ext.stdout),
        String::from_utf8_lossy(&core.stdout)
    );
}

#[test]
fn status_rebuilt_as_a_fleet_extension_matches_core_for_a_socket_name() {
    let env = TestEnv::with_socket_name("conform");
    fixed_fleet(&env);
    assert_status_conformance(&env);
}

#[test]
fn status_rebuilt_as_a_fleet_extension_matches_core_for_a_socket_path() {
    let env = TestEnv::new();
    fixed_fleet(&env);
    assert_status_conformance(&env);
}

#[test]
fn status_rebuilt_as_a_fleet_extension_matches_core_with_no_server() {
    let env = TestEnv::new();
    assert_status_conformance(&env);
    assert!(!env.server_running());
}

#[test]
fn status_rebuilt_without_fleet_fails_loudly() {
    let env = TestEnv::new();
    fixed_fleet(&env);
    let program = install_fixture(&env, "status-twin", "status-nofleet", "status-ext");
    write_index(
        &env,
        &format!("status-nofleet\tstatus-twin\t{}\t\n", program.display()),
    );
    let out = env.run(["status-nofleet"]);
    assert!(!out.status.success(), "{}", describe(&out));
    assert!(out.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("ROOST_SOCKET"),
        "{}",
        describe(&out)
    );
}

/// Every roost command, the typo and the dispatch included, runs whatever
/// start-up code a linked library registers. One did (aws-lc, through the
/// default TLS of reqwest): CPUID probes that, under a hypervisor, cost more
/// than the rest of dispatch. Only the C runtime's and Rust std's entries
/// may be there.
#[test]
fn no_linked_library_adds_start_up_code() {
    let out = Command::new("readelf")
        .args(["-SW", env!("CARGO_BIN_EXE_roost")])
        .output();
    let Some(out) = out.ok().filter(|o| o.status.success()) else {
        skip_without("readelf (binutils) is not installed");
        return;
    };
    let sections = String::from_utf8(out.stdout).unwrap();
    let size_of = |name: &str| {
        sections
            .lines()
            .find(|l| l.split_whitespace().any(|w| w == name))
            .map(|l| {
                let after: Vec<&str> = l.split(']').nth(1).unwrap().split_whitespace().collect();
                // NAME TYPE ADDRESS OFFSET SIZE ...
                usize::from_str_radix(after[4], 16).unwrap()
            })
    };
    assert_eq!(
        size_of(".init_array"),
        Some(16),
        "two entries (crtbegin's frame_dummy, std's argv capture) expected:\n{sections}"
    );
    assert_eq!(size_of(".preinit_array"), None, "{sections}");
    assert_eq!(size_of(".ctors"), None, "{sections}");
}

#[test]
fn a_command_swapped_for_a_link_out_of_its_tree_is_a_miss() {
    let env = TestEnv::new();
    let path = one_command(&env, "who", "argv-ext", None);
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink("/usr/bin/id", &path).unwrap();
    let out = env.run(["who"]);
    assert_usage_error("who", &out);
    // A relative link that climbs out of the tree is the same.
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink("../../../../../../../../usr/bin/id", &path).unwrap();
    assert_usage_error("who", &env.run(["who"]));
}

#[test]
fn a_command_linked_to_a_file_inside_its_tree_runs() {
    let env = TestEnv::new();
    let path = one_command(&env, "who", "argv-ext", None);
    let lib = path.parent().unwrap().parent().unwrap().join("lib");
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::rename(&path, lib.join("real")).unwrap();
    std::os::unix::fs::symlink("../lib/real", &path).unwrap();
    let out = env.run(["who", "a b"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("a b"),
        "{}",
        describe(&out)
    );
}

/// A command a built-in now shadows (`status`, installed when roost had no
/// such command): `roost status` is roost's, `roost ext exec status` runs
/// the extension with exactly what dispatch gives it.
#[test]
fn ext_exec_runs_a_command_a_built_in_shadows_as_dispatch_would() {
    let env = TestEnv::new();
    let shadowed = install_fixture(&env, "fixture", "status", "env-ext");
    let plain = install_fixture(&env, "fixture", "envy", "env-ext");
    write_index(
        &env,
        &format!(
            "envy\tfixture\t{}\tfleet\nstatus\tfixture\t{}\tfleet\n",
            plain.display(),
            shadowed.display()
        ),
    );
    let core = env.run(["status"]);
    assert!(
        String::from_utf8_lossy(&core.stdout).starts_with("roost: not running"),
        "{}",
        describe(&core)
    );
    let via_exec = env.run(["ext", "exec", "status", "--help"]);
    let direct = env.run(["envy", "--help"]);
    assert_eq!(via_exec.status.code(), Some(7), "{}", describe(&via_exec));
    let text = String::from_utf8_lossy(&via_exec.stdout).into_owned();
    // The same environment as `roost envy` but for the directory's name.
    assert_eq!(
        text.replace("roost-status", "roost-envy"),
        String::from_utf8_lossy(&direct.stdout).replace("roost-status", "roost-envy")
    );
    assert!(
        text.contains(&format!("ROOST_SOCKET={}\n", env.socket)),
        "{text}"
    );
    // ROOST_NO_EXT turns exec off too, with a message of its own.
    let out = env
        .roost(["ext", "exec", "status"])
        .env("ROOST_NO_EXT", "1")
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "roost ext exec: cannot run 'status': extensions are turned off (ROOST_NO_EXT is set)\n\
         ROOST_NO_EXT turns extension commands off in this shell: unset ROOST_NO_EXT to run them\n"
    );
    let out = env.run(["ext", "exec", "nothing-here"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with(
            "roost ext exec: cannot run 'nothing-here': no installed extension command of that name can run\n"
        ),
        "{}",
        describe(&out)
    );
}
