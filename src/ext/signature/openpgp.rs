//! The issuer an OpenPGP signature names: its issuer fingerprint
//! subpacket, else its issuer key id (version 4 to 6 signatures), else the
//! key id of a version 3 one. Nothing is checked: the key is not in the
//! commit, and roost runs no gpg to look for it. Only the first packet's
//! header and subpackets are read.

use super::armor;
use super::reader::Reader;

/// The issuer, in upper-case hex; `None` when the armour holds no
/// signature packet roost can read.
pub fn issuer(body: &[&str]) -> Option<String> {
    // Header lines ("Comment: ...") end at the first empty line, when
    // there is one; the checksum line starts with '='.
    let start = body.iter().position(|l| l.is_empty()).map_or(0, |i| i + 1);
    let lines: Vec<&str> = body[start..]
        .iter()
        .copied()
        .filter(|l| !l.starts_with('='))
        .collect();
    let bytes = armor::decode(&lines)?;
    let packet = signature_packet(&bytes)?;
    from_packet(packet)
}

/// The body of the first packet, when it is a signature packet (tag 2).
fn signature_packet(bytes: &[u8]) -> Option<&[u8]> {
    let mut r = Reader::new(bytes);
    let first = r.u8()?;
    if first & 0x80 == 0 {
        return None;
    }
    let (tag, len) = if first & 0x40 != 0 {
        let tag = first & 0x3f;
        let o1 = usize::from(r.u8()?);
        let len = match o1 {
            0..=191 => o1,
            192..=223 => ((o1 - 192) << 8) + usize::from(r.u8()?) + 192,
            255 => r.u32()?,
            _ => return None,
        };
        (tag, len)
    } else {
        let tag = (first >> 2) & 0x0f;
        let len = match first & 3 {
            0 => usize::from(r.u8()?),
            1 => r.u16()?,
            2 => r.u32()?,
            _ => r.rest().len(),
        };
        (tag, len)
    };
    (tag == 2).then_some(())?;
    r.take(len)
}

fn from_packet(packet: &[u8]) -> Option<String> {
    let mut r = Reader::new(packet);
    match r.u8()? {
        3 => {
            // length of hashed material (5), type, time (4), key id.
            r.take(7)?;
            Some(hex(r.take(8)?))
        }
        version @ 4..=6 => {
            r.take(3)?;
            let wide = version == 6;
            let mut key_id = None;
            for _ in 0..2 {
                let n = if wide { r.u32()? } else { r.u16()? };
                let mut area = Reader::new(r.take(n)?);
                while !area.is_empty() {
                    let o1 = usize::from(area.u8()?);
                    let len = match o1 {
                        0..=191 => o1,
                        192..=254 => ((o1 - 192) << 8) + usize::from(area.u8()?) + 192,
                        _ => area.u32()?,
                    };
                    let sub = area.take(len)?;
                    match sub.split_first() {
                        Some((kind, rest)) if kind & 0x7f == 33 && rest.len() > 1 => {
                            return Some(hex(&rest[1..]));
                        }
                        Some((kind, rest)) if kind & 0x7f == 16 && rest.len() == 8 => {
                            key_id.get_or_insert_with(|| hex(rest));
                        }
                        _ => {}
                    }
                }
            }
            key_id
        }
        _ => None,
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A v4 signature packet (new format) whose hashed area holds an issuer
    /// fingerprint and whose unhashed area holds the key id.
    fn packet(hashed: &[u8], unhashed: &[u8]) -> Vec<u8> {
        let mut body = vec![4, 0x00, 22, 10];
        body.extend_from_slice(&(hashed.len() as u16).to_be_bytes());
        body.extend_from_slice(hashed);
        body.extend_from_slice(&(unhashed.len() as u16).to_be_bytes());
        body.extend_from_slice(unhashed);
        body.extend_from_slice(&[0xab, 0xcd, 0, 0]);
        let mut p = vec![0xc2, body.len() as u8];
        p.extend(body);
        p
    }

    #[test]
    fn the_fingerprint_is_preferred_to_the_key_id_and_either_is_read() {
        let mut fpr = vec![22, 33, 4];
        fpr.extend(0x10..0x24u8);
        let keyid = [9, 16, 1, 2, 3, 4, 5, 6, 7, 8];
        let both = packet(&fpr, &keyid);
        let armoured = armor::encode(&both);
        assert_eq!(
            issuer(&["Comment: x", "", &armoured, "=abcd"]).unwrap(),
            "101112131415161718191A1B1C1D1E1F20212223"
        );
        let only_id = armor::encode(&packet(&[], &keyid));
        assert_eq!(issuer(&[&only_id]).unwrap(), "0102030405060708");
        // Cut short anywhere: nothing, and no panic.
        for n in 0..both.len() {
            let _ = issuer(&[&armor::encode(&both[..n])]);
        }
        assert_eq!(issuer(&[&armor::encode(&packet(&[], &[]))]), None);
    }
}
