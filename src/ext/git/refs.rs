//! The ref listing (protocol v2 `ls-refs`, or the advertisement a v0 or v1
//! server greets with), read one packet line at a time within a bound:
//! only HEAD, branches and tags are asked for (v2), anything else a server
//! sends is dropped, and a listing past `MAX_LISTING_BYTES` is refused
//! before it can grow roost's memory.

use super::cause::{GitError, Result};
use super::chain::{chain, remote, remote_said};
use gix::bstr::{BStr, BString, ByteSlice};
use gix::protocol::handshake::Ref;
use gix::protocol::transport::client::blocking_io::{ReadlineBufRead, TransportV2Ext};
use gix::ObjectId;

/// The refs that are the repository's own: what HEAD points to, its
/// branches and its tags (as ls-refs prefixes).
pub const OWN_REFS: &[&str] = &["HEAD", "refs/heads/", "refs/tags/"];

/// Bytes of ref listing a server may send (a repository with 50,000 tags
/// lists about 4 MiB).
pub const MAX_LISTING_BYTES: u64 = 8 << 20;

/// Whether `name` is one of the repository's own refs.
pub fn own(name: &BStr) -> bool {
    name == "HEAD" || name.starts_with(b"refs/heads/") || name.starts_with(b"refs/tags/")
}

/// The server's greeting: its protocol version and capabilities, and from a
/// server that answers protocol v0 or v1 (an old git, or an ssh server that
/// does not pass the version asked for on), the whole ref advertisement
/// that comes with them, read a packet line at a time and refused past
/// `MAX_LISTING_BYTES`. (gix's own handshake reads it whole.)
pub fn greet(
    transport: &mut impl gix::protocol::transport::client::blocking_io::Transport,
) -> Result<gix::protocol::Handshake> {
    super::watchdog::greeting();
    let response = transport.handshake(gix::protocol::transport::Service::UploadPack, &[]);
    super::watchdog::greeted();
    let response = match response {
        Ok(response) => response,
        // Its kind (credentials asked for among them) read from the error;
        // the words as gix's own handshake says them.
        Err(e) => {
            return Err(remote_said(
                &e,
                format!("Transport handshake failed: {}", chain(&e)),
            ))
        }
    };
    let (refs, shallow) = match response.refs {
        None => (None, None),
        Some(advertised) => {
            let mut lines = BoundedLines {
                inner: advertised,
                read: 0,
            };
            let parsed =
                gix::protocol::handshake::refs::from_v1_refs_received_as_part_of_handshake_and_capabilities(
                    &mut lines,
                    response.capabilities.iter(),
                );
            match parsed {
                Ok((refs, shallow)) => (Some(refs), Some(shallow)),
                Err(_) if lines.read > MAX_LISTING_BYTES => return Err(too_long()),
                Err(e) => return Err(remote(&e)),
            }
        }
    };
    Ok(gix::protocol::Handshake {
        server_protocol_version: response.actual_protocol,
        refs,
        v1_shallow_updates: shallow,
        capabilities: response.capabilities,
    })
}

fn too_long() -> GitError {
    GitError::refused(format!(
        "the server's ref listing passed {}, the limit for one repository",
        super::limits::size(MAX_LISTING_BYTES)
    ))
}

/// A v0/v1 ref advertisement as gix reads it, a packet line at a time,
/// ended with an error once it passes `MAX_LISTING_BYTES`.
struct BoundedLines<'a> {
    inner: Box<dyn ReadlineBufRead + 'a>,
    read: u64,
}

impl BoundedLines<'_> {
    fn over(&self) -> std::io::Error {
        std::io::Error::other(too_long())
    }
}

impl ReadlineBufRead for BoundedLines<'_> {
    fn readline(
        &mut self,
    ) -> Option<
        std::io::Result<
            std::result::Result<
                gix::protocol::transport::packetline::PacketLineRef<'_>,
                gix::Error,
            >,
        >,
    > {
        if self.read > MAX_LISTING_BYTES {
            return Some(Err(self.over()));
        }
        if let Err(e) = super::watchdog::check() {
            return Some(Err(e));
        }
        let line = self.inner.readline()?;
        super::watchdog::progressed();
        if let Ok(Ok(l)) = &line {
            self.read += l.as_slice().map_or(0, |s| s.len()) as u64 + 4;
            if self.read > MAX_LISTING_BYTES {
                return Some(Err(std::io::Error::other(too_long())));
            }
        }
        Some(line)
    }

    fn readline_str(&mut self, line: &mut String) -> std::io::Result<usize> {
        if self.read > MAX_LISTING_BYTES {
            return Err(self.over());
        }
        let n = self.inner.readline_str(line)?;
        self.read += n as u64 + 4;
        Ok(n)
    }
}

impl std::io::Read for BoundedLines<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = std::io::BufRead::fill_buf(self)?.len().min(buf.len());
        buf[..n].copy_from_slice(&self.inner.fill_buf()?[..n]);
        std::io::BufRead::consume(self, n);
        Ok(n)
    }
}

