//! `status` as people read it: aligned columns (id, target, window name,
//! command, state), a name with a blank quoted so it cannot run into the
//! next column, `1 window` and `N windows`, and outside a UTF-8 locale
//! nothing but ASCII.

use crate::common::*;

fn status_in(env: &TestEnv, locale: (&str, &str)) -> String {
    let out = env
        .roost(["status"])
        .env_remove("LANG")
        .env_remove("LC_ALL")
        .env(locale.0, locale.1)
        .output()
        .unwrap();
    clean(&out)
}

#[test]
fn status_aligns_its_columns_quotes_a_name_with_a_blank_and_counts_windows_right() {
    let env = TestEnv::new();
    let agent = env.ok(["spawn", "my agent", "cat", "-"]).trim().to_string();
    let cafe = env.ok(["spawn", "café", "sleep", "100"]).trim().to_string();
    quiet(&env.run(["session", "solo"]), Exit::Ok);
    let pane = |target: &str| {
        env.tmux_ok(&["display-message", "-p", "-t", target, "#{pane_id}"])
            .trim()
            .to_string()
    };
    let (first, solo) = (pane("=main:0"), pane("=solo:0"));
    let socket = &env.socket;
    assert_eq!(
        status_in(&env, ("LANG", "C.UTF-8")),
        format!(
            "roost: running (socket={socket})\n\
             \x20 session main \u{2014} 3 windows\n\
             \x20   {first}  main:0.0  sh          sh     [-]\n\
             \x20   {agent}  main:1.0  'my agent'  cat    [-]\n\
             \x20   {cafe}  main:2.0  café        sleep  [-]\n\
             \x20 session solo \u{2014} 1 window\n\
             \x20   {solo}  solo:0.0  sh          sh     [-]\n"
        )
    );
    for locale in [("LC_ALL", "C"), ("LC_ALL", "POSIX"), ("LC_CTYPE", "C")] {
        assert_eq!(
            status_in(&env, locale),
            format!(
                "roost: running (socket={socket})\n\
                 \x20 session main - 3 windows\n\
                 \x20   {first}  main:0.0  sh          sh     [-]\n\
                 \x20   {agent}  main:1.0  'my agent'  cat    [-]\n\
                 \x20   {cafe}  main:2.0  caf\\xe9     sleep  [-]\n\
                 \x20 session solo - 1 window\n\
                 \x20   {solo}  solo:0.0  sh          sh     [-]\n"
            ),
            "{locale:?}"
        );
    }
}
