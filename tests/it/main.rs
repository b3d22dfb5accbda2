//! The integration tests: one binary, so the shared harness (`common`) and
//! roost's library are compiled and linked once. Each module drives the real
//! `roost` binary in a hermetic environment (see `common`). The tests mirror
//! the product: `core` holds one module per built-in command, `ext` one per
//! `ext` verb; `hostile`, `races`, `tamper`, `bounds`, `injection` and
//! `crash` are suites by kind of attack, across the commands.

mod common;
mod oracles;

mod agents;
mod bounds;
mod cli;
mod colour;
mod core;
mod crash;
mod dispatch;
mod docs;
mod environment;
mod events;
mod ext;
mod fleet_text;
mod grants;
mod hermetic;
mod hostile;
mod house;
mod injection;
mod man;
mod messages;
mod modes;
mod names;
mod properties;
mod races;
mod references;
mod socket;
mod switch;
mod tamper;
mod terminal_walk;
