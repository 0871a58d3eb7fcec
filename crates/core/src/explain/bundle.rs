//! Turn recognised blocks into an [`EvidenceBundle`] with origin `PastedText`: each block
//! goes under the capture key the live probe would have used for that tool and device
//! (probe::plan for FreeBSD, probe::linux for Linux), so `facts::derive` reads a pasted
//! `camcontrol identify ada0` exactly as a captured one. Blocks no live probe captures
//! (dd, fio, iostat, df, hdparm) and blocks without a device go under `pasted:` keys.

use serde::Serialize;

use super::recognize::{Block, Recognized, Tool};
use super::segment::{Line, rx};
use crate::evidence::{Capture, EvidenceBundle, Origin, Platform, SourceKey};
use crate::sources;

/// How one block was used.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Used {
    pub tool: Tool,
    pub device: Option<String>,
    /// The capture key it was stored under.
    pub key: String,
    pub src: usize,
    pub first: usize,
    pub last: usize,
    /// A later output of the same tool and device took the live key (the machine's state
    /// changed during the thread, as in seed 000); this one is kept under a `pasted:` key.
    pub superseded: bool,
}

/// Guess the OS from the tools and device names in the text. FreeBSD names disks ada/ad/da/
/// nvd/nda and has atapci/camcontrol/gpart; Linux names them sd*/hd*/nvme*n* and has
/// lsblk/hdparm/dmsetup. Which OS an output or a typed program shows is its spec's
/// `platform` (a program only when marked `Program::decides_platform`).
pub(crate) fn guess_platform(rec: &Recognized, lines: &[Line]) -> Platform {
    let mut bsd = 0i64;
    let mut linux = 0i64;
    for b in &rec.blocks {
        match b.tool.platform() {
            Some(Platform::Freebsd) => bsd += 3,
            Some(Platform::Linux) => linux += 3,
            _ => {}
        }
        if let Some(d) = &b.device {
            match device_platform(d) {
                Some(Platform::Freebsd) => bsd += 1,
                Some(Platform::Linux) => linux += 1,
                _ => {}
            }
        }
        // smartctl prints the OS in its banner: "[FreeBSD 13.1-RELEASE amd64]".
        if b.tool.is_any(sources::SMART_REPORTS) {
            let head: String = b.text.chars().take(400).collect();
            if head.contains("FreeBSD") {
                bsd += 2;
            } else if head.contains("linux") || head.contains("Linux") {
                linux += 2;
            }
        }
    }
    for c in &rec.commands {
        match program_platform(&c.program) {
            Some(Platform::Freebsd) => bsd += 2,
            Some(Platform::Linux) => linux += 2,
            _ => {}
        }
        for w in c.text.split_whitespace() {
            let w = w.trim_start_matches("if=").trim_start_matches("of=");
            match device_platform(w.trim_start_matches("/dev/")) {
                Some(Platform::Freebsd) if w.starts_with("/dev/") => bsd += 1,
                Some(Platform::Linux) if w.starts_with("/dev/") => linux += 1,
                _ => {}
            }
        }
    }
    // A mention of the OS in prose is weak evidence; counted once.
    let mut said_bsd = false;
    let mut said_linux = false;
    for l in lines.iter().take(20_000) {
        said_bsd |= l.text.contains("FreeBSD");
        said_linux |=
            l.text.contains("Linux") || l.text.contains("Ubuntu") || l.text.contains("Debian");
    }
    bsd += i64::from(said_bsd);
    linux += i64::from(said_linux);
    let (h_bsd, h_linux) = name_hints(lines);
    bsd += h_bsd;
    linux += h_linux;
    if bsd == 0 && linux == 0 {
        Platform::Unknown
    } else if bsd >= linux {
        Platform::Freebsd
    } else {
        Platform::Linux
    }
}

