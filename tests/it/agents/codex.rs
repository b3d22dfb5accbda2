//! codex: to come.
