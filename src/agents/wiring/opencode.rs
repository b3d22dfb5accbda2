//! opencode's wiring: a plugin file of roost's own in opencode's plugin
//! directory. opencode loads every `plugin/*.js` there; roost's reports
//! the session's prompts, permission questions, errors and idle moments
//! (with the last assistant message) to `roost hook opencode EVENT`.

use std::path::Path;

/// The plugin's file name.
pub const FILE: &str = "roost.js";

/// The first line of every plugin roost writes.
const MARK: &str = "// roost: written by `roost hooks install opencode`; `roost hooks remove opencode` deletes it.";

pub fn is_roost(bytes: &[u8]) -> bool {
    bytes.starts_with(MARK.as_bytes())
}

/// The plugin, calling this `roost`.
pub fn plugin(roost: &Path) -> String {
    let path = serde_json::to_string(&roost.to_string_lossy()).expect("a string serializes");
    format!(
        r#"{MARK}
// It tells roost what this opencode is doing (roost hook opencode EVENT).
import {{ spawnSync }} from "node:child_process";

const ROOST = {path};
let main;

function report(event, payload) {{
  if (!process.env.TMUX_PANE) return;
  try {{
    spawnSync(ROOST, ["hook", "opencode", event], {{
      input: JSON.stringify(payload),
      stdio: ["pipe", "ignore", "ignore"],
      timeout: 5000,
    }});
  }} catch {{}}
}}

function ours(id) {{
  return !main || id === main;
}}

export const RoostPlugin = async ({{ client }}) => ({{
  "chat.message": async (input, output) => {{
    if (!main) main = input.sessionID;
    if (!ours(input.sessionID)) return;
    const text = (output.parts || [])
      .filter((p) => p.type === "text" && !p.synthetic)
      .map((p) => p.text)
      .join("\n");
    report("prompt", {{ session_id: input.sessionID, prompt: text }});
  }},
  event: async ({{ event }}) => {{
    const p = event.properties || {{}};
    const id = p.sessionID;
    if (event.type === "permission.asked" && ours(id)) {{
      report("blocked", {{ session_id: id }});
    }} else if (event.type === "permission.replied" && ours(id)) {{
      report("working", {{ session_id: id }});
    }} else if (event.type === "session.error" && id && ours(id)) {{
      const e = p.error || {{}};
      report("error", {{ session_id: id, reply: String((e.data && e.data.message) || e.name || "error") }});
    }} else if (event.type === "session.idle" && main && id === main) {{
      let reply;
      try {{
        const res = await client.session.messages({{ path: {{ id }} }});
        const list = (res && res.data) || [];
        for (let i = list.length - 1; i >= 0; i--) {{
          const m = list[i];
          if (m.info && m.info.role === "assistant") {{
            reply = (m.parts || []).filter((x) => x.type === "text").map((x) => x.text).join("\n");
            break;
          }}
        }}
      }} catch {{}}
      report("done", {{ session_id: id, reply }});
    }}
  }},
}});
"#
    )
}
