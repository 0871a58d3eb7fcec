//! Reading sysfs/procfs captures back out of a bundle, with provenance: every helper
//! returns a `Fact` whose source is the capture key, or the recorded reason it is unknown.
//! Attribute meanings: Documentation/ABI/stable/sysfs-block, sysfs-class-ata-link.

use std::str::FromStr;

use crate::evidence::{EvidenceBundle, SourceKey};
use crate::facts::Fact;

/// The string form of a `file:` key.
pub(crate) fn fkey(path: &str) -> String {
    SourceKey::File(path.to_string()).to_string()
}

/// A captured file's trimmed contents.
pub fn text<'a>(b: &'a EvidenceBundle, path: &str) -> Option<&'a str> {
    b.file(path)
}

/// Why a file is unknown (recorded failure, or not captured).
pub fn why(b: &EvidenceBundle, path: &str) -> String {
    b.why(&SourceKey::File(path.to_string()))
}

/// Directory entries of a captured `dir:`.
pub fn entries(b: &EvidenceBundle, dir: &str) -> Vec<String> {
    b.data(&SourceKey::Dir(dir.to_string()))
        .map(|d| {
            d.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// A captured `realpath:`.
pub fn realpath<'a>(b: &'a EvidenceBundle, path: &str) -> Option<&'a str> {
    b.data(&SourceKey::RealPath(path.to_string()))
        .map(str::trim)
}

/// The last component of a path (a driver link's target names the driver).
pub(crate) fn basename(p: &str) -> &str {
    p.trim_end_matches('/').rsplit('/').next().unwrap_or(p)
}

/// A file holding one value of type T.
pub fn num<T: FromStr>(b: &EvidenceBundle, path: &str) -> Fact<T> {
    match text(b, path) {
        Some(t) => match t.trim().parse::<T>() {
            Ok(v) => Fact::known(v, fkey(path)),
            Err(_) => Fact::unknown(format!("{path} holds {t:?}, not a number")),
        },
        None => Fact::unknown(why(b, path)),
    }
}

/// A non-empty string attribute (model, vendor, rev).
pub fn string(b: &EvidenceBundle, path: &str) -> Fact<String> {
    match text(b, path) {
        Some(t) if !t.trim().is_empty() => Fact::known(sanitize(t.trim()), fkey(path)),
        Some(_) => Fact::unknown(format!("{path} is empty")),
        None => Fact::unknown(why(b, path)),
    }
}

/// Printable ASCII only: a sysfs string stored as a fact (crate::sanitize::for_fact).
pub(crate) use crate::sanitize::for_fact as sanitize;

/// An ioctl answer as a number.
pub(crate) fn ioctl_num(b: &EvidenceBundle, dev: &str, req: &str) -> Fact<u64> {
    let k = SourceKey::Ioctl {
        device: dev.to_string(),
        request: req.to_string(),
    };
    match b.data(&k).and_then(|d| d.trim().parse::<u64>().ok()) {
        Some(v) => Fact::known(v, k.to_string()),
        None => Fact::unknown(format!("{req} on {dev}: {}", b.why(&k))),
    }
}

/// The first known fact; if none, the reasons of all of them joined.
pub(crate) fn first_known<T>(facts: Vec<Fact<T>>) -> Fact<T> {
    let mut whys = Vec::new();
    for f in facts {
        match f {
            Fact::Known { .. } => return f,
            Fact::Unknown { why } => whys.push(why),
        }
    }
    Fact::unknown(whys.join("; "))
}

/// libata link speed strings: "1.5 Gbps", "3.0 Gbps", "6.0 Gbps"; "<unknown>" when the
/// link is down, not SATA, or (for sata_spd_limit) no limit is set.
pub(crate) fn parse_gbps(s: &str) -> Option<f64> {
    let t = s.trim();
    let num = t
        .strip_suffix("Gbps")
        .or_else(|| t.strip_suffix("Gb/s"))?
        .trim();
    num.parse::<f64>().ok().filter(|v| *v > 0.0 && *v < 100.0)
}

#[cfg(test)]
mod tests;
