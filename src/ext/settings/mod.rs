//! An extension's typed settings: what its manifest declares
//! (`declaration`), what the lock records of it (`recorded`), the values
//! the user set and the files derived from them (`values`, `env_file`,
//! `secrets`, `files`), and how a value is checked (`check`). Dispatch never
//! reads any of it: it only names the two directories.

pub mod changes;
pub mod check;
pub mod declaration;
pub mod edit;
pub mod effective;
pub mod env_file;
pub mod files;
pub mod kind;
pub mod prompt;
pub mod recorded;
pub mod secrets;
pub mod values;

pub use declaration::Setting;
pub use kind::Kind;
