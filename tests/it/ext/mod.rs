//! The `ext` verbs, one module each, against real bare repositories
//! reached by file:// (fixtures they share are in `common::ext`,
//! `common::versions` and `common::sources`).

mod check;
pub(crate) mod config;
pub(crate) mod disable;
mod enable;
mod exec;
mod export;
mod info;
pub(crate) mod install;
mod link;
mod list;
mod log;
mod new;
mod outdated;
mod remove;
mod repair;
mod rollback;
mod sync;
mod update;
mod verify;
