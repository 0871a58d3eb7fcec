//! Small text helpers shared by the FreeBSD parsers: quote-prefix stripping, number parsing,
//! and a "keyed stream" reader for GEOM `list` output (geli list, gpart list, geom disk list)
//! that also survives output whose newlines were lost (see the collapsed geli fixture).

/// Strip mail/forum quote prefixes ("> ", ">> ") and surrounding whitespace from a line.
pub(crate) fn unquote(line: &str) -> &str {
    let mut s = line.trim_start();
    while let Some(rest) = s.strip_prefix('>') {
        s = rest.trim_start();
    }
    s.trim()
}

/// The secret a GEOM label provider's name carries (glabel(8), sys/geom/label): the disk's
/// serial in `diskid/DISK-SERIAL` (g_label_disk_ident.c), a filesystem or partition label
/// in `gpt/`, `label/`, `iso9660/`, `ufs/`, `msdosfs/`, `ext2fs/`, `ntfs/` (the volume
/// name the filesystem or the GPT entry holds), a UUID in `gptid/` and `ufsid/`. A plain
/// provider ("ada0p3") holds none.
pub(crate) fn geom_label_secret(name: &str) -> Option<super::spec::Found> {
    use super::spec::{Found, SecretKind};
    let n = name.strip_prefix("/dev/").unwrap_or(name);
    if let Some(serial) = n.strip_prefix("diskid/DISK-") {
        return (!serial.is_empty()).then(|| Found::sure(SecretKind::Serial, serial));
    }
    let (dir, v) = n.split_once('/')?;
    let kind = match dir {
        "gpt" | "label" | "iso9660" | "ufs" | "msdosfs" | "ext2fs" | "ntfs" => SecretKind::Label,
        "gptid" | "ufsid" => SecretKind::Uuid,
        _ => return None,
    };
    let v = v.trim_end_matches(".eli");
    (!v.is_empty()).then(|| Found::sure(kind, v))
}

/// The leading run of plain ASCII digits as a number ("512", "4096 bytes"): no grouping
/// and no locale, as FreeBSD tools print (cf. util::leading_u64, which reads "1,000").
pub fn leading_digits_u64(s: &str) -> Option<u64> {
    let s = s.trim_start();
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    s.get(..end)?.parse().ok()
}

/// A plain decimal number at the start ("600.000", "18.365"): a dot only, no grouping.
pub fn leading_digits_f64(s: &str) -> Option<f64> {
    let s = s.trim_start();
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let v: f64 = s.get(..end)?.parse().ok()?;
    v.is_finite().then_some(v)
}

/// Parse "0x010601"-style hex.
pub fn hex_u32(s: &str) -> Option<u32> {
    let s = s.trim();
    let h = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    let end = h.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(h.len());
    u32::from_str_radix(h.get(..end)?, 16).ok()
}

/// Split a device name into its driver prefix and unit: "ada12" -> ("ada", 12).
pub fn split_unit(name: &str) -> Option<(&str, u32)> {
    let idx = name.find(|c: char| c.is_ascii_digit())?;
    let (prefix, unit) = name.split_at(idx);
    if prefix.is_empty() || !unit.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some((prefix, unit.parse().ok()?))
}

/// Convert a CAM transfer rate in MB/s to a SATA line rate in Gb/s. SATA uses 8b/10b
/// coding, so 150/300/600 MB/s of payload are the 1.5/3.0/6.0 Gb/s generations.
pub fn sata_gbps_from_mbps(mbps: f64) -> Option<f64> {
    match mbps.round() as u64 {
        150 => Some(1.5),
        300 => Some(3.0),
        600 => Some(6.0),
        _ => None,
    }
}

/// "SATA 1.x/2.x/3.x" (camcontrol, from IDENTIFY word 76 or the negotiated revision) or
/// atacontrol's "SATA revision 2.x" to Gb/s.
pub fn sata_gen_gbps(text: &str) -> Option<f64> {
    let t = text.to_ascii_lowercase();
    let i = t.find("sata")?;
    let rest = t.get(i + 4..)?.trim_start();
    let rest = rest.strip_prefix("revision").unwrap_or(rest).trim_start();
    match rest.get(..1)? {
        "1" => Some(1.5),
        "2" => Some(3.0),
        "3" => Some(6.0),
        _ => None,
    }
}

