//! JSON kept as the user wrote it: a scanner that knows where every value
//! sits in the text, and edits spliced into that text, so every byte roost
//! does not change (numbers, escapes, spacing, key order) stays as it was.
//! It refuses what an agent would read differently from roost: a key that
//! appears twice in one object (the agents keep the last), and anything
//! that is not strict JSON.

use std::fmt;

/// Deeper nesting is refused (no agent's settings come near it, and the
/// scanner recurses).
const MAX_DEPTH: usize = 128;

/// One value and where it sits: `text[start..end]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    pub start: usize,
    pub end: usize,
    pub kind: Kind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Object(Vec<Member>),
    Array(Vec<Value>),
    /// A string, decoded.
    String(String),
    /// A number, `true`, `false` or `null`, kept as its text.
    Other,
}

/// One member of an object: its key (decoded), where the key's opening
/// quote is, and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub key: String,
    pub start: usize,
    pub value: Value,
}

/// Why a text cannot be edited as JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonError {
    /// Not JSON: what was found, at which line and column.
    Syntax {
        line: usize,
        column: usize,
        what: &'static str,
    },
    /// A key twice in one object: the agents read the last one.
    Duplicate { key: String, within: String },
    /// Valid JSON, but not an object at the top.
    NotObject,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            JsonError::Syntax { line, column, what } => {
                write!(f, "it is not JSON ({what} at line {line}, column {column})")
            }
            JsonError::Duplicate { key, within } => write!(
                f,
                "the key \"{key}\" appears twice in {within}, and the agent reads only the last one"
            ),
            JsonError::NotObject => f.write_str("it is JSON but not an object"),
        }
    }
}

impl Value {
    pub fn members(&self) -> &[Member] {
        match &self.kind {
            Kind::Object(m) => m,
            _ => &[],
        }
    }

