//! The agents domain: the agent CLIs roost knows (`agent.rs`), the one
//! handler every agent's hooks run (`hook.rs`) and the transcripts it reads
//! replies from (`transcript.rs`), the record of a server's agents for
//! `resume` (`roster.rs`), what spawn, resume and kill do for an agent
//! (`launch.rs`), the agents on PATH (`programs.rs`), and the wiring of
//! their configuration (`wiring/`). The commands over it are in
//! src/commands/ (hook, hooks, resume, next).

pub mod agent;
pub mod hook;
pub mod launch;
pub mod programs;
pub mod roster;
pub mod transcript;
pub mod wiring;

pub use agent::{valid_session_id, Agent, HookAgent};