/// One entry of a GEOM class listing: "N. Name: x" followed by attributes.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct GeomEntry {
    pub name: String,
    pub attrs: Vec<(String, String)>,
}

/// The value of the first `key` attribute in a GEOM listing's attribute list.
fn attr<'a>(attrs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

impl GeomEntry {
    pub fn get(&self, key: &str) -> Option<&str> {
        attr(&self.attrs, key)
    }
    pub fn u64(&self, key: &str) -> Option<u64> {
        self.get(key).and_then(leading_digits_u64)
    }
}

/// One "Geom name:" block of `geom <class> list` / `gpart list` / `geli list`.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct GeomRecord {
    pub name: String,
    /// Attributes of the geom itself (before "Providers:").
    pub attrs: Vec<(String, String)>,
    pub providers: Vec<GeomEntry>,
    pub consumers: Vec<GeomEntry>,
}

impl GeomRecord {
    pub fn get(&self, key: &str) -> Option<&str> {
        attr(&self.attrs, key)
    }
    pub fn u64(&self, key: &str) -> Option<u64> {
        self.get(key).and_then(leading_digits_u64)
    }
}

/// Read GEOM `list` output. `keys` are the attribute names to recognise (besides "Geom name",
/// "Providers", "Consumers" and "Name"). Keys are found anywhere in the text followed by a
/// colon, so output with its newlines stripped still parses: a value runs to the next key.
/// Capitalised keys may follow any character ("ACTIVEEncryptionAlgorithm:" in collapsed
/// text); lower-case keys need a non-alphanumeric character before them so that "type:"
/// does not match inside "rawtype:".
pub(crate) fn parse_geom_list(text: &str, keys: &[&str]) -> Vec<GeomRecord> {
    let mut all: Vec<&str> = vec!["Geom name", "Providers", "Consumers", "Name"];
    all.extend_from_slice(keys);
    // Collect (position, key) matches, longest key first at equal positions.
    let mut hits: Vec<(usize, &str)> = Vec::new();
    for key in &all {
        let pat = format!("{key}:");
        let mut from = 0;
        while let Some(off) = text.get(from..).and_then(|t| t.find(&pat)) {
            let pos = from + off;
            let prev = text.get(..pos).and_then(|p| p.chars().next_back());
            let boundary_ok = match prev {
                None => true,
                Some(c) if !c.is_alphanumeric() => true,
                // "1.Name:" never happens; "nda0p5.eliState:" does (collapsed output).
                Some(_) => key.starts_with(|c: char| c.is_ascii_uppercase()),
            };
            if boundary_ok {
                hits.push((pos, key));
            }
            from = pos + pat.len();
        }
    }
    crate::sort::sort_by(&mut hits, |a, b| {
        a.0.cmp(&b.0).then(b.1.len().cmp(&a.1.len()))
    });
    // Drop matches that start inside an earlier key.
    let mut kept: Vec<(usize, &str)> = Vec::new();
    for (pos, key) in hits {
        if let Some((p, k)) = kept.last()
            && pos < p + k.len() + 1
        {
            continue;
        }
        kept.push((pos, key));
    }

    #[derive(PartialEq)]
    enum Section {
        Geom,
        Providers,
        Consumers,
    }
    let mut out: Vec<GeomRecord> = Vec::new();
    let mut section = Section::Geom;
    for (i, (pos, key)) in kept.iter().enumerate() {
        let vstart = pos + key.len() + 1;
        let vend = kept.get(i + 1).map(|n| n.0).unwrap_or(text.len());
        let raw = text.get(vstart..vend.max(vstart)).unwrap_or("");
        let value = clean_value(raw);
        match *key {
            "Geom name" => {
                out.push(GeomRecord {
                    name: value,
                    ..Default::default()
                });
                section = Section::Geom;
            }
            "Providers" => section = Section::Providers,
            "Consumers" => section = Section::Consumers,
            "Name" => {
                let Some(rec) = out.last_mut() else { continue };
                let entry = GeomEntry {
                    name: value,
                    attrs: Vec::new(),
                };
                match section {
                    Section::Consumers => rec.consumers.push(entry),
                    _ => rec.providers.push(entry),
                }
            }
            k => {
                let Some(rec) = out.last_mut() else { continue };
                let pair = (k.to_string(), value);
                let target = match section {
                    Section::Geom => None,
                    Section::Providers => rec.providers.last_mut(),
                    Section::Consumers => rec.consumers.last_mut(),
                };
                match target {
                    Some(e) => e.attrs.push(pair),
                    None => rec.attrs.push(pair),
                }
            }
        }
    }
    out
}