    pub fn items(&self) -> &[Value] {
        match &self.kind {
            Kind::Array(v) => v,
            _ => &[],
        }
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.members()
            .iter()
            .find(|m| m.key == key)
            .map(|m| &m.value)
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_object(&self) -> bool {
        matches!(self.kind, Kind::Object(_))
    }

    pub fn is_array(&self) -> bool {
        matches!(self.kind, Kind::Array(_))
    }

    /// The value at `path` (member keys, from here).
    pub fn at(&self, path: &[&str]) -> Option<&Value> {
        path.iter().try_fold(self, |v, key| v.get(key))
    }
}

/// The top-level object of `text`, or `None` when the text is empty or
/// blank (a file that holds nothing yet).
pub fn parse(text: &str) -> Result<Option<Value>, JsonError> {
    let mut p = Scanner {
        b: text.as_bytes(),
        i: 0,
        depth: 0,
        path: Vec::new(),
    };
    p.ws();
    if p.i == p.b.len() {
        return Ok(None);
    }
    let v = p.value()?;
    p.ws();
    if p.i != p.b.len() {
        return Err(p.err("text after the end of the document"));
    }
    if !v.is_object() {
        return Err(JsonError::NotObject);
    }
    Ok(Some(v))
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
    depth: usize,
    /// The keys leading to where the scanner is, for messages.
    path: Vec<String>,
}

impl Scanner<'_> {
    fn err(&self, what: &'static str) -> JsonError {
        let before = &self.b[..self.i.min(self.b.len())];
        let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
        let from = before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1);
        let column = String::from_utf8_lossy(&before[from..]).chars().count() + 1;
        JsonError::Syntax { line, column, what }
    }

    fn ws(&mut self) {
        while self
            .b
            .get(self.i)
            .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.b.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<Value, JsonError> {
        let start = self.i;
        let kind = match self.b.get(self.i) {
            Some(b'{') => self.nested(Scanner::object)?,
            Some(b'[') => self.nested(Scanner::array)?,
            Some(b'"') => Kind::String(self.string()?),
            Some(b'-' | b'0'..=b'9') => {
                self.number()?;
                Kind::Other
            }
            Some(b't') => self.word("true")?,
            Some(b'f') => self.word("false")?,
            Some(b'n') => self.word("null")?,
            Some(b'/') => return Err(self.err("a comment")),
            Some(_) => return Err(self.err("an unexpected character")),
            None => return Err(self.err("the end of the text")),
        };
        Ok(Value {
            start,
            end: self.i,
            kind,
        })
    }

    fn nested(
        &mut self,
        inner: fn(&mut Self) -> Result<Kind, JsonError>,
    ) -> Result<Kind, JsonError> {
        if self.depth == MAX_DEPTH {
            return Err(self.err("nesting deeper than 128 levels"));
        }
        self.depth += 1;
        let kind = inner(self);
        self.depth -= 1;
        kind
    }

    fn word(&mut self, w: &'static str) -> Result<Kind, JsonError> {
        if self.b[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(Kind::Other)
        } else {
            Err(self.err("an unexpected word"))
        }
    }

    fn digits(&mut self) -> usize {
        let from = self.i;
        while self.b.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        self.i - from
    }

    fn number(&mut self) -> Result<(), JsonError> {
        self.eat(b'-');
        if self.eat(b'0') {
            if self.b.get(self.i).is_some_and(u8::is_ascii_digit) {
                return Err(self.err("a number with a leading zero"));
            }
        } else if self.digits() == 0 {
            return Err(self.err("a malformed number"));
        }
        if self.eat(b'.') && self.digits() == 0 {
            return Err(self.err("a malformed number"));
        }
        if self.eat(b'e') || self.eat(b'E') {
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            if self.digits() == 0 {
                return Err(self.err("a malformed number"));
            }
        }
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self
            .b
            .get(self.i..self.i + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| self.err("a malformed \\u escape"))?;
        self.i += 4;
        Ok(digits)
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let from = self.i;
            while self
                .b
                .get(self.i)
                .is_some_and(|&c| c != b'"' && c != b'\\' && c >= 0x20)
            {
                self.i += 1;
            }
            // The text is a &str, so a run between ASCII stops is UTF-8.
            out.push_str(std::str::from_utf8(&self.b[from..self.i]).unwrap_or_default());
            match self.b.get(self.i) {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let c = self.b.get(self.i).copied();
                    self.i += 1;
                    match c {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let hi = self.hex4()?;
                            let code = if (0xd800..0xdc00).contains(&hi)
                                && self.b[self.i..].starts_with(b"\\u")
                            {
                                let back = self.i;
                                self.i += 2;
                                let lo = self.hex4()?;
                                if (0xdc00..0xe000).contains(&lo) {
                                    0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                                } else {
                                    self.i = back;
                                    hi
                                }
                            } else {
                                hi
                            };
                            out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                        }
                        _ => {
                            self.i -= 1;
                            return Err(self.err("a malformed escape"));
                        }
                    }
                }
                Some(_) => return Err(self.err("a control character in a string")),
                None => return Err(self.err("a string that does not end")),
            }
        }
    }

    fn object(&mut self) -> Result<Kind, JsonError> {
        self.i += 1;
        let mut members: Vec<Member> = Vec::new();
        self.ws();
        if self.eat(b'}') {
            return Ok(Kind::Object(members));
        }
        loop {
            self.ws();
            if self.b.get(self.i) != Some(&b'"') {
                return Err(self.err("a key that is not a string"));
            }
            let start = self.i;
            let key = self.string()?;
            if members.iter().any(|m| m.key == key) {
                return Err(JsonError::Duplicate {
                    key,
                    within: self.within(),
                });
            }
            self.ws();
            if !self.eat(b':') {
                return Err(self.err("a key without ':'"));
            }
            self.ws();
            self.path.push(key.clone());
            let value = self.value()?;
            self.path.pop();
            members.push(Member { key, start, value });
            self.ws();
            if self.eat(b'}') {
                return Ok(Kind::Object(members));
            }
            if !self.eat(b',') {
                return Err(self.err("a missing ',' or '}'"));
            }
        }
    }

    fn array(&mut self) -> Result<Kind, JsonError> {
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.eat(b']') {
            return Ok(Kind::Array(items));
        }
        loop {
            self.ws();
            self.path.push(format!("[{}]", items.len()));
            items.push(self.value()?);
            self.path.pop();
            self.ws();
            if self.eat(b']') {
                return Ok(Kind::Array(items));
            }
            if !self.eat(b',') {
                return Err(self.err("a missing ',' or ']'"));
            }
        }
    }

    /// Where the scanner is, for a message: `the top-level object`, or the
    /// keys down to it (`"hooks"."Stop"[0]`).
    fn within(&self) -> String {
        if self.path.is_empty() {
            return "the top-level object".into();
        }
        let mut out = String::new();
        for key in &self.path {
            if key.starts_with('[') {
                out.push_str(key);
            } else {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&format!("\"{key}\""));
            }
        }
        out
    }
}

