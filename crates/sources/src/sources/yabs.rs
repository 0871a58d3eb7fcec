//! yabs.sh (Yet Another Bench Script, github.com/masonr/yet-another-bench-script), the
//! benchmark people run on a new VPS or cloud host. "Basic System Information:" prints
//! `"%-11s: %s"`-style lines: "Processor  : <model name>", "AES-NI     : ✔ Enabled" (or "❌
//! Disabled": `grep aes /proc/cpuinfo`), "VM-x/AMD-V : ...", "RAM        : 1.7 GiB"
//! (format_size of `free`'s KiB: KiB/MiB/GiB/TiB, one decimal), "Disk", "Distro", "Kernel",
//! and since 2022 "VM Type    : KVM" (`systemd-detect-virt`, upper-cased). "fio Disk Speed
//! Tests (Mixed R/W 50/50)" (" (Partition /dev/...)" since 2023) prints per pair of block
//! sizes `printf "%-10s | %-11s %8s | %-11s %8s\n"`: "Block Size | 4k (IOPS) | 64k (IOPS)",
//! then rows Read, Write, Total of "<speed> <unit> (<iops>)". Each column is one fio run
//! `--rw=randrw --rwmixread=50 --iodepth=64 --numjobs=2 --direct=1 --ioengine=libaio` on a
//! test file of the current partition (disk_test); format_speed prints fio's KiB/s as
//! decimal KB/s, MB/s or GB/s with two decimals, format_iops "36.1k".

use crate::sources::{spec, util};

/// One block size's figures (bytes per second; read and write of the same mixed run).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MixedRun {
    pub block_bytes: u64,
    pub read_bps: Option<f64>,
    pub write_bps: Option<f64>,
}

/// The system lines.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Header {
    pub processor: Option<String>,
    pub aes_ni: Option<bool>,
    pub ram_bytes: Option<u64>,
    /// systemd-detect-virt's answer, upper-cased ("KVM", "NONE").
    pub vm_type: Option<String>,
}

crate::rx!(TITLE, r"^(?:fio|dd) (?:Sequential )?Disk Speed Tests");
crate::rx!(
    BS_ROW,
    r"^Block Size\s*\|\s*(\d+[kKmM])\s+\(IOPS\)\s*\|\s*(\d+[kKmM])\s+\(IOPS\)"
);
crate::rx!(
    RW_ROW,
    r"^(Read|Write|Total)\s*\|\s*([\d.]+)\s+([KMG]B/s)\s+\([\d.]+k?\)\s*\|\s*(?:([\d.]+)\s+([KMG]B/s)\s+\([\d.]+k?\))?"
);
crate::rx!(
    INFO,
    r"^(Uptime|Processor|CPU cores|AES-NI|VM-x/AMD-V|RAM|Swap|Disk|Distro|Kernel|VM Type|IPv4/IPv6)\s*: ?(.*)$"
);
crate::rx!(
    OTHER,
    r"^(?:Basic System Information:|-{10,}|\s*-{4,}\s*\|.*|\s*\|\s*\|\s*)$"
);

/// The header and the fio rows of the text.
pub fn parse(text: &str) -> (Header, Vec<MixedRun>) {
    let mut h = Header::default();
    let mut runs: Vec<MixedRun> = Vec::new();
    let mut cols: Vec<usize> = Vec::new();
    for raw in text.lines() {
        let l = util::clean_line(raw);
        let t = l.trim();
        if let Some(c) = INFO.captures(t) {
            let v = c.get(2).map_or("", |m| m.as_str()).trim();
            match c.get(1).map_or("", |m| m.as_str()) {
                "Processor" if !v.is_empty() => h.processor = Some(v.to_string()),
                "AES-NI" if v.contains("Enabled") => h.aes_ni = Some(true),
                "AES-NI" if v.contains("Disabled") => h.aes_ni = Some(false),
                "RAM" => {
                    let mut w = v.split_whitespace();
                    let n = w.next().and_then(|n| n.parse::<f64>().ok());
                    let m = w.next().and_then(util::unit_multiplier);
                    h.ram_bytes = n.zip(m).map(|(n, m)| (n * m) as u64).filter(|b| *b > 0);
                }
                "VM Type" if !v.is_empty() => h.vm_type = Some(v.to_string()),
                _ => {}
            }
            continue;
        }
        if let Some(c) = BS_ROW.captures(t) {
            cols.clear();
            for g in [1, 2] {
                let bs = c
                    .get(g)
                    .and_then(|m| util::parse_size(&m.as_str().to_lowercase()));
                if let Some(bs) = bs {
                    runs.push(MixedRun {
                        block_bytes: bs,
                        ..Default::default()
                    });
                    cols.push(runs.len() - 1);
                }
            }
            continue;
        }
        let Some(c) = RW_ROW.captures(t) else {
            continue;
        };
        let dir = c.get(1).map_or("", |m| m.as_str());
        for (k, (n, u)) in [(2, 3), (4, 5)].into_iter().enumerate() {
            let rate = c
                .get(n)
                .and_then(|m| m.as_str().parse::<f64>().ok())
                .zip(
                    c.get(u)
                        .and_then(|m| util::unit_multiplier(m.as_str().trim_end_matches("/s"))),
                )
                .map(|(a, b)| a * b);
            let Some(run) = cols.get(k).and_then(|i| runs.get_mut(*i)) else {
                continue;
            };
            match dir {
                "Read" => run.read_bps = rate,
                "Write" => run.write_bps = rate,
                _ => {}
            }
        }
    }
    (h, runs)
}

// ---- the source spec (see sources::spec) ----

fn own(t: &str) -> bool {
    let l = util::clean_line(t);
    let t = l.trim();
    TITLE.is_match(t)
        || INFO.is_match(t)
        || BS_ROW.is_match(t)
        || RW_ROW.is_match(t)
        || OTHER.is_match(t)
}

fn start(lines: &[&str]) -> spec::Start {
    let c = |i: usize| {
        lines
            .get(i)
            .map(|l| util::clean_line(l).trim().to_string())
            .unwrap_or_default()
    };
    let first = c(0);
    // The section title or the header's first line, with the script's own line under it.
    let head = (TITLE.is_match(&first) || first == "Basic System Information:")
        && c(1).starts_with("-----");
    spec::Start::from(head || (BS_ROW.is_match(&first) && own(&c(1))))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "yabs",
    starts: &[(60, start)],
    member: |t, _| spec::Member::from(own(t)),
    tolerance: (1, 0),
    classify: |_, _| "yabs",
    ..spec::Recogniser::NONE
};

/// yabs.sh's system lines and fio table: pasted only.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).1.len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "yabs.sh")),
    ..spec::SourceSpec::named("yabs", "yabs.sh (Yet Another Bench Script)")
};

#[cfg(test)]
mod tests;
