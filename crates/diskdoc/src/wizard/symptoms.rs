//! Step 2: what feels slow, and the user's own numbers ("I ran `dd ...` and got 75 MB/s").
//! A paste is read by `explain`'s pipeline (diskdoc_core::explain); this module only adds a
//! reader for one free-form line ("dd ... got 75 MB/s").

use diskdoc_core::evidence::{EvidenceBundle, Platform};
use diskdoc_core::facts::{SystemFacts, UserBenchmark};

pub const SYMPTOMS: [&str; 6] = [
    "Copying files",
    "A benchmark number I measured",
    "A database or virtual machines",
    "Booting or starting programs",
    "Everything",
    "Not sure / skip",
];

/// What the symptom says about the tests: the group that matters most (offered first) and
/// a line saying why. None for "Not sure / skip".
pub fn focus(symptom: usize) -> Option<(&'static str, &'static str)> {
    Some(match symptom {
        0 => (
            "write",
            "You said copying files is slow: copying is large sequential reads and writes, \
             so the sequential read and the write tests matter most.",
        ),
        1 => (
            "read",
            "You measured a number yourself: the read tests measure the same disk without \
             the page cache, to compare with it.",
        ),
        2 => (
            "write",
            "Databases and virtual machines wait on small random and synchronous writes: \
             the 4 KiB random reads and the sync-write test matter most.",
        ),
        3 => (
            "read",
            "Booting and starting programs read many small files: the random 4 KiB read \
             test matters most.",
        ),
        4 => (
            "read",
            "Everything is slow: the read tests show whether the disk itself is the \
             bottleneck.",
        ),
        _ => return None,
    })
}

/// Where the files of pasted dd/cp runs are on this machine (its mount table): a
/// filesystem the text did not state is filled in (a dd into the very filesystem diskdoc
/// inspected is then judged on it, not "an unknown filesystem"), and a file on a disk other
/// than `disk` gets a sentence saying so (its figure is that disk's). A path on a disk the
/// facts do not cover (`--device` probes one disk) is found in the captured mount table.
/// Device paths, relative paths and paths under no known mount are left as they are.
pub fn locate_pasted(
    bundle: &EvidenceBundle,
    sys: &SystemFacts,
    disk: &str,
    benches: &mut [UserBenchmark],
) -> Vec<String> {
    let mut notes = Vec::new();
    for b in benches.iter_mut() {
        let ends = [
            (b.output.clone(), "wrote to"),
            (b.input.clone(), "read from"),
        ];
        for (path, verb) in ends {
            let Some(path) = path.filter(|p| p.starts_with('/') && !p.starts_with("/dev/")) else {
                continue;
            };
            let held = sys
                .disks
                .iter()
                .flat_map(|d| d.mounts.iter().map(move |m| (d, m)))
                .filter(|(_, m)| std::path::Path::new(&path).starts_with(&m.mountpoint))
                .max_by_key(|(_, m)| m.mountpoint.len());
            let (name, m) = match held {
                Some((d, m)) => (Some(d.name.clone()), m.clone()),
                None if bundle.platform == Platform::Linux => {
                    let Some(m) = diskdoc_core::facts::linux::mount_holding(bundle, &path) else {
                        continue;
                    };
                    // A filesystem on a block device names its disk; tmpfs and the like
                    // have none.
                    let name = m
                        .source
                        .strip_prefix("/dev/")
                        .map(|_| diskdoc_core::facts::linux::resolve_target(bundle, &m.source));
                    (name, m)
                }
                None => continue,
            };
            if verb == "wrote to" && b.filesystem.is_none() {
                b.filesystem = Some(m.fstype.clone());
            }
            if let Some(other) = name.filter(|n| n != disk) {
                notes.push(format!(
                    "On this machine {path} is on {other} ({} at {}), not on {disk}: if that \
                     is where your {} {verb}, its figure is {other}'s, not {disk}'s.",
                    m.fstype, m.mountpoint, b.tool
                ));
            }
        }
    }
    notes
}

/// Parse a size like `10M`, `128k`, `1m`, `512`, `4KiB` into bytes (dd conventions:
/// k=1024, M=1024^2, G=1024^3; `kB`=1000, `MB`=1000^2 as GNU dd documents).
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let digits: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
    let n: u64 = digits.parse().ok()?;
    let suffix = &s[digits.len()..];
    let mult: u64 = match suffix {
        "" | "c" => 1,
        "w" => 2,
        "b" => 512,
        "k" | "K" | "KiB" => 1 << 10,
        "kB" | "KB" => 1000,
        "m" | "M" | "MiB" => 1 << 20,
        "MB" => 1_000_000,
        "g" | "G" | "GiB" => 1 << 30,
        "GB" => 1_000_000_000,
        _ => return None,
    };
    n.checked_mul(mult)
}

