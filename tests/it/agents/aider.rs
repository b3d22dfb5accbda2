//! aider: to come.
