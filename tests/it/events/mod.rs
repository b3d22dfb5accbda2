//! Events: moments of the fleet handed to extensions' handlers, in real
//! panes of a private server with real processes. `fire` what fires and
//! when, `lifecycle` the moments of panes and the server, `hook` what it costs an agent's hook, `runs` how handlers run
//! (time, leftovers, queues, side by side), `switches` what skips them.

mod fire;
mod hook;
mod lifecycle;
mod runs;
mod switches;