/// A speed such as "75 MB/s", "3,6 MB/s", "1.2 GB/s", "900 kB/s", "83 MiB/s" -> bytes/s.
pub fn parse_speed(text: &str) -> Option<f64> {
    let t = text.replace(',', ".");
    let words: Vec<&str> = t.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        let (num, unit) = match w.find(|c: char| c.is_ascii_alphabetic()) {
            Some(pos) if pos > 0 => (&w[..pos], &w[pos..]),
            _ => (*w, words.get(i + 1).copied().unwrap_or("")),
        };
        let num = num.trim_start_matches(['(', '[']).trim_end_matches('.');
        let Ok(v) = num.parse::<f64>() else {
            continue;
        };
        let unit = unit.trim_end_matches(['.', ',', ')', ';']);
        let m = match unit {
            "B/s" | "bytes/s" | "bytes/sec" => 1.0,
            "kB/s" | "KB/s" => 1e3,
            "KiB/s" => 1024.0,
            "MB/s" => 1e6,
            "MiB/s" => 1048576.0,
            "GB/s" => 1e9,
            "GiB/s" => 1073741824.0,
            _ => continue,
        };
        return Some(v * m);
    }
    None
}

/// What the user pasted: the whole multi-line paste goes through `diskdoc explain`'s
/// pipeline (the same recognisers and parsers: dd in every locale, hdparm -t, fio, cp/rsync
/// and pv), so the wizard understands whatever `explain` does; a one-line description
/// ("I ran `dd ...` and got 75 MB/s") that explain finds no tool output in is read by
/// [`parse_line`].
pub fn parse_pasted(text: &str) -> Vec<UserBenchmark> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    let input = diskdoc_core::explain::Input {
        label: "wizard paste".to_string(),
        bytes: text.as_bytes().to_vec(),
    };
    let mut found = diskdoc_core::explain::explain(&[input])
        .map(|ex| ex.benchmarks)
        .unwrap_or_default();
    if !found.iter().any(|b| b.bytes_per_sec.is_some()) {
        // The dd/copy parsers alone (a fragment explain did not take for a block).
        found = diskdoc_core::sources::dd::parse(text);
        found.extend(diskdoc_core::sources::copy::parse(text));
    }
    if found.iter().any(|b| b.bytes_per_sec.is_some()) {
        for b in &mut found {
            b.from = format!("wizard: pasted by the user ({})", b.from);
        }
        return found;
    }
    parse_line(text)
}

