//! Machine-wide Linux facts: os-release(5), /proc/sys/kernel/{osrelease,hostname},
//! /proc/cpuinfo (model name, "aes" flag), /proc/crypto (driver chosen for xts(aes)),
//! /proc/meminfo (MemTotal), /proc/self/status (Uid: real, effective, saved, fs).

use crate::evidence::{EvidenceBundle, SourceKey};
use crate::facts::{Fact, SystemFacts};

fn key(path: &str) -> String {
    SourceKey::File(path.to_string()).to_string()
}

fn why(b: &EvidenceBundle, path: &str) -> String {
    b.why(&SourceKey::File(path.to_string()))
}

/// A value parsed from one captured file, or why it is unknown.
fn from_file<T>(b: &EvidenceBundle, path: &str, parse: impl Fn(&str) -> Option<T>) -> Fact<T> {
    match b.file(path) {
        Some(text) => match parse(text) {
            Some(v) => Fact::known(v, key(path)),
            None => Fact::unknown(format!("{path} does not say")),
        },
        None => Fact::unknown(why(b, path)),
    }
}

/// os-release: PRETTY_NAME, else NAME plus VERSION_ID. Values may be quoted.
pub fn os_name(text: &str) -> Option<String> {
    let mut vals = std::collections::BTreeMap::new();
    for line in text.lines() {
        if let Some((k, v)) = line.trim().split_once('=') {
            let v = v.trim().trim_matches('"').trim_matches('\'').to_string();
            vals.insert(k.trim().to_string(), v);
        }
    }
    if let Some(p) = vals.get("PRETTY_NAME").filter(|v| !v.is_empty()) {
        return Some(p.clone());
    }
    let name = vals.get("NAME")?;
    Some(match vals.get("VERSION_ID") {
        Some(v) => format!("{name} {v}"),
        None => name.clone(),
    })
}

/// cpuinfo "model name" (x86) or "Model"/"cpu model" (ARM/MIPS) of the first CPU.
pub fn cpu_model(text: &str) -> Option<String> {
    for want in ["model name", "Model", "cpu model", "Processor"] {
        for line in text.lines() {
            if let Some((k, v)) = line.split_once(':')
                && k.trim() == want
                && !v.trim().is_empty()
            {
                return Some(v.trim().to_string());
            }
        }
    }
    None
}

/// Whether the first `flags` (x86) or `Features` (ARM: "aes") line lists aes.
fn cpu_has_aes(text: &str) -> Option<bool> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        matches!(k.trim(), "flags" | "Features").then(|| v.split_whitespace().any(|f| f == "aes"))
    })
}

/// The driver the kernel picks for `name` (e.g. "xts(aes)"): the entry with the highest
/// priority among blocks of /proc/crypto whose name matches (internal "__" names excluded).
pub(crate) fn crypto_driver(text: &str, name: &str) -> Option<String> {
    let mut best: Option<(i64, String)> = None;
    for block in text.split("\n\n") {
        let mut n = None;
        let mut driver = None;
        let mut prio = 0i64;
        for line in block.lines() {
            if let Some((k, v)) = line.split_once(':') {
                match k.trim() {
                    "name" => n = Some(v.trim()),
                    "driver" => driver = Some(v.trim().to_string()),
                    "priority" => prio = v.trim().parse().unwrap_or(0),
                    _ => {}
                }
            }
        }
        if n == Some(name)
            && let Some(d) = driver.filter(|d| !d.starts_with("__"))
            && best.as_ref().is_none_or(|(p, _)| prio > *p)
        {
            best = Some((prio, d));
        }
    }
    best.map(|(_, d)| d)
}

/// The kernel's xts(aes) driver from /proc/crypto (also for a paste whose OS explain could
/// not guess: only Linux has the file).
pub fn aes_driver(b: &EvidenceBundle) -> Fact<String> {
    match b.file("/proc/crypto") {
        Some(t) => match crypto_driver(t, "xts(aes)") {
            Some(d) => Fact::known(d, key("/proc/crypto")),
            None => Fact::unknown(
                "no xts(aes) in /proc/crypto (it is registered when dm-crypt first uses it)",
            ),
        },
        None => Fact::unknown(why(b, "/proc/crypto")),
    }
}

/// MemTotal in bytes.
fn mem_total(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut it = line.split_whitespace().skip(1);
    let v: u64 = it.next()?.parse().ok()?;
    match it.next() {
        Some("kB") | None => v.checked_mul(1024),
        _ => None,
    }
}

/// Effective uid from the `Uid:` line (real, effective, saved, filesystem) is 0.
pub fn is_root(text: &str) -> Option<bool> {
    let line = text.lines().find(|l| l.starts_with("Uid:"))?;
    let euid: u32 = line.split_whitespace().nth(2)?.parse().ok()?;
    Some(euid == 0)
}

/// Fill the machine-wide fields.
pub fn fill(sys: &mut SystemFacts, b: &EvidenceBundle) {
    sys.os_name = from_file(b, "/etc/os-release", os_name);
    sys.os_release = from_file(b, "/proc/sys/kernel/osrelease", |t| {
        Some(t.trim().to_string()).filter(|s| !s.is_empty())
    });
    sys.hostname = from_file(b, "/proc/sys/kernel/hostname", |t| {
        Some(t.trim().to_string()).filter(|s| !s.is_empty())
    });
    sys.cpu_model = from_file(b, "/proc/cpuinfo", cpu_model);
    sys.aes_ni = from_file(b, "/proc/cpuinfo", cpu_has_aes);
    sys.aes_driver = aes_driver(b);
    sys.ram_bytes = from_file(b, "/proc/meminfo", mem_total);
    sys.is_root = from_file(b, "/proc/self/status", is_root);
}

#[cfg(test)]
mod tests;
