//! The `ext` verbs, one module each, against real bare repositories
//! reached by file:// (fixtures they share are in `common::ext`,
//! `common::versions` and `common::sources`).

mod check;
pub(crate) mod disable;
mod enable;
mod exec;
mod info;
pub(crate) mod install;
mod link;
mod list;
mod new;
mod outdated;
mod remove;
mod repair;
mod rollback;
mod update;
mod verify;
