//! Where an extension's settings live, `$ROOST_EXT_CONFIG` =
//! `${XDG_CONFIG_HOME}/roost/ext/NAME` (owner-only), and keeping
//! settings.env in step with values.json and the declaration consented to.

use super::declaration::Setting;
use super::{effective, env_file, secrets, values};
use crate::ext::error::ExtError;
use crate::fsutil;
use crate::paths::Paths;

/// Writes NAME's settings.env again from its values and `declared`
/// (install, update, rollback, config): the configuration directory is
/// made owner-only when it is new.
pub fn refresh(paths: &Paths, name: &str, declared: &[Setting]) -> Result<(), ExtError> {
    let config = paths.ext_config(name);
    // An extension that declares none, and never had any, gets no
    // directory: nothing for it to read, nothing for remove to keep.
    if declared.is_empty() && !config.exists() {
        return Ok(());
    }
    let fail = |e: std::io::Error| {
        ExtError::failed(format!(
            "cannot write {}: {}",
            crate::untrusted::path(&config),
            fsutil::io_words(&e)
        ))
    };
    fsutil::make_dirs(&config, secrets::DIR_MODE).map_err(fail)?;
    let values = values::read(&config)?;
    let secrets_dir = paths.ext_secrets(name);
    let rows = effective::rows(declared, &values, |k| secrets::is_set(&secrets_dir, k));
    let text = env_file::render(name, &rows);
    let path = config.join(env_file::FILE);
    fsutil::write_if_changed(&path, text.as_bytes(), 0o600).map_err(|e| {
        ExtError::failed(format!(
            "cannot write {}: {}",
            crate::untrusted::path(&path),
            fsutil::io_words(&e)
        ))
    })
}

/// `refresh`, after the change was recorded: a failure does not undo it,
/// and is said on stderr with what to do.
pub fn refresh_or_warn(paths: &Paths, name: &str, declared: &[Setting]) {
    if let Err(e) = refresh(paths, name, declared) {
        eprintln!("roost ext: {name}: {}", e.message());
        eprintln!("(`roost ext config {name}` writes its settings.env again once that is fixed)");
    }
}

/// After an install: settings.env written, and where the settings are
/// said when it declares any.
pub fn installed(paths: &Paths, name: &str, declared: &[Setting]) {
    refresh_or_warn(paths, name, declared);
    if !declared.is_empty() {
        println!(
            "its settings: {} (roost ext config {name} shows and sets them)",
            crate::untrusted::path(&paths.ext_config(name))
        );
    }
}

/// After `remove`: its configuration and secrets deleted with `purge`,
/// else kept, and where said.
pub fn removed(paths: &Paths, name: &str, purge: bool) -> Result<(), ExtError> {
    let config = paths.ext_config(name);
    let shown = crate::untrusted::path(&config);
    if purge {
        if purge_config(paths, name)? {
            println!("deleted its settings and secrets: {shown}");
        }
    } else if config.exists() {
        println!("kept its settings and secrets: {shown}");
        println!("(roost ext remove {name} --purge deletes them)");
    }
    Ok(())
}

/// Deletes NAME's configuration and secrets (`remove --purge`); whether
/// there was any.
fn purge_config(paths: &Paths, name: &str) -> Result<bool, ExtError> {
    let config = paths.ext_config(name);
    match std::fs::remove_dir_all(&config) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(ExtError::failed(format!(
            "cannot delete {}: {}",
            crate::untrusted::path(&config),
            fsutil::io_words(&e)
        ))),
    }
}
