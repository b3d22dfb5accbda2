//! Reading and writing options: a pane's, any bytes stored so that every
//! tmux gives them back unchanged and values of any length set in one
//! step; and the server's global ones.

use super::client::{Tmux, TmuxError, TmuxResult};
use super::literal;
use std::ffi::OsStr;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;

/// The longest argument roost hands tmux: the client packs a command's
/// arguments into one 16 KiB message and refuses anything longer.
const MAX_ARG: usize = 8 * 1024;

impl Tmux {
    /// One global option of the server (`None` when unset or unknown to
    /// this tmux).
    pub fn global_option(&self, name: &str) -> TmuxResult<Option<String>> {
        let out = self.run(&["show-options", "-gqv", name])?;
        let value = out.strip_suffix('\n').unwrap_or(&out);
        Ok((!value.is_empty()).then(|| value.to_string()))
    }

    /// Text stored with `set_pane_text`, byte for byte, `None` when unset.
    pub fn pane_text(&self, pane_id: &str, name: &str) -> TmuxResult<Option<Vec<u8>>> {
        Ok(self
            .pane_option(pane_id, name)?
            .map(|stored| verbatim::decode(stored.as_bytes())))
    }

    /// Stores any bytes in a pane option so that every tmux gives them back
    /// unchanged: tmux 3.4 writes a backslash before `$NAME` and `${` in a
    /// value as it stores it, and a client outside UTF-8 gets other bytes
    /// rewritten. Everything but plain ASCII text is stored escaped.
    pub fn set_pane_text(&self, pane_id: &str, name: &str, text: &[u8]) -> TmuxResult<()> {
        let stored = verbatim::encode(text);
        self.set_pane_option(pane_id, name, OsStr::new(&stored))
    }

    /// One format expanded for one pane (`display-message -p`); a format
    /// this tmux does not know expands to nothing.
    pub(super) fn pane_format(&self, pane_id: &str, format: &str) -> TmuxResult<String> {
        let out = self.run(&["display-message", "-p", "-t", pane_id, format])?;
        Ok(out.strip_suffix('\n').unwrap_or(&out).to_string())
    }

    /// Sets several options of one pane, each to its value as it is, in
    /// one tmux command.
    pub fn set_pane_options(&self, pane_id: &str, options: &[(&str, &str)]) -> TmuxResult<()> {
        let mut args: Vec<&str> = Vec::new();
        for (name, value) in options {
            if !args.is_empty() {
                args.push(";");
            }
            args.extend(["set-option", "-p", "-t", pane_id, name, value]);
        }
        if args.is_empty() {
            return Ok(());
        }
        self.run(&args).map(drop)
    }

    /// One option of one pane (pane scope only), `None` when unset.
    pub fn pane_option(&self, pane_id: &str, name: &str) -> TmuxResult<Option<String>> {
        let out = self.run(&["show-options", "-pqv", "-t", pane_id, name])?;
        let value = out.strip_suffix('\n').unwrap_or(&out);
        Ok((!value.is_empty()).then(|| value.to_string()))
    }

    /// Sets a pane option to any value, in one step, so a reader never sees
    /// half of it. A value too long for one tmux command (an agent's whole
    /// reply) goes through a private temporary file that the server reads
    /// as one `set-option` (`source-file`): one tmux call whatever its
    /// length. A long value that a config line cannot hold as it is (bytes
    /// outside printable ASCII, or `'`), or one that file could not carry,
    /// is built in a staging option piece by piece instead, then copied.
    pub fn set_pane_option(&self, pane_id: &str, name: &str, value: &OsStr) -> TmuxResult<()> {
        let bytes = value.as_bytes();
        if bytes.len() <= MAX_ARG {
            return self.set_pane_option_part(pane_id, name, value, false);
        }
        let quotable = |b: &[u8]| b.iter().all(|&b| (0x20..0x7f).contains(&b) && b != b'\'');
        // Should the file not be read (a temporary directory whose path tmux
        // reads as a pattern), the slow way still stores it.
        if quotable(bytes)
            && quotable(pane_id.as_bytes())
            && quotable(name.as_bytes())
            && self.set_pane_option_sourced(pane_id, name, bytes).is_ok()
        {
            return Ok(());
        }
        let mut rest = bytes;
        let staging = format!("{name}-staging");
        let mut append = false;
        while !rest.is_empty() {
            let mut cut = rest.len().min(MAX_ARG);
            // Keep UTF-8 characters whole.
            while cut < rest.len() && cut > 1 && rest[cut] & 0xC0 == 0x80 {
                cut -= 1;
            }
            let (part, tail) = rest.split_at(cut);
            self.set_pane_option_part(pane_id, &staging, OsStr::from_bytes(part), append)?;
            rest = tail;
            append = true;
        }
        let copied = self.run(&[
            "set-option",
            "-p",
            "-F",
            "-t",
            pane_id,
            name,
            &format!("#{{{staging}}}"),
        ]);
        let _ = self.run(&["set-option", "-p", "-u", "-t", pane_id, &staging]);
        copied.map(drop)
    }

