//! `roost ext`: installing third-party repositories as pinned extensions,
//! and living with them. `verbs/` holds one file per verb, each calling only
//! the domain beside it, never another verb. The domain: `names`, `manifest`
//! and `lock` are pure; `git` does every git operation; `store` owns
//! ext.lock + ext.index on disk; `checks` the install gates; `consent` what
//! the user is shown and asked; `fetch`, `repin` and `swap` fetch, agree to
//! and put in place another commit; `record` what an install records;
//! `origin` where commits come from; `integrity` whether a clone still holds
//! its pinned tree; `disagreements` and `granted` ext.index against ext.lock;
//! `toggle` disable/enable; `story` where a verb's output goes; `places`,
//! `named` and `shown` the small helpers every verb needs.

mod base;
pub mod checks;
pub mod consent;
mod diff;
pub mod disagreements;
pub mod error;
mod fetch;
pub mod git;
mod granted;

pub mod integrity;
pub mod lock;
pub mod manifest;
mod named;
pub mod names;
pub mod origin;
mod places;
mod record;
mod repin;
mod shown;
pub mod store;
mod story;
mod swap;
mod toggle;
pub mod verbs;
