//! The identity an X.509 (CMS) commit signature's certificate claims: the
//! first e-mail address or URI of its subject alternative names, else its
//! subject's e-mail address or common name. Claimed, not checked: roost
//! holds no certificate authority to check it against. A small DER walk
//! over the first certificate of the SignedData.

use super::armor;
use super::reader::Reader;

/// id-signedData, and the OIDs read from a certificate.
const SIGNED_DATA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02];
const SUBJECT_ALT_NAME: &[u8] = &[0x55, 0x1d, 0x11];
const COMMON_NAME: &[u8] = &[0x55, 0x04, 0x03];
const EMAIL: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x01];

/// The identity claimed; `None` when no certificate or name can be read.
pub fn claimed(body: &[&str]) -> Option<String> {
    let der = armor::decode(body)?;
    let (_, content_info) = tlv(&mut Reader::new(&der))?;
    let mut ci = Reader::new(content_info);
    let (_, oid) = tlv(&mut ci)?;
    if oid != SIGNED_DATA {
        return None;
    }
    let (_, explicit) = tlv(&mut ci)?;
    let (_, signed_data) = tlv(&mut Reader::new(explicit))?;
    let mut sd = Reader::new(signed_data);
    // version, digestAlgorithms, encapContentInfo, then [0] certificates.
    for _ in 0..3 {
        tlv(&mut sd)?;
    }
    let (tag, certificates) = tlv(&mut sd)?;
    if tag != 0xa0 {
        return None;
    }
    let (_, certificate) = tlv(&mut Reader::new(certificates))?;
    let (_, tbs) = tlv(&mut Reader::new(certificate))?;
    let mut t = Reader::new(tbs);
    let mut fields = Vec::new();
    while !t.is_empty() {
        fields.push(tlv(&mut t)?);
    }
    // [0] version is optional; then serial, signature, issuer, validity,
    // subject, key; extensions in [3].
    let skip = usize::from(fields.first()?.0 == 0xa0);
    let subject = fields.get(skip + 4)?.1;
    let extensions = fields.iter().find(|(tag, _)| *tag == 0xa3).map(|f| f.1);
    extensions
        .and_then(alternative_name)
        .or_else(|| name_in(subject, EMAIL))
        .or_else(|| name_in(subject, COMMON_NAME))
}

/// One DER element: its tag and contents (short tags, definite lengths).
fn tlv<'a>(r: &mut Reader<'a>) -> Option<(u8, &'a [u8])> {
    let tag = r.u8()?;
    let first = r.u8()?;
    let len = match first {
        0..=0x7f => usize::from(first),
        0x81 => usize::from(r.u8()?),
        0x82 => r.u16()?,
        0x83 => {
            let b = r.take(3)?;
            (usize::from(b[0]) << 16) | (usize::from(b[1]) << 8) | usize::from(b[2])
        }
        0x84 => r.u32()?,
        _ => return None,
    };
    Some((tag, r.take(len)?))
}

/// The first rfc822Name or URI in a subjectAltName extension.
fn alternative_name(explicit: &[u8]) -> Option<String> {
    let (_, list) = tlv(&mut Reader::new(explicit))?;
    let mut exts = Reader::new(list);
    while !exts.is_empty() {
        let (_, ext) = tlv(&mut exts)?;
        let mut e = Reader::new(ext);
        let (_, oid) = tlv(&mut e)?;
        if oid != SUBJECT_ALT_NAME {
            continue;
        }
        let mut value = tlv(&mut e)?;
        if value.0 == 0x01 {
            value = tlv(&mut e)?; // critical
        }
        let (_, names) = tlv(&mut Reader::new(value.1))?;
        let mut n = Reader::new(names);
        while !n.is_empty() {
            let (tag, name) = tlv(&mut n)?;
            if tag == 0x81 || tag == 0x86 {
                return text(name);
            }
        }
    }
    None
}

/// The value of attribute `oid` in a Name (a SEQUENCE of SETs of
/// attribute-value SEQUENCEs).
fn name_in(name: &[u8], oid: &[u8]) -> Option<String> {
    let mut rdns = Reader::new(name);
    while !rdns.is_empty() {
        let (_, set) = tlv(&mut rdns)?;
        let mut atvs = Reader::new(set);
        while !atvs.is_empty() {
            let (_, atv) = tlv(&mut atvs)?;
            let mut a = Reader::new(atv);
            let (_, found) = tlv(&mut a)?;
            if found == oid {
                return text(tlv(&mut a)?.1);
            }
        }
    }
    None
}

fn text(bytes: &[u8]) -> Option<String> {
    let s = String::from_utf8_lossy(bytes).into_owned();
    (!s.is_empty()).then_some(s)
}