    /// `set-option -p -t PANE NAME 'VALUE'` as the one line of a file only
    /// this user can read, which the server sources: `value` is printable
    /// ASCII without `'`, so single quotes hold it as it is.
    fn set_pane_option_sourced(&self, pane_id: &str, name: &str, value: &[u8]) -> TmuxResult<()> {
        let temp = |e: std::io::Error| TmuxError(format!("cannot write a temporary file: {e}"));
        let mut file = tempfile::Builder::new()
            .prefix("roost-option-")
            .tempfile()
            .map_err(temp)?;
        let mut line = Vec::with_capacity(value.len() + 64);
        line.extend_from_slice(format!("set-option -p -t '{pane_id}' '{name}' '").as_bytes());
        line.extend_from_slice(value);
        line.extend_from_slice(b"'\n");
        file.write_all(&line)
            .and_then(|()| file.flush())
            .map_err(temp)?;
        let path = file.path().as_os_str();
        let args: [&OsStr; 2] = ["source-file".as_ref(), path];
        self.run(&args).map(drop)
    }

    fn set_pane_option_part(
        &self,
        pane_id: &str,
        name: &str,
        value: &OsStr,
        append: bool,
    ) -> TmuxResult<()> {
        let flags = if append { "-pa" } else { "-p" };
        let args: [&OsStr; 6] = [
            "set-option".as_ref(),
            flags.as_ref(),
            "-t".as_ref(),
            pane_id.as_ref(),
            name.as_ref(),
            &literal::word(value),
        ];
        self.run(&args).map(drop)
    }
}

/// The escaping of `set_pane_text`: `%XX` (two upper-case hex digits) for
/// every byte outside printable ASCII and for the characters a tmux version
/// treats specially anywhere (`$ % \\ # ; { } ' " ~`).
/// `text` as `Tmux::set_pane_text` stores it.
pub(super) fn encode(text: &[u8]) -> String {
    verbatim::encode(text)
}

mod verbatim {
    fn kept(b: u8) -> bool {
        (0x20..0x7f).contains(&b) && !b"$%\\#;{}'\"~".contains(&b)
    }

    pub fn encode(text: &[u8]) -> String {
        let mut out = String::with_capacity(text.len());
        for &b in text {
            if kept(b) {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        out
    }

    pub fn decode(stored: &[u8]) -> Vec<u8> {
        let hex = |b: u8| (b as char).to_digit(16);
        let mut out = Vec::with_capacity(stored.len());
        let mut i = 0;
        while i < stored.len() {
            let pair = stored
                .get(i + 1)
                .copied()
                .and_then(hex)
                .zip(stored.get(i + 2).copied().and_then(hex));
            match (stored[i], pair) {
                (b'%', Some((hi, lo))) => {
                    out.push((hi * 16 + lo) as u8);
                    i += 3;
                }
                (b, _) => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pane_text_is_stored_as_plain_ascii_and_comes_back_byte_for_byte() {
        let text: Vec<u8> =
            b"echo $HOME and ${PATH} #{x} \\b 100% \"q\" 'q' ~;\t\n\xc3\xa9\xff".to_vec();
        let stored = verbatim::encode(&text);
        assert!(stored.bytes().all(|b| (0x20..0x7f).contains(&b)));
        assert!(
            !stored.contains(['$', '#', '{', '\\', '\'', '"']),
            "{stored}"
        );
        assert_eq!(verbatim::decode(stored.as_bytes()), text);
        assert_eq!(
            verbatim::encode(b"plain words, kept."),
            "plain words, kept."
        );
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(verbatim::decode(verbatim::encode(&all).as_bytes()), all);
    }
}
