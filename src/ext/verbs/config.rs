//! `roost ext config NAME [KEY [VALUE]] [--unset KEY] [--json]`: show an
//! extension's settings, or set or unset one (a secret read from stdin or
//! a prompt, never from the command line).

use crate::cli::model::ConfigArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::dirs;
use crate::ext::error::{At, ExtError};
use crate::ext::settings::effective::{Origin, Row};
use crate::ext::settings::{check, edit, prompt, Kind};
use crate::untrusted::printable;

const CMD: &str = "ext config";

pub fn run(a: ConfigArgs) -> Result<Exit> {
    let name = a.name;
    if a.unset.is_some() && a.key.is_some() {
        return Err(Error::usage(CMD, "--unset KEY takes no other KEY"));
    }
    if a.json && (a.unset.is_some() || a.value.is_some()) {
        return Err(Error::usage(CMD, "--json only shows; it sets nothing"));
    }
    let paths = dirs::paths().at(CMD)?;
    let now = edit::read(&paths, &name).at(CMD)?;
    if let Some(key) = a.unset {
        let was = edit::unset(&paths, &name, &key).at(CMD)?;
        // A key kept in values.json is whatever that file says.
        let key = printable(key.as_bytes());
        match was {
            true => println!("{name}: unset {key}"),
            false => println!("{name}: {key} was not set"),
        }
        return Ok(Exit::Ok);
    }
    let Some(key) = a.key else {
        show(&name, &paths, &now.rows, a.json);
        return Ok(Exit::Ok);
    };
    let setting = edit::declared(&name, &now.declared, &key).at(CMD)?;
    match (a.value, &setting.kind) {
        (Some(_), Kind::Secret) => Err(ExtError::refused(format!(
            "{key} is a secret, and a secret is never taken on the command line: \
             shell history, ps and an agent's transcript would keep it"
        ))
        .hint(format!(
            "give it on stdin (printf '%s' \"$TOKEN\" | roost ext config {name} {key}), \
             or run `roost ext config {name} {key}` on a terminal to type it unseen"
        ))
        .at(CMD)),
        (Some(value), _) => {
            let stored = edit::set(&paths, &name, &key, &value).at(CMD)?;
            println!(
                "{name}: {key} = {}",
                printable(stored.unwrap_or_default().as_bytes())
            );
            Ok(Exit::Ok)
        }
        (None, Kind::Secret) => {
            let secret = prompt::read_secret(&key, &setting.label).at(CMD)?;
            edit::set(&paths, &name, &key, &secret).at(CMD)?;
            println!(
                "{name}: {key} set (kept in {}, readable by you alone)",
                crate::untrusted::path(&paths.ext_secrets(&name))
            );
            Ok(Exit::Ok)
        }
        (None, _) => {
            let rows: Vec<Row> = now.rows.into_iter().filter(|r| r.key == key).collect();
            show(&name, &paths, &rows, a.json);
            Ok(Exit::Ok)
        }
    }
}

/// The rows as aligned columns, or JSON.
fn show(name: &str, paths: &crate::paths::Paths, rows: &[Row], json: bool) {
    if json {
        #[derive(serde::Serialize)]
        struct Shown<'a> {
            key: &'a str,
            #[serde(rename = "type")]
            kind: Option<&'static str>,
            value: Option<&'a serde_json::Value>,
            set: bool,
            from: &'static str,
            note: Option<&'a str>,
        }
        #[derive(serde::Serialize)]
        struct All<'a> {
            name: &'a str,
            config: String,
            secrets: String,
            settings: Vec<Shown<'a>>,
        }
        let settings = rows
            .iter()
            .map(|r| Shown {
                key: &r.key,
                kind: r.kind.as_ref().map(Kind::name),
                value: r.value.as_ref(),
                set: matches!(r.origin, Origin::Set | Origin::NotDeclared),
                from: match r.origin {
                    Origin::Set => "set",
                    Origin::Default => "default",
                    Origin::Unset => "unset",
                    Origin::NotDeclared => "not-declared",
                    Origin::Fallback(_) => "default",
                },
                note: match &r.origin {
                    Origin::Fallback(why) => Some(why),
                    _ => None,
                },
            })
            .collect();
        let all = All {
            name,
            config: paths.ext_config(name).display().to_string(),
            secrets: paths.ext_secrets(name).display().to_string(),
            settings,
        };
        println!("{}", crate::untrusted::json(&all));
        return;
    }
    if rows.is_empty() {
        println!("{name} has no settings");
        return;
    }
    let value = |r: &Row| match (&r.kind, &r.value) {
        (Some(Kind::Secret), _) => "(secret)".to_string(),
        (_, Some(v)) => printable(check::as_text(v).as_bytes()),
        (_, None) => "-".to_string(),
    };
    let key = |r: &Row| printable(r.key.as_bytes());
    let kw = rows
        .iter()
        .map(|r| key(r).chars().count())
        .max()
        .unwrap_or(0)
        .max(3);
    let vw = rows
        .iter()
        .map(|r| value(r).chars().count())
        .max()
        .unwrap_or(0)
        .max(5);
    println!("{:<kw$}  {:<vw$}  FROM", "KEY", "VALUE");
    for r in rows {
        let line = format!("{:<kw$}  {:<vw$}  {}", key(r), value(r), r.origin.words());
        println!("{}", line.trim_end());
    }
}
