//! Hostile symlinks: chains, climbs, directory links and loops.

use crate::common::*;
use crate::hostile::{install, note_repo};

use std::os::unix::fs::symlink;

/// The note repository plus the symlinks `links` (path, target), installed:
/// refused with `needle` in the one-line reason, nothing written.
fn link_refused(links: &[(&str, &str)], needle: &str) {
    let env = TestEnv::new();
    let f = note_repo(&env);
    f.write("sub/deeper/file", "x\n");
    for (path, target) in links {
        let at = f.work.join(path);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        symlink(target, at).unwrap();
    }
    f.commit("links");
    let run = install(&env, &f.repo);
    let err = refused(&run.out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("refusing "), "{err}");
    assert!(err.contains(needle), "want {needle:?} in {err}");
    assert!(!env.path("data/roost").exists());
}

#[test]
fn a_chain_of_links_ending_at_an_absolute_path_is_refused() {
    link_refused(
        &[("a", "b"), ("b", "sub/c"), ("sub/c", "/etc")],
        "points to the absolute path /etc",
    );
}

#[test]
fn a_chain_of_links_climbing_out_step_by_step_is_refused() {
    // Each link alone climbs one level and stays inside; the chain leaves.
    link_refused(
        &[
            ("sub/deeper/up", ".."),
            ("sub/up", "deeper/up/.."),
            ("out", "sub/up/../x"),
        ],
        "the symlink out points to",
    );
}

#[test]
fn a_directory_link_deep_inside_pointing_to_the_top_then_up_is_refused() {
    // Lexically `sub/deeper/top/../x` is sub/deeper/x; really it is ../x.
    link_refused(
        &[("sub/deeper/top", "../.."), ("y", "sub/deeper/top/../x")],
        "the symlink y points to",
    );
}

#[test]
fn a_directory_link_to_an_absolute_directory_is_refused() {
    link_refused(
        &[("sub/tmp", "/tmp")],
        "the symlink sub/tmp points to the absolute path /tmp",
    );
}

#[test]
fn a_loop_of_links_is_refused_in_bounded_time() {
    link_refused(
        &[("l1", "l2"), ("l2", "sub/l3"), ("sub/l3", "../l1")],
        "chain of more than 40 symlinks",
    );
}

#[test]
fn a_link_to_itself_and_a_fan_of_links_is_refused_in_bounded_time() {
    // 30 links each pointing through the previous twice: a naive resolver
    // walks 2^30 steps; roost stops at 40.
    let mut links: Vec<(String, String)> = vec![("l0".into(), "l0".into())];
    for i in 1..30 {
        links.push((format!("l{i}"), format!("l{}/../l{}", i - 1, i - 1)));
    }
    let links: Vec<(&str, &str)> = links
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    link_refused(&links, "chain of more than 40 symlinks");
}