/// How the document lays itself out, so what roost adds looks like the rest.
struct Layout<'a> {
    text: &'a str,
    /// One level of indentation (two spaces when the document does not say).
    unit: String,
    /// Whether the document spreads over lines at all.
    pretty: bool,
}

impl<'a> Layout<'a> {
    fn of(text: &'a str, root: &Value) -> Layout<'a> {
        let pretty = text[root.start..root.end].contains('\n');
        let unit = root
            .members()
            .first()
            .map(|m| line_indent(text, m.start))
            .filter(|u| !u.is_empty() && text[root.start..root.members()[0].start].contains('\n'))
            .unwrap_or("  ")
            .to_string();
        Layout { text, unit, pretty }
    }

    /// The indentation of the elements of `container`.
    fn child_indent(&self, container: &Value, first: Option<usize>) -> String {
        match first {
            Some(at) if self.text[container.start..at].contains('\n') => {
                line_indent(self.text, at).to_string()
            }
            _ => format!("{}{}", line_indent(self.text, container.start), self.unit),
        }
    }

    /// `value` as JSON text, laid out for a place indented by `indent`.
    fn render(&self, value: &impl serde::Serialize, indent: &str) -> String {
        if !self.pretty {
            return serde_json::to_string(value).expect("a JSON value serializes");
        }
        let mut bytes = Vec::new();
        let fmt = serde_json::ser::PrettyFormatter::with_indent(self.unit.as_bytes());
        let mut ser = serde_json::Serializer::with_formatter(&mut bytes, fmt);
        serde::Serialize::serialize(value, &mut ser).expect("a JSON value serializes");
        let text = String::from_utf8(bytes).expect("serde_json writes UTF-8");
        text.replace('\n', &format!("\n{indent}"))
    }
}

/// The blanks that start the line `at` is on.
fn line_indent(text: &str, at: usize) -> &str {
    let from = text[..at].rfind('\n').map_or(0, |p| p + 1);
    let line = &text[from..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

fn splice(text: &str, from: usize, to: usize, with: &str) -> String {
    let mut out = String::with_capacity(text.len() + with.len());
    out.push_str(&text[..from]);
    out.push_str(with);
    out.push_str(&text[to..]);
    out
}

/// `text` (whose top-level object is `root`) with `value` added at the end
/// of the array `array`.
pub fn push_item(text: &str, root: &Value, array: &Value, value: &impl serde::Serialize) -> String {
    let layout = Layout::of(text, root);
    let items = array.items();
    let indent = layout.child_indent(array, items.first().map(|v| v.start));
    let rendered = layout.render(value, &indent);
    match items.last() {
        Some(last) => {
            let gap = gap_before(text, array, last.start);
            splice(text, last.end, last.end, &format!(",{gap}{rendered}"))
        }
        None => fill_empty(text, &layout, array, &indent, &rendered),
    }
}

/// `text` with the member `key: value` added at the end of `object`.
pub fn push_member(
    text: &str,
    root: &Value,
    object: &Value,
    key: &str,
    value: &impl serde::Serialize,
) -> String {
    let layout = Layout::of(text, root);
    let members = object.members();
    let indent = layout.child_indent(object, members.first().map(|m| m.start));
    let colon = match members.first() {
        Some(m) => {
            let after_key = key_end(text, m.start);
            text[after_key..m.value.start].to_string()
        }
        None if layout.pretty => ": ".to_string(),
        None => ":".to_string(),
    };
    let key = serde_json::to_string(key).expect("a string serializes");
    let rendered = format!("{key}{colon}{}", layout.render(value, &indent));
    match members.last() {
        Some(last) => {
            let gap = gap_before(text, object, last.start);
            splice(
                text,
                last.value.end,
                last.value.end,
                &format!(",{gap}{rendered}"),
            )
        }
        None => fill_empty(text, &layout, object, &indent, &rendered),
    }
}

/// Where the key that starts at `start` ends (after its closing quote).
fn key_end(text: &str, start: usize) -> usize {
    let b = text.as_bytes();
    let mut i = start + 1;
    while i < b.len() && b[i] != b'"' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

/// The blanks before the element that starts at `at` in `container`
/// (after the `,` or the opening bracket), so a new last element is laid
/// out like it.
fn gap_before(text: &str, container: &Value, at: usize) -> String {
    let from = text[..at]
        .rfind(|c: char| !matches!(c, ' ' | '\t' | '\n' | '\r'))
        .map_or(0, |p| p + 1);
    text[from.max(container.start + 1)..at].to_string()
}

/// An empty container's inside replaced by one element.
fn fill_empty(
    text: &str,
    layout: &Layout,
    container: &Value,
    indent: &str,
    rendered: &str,
) -> String {
    let inside = if layout.pretty {
        format!(
            "\n{indent}{rendered}\n{}",
            line_indent(text, container.start)
        )
    } else {
        rendered.to_string()
    };
    splice(text, container.start + 1, container.end - 1, &inside)
}

/// `text` without element `n` of `array`, and the separator that went with it.
pub fn remove_item(text: &str, array: &Value, n: usize) -> String {
    let spans: Vec<(usize, usize)> = array.items().iter().map(|v| (v.start, v.end)).collect();
    remove_element(text, array, &spans, n)
}

/// `text` without member `n` of `object`.
pub fn remove_member(text: &str, object: &Value, n: usize) -> String {
    let spans: Vec<(usize, usize)> = object
        .members()
        .iter()
        .map(|m| (m.start, m.value.end))
        .collect();
    remove_element(text, object, &spans, n)
}

fn remove_element(text: &str, container: &Value, spans: &[(usize, usize)], n: usize) -> String {
    match spans.len() {
        1 => splice(text, container.start + 1, container.end - 1, ""),
        _ if n > 0 => splice(text, spans[n - 1].1, spans[n].1, ""),
        _ => splice(text, spans[0].0, spans[1].0, ""),
    }
}

/// Whether two documents say the same in the same words: the same tokens
/// in the same order, blanks between them aside.
pub fn same_tokens(a: &str, b: &str) -> bool {
    tokens(a) == tokens(b)
}

fn tokens(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'"' => {
                let from = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                out.push(&text[from..i]);
            }
            b'{' | b'}' | b'[' | b']' | b',' | b':' => {
                out.push(&text[i..i + 1]);
                i += 1;
            }
            _ => {
                let from = i;
                while i < b.len()
                    && !matches!(
                        b[i],
                        b' ' | b'\t'
                            | b'\n'
                            | b'\r'
                            | b'{'
                            | b'}'
                            | b'['
                            | b']'
                            | b','
                            | b':'
                            | b'"'
                    )
                {
                    i += 1;
                }
                out.push(&text[from..i]);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn root(text: &str) -> Value {
        parse(text).unwrap().unwrap()
    }

    #[test]
    fn positions_and_decoded_strings() {
        let text = r#"{"a": [1, "x\u00e9\ud83d\ude00"], "b": {"c": -0}}"#;
        let r = root(text);
        let a = r.get("a").unwrap();
        assert_eq!(&text[a.start..a.end], r#"[1, "x\u00e9\ud83d\ude00"]"#);
        assert_eq!(a.items()[1].as_str(), Some("x\u{e9}\u{1f600}"));
        let c = r.at(&["b", "c"]).unwrap();
        assert_eq!(&text[c.start..c.end], "-0");
    }

    #[test]
    fn what_an_agent_reads_otherwise_is_refused() {
        assert!(matches!(
            parse(r#"{"hooks": {}, "x": 1, "hooks": {"Stop": []}}"#),
            Err(JsonError::Duplicate { key, within }) if key == "hooks" && within == "the top-level object"
        ));
        let e = parse(r#"{"hooks": {"Stop": [{"hooks": 1, "hooks": 2}]}}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the key \"hooks\" appears twice in \"hooks\".\"Stop\"[0], and the agent reads only the last one"
        );
        for bad in [
            "{\"a\": 1,}",
            "{\"a\": 01}",
            "{// c\n}",
            "[1]",
            "{\"a\": 1} x",
            "{\"a\": \"\t\"}",
            "{\"a\": tru}",
            "\u{feff}{}",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse(" \n").unwrap(), None);
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(200), "]".repeat(200));
        assert!(parse(&deep).is_err());
        let e = parse("{\n  \"a\": 1,\n  \"b\" 2\n}").unwrap_err();
        assert_eq!(
            e.to_string(),
            "it is not JSON (a key without ':' at line 3, column 7)"
        );
    }

    #[test]
    fn items_and_members_are_added_in_the_document_s_own_layout() {
        let text = "{\n    \"n\": 12345678901234567890123,\n    \"l\": [\n        1e2\n    ],\n    \"e\": []\n}\n";
        let r = root(text);
        let t = push_item(text, &r, r.get("l").unwrap(), &json!({"k": true}));
        assert_eq!(
            t,
            "{\n    \"n\": 12345678901234567890123,\n    \"l\": [\n        1e2,\n        {\n            \"k\": true\n        }\n    ],\n    \"e\": []\n}\n"
        );
        let r = root(&t);
        let t = push_item(&t, &r, r.get("e").unwrap(), &json!("x"));
        assert!(t.contains("\"e\": [\n        \"x\"\n    ]\n}"), "{t}");
        let r = root(&t);
        let t = push_member(&t, &r, &r, "z", &json!([]));
        assert!(t.ends_with("    ],\n    \"z\": []\n}\n"), "{t}");
        // On one line, it stays on one line.
        let text = r#"{"a":-0,"b":{}}"#;
        let r = root(text);
        let t = push_member(text, &r, r.get("b").unwrap(), "c", &json!({"d": 1}));
        assert_eq!(t, r#"{"a":-0,"b":{"c":{"d":1}}}"#);
    }

    #[test]
    fn removing_what_was_added_gives_the_bytes_back() {
        let text = "{\n\t\"a\": [\"\\u00e9\", 1.0],\n\t\"b\": {\"x\": 1}\n}";
        let r = root(text);
        let added = push_item(text, &r, r.get("a").unwrap(), &json!({"k": 1}));
        let r2 = root(&added);
        assert_eq!(remove_item(&added, r2.get("a").unwrap(), 2), text);
        let added = push_member(text, &r, r.get("b").unwrap(), "y", &json!(2));
        let r2 = root(&added);
        assert_eq!(remove_member(&added, r2.get("b").unwrap(), 1), text);
        // The first of several, and the only one.
        let t = "{\"a\": [1, 2]}";
        assert_eq!(remove_item(t, root(t).get("a").unwrap(), 0), "{\"a\": [2]}");
        let t = "{\"a\": [ 1 ]}";
        assert_eq!(remove_item(t, root(t).get("a").unwrap(), 0), "{\"a\": []}");
    }

    #[test]
    fn tokens_compare_words_not_blanks() {
        assert!(same_tokens("{\"a\": [1e2]}", "{\n  \"a\":[ 1e2 ]\n}"));
        assert!(!same_tokens("{\"a\": 1e2}", "{\"a\": 100}"));
        assert!(!same_tokens("{\"a\": \"\\u00e9\"}", "{\"a\": \"é\"}"));
    }
}
