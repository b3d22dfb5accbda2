//! What a handler is told of one moment: flat variables a shell reads, and
//! the same as one JSON object on its stdin. Names come from tmux and reach
//! the handler's environment and JSON only, never a shell or a format.

use super::event::Event;
use serde::{Deserialize, Serialize};

/// One moment, as queued and as handed to a handler.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    pub event: String,
    /// The extension's own count of the moments queued for it.
    pub seq: u64,
    /// Nanoseconds since the epoch, taken by the emitter: the order.
    pub nanos: u128,
    /// UTC, RFC 3339.
    pub time: String,
    pub pane: String,
    pub window: String,
    pub session: String,
    pub agent: String,
    pub state: String,
    pub previous: String,
    pub exit_status: Option<i32>,
    /// `send.delivered`: how many bytes were typed (never the text).
    #[serde(default)]
    pub size: Option<u64>,
    pub depth: u32,
    /// Moments dropped from the queue since the last handler ran.
    pub dropped: u64,
}

impl Envelope {
    pub fn new(event: Event, nanos: u128, depth: u32) -> Envelope {
        let secs = u64::try_from(nanos / 1_000_000_000).unwrap_or(u64::MAX);
        let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs);
        Envelope {
            event: event.word().into(),
            seq: 0,
            nanos,
            time: crate::ext::lock::utc_timestamp(at),
            pane: String::new(),
            window: String::new(),
            session: String::new(),
            agent: String::new(),
            state: String::new(),
            previous: String::new(),
            exit_status: None,
            size: None,
            depth,
            dropped: 0,
        }
    }

    /// The flat variables, those that apply.
    pub fn vars(&self) -> Vec<(&'static str, String)> {
        let mut v = vec![
            ("ROOST_EVENT", self.event.clone()),
            ("ROOST_EVENT_SEQ", self.seq.to_string()),
            ("ROOST_EVENT_TIME", self.time.clone()),
            ("ROOST_EVENT_DEPTH", self.depth.to_string()),
            ("ROOST_EVENT_DROPPED", self.dropped.to_string()),
        ];
        for (k, val) in [
            ("ROOST_EVENT_PANE", &self.pane),
            ("ROOST_EVENT_WINDOW", &self.window),
            ("ROOST_EVENT_SESSION", &self.session),
            ("ROOST_EVENT_AGENT", &self.agent),
            ("ROOST_EVENT_STATE", &self.state),
            ("ROOST_EVENT_PREVIOUS", &self.previous),
        ] {
            if !val.is_empty() {
                v.push((k, val.clone()));
            }
        }
        if let Some(s) = self.exit_status {
            v.push(("ROOST_EVENT_EXIT_STATUS", s.to_string()));
        }
        if let Some(n) = self.size {
            v.push(("ROOST_EVENT_SIZE", n.to_string()));
        }
        v
    }

    /// The JSON object on the handler's stdin: the variables' values under
    /// their lower-case names without the prefix.
    pub fn json(&self) -> String {
        let mut map = serde_json::Map::new();
        for (k, v) in self.vars() {
            let key = k.trim_start_matches("ROOST_").to_ascii_lowercase();
            let key = if key == "event" {
                key
            } else {
                key.trim_start_matches("event_").to_string()
            };
            let value = match key.as_str() {
                "seq" | "depth" | "dropped" | "exit_status" | "size" => v
                    .parse::<i64>()
                    .map(serde_json::Value::from)
                    .unwrap_or(serde_json::Value::String(v)),
                _ => serde_json::Value::String(v),
            };
            map.insert(key, value);
        }
        // The emitter's exact time, for ordering (JSON only).
        map.insert(
            "time_ns".into(),
            serde_json::Value::String(self.nanos.to_string()),
        );
        serde_json::Value::Object(map).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_says_what_the_variables_say() {
        let mut e = Envelope::new(Event::Exited, 1_700_000_000_123_456_789, 1);
        e.pane = "%3".into();
        e.window = "a \"name\"\n$(x)".into();
        e.exit_status = Some(3);
        assert_eq!(e.time, "2023-11-14T22:13:20Z");
        let v: serde_json::Value = serde_json::from_str(&e.json()).unwrap();
        assert_eq!(v["event"], "agent.exited");
        assert_eq!(v["window"], "a \"name\"\n$(x)");
        assert_eq!(v["exit_status"], 3);
        assert_eq!(v["depth"], 1);
        assert!(v.get("session").is_none());
        assert!(e.vars().contains(&("ROOST_EVENT_EXIT_STATUS", "3".into())));
    }
}