/// Names and habits only one OS has, anywhere in the paste (a vdev column, a prompt, a
/// sentence): Linux's by-id/by-path links (`ata-MODEL_SERIAL`, `wwn-0x...`, udev's
/// persistent names, Documentation/admin-guide/devices.txt for sdX/nvmeXnY), printk
/// timestamps, bash's `user@host:~$` prompt and its own tools; FreeBSD's CAM and GEOM names
/// (ada(4), da(4), nvd(4), nda(4), `gptid/`, `gpt/`, `diskid/` labels of glabel(8)) and
/// tools. Each kind of hint counts once, so a long pool of by-id names is one hint, not ten.
fn name_hints(lines: &[Line]) -> (i64, i64) {
    rx!(
        LINUX_HINTS,
        r"(?x)
        (?P<byid>/dev/disk/by-(?:id|path|uuid|partuuid|label)/|\b(?:ata|scsi|usb|nvme)-\w*_[\w.:-]+|\bwwn-0x[0-9a-fA-F]{8,})
        | (?P<name>/dev/sd[a-z]{1,2}\d*\b|\bsd[a-z]{1,2}[0-9]{0,2}\b|\bnvme\d+n\d+(?:p\d+)?\b|/dev/md\d+\b|\bmd\d+\s:\sactive)
        | (?P<stamp>^\[\s*\d+\.\d{3,}\])
        | (?P<prompt>\w@[\w.-]+:[~/][^\s$\#]*\$\s)
        | (?P<tool>\b(?:apt(?:-get)?\s+install|yum|dnf|pacman|systemctl|journalctl|mdadm|udevadm|lsblk|blkid|modprobe|dmsetup|fstrim|update-grub|lvcreate|pvcreate)\b|/proc/(?:mdstat|diskstats)|/sys/block/)
        "
    );
    rx!(
        BSD_HINTS,
        r"(?x)
        (?P<label>\bgptid/|/dev/gpt/|\bdiskid/|\bgpt/[\w-]+\s)
        | (?P<name>\b(?:ada|da|nvd|nda|ahcich|atapci)\d+(?:p\d+|s\d+[a-h]?)?\b)
        | (?P<tool>\b(?:camcontrol|gpart|geli|sysrc|kldload|glabel|pkg\s+install)\b|loader\.conf|dmesg\.boot|/etc/rc\.conf)
        "
    );
    let kinds = |re: &regex::Regex, names: &[&str]| -> i64 {
        let mut seen = vec![false; names.len()];
        for l in lines.iter().take(20_000) {
            for c in re.captures_iter(&l.text) {
                for (i, n) in names.iter().enumerate() {
                    seen[i] |= c.name(n).is_some();
                }
            }
        }
        seen.iter().filter(|s| **s).count() as i64
    };
    (
        kinds(&BSD_HINTS, &["label", "name", "tool"]),
        kinds(&LINUX_HINTS, &["byid", "name", "stamp", "prompt", "tool"]),
    )
}

/// The OS a typed program shows: its spec's platform, for the programs the specs mark
/// `decides_platform`. journalctl is explain's own log reader (`recognize`), no spec's.
fn program_platform(program: &str) -> Option<Platform> {
    if program == "journalctl" {
        return Some(Platform::Linux);
    }
    sources::SPECS.iter().find_map(|s| {
        s.programs
            .iter()
            .any(|p| p.name == program && p.decides_platform)
            .then_some(s.platform)
            .flatten()
    })
}

fn device_platform(dev: &str) -> Option<Platform> {
    let prefix: String = dev
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    let rest = &dev[prefix.len()..];
    if !rest.starts_with(|c: char| c.is_ascii_digit()) {
        if prefix.starts_with("sd") || prefix.starts_with("hd") || prefix.starts_with("vd") {
            return Some(Platform::Linux);
        }
        return None;
    }
    match prefix.as_str() {
        "ada" | "ad" | "da" | "nvd" | "nda" | "ar" | "mmcsd" | "atapci" | "ahcich" | "wd"
        | "rwd" => Some(Platform::Freebsd),
        "nvme" if rest.contains('n') => Some(Platform::Linux),
        _ => None,
    }
}

/// The key the live probe uses for `tool` on `device`, or None when no live probe runs it:
/// the spec's `pasted_as` template (sources::spec; an NVMe namespace's is its controller's,
/// `Paste::live_device`), the FreeBSD keys of plan.rs and the
/// Linux probe's commands. Both probes run `smartctl -j -a /dev/X`, so the key does not
/// depend on the platform.
pub(crate) fn live_key(tool: Tool, device: Option<&str>, _platform: Platform) -> Option<SourceKey> {
    tool.spec().pasted_key(device)
}

/// The `pasted:` key of a block: tool, device, input and line range.
pub(crate) fn pasted_key(b: &Block, labels: &[String]) -> SourceKey {
    let mut s = b.tool.id().to_string();
    if let Some(d) = &b.device {
        s.push(' ');
        s.push_str(d);
    }
    if labels.len() > 1 {
        s.push_str(&format!(
            " {}",
            labels.get(b.src).map(String::as_str).unwrap_or("?")
        ));
    }
    s.push_str(&format!(" lines {}-{}", b.first, b.last));
    SourceKey::Pasted(s)
}

/// Build the bundle, and store on each block the key it went under (`Block::key`).
/// `labels` name the inputs (file names or "stdin").
pub fn assemble(
    rec: &mut Recognized,
    lines: &[Line],
    labels: &[String],
) -> (EvidenceBundle, Vec<Used>) {
    let platform = guess_platform(rec, lines);
    let mut bundle = EvidenceBundle::new(platform, Origin::PastedText);
    let mut used: Vec<Used> = Vec::new();
    let where_ = |src: usize, a: usize, b: usize| {
        if labels.len() > 1 {
            format!(
                "{} lines {a}-{b}",
                labels.get(src).map(String::as_str).unwrap_or("?")
            )
        } else {
            format!("lines {a}-{b}")
        }
    };
    // Logs are merged: fragments of one dmesg pasted in several places are one log.
    let mut logs: Vec<(Tool, Vec<String>)> = Vec::new();
    for b in &rec.blocks {
        if b.tool.is(&sources::sysctl::SPEC) {
            // The FreeBSD probe captures the dev.ahci/ahcich/atapci/ata subtrees as
            // `sysctl dev.X` command output (probe::plan); pasted lines of those trees are
            // gathered under the same keys, the rest go under one `sysctl:` key each.
            let mut trees: Vec<(&str, Vec<&str>)> = Vec::new();
            for l in b.text.lines() {
                let tree = ["dev.ahcich", "dev.ahci", "dev.atapci", "dev.ata"]
                    .into_iter()
                    .find(|t| l.strip_prefix(t).is_some_and(|r| r.starts_with('.')));
                if let Some(t) = tree {
                    match trees.iter_mut().find(|(n, _)| *n == t) {
                        Some((_, v)) => v.push(l),
                        None => trees.push((t, vec![l])),
                    }
                }
            }
            for (t, v) in trees {
                let key = SourceKey::cmd(&["sysctl", t]);
                if bundle.get(&key).is_none() {
                    bundle.insert(&key, Capture::ok(v.join("\n")));
                }
            }
            for (name, value) in sysctl_pairs(&b.text) {
                let key = SourceKey::Sysctl(name.clone());
                bundle.insert(&key, Capture::ok(value));
            }
            used.push(Used {
                tool: b.tool,
                device: None,
                key: "sysctl:*".to_string(),
                src: b.src,
                first: b.first,
                last: b.last,
                superseded: false,
            });
            continue;
        }
        let live = if platform_compatible(b.tool, platform) {
            live_key(b.tool, b.device.as_deref(), platform)
        } else {
            None
        };
        if let (Some(k), true) = (
            &live,
            b.tool
                .is_any(&[&sources::dmesg::SPEC, &sources::kernel_log::LINUX_SPEC]),
        ) {
            match logs.iter_mut().find(|(t, _)| *t == b.tool) {
                Some((_, parts)) => parts.push(b.text.clone()),
                None => logs.push((b.tool, vec![b.text.clone()])),
            }
            used.push(Used {
                tool: b.tool,
                device: b.device.clone(),
                key: k.to_string(),
                src: b.src,
                first: b.first,
                last: b.last,
                superseded: false,
            });
            continue;
        }
        let key = match live {
            Some(k) => {
                // A later block with the same live key wins (the later state of the
                // machine); the earlier one moves to its pasted key.
                let ks = k.to_string();
                if let Some(prev) = used.iter_mut().find(|u| u.key == ks && !u.superseded) {
                    prev.superseded = true;
                    if let Some(cap) = bundle.captures.remove(&ks) {
                        let old = rec.blocks.iter().find(|ob| {
                            ob.src == prev.src && ob.first == prev.first && ob.tool == prev.tool
                        });
                        let pk = old
                            .map(|ob| pasted_key(ob, labels).to_string())
                            .unwrap_or_else(|| {
                                format!(
                                    "pasted:{} lines {}-{}",
                                    prev.tool.id(),
                                    prev.first,
                                    prev.last
                                )
                            });
                        bundle.notes.push(format!(
                            "{} ({}) was shown again later ({}); the later output is used as {ks}, the earlier one is kept as {pk}",
                            prev.tool.display(),
                            where_(prev.src, prev.first, prev.last),
                            where_(b.src, b.first, b.last)
                        ));
                        bundle.captures.insert(pk.clone(), cap);
                        prev.key = pk;
                    }
                }
                ks
            }
            None => pasted_key(b, labels).to_string(),
        };
        bundle
            .captures
            .insert(key.clone(), Capture::ok(b.text.clone()));
        used.push(Used {
            tool: b.tool,
            device: b.device.clone(),
            key,
            src: b.src,
            first: b.first,
            last: b.last,
            superseded: false,
        });
    }
    for (tool, parts) in logs {
        if let Some(k) = live_key(tool, None, platform) {
            bundle.insert(&k, Capture::ok(parts.join("\n")));
        }
    }
    for s in &rec.settings {
        let key = SourceKey::Sysctl(s.name.clone());
        if bundle.get(&key).is_none() {
            bundle.insert(&key, Capture::ok(s.value.clone()));
            bundle.notes.push(format!(
                "sysctl:{} = {} read from a sentence ({}), not from sysctl output",
                s.name,
                s.value,
                where_(s.src, s.line, s.line)
            ));
        }
    }
    for u in &used {
        bundle.notes.push(format!(
            "{}: {}{} -> {}",
            where_(u.src, u.first, u.last),
            u.tool.display(),
            u.device
                .as_deref()
                .map(|d| format!(" ({d})"))
                .unwrap_or_default(),
            u.key
        ));
    }
    for (src, a, b) in &rec.ignored {
        bundle.notes.push(format!(
            "{}: ignored (not a recognised tool output)",
            where_(*src, *a, *b)
        ));
    }
    // Only now is each block's key final: a later output may have moved an earlier one
    // to its `pasted:` key above.
    for b in &mut rec.blocks {
        b.key = used
            .iter()
            .find(|u| u.src == b.src && u.first == b.first && u.tool == b.tool)
            .map(|u| u.key.clone())
            .unwrap_or_else(|| pasted_key(b, labels).to_string());
    }
    (bundle, used)
}

/// A FreeBSD-only tool in a text judged Linux (or the reverse) is still shown, but kept
/// out of the live keys so the other OS's parsers do not misread it.
fn platform_compatible(tool: Tool, platform: Platform) -> bool {
    match tool.platform() {
        Some(p) => p == platform || platform == Platform::Unknown,
        None => true,
    }
}

/// `name: value` pairs of a sysctl block; indented or `<...>` lines continue the value.
fn sysctl_pairs(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for l in text.lines() {
        let first = l.chars().next().unwrap_or(' ');
        let starts_name = first.is_ascii_lowercase()
            && l.contains('.')
            && (l.contains(": ") || l.ends_with(':') || l.contains('='));
        if starts_name {
            let (n, v) = match (l.find(": "), l.find('=')) {
                (Some(c), Some(e)) if e < c => (&l[..e], &l[e + 1..]),
                (Some(c), _) => (&l[..c], &l[c + 2..]),
                (None, Some(e)) => (&l[..e], &l[e + 1..]),
                (None, None) => (l.trim_end_matches(':'), ""),
            };
            if !n.contains(' ') {
                out.push((n.to_string(), v.trim().trim_matches('"').to_string()));
                continue;
            }
        }
        if let Some(last) = out.last_mut() {
            last.1.push('\n');
            last.1.push_str(l);
        }
    }
    out
}

#[cfg(test)]
mod tests;