/// A value runs to the next key: keep its first line, and drop a trailing "1." item number
/// that belongs to the next entry ("r1w1e1\n2." or, collapsed, "...e1Consumers:1.").
fn clean_value(raw: &str) -> String {
    let first = raw.trim_start().lines().next().unwrap_or("").trim_end();
    let v = first.trim();
    // Strip a trailing " N." enumerator (only when separated by whitespace, or when the
    // whole value is the enumerator).
    if let Some((head, tail)) = v.rsplit_once(char::is_whitespace)
        && is_enumerator(tail)
    {
        return head.trim().to_string();
    }
    if is_enumerator(v) {
        return String::new();
    }
    v.to_string()
}

fn is_enumerator(s: &str) -> bool {
    s.strip_suffix('.')
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

// ---- the recogniser of the GEOM lists (gpart list, geli list, geom disk list) ----
use crate::sources::spec;

crate::rx!(GEOM_NAME, r"^Geom name: (\S+)");
crate::rx!(
    GEOM_MEMBER,
    r"^(\s*\d+\. Name: \S|(modified|state|fwheads|fwsectors|last|first|entries|scheme|Providers|Consumers|State|EncryptionAlgorithm|KeyLength|AuthenticationAlgorithm|Crypto|Version|UsedKey|Flags|KeysAllocated|KeysTotal):|\s+[A-Za-z][\w ]*: )"
);
crate::rx!(
    GEOM_GELI,
    r"^(EncryptionAlgorithm|KeyLength|Crypto|AuthenticationAlgorithm|KeysTotal):"
);
crate::rx!(
    GEOM_GPART,
    r"^(scheme|entries|first|last|modified):|^\s+(rawtype|rawuuid|efimedia|type|index|start|end|length|offset):"
);

/// Whether `re` matches a GEOM list line as printed or with its paste's indent and quote
/// marks taken off ([`unquote`]): a forum code block indents every line ("    Geom name:
/// da0"), a mail reply quotes it ("> "); geom(8) itself indents only the keys under a
/// numbered provider or consumer, which the patterns match as printed.
fn geom_line(re: &regex::Regex, line: &str) -> bool {
    re.is_match(line) || re.is_match(unquote(line))
}

/// Which class's list a block is: GELI's keys, gpart's, else the DISK class.
fn classify(text: &str, _: Option<&str>) -> &'static str {
    if text.lines().any(|l| geom_line(&GEOM_GELI, l))
        || text.contains(".eli") && text.contains("Crypto")
    {
        "geli-list"
    } else if text.lines().any(|l| geom_line(&GEOM_GPART, l)) {
        "gpart-list"
    } else {
        "geom-disk-list"
    }
}

/// geom(8) `list` output of any class: "Geom name:" then keyed lines.
pub(crate) static GEOM_LIST: spec::Recogniser = spec::Recogniser {
    name: "geom-list",
    starts: &[(70, |l| spec::on_first(l, |t| geom_line(&GEOM_NAME, t)))],
    member: |t, _| spec::Member::from(geom_line(&GEOM_NAME, t) || geom_line(&GEOM_MEMBER, t)),
    tolerance: (1, 1),
    classify,
    ..spec::Recogniser::NONE
};

#[cfg(test)]
mod tests;
