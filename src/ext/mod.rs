//! `roost ext`: installing third-party repositories as pinned extensions,
//! and living with them. `verbs/` holds one file per verb, each calling only
//! the domain beside it, never another verb. The domain: `names`, `manifest`
//! and `lock` are pure; `git` does every git operation; `store` owns
//! ext.lock + ext.index (+ ext.agents) on disk; `checks` the install gates; `consent` what
//! the user is shown and asked; `fetch`, `repin` and `swap` fetch, agree to
//! and put in place another commit; `new_entry` what an install records;
//! `presets` the agents a manifest teaches roost, `taught` ext.agents (the
//! installed ones), `screens` their rules against the screens an extension
//! ships, `json_type` JSON types in messages; `origin` and `git_base` where
//! commits come from; `integrity` whether a
//! clone still holds its pinned tree; `signature` who signed a pinned
//! commit; `disagreements` and `granted`
//! ext.index against ext.lock; `disabled` the switch disable and enable
//! turn; `output` where a verb's output goes; `dirs` the directories a verb
//! uses, `installed` the extensions NAME picks, `display` commits and
//! sources as people read them; `settings` the typed settings an extension
//! declares and the user sets; `error` the domain's one error type;
//! `set` the set file export writes, `sync` what a set asks of ext.lock,
//! `place` putting a new clone in place, `bundle` the offline bundle.

mod bundle;
pub mod checks;
mod complete_file;
pub mod completion_data;
pub mod consent;
mod consent_events;
mod diff;
pub mod disagreements;
pub mod error;
mod fetch;
pub mod git;
mod git_base;
mod granted;

mod dirs;
mod disabled;
mod display;
pub mod events_decl;
pub mod events_review;
mod events_runs;
mod installed;
pub mod integrity;
mod json_type;
pub mod lock;
pub mod manifest;
pub mod names;
mod new_entry;
pub mod origin;
pub mod output;
mod place;
pub mod presets;
mod repin;
pub mod screens;
pub mod set;
pub mod settings;
pub mod signature;
pub mod store;
mod swap;
mod sync;
pub mod taught;
mod uninstall;
pub mod verbs;
