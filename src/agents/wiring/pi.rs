//! pi's wiring: an extension of roost's own, `roost.ts`, in pi's
//! extensions directory (`~/.pi/agent/extensions/`, or
//! `$PI_CODING_AGENT_DIR/extensions/`) or a project's `.pi/extensions/`.
//! pi loads every `*.ts` there at start; roost's reports the session's id,
//! each prompt as typed, and the end of each turn (its last assistant text
//! as the reply, or the error it ended in) to `roost hook pi EVENT`. pi
//! asks no one before it runs a tool, so nothing of pi's own is blocked.

use std::path::Path;

/// The extension's file name.
pub const FILE: &str = "roost.ts";

/// The first line of every extension roost writes.
const MARK: &str =
    "// roost: written by `roost hooks install pi`; `roost hooks remove pi` deletes it.";

pub fn is_roost(bytes: &[u8]) -> bool {
    bytes.starts_with(MARK.as_bytes())
}

/// The extension, calling this `roost`.
pub fn extension(roost: &Path) -> String {
    let path = serde_json::to_string(&roost.to_string_lossy()).expect("a string serializes");
    format!(
        r#"{MARK}
// It tells roost what this pi is doing (roost hook pi EVENT).
import {{ spawnSync }} from "node:child_process";

const ROOST = {path};

function report(event: string, payload: object): void {{
  if (!process.env.TMUX_PANE) return;
  try {{
    spawnSync(ROOST, ["hook", "pi", event], {{
      input: JSON.stringify(payload),
      stdio: ["pipe", "ignore", "ignore"],
      timeout: 5000,
    }});
  }} catch {{}}
}}

function text(message: any): string {{
  return ((message && message.content) || [])
    .filter((part: any) => part && part.type === "text")
    .map((part: any) => part.text)
    .join("\n");
}}

export default function (pi: any) {{
  pi.on("session_start", async (_event: any, ctx: any) => {{
    report("start", {{ session_id: ctx.sessionManager.getSessionId() }});
  }});
  pi.on("input", async (event: any, ctx: any) => {{
    if (event.source !== "interactive") return;
    report("prompt", {{ session_id: ctx.sessionManager.getSessionId(), prompt: event.text }});
  }});
  pi.on("agent_end", async (event: any, ctx: any) => {{
    const list = event.messages || [];
    let last: any;
    for (let i = list.length - 1; i >= 0; i--) {{
      if (list[i] && list[i].role === "assistant") {{
        last = list[i];
        break;
      }}
    }}
    const id = ctx.sessionManager.getSessionId();
    if (last && last.stopReason === "error") {{
      report("error", {{ session_id: id, reply: String(last.errorMessage || text(last) || "error") }});
    }} else {{
      report("done", {{ session_id: id, reply: last ? text(last) : undefined }});
    }}
  }});
}}
"#
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_extension_is_known_by_its_first_line_and_names_roost_quoted() {
        let text = super::extension(std::path::Path::new("/opt/a \"b\"/roost"));
        assert!(super::is_roost(text.as_bytes()));
        assert!(text.contains(r#"const ROOST = "/opt/a \"b\"/roost";"#));
        assert!(!super::is_roost(b"export default function (pi) {}\n"));
    }
}
