//! Linux `/proc/crypto` (crypto/proc.c c_show): one block per registered algorithm
//! implementation, "name         : xts(aes)", "driver       : xts-aes-aesni", "module",
//! "priority", "refcnt", "selftest", "internal", "type", then type-specific keys
//! ("blocksize", "min keysize", "ivsize", ...), blocks separated by a blank line. The kernel
//! uses the implementation of a name with the highest priority; an accelerated driver
//! (aesni_intel's "xts-aes-aesni", ARMv8's "xts-aes-ce") outranks the generic C one
//! ("xts(ecb(aes-generic))", priority 100), so a paste whose best xts(aes) driver is the
//! generic one shows a machine (often a VM without the CPU's aes flag) where every
//! dm-crypt volume encrypts in software. The facts read it through
//! `facts::linux::system::crypto_driver`; this file recognises it in a paste.

use crate::sources::spec;

/// The keys crypto/proc.c prints (c_show and the per-type show callbacks of
/// crypto/skcipher.c, shash.c, aead.c, rng.c, akcipher.c).
const KEYS: &[&str] = &[
    "name",
    "driver",
    "module",
    "priority",
    "refcnt",
    "selftest",
    "internal",
    "type",
    "async",
    "blocksize",
    "min keysize",
    "max keysize",
    "ivsize",
    "chunksize",
    "walksize",
    "digestsize",
    "seedsize",
    "geniv",
    "statesize",
    "maxauthsize",
];

/// The key of a "key : value" line, when it is one /proc/crypto prints.
fn key(t: &str) -> Option<&'static str> {
    let (k, v) = t.split_once(':')?;
    let k = k.trim();
    if v.trim().is_empty() {
        return None;
    }
    KEYS.iter().copied().find(|x| *x == k)
}

/// (name, driver, priority) of each block.
pub fn parse(text: &str) -> Vec<(String, String, i64)> {
    let mut out = Vec::new();
    let mut cur: (Option<String>, Option<String>, i64) = (None, None, 0);
    let mut flush = |cur: &mut (Option<String>, Option<String>, i64)| {
        if let (Some(n), Some(d)) = (cur.0.take(), cur.1.take()) {
            out.push((n, d, cur.2));
        }
        cur.2 = 0;
    };
    for raw in text.lines() {
        let line = crate::sources::util::clean_line(raw);
        let t = line.trim();
        let Some((k, v)) = t.split_once(':') else {
            continue;
        };
        let v = v.trim();
        match k.trim() {
            "name" => {
                flush(&mut cur);
                cur.0 = Some(v.to_string());
            }
            "driver" => cur.1 = Some(v.to_string()),
            "priority" => cur.2 = v.parse().unwrap_or(0),
            _ => {}
        }
    }
    flush(&mut cur);
    out
}

fn start(lines: &[&str]) -> spec::Start {
    let first = lines.first().map(|l| l.trim()).unwrap_or("");
    let next = spec::next_nonblank(lines, 1, 0)
        .and_then(|i| lines.get(i))
        .map(|l| l.trim())
        .unwrap_or("");
    spec::Start::from(key(first) == Some("name") && key(next) == Some("driver"))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "proc-crypto",
    starts: &[(160, start)],
    member: |t, _| spec::Member::from(key(t.trim()).is_some()),
    tolerance: (1, 0),
    classify: |_, _| "proc-crypto",
    ..spec::Recogniser::NONE
};

/// The live capture: the Linux probe reads the file (probe/linux.rs).
pub const LIVE: spec::Live = spec::Live::File("/proc/crypto");

/// /proc/crypto, stored under the Linux probe's key so `facts::linux::system` reads a paste
/// as it reads the file.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    live: &[LIVE],
    pasted_as: Some(LIVE),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, t| {
        matches!(p, "cat" | "grep" | "egrep") && t.contains("/proc/crypto")
    })),
    ..spec::SourceSpec::named("proc-crypto", "/proc/crypto")
};

#[cfg(test)]
mod tests;
