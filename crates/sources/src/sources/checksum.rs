//! Checksums of a device's data as people paste them to show that reads do not return the
//! same bytes twice: GNU coreutils md5sum/sha1sum/sha256sum/sha512sum/b2sum ("DIGEST  NAME",
//! "DIGEST *NAME" in binary mode, "-" for standard input: coreutils' digest.c
//! output_file), BSD md5(1)/sha256(1) ("MD5 (NAME) = DIGEST", or "DIGEST NAME" with -r),
//! after the command that read the data (`dd if=/dev/mmcblk1p3 bs=8M count=3 | md5sum`,
//! `md5sum /dev/sdb`, `head -c 1G /dev/sdb | sha256sum`).
//!
//! A block device returns the bytes last written to a block for as long as nothing writes it
//! again; two reads of the same range that hash differently mean the data changed on its
//! way out: the medium returning different bits each time (flash cells decaying past what
//! the controller's ECC corrects, without reporting an error), the device's controller, its
//! link or bridge, or the host's memory corrupting it.

use crate::sources::util::clean_line;

/// Programs whose output is a digest per input.
const PROGRAMS: [&str; 11] = [
    "md5sum",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "b2sum",
    "md5",
    "sha1",
    "sha256",
    "sha512",
];

/// Devices whose reads differ by design (random sources, the kernel's own counters).
const MOVING: [&str; 4] = ["/dev/urandom", "/dev/random", "/dev/zero", "/dev/stdin"];

crate::rx!(
    GNU_LINE,
    r"^\\?([0-9a-fA-F]{32}|[0-9a-fA-F]{40}|[0-9a-fA-F]{56}|[0-9a-fA-F]{64}|[0-9a-fA-F]{96}|[0-9a-fA-F]{128})[ ][ *](\S.*)$"
);
crate::rx!(
    BSD_LINE,
    r"^(?:MD5|SHA1|SHA224|SHA256|SHA384|SHA512|SHA512t256) \((.+)\) = ([0-9a-fA-F]{32,128})$"
);

/// One digest line: the digest (lower case) and the name it was printed for.
pub(crate) fn digest_line(t: &str) -> Option<(String, String)> {
    let t = t.trim();
    if let Some(c) = GNU_LINE.captures(t) {
        return Some((
            c.get(1)?.as_str().to_ascii_lowercase(),
            c.get(2)?.as_str().trim().to_string(),
        ));
    }
    let c = BSD_LINE.captures(t)?;
    Some((
        c.get(2)?.as_str().to_ascii_lowercase(),
        c.get(1)?.as_str().to_string(),
    ))
}

/// The command a digest program's output follows, from a typed line: the text from the
/// first word that reads the data (`dd`, `head`, `cat`, `pv`, or the digest program itself),
/// and the device it read. `None` when the line runs no digest program or reads no block
/// device.
pub(crate) fn read_command(line: &str) -> Option<(String, String)> {
    let l = clean_line(line);
    let words: Vec<&str> = l.split_whitespace().collect();
    let has_digest = words
        .iter()
        .any(|w| PROGRAMS.contains(&w.rsplit('/').next().unwrap_or(w)));
    if !has_digest {
        return None;
    }
    let start = words.iter().position(|w| {
        let w = w.rsplit('/').next().unwrap_or(w);
        matches!(w, "dd" | "head" | "cat" | "pv") || PROGRAMS.contains(&w)
    })?;
    let cmd = words.get(start..)?;
    // What it read: dd's if=, else the first /dev/ operand.
    let dev = cmd
        .iter()
        .find_map(|w| w.strip_prefix("if="))
        .or_else(|| cmd.iter().copied().find(|w| w.starts_with("/dev/")))?;
    // A dd that writes somewhere (of=) copies, and its digest is of what it passed on.
    if !dev.starts_with("/dev/")
        || MOVING.contains(&dev)
        || cmd
            .iter()
            .any(|w| w.starts_with("of=") && *w != "of=/dev/stdout")
    {
        return None;
    }
    Some((cmd.join(" "), dev.to_string()))
}

/// The same read, typed the same way, whose digests differ.
#[derive(Debug, Clone, PartialEq)]
pub struct Unstable {
    /// The command as typed (from the reading program on).
    pub command: String,
    /// The device it read ("/dev/mmcblk1p3").
    pub device: String,
    /// The distinct digests, in order of appearance.
    pub digests: Vec<String>,
    /// Indexes (into the lines given) of the digest lines.
    pub lines: Vec<usize>,
}

/// Every command typed at least twice whose digest lines differ, in `lines` (one input's
/// lines, in order). A digest line belongs to the nearest command above it, within four
/// lines (dd prints its records and summary after the digest when piped).
pub fn unstable_reads(lines: &[&str]) -> Vec<Unstable> {
    let mut runs: Vec<(String, String, String, usize)> = Vec::new();
    let mut current: Option<(String, String, usize)> = None;
    for (i, raw) in lines.iter().enumerate() {
        if let Some((cmd, dev)) = read_command(raw) {
            current = Some((cmd, dev, i));
            continue;
        }
        let Some((cmd, dev, at)) = current.as_ref() else {
            continue;
        };
        if i.saturating_sub(*at) > 4 {
            current = None;
            continue;
        }
        if let Some((digest, _)) = digest_line(&clean_line(raw)) {
            runs.push((cmd.clone(), dev.clone(), digest, i));
            current = None;
        }
    }
    let mut out: Vec<Unstable> = Vec::new();
    for (cmd, dev, digest, i) in runs {
        match out.iter_mut().find(|u| u.command == cmd) {
            Some(u) => {
                if !u.digests.contains(&digest) {
                    u.digests.push(digest);
                }
                u.lines.push(i);
            }
            None => out.push(Unstable {
                command: cmd,
                device: dev,
                digests: vec![digest],
                lines: vec![i],
            }),
        }
    }
    out.retain(|u| u.digests.len() >= 2);
    out
}

#[cfg(test)]
mod tests;
