//! The integration tests: one binary, so the shared harness (`common`) and
//! roost's library are compiled and linked once. Each module drives the real
//! `roost` binary in a hermetic environment (see `common`).

mod common;
mod oracles;

mod agents;
mod bounds;
mod cli;
mod colour;
mod completions;
mod core;
mod crash;
mod demo;
mod dispatch;
mod doctor;
mod environment;
mod ext_author;
mod ext_install;
mod ext_manage;
mod ext_upkeep;
mod fleet_text;
mod grants;
mod hermetic;
mod hooks;
mod hostile;
mod house;
mod injection;
mod lifecycle;
mod man;
mod modes;
mod names;
mod properties;
mod races;
mod references;
mod reply_bound;
mod send;
mod socket;
mod status_view;
mod switch;
mod tamper;
mod waiting;