impl std::io::BufRead for BoundedLines<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.read > MAX_LISTING_BYTES {
            return Err(self.over());
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.read += n as u64;
        self.inner.consume(n);
    }
}

/// Lists the repository's own refs over `transport` (protocol v2).
pub fn list(
    transport: &mut impl gix::protocol::transport::client::blocking_io::Transport,
    capabilities: &gix::protocol::transport::client::Capabilities,
    agent: gix::protocol::command::Feature,
) -> Result<Vec<Ref>> {
    let command = gix::protocol::Command::LsRefs;
    let mut features =
        command.default_features(gix::protocol::transport::Protocol::V2, capabilities);
    features.push(agent);
    let mut arguments = command.initial_v2_arguments(&features);
    arguments.extend(
        OWN_REFS
            .iter()
            .map(|p| BString::from(format!("ref-prefix {p}"))),
    );
    let mut reader = transport
        .invoke(
            command.as_str(),
            features.into_iter(),
            Some(arguments.into_iter()),
            false,
        )
        .map_err(|e| super::watchdog::explain(remote(&e)))?;
    let mut read = 0u64;
    let mut refs = Vec::new();
    while let Some(line) = reader.readline() {
        let line = line
            .map_err(|e| super::watchdog::explain(remote(&e)))?
            .map_err(|e| super::watchdog::explain(remote(&e)))?;
        super::watchdog::check().map_err(|e| GitError::new(e.to_string()))?;
        super::watchdog::progressed();
        let Some(text) = line.as_bstr() else {
            continue;
        };
        read += text.len() as u64 + 4;
        if read > MAX_LISTING_BYTES {
            return Err(too_long());
        }
        if let Some(r) = parse(text)? {
            refs.push(r);
        }
    }
    Ok(refs)
}

/// One line of an ls-refs answer: `ID NAME [symref-target:T] [peeled:ID]`
/// (ID `unborn` for an unborn HEAD). `None` for a ref not the repository's
/// own.
fn parse(line: &BStr) -> Result<Option<Ref>> {
    let line = line.trim_end();
    let bad = || {
        GitError::new(format!(
            "the server sent a ref line roost cannot read: {}",
            crate::untrusted::printable(&line[..line.len().min(200)])
        ))
    };
    let mut words = line.split(|&b| b == b' ');
    let (Some(id), Some(name)) = (words.next(), words.next()) else {
        return Err(bad());
    };
    if name.is_empty() {
        return Err(bad());
    }
    if !own(name.as_bstr()) {
        return Ok(None);
    }
    let hex = |h: &[u8]| ObjectId::from_hex(h).map_err(|_| bad());
    let (mut target, mut peeled) = (None, None);
    for attribute in words {
        if let Some(t) = attribute.strip_prefix(b"symref-target:") {
            target = Some(BString::from(t));
        } else if let Some(p) = attribute.strip_prefix(b"peeled:") {
            peeled = Some(hex(p)?);
        } else {
            return Err(bad());
        }
    }
    let full_ref_name = BString::from(name);
    if id == b"unborn" {
        return Ok(target.map(|target| Ref::Unborn {
            full_ref_name,
            target,
        }));
    }
    let id = hex(id)?;
    Ok(Some(match (target, peeled) {
        (Some(target), peeled) => Ref::Symbolic {
            full_ref_name,
            target,
            tag: peeled.map(|_| id),
            object: peeled.unwrap_or(id),
        },
        (None, Some(object)) => Ref::Peeled {
            full_ref_name,
            tag: id,
            object,
        },
        (None, None) => Ref::Direct {
            full_ref_name,
            object: id,
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "1111111111111111111111111111111111111111";
    const B: &str = "2222222222222222222222222222222222222222";

    #[test]
    fn lines_are_read_as_ls_refs_writes_them_and_others_dropped() {
        let p = |s: &str| parse(s.as_bytes().as_bstr());
        assert!(matches!(
            p(&format!("{A} HEAD symref-target:refs/heads/main\n")).unwrap(),
            Some(Ref::Symbolic { ref target, .. }) if target == "refs/heads/main"
        ));
        assert!(matches!(
            p(&format!("{A} refs/tags/v1 peeled:{B}")).unwrap(),
            Some(Ref::Peeled { object, .. }) if object == ObjectId::from_hex(B.as_bytes()).unwrap()
        ));
        assert!(matches!(
            p(&format!("{A} refs/heads/main")).unwrap(),
            Some(Ref::Direct { .. })
        ));
        assert!(matches!(
            p("unborn HEAD symref-target:refs/heads/main").unwrap(),
            Some(Ref::Unborn { .. })
        ));
        assert!(p(&format!("{A} refs/pull/1/head")).unwrap().is_none());
        assert!(p(&format!("{A} refs/heads-not/x")).unwrap().is_none());
        assert!(p("nonsense").is_err());
        assert!(p(&format!("{A} refs/heads/x what:ever")).is_err());
    }
}