/// Find a dd/cp/fio command and a speed in one free-form line.
pub fn parse_line(text: &str) -> Vec<UserBenchmark> {
    let text = text.trim();
    if text.is_empty() {
        return Vec::new();
    }
    let cleaned: String = text
        .chars()
        .map(|c| if c == '`' || c == '"' { ' ' } else { c })
        .collect();
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    let mut out = Vec::new();
    if let Some(start) = words
        .iter()
        .position(|w| *w == "dd" || *w == "cp" || *w == "fio")
    {
        let tool = words[start];
        let mut b = UserBenchmark {
            tool: tool.to_string(),
            from: "wizard: pasted by the user".to_string(),
            ..Default::default()
        };
        let mut args = Vec::new();
        for w in &words[start + 1..] {
            if tool == "dd" {
                let Some((k, v)) = w.split_once('=') else {
                    break;
                };
                match k {
                    "if" => b.input = Some(v.to_string()),
                    "of" => b.output = Some(v.to_string()),
                    "bs" => b.block_size_bytes = parse_size(v),
                    "count" => {
                        if let (Some(c), Some(bs)) = (parse_size(v), b.block_size_bytes) {
                            b.bytes = c.checked_mul(bs);
                        }
                    }
                    "conv" | "oflag" | "iflag" => {
                        b.flags.extend(v.split(',').map(|f| format!("{k}={f}")))
                    }
                    _ => {}
                }
                args.push(*w);
            } else if tool == "cp" {
                if w.starts_with('-') {
                    args.push(*w);
                    continue;
                }
                if b.input.is_none() {
                    b.input = Some(w.to_string());
                } else if b.output.is_none() {
                    b.output = Some(w.to_string());
                    args.push(*w);
                    break;
                }
                args.push(*w);
            } else {
                if !w.starts_with("--") {
                    break;
                }
                if let Some(v) = w.strip_prefix("--bs=") {
                    b.block_size_bytes = parse_size(v);
                }
                if let Some(v) = w.strip_prefix("--filename=") {
                    b.input = Some(v.to_string());
                }
                if *w == "--direct=1" {
                    b.flags.push("direct=1".into());
                }
                args.push(*w);
            }
        }
        b.command = Some(format!("{tool} {}", args.join(" ")).trim().to_string());
        // The speed after the command ("... and got 75 MB/s").
        b.bytes_per_sec = parse_speed(&words[start..].join(" "));
        out.push(b);
    } else if let Some(v) = parse_speed(text) {
        out.push(UserBenchmark {
            tool: "unknown".into(),
            bytes_per_sec: Some(v),
            from: "wizard: pasted by the user".into(),
            ..Default::default()
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issue_example_is_understood() {
        let b =
            parse_pasted("I ran `dd if=/dev/zero of=/tmp/foo bs=10M count=1000` and got 75 MB/s");
        assert_eq!(b.len(), 1);
        let b = &b[0];
        assert_eq!(b.tool, "dd");
        assert_eq!(b.input.as_deref(), Some("/dev/zero"));
        assert_eq!(b.output.as_deref(), Some("/tmp/foo"));
        assert_eq!(b.block_size_bytes, Some(10 << 20));
        assert_eq!(b.bytes, Some(10_485_760_000));
        assert_eq!(b.bytes_per_sec, Some(75e6));
        assert!(b.flags.is_empty());
    }

    #[test]
    fn seed_001_small_block_read_and_flags() {
        let b = parse_pasted("dd if=/dev/ad8 of=/dev/null conv=fsync,noerror gives 3,65 MB/s");
        assert_eq!(
            b[0].block_size_bytes, None,
            "BSD dd default bs (512) is not invented here"
        );
        assert_eq!(b[0].flags, vec!["conv=fsync", "conv=noerror"]);
        assert!((b[0].bytes_per_sec.unwrap() - 3.65e6).abs() < 1.0);
    }

    #[test]
    fn cp_and_bare_numbers() {
        let b = parse_pasted("cp qemu/c.img /mnt/ext/c.img runs at 33 MB/s");
        assert_eq!(b[0].tool, "cp");
        assert_eq!(b[0].input.as_deref(), Some("qemu/c.img"));
        assert_eq!(b[0].output.as_deref(), Some("/mnt/ext/c.img"));
        assert_eq!(b[0].bytes_per_sec, Some(33e6));
        let bsd = parse_pasted(
            "dd if=/dev/zero of=/tmp/foo bs=10M count=1000: 10485760000 bytes transferred in 811.677303 secs (12918632 bytes/sec)",
        );
        assert_eq!(bsd[0].bytes_per_sec, Some(12918632.0));
        let n = parse_pasted("only 1.2 GB/s");
        assert_eq!(n[0].tool, "unknown");
        assert_eq!(n[0].bytes_per_sec, Some(1.2e9));
        assert!(parse_pasted("it is slow").is_empty());
        assert!(parse_pasted("").is_empty());
    }

    #[test]
    fn real_dd_outputs_from_the_fixtures() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
        let cases = [
            // GNU dd, German locale: "9,2 MB/s" from bytes and seconds.
            (
                "linux/dd/gnu-dd-de-locale-decimal-comma-datensaetze-usb-9.2MBps.txt",
                9.16e6,
            ),
            (
                "linux/dd/gnu-dd-write-usb-bs1M-305MBps-page-cache.txt",
                305e6,
            ),
            (
                "freebsd/dd/bsd-dd-100MiB-usb-sdcard-31605338-bytes-sec.txt",
                31_605_338.0,
            ),
            ("freebsd/dd/bsd-dd-enospc-partial-record.txt", 25_726_662.0),
        ];
        for (file, want) in cases {
            let text = std::fs::read_to_string(format!("{dir}/{file}")).unwrap_or_default();
            let got = parse_pasted(&text);
            let rate = got.iter().find_map(|b| b.bytes_per_sec).unwrap_or(0.0);
            assert!(
                (rate - want).abs() / want < 0.01,
                "{file}: {rate} vs {want}"
            );
            // A paste cut in the middle never panics and never invents a rate.
            let half: String = text.chars().take(text.chars().count() / 2).collect();
            for b in parse_pasted(&half) {
                assert!(b.bytes_per_sec.is_none_or(|r| r > 0.0), "{file}");
            }
        }
        // Seed 000's BSD dd result lines, pasted as the author printed them.
        let seed = "dd if=/dev/zero of=/tmp/foo bs=10M count=1000\n\
                    10485760000 bytes transferred in 811.677303 secs (12918632 bytes/sec)";
        let b = parse_pasted(seed);
        assert_eq!(b[0].bytes_per_sec, Some(12_918_632.0));
        assert_eq!(b[0].block_size_bytes, Some(10 << 20));
        assert_eq!(b[0].input.as_deref(), Some("/dev/zero"));
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("128k"), Some(131072));
        assert_eq!(parse_size("1m"), Some(1 << 20));
        assert_eq!(parse_size("10MB"), Some(10_000_000));
        assert_eq!(parse_size("x"), None);
        assert_eq!(parse_size("99999999999999999999G"), None);
    }
}
