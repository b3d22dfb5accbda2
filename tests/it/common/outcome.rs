//! What a run of roost must have done, in one vocabulary for every module,
//! on assert_cmd and predicates: the exit status (always one of roost's
//! `Exit`s, never a bare number), what is on each stream, and never a panic.
//! Each returns the text the caller looks at next.

use assert_cmd::assert::Assert;
use predicates::prelude::*;
use predicates::str::contains;
use std::process::Output;

pub use roost::error::Exit;

/// The status code roost exits with for `exit`, as assert_cmd takes it
/// (`Exit::Usage` and `Exit::NoTarget` are both 2).
pub fn exit_code(exit: Exit) -> i32 {
    i32::from(exit.code())
}

/// The status code roost exits with for `exit`, as `ExitStatus::code` gives
/// it.
pub fn exited(exit: Exit) -> Option<i32> {
    Some(exit_code(exit))
}

/// How a run ended, to compare with one of roost's `Exit`s by its code:
/// `assert_eq!(exit_of(&out), Exit::Usage)`.
pub fn exit_of(out: &Output) -> ExitOf {
    ExitOf(out.status.code())
}

/// A run's status code (none when a signal ended it), equal to an `Exit`
/// with that code.
pub struct ExitOf(Option<i32>);

impl PartialEq<Exit> for ExitOf {
    fn eq(&self, exit: &Exit) -> bool {
        self.0 == exited(*exit)
    }
}

impl std::fmt::Debug for ExitOf {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self.0 {
            Some(code) => write!(f, "exit {code}"),
            None => f.write_str("killed by a signal"),
        }
    }
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn assert(out: &Output) -> Assert {
    Assert::new(out.clone())
}

/// This exit status and no panic; returns stderr.
pub fn exits(out: &Output, code: Exit) -> String {
    assert(out)
        .code(exit_code(code))
        .stderr(contains("panicked").not());
    stderr(out)
}

/// This exit status, nothing on stdout and no panic; returns stderr.
pub fn quiet(out: &Output, code: Exit) -> String {
    assert(out).code(exit_code(code)).stdout("");
    exits(out, code)
}

/// Success with nothing on stderr; returns stdout.
pub fn clean(out: &Output) -> String {
    assert(out).success().stderr("");
    stdout(out)
}

/// Success (stderr may carry notes); returns stdout.
pub fn succeeded(out: &Output) -> String {
    assert(out).success().stderr(contains("panicked").not());
    stdout(out)
}

/// A refusal: exit 1, no panic; returns stderr.
pub fn refused(out: &Output) -> String {
    exits(out, Exit::Failed)
}

/// A refusal in the house format: this exit status, nothing on stdout, and
/// on stderr `roost CMD: …` starting with `prefix`, one line plus at most
/// one hint or usage line.
pub fn assert_refusal(out: &Output, code: Exit, prefix: &str) {
    let house = predicate::function(|err: &str| {
        err.ends_with('\n') && (1..=2).contains(&err.lines().count())
    });
    assert(out).code(exit_code(code)).stdout("").stderr(
        predicates::str::starts_with(prefix)
            .and(house)
            .and(contains("panicked").not()),
    );
}
