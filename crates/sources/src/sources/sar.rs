//! `sar -d` (sysstat): the block-device report of the system activity reporter, live
//! (`sar -d 1 5`) or read back from the daily file (`sar -d -f /var/log/sa/saDD`). Each
//! interval prints a header line stamped with its time and then one row per device, and an
//! "Average:" block closes the run:
//!
//! ```text
//! 06:43:44 PM       DEV       tps  rd_sec/s  wr_sec/s  avgrq-sz  avgqu-sz     await     svctm     %util
//! 06:43:45 PM    dev8-0   6274.00    400.00 796672.00    127.04    142.20     22.64      0.16    100.00
//! Average:          DEV       tps     rkB/s     wkB/s     dkB/s   areq-sz    aqu-sz     await     %util
//! ```
//!
//! Columns by version (sysstat pr_stats.c / rndr_stats.c, sar(1)): up to 11.x `tps rd_sec/s
//! wr_sec/s avgrq-sz avgqu-sz await svctm %util` (sectors of 512 bytes, request size in
//! sectors); 12.0 `tps rkB/s wkB/s areq-sz aqu-sz await svctm %util` (kilobytes); 12.1 and
//! later add `dkB/s` (discards) and drop `svctm`. The time stamp is the C locale's 24-hour
//! clock or, under an English locale, 12-hour with AM/PM (two words); other locales print
//! their own form ("14时33分13秒"), always before the DEV column. Without `-p` a device is
//! named `devMAJOR-MINOR` (dev8-0 = sda, dev8-16 = sdb, dev9-3 = md3); with `-p` by its
//! /dev name (sda, or an LVM volume as vg-lv). The numbers are the same io_ticks, time in
//! queue and completions as iostat -x reads from /proc/diskstats, so a row becomes the same
//! busy sample as iostat's (sources::iostat::IostatSample).

// sar prints its numbers as iostat does, printf's "%9.2f" under LC_NUMERIC.
use crate::sources::iostat::{IostatSample, SYSSTAT_BANNER, num};
use crate::sources::spec;
use crate::sources::util::clean_line;

/// sd0..: a, b, ..., z, aa, ab, ... (drivers/scsi/sd.c sd_format_disk_name).
fn sd_letters(index: u32) -> String {
    let mut n = index;
    let mut out = Vec::new();
    loop {
        out.push(char::from(b'a' + (n % 26) as u8));
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    out.iter().rev().collect()
}

/// The /dev name of sar's `devMAJOR-MINOR` for the majors that are fixed
/// (Documentation/admin-guide/devices.txt): 8, 65-71 and 128-135 SCSI disks (16 minors
/// each: the disk and 15 partitions), 3 and 22 the first IDE disks (64 minors each), 9 md
/// arrays, 179 MMC (8 minors each, CONFIG_MMC_BLOCK_MINORS), 202 Xen virtual disks (16 each).
/// Dynamic majors (device-mapper, virtio, NVMe's 259) are not fixed: None.
pub(crate) fn dev_name(major: u32, minor: u32) -> Option<String> {
    let part = |base: String, p: u32, sep: &str| {
        if p == 0 {
            base
        } else {
            format!("{base}{sep}{p}")
        }
    };
    let scsi_first = match major {
        8 => Some(0),
        65..=71 => Some((major - 64) * 16),
        128..=135 => Some((major - 128 + 8) * 16),
        _ => None,
    };
    if let Some(first) = scsi_first {
        return Some(part(
            format!("sd{}", sd_letters(first + minor / 16)),
            minor % 16,
            "",
        ));
    }
    match major {
        3 | 22 => {
            let unit = (if major == 3 { 0 } else { 2 }) + minor / 64;
            Some(part(format!("hd{}", sd_letters(unit)), minor % 64, ""))
        }
        9 => Some(format!("md{minor}")),
        179 => Some(part(format!("mmcblk{}", minor / 8), minor % 8, "p")),
        202 => Some(part(
            format!("xvd{}", sd_letters(minor / 16)),
            minor % 16,
            "",
        )),
        _ => None,
    }
}

/// A DEV column entry as a /dev name: `devM-N` translated where the major is fixed, any
/// other name (sar -p) as printed.
fn device(name: &str) -> String {
    let mapped = name.strip_prefix("dev").and_then(|mn| {
        let (ma, mi) = mn.split_once('-')?;
        dev_name(ma.parse().ok()?, mi.parse().ok()?)
    });
    mapped.unwrap_or_else(|| name.to_string())
}

/// Every device row of every interval, in order; `report` counts the header lines, so the
/// "Average:" block is the last report. Empty when no `sar -d` table is found.
pub fn parse(text: &str) -> Vec<IostatSample> {
    let mut out = Vec::new();
    // (words before DEV, the column names after it, the report number)
    let mut table: Option<(usize, Vec<String>, usize)> = None;
    let mut reports = 0usize;
    for raw in text.lines() {
        let l = clean_line(raw);
        let tk: Vec<&str> = l.split_whitespace().collect();
        if let Some(at) = tk.iter().position(|w| *w == "DEV")
            && (1..=2).contains(&at)
            && tk.get(at + 1) == Some(&"tps")
        {
            let cols = tk.iter().skip(at + 1).map(|w| w.to_string()).collect();
            table = Some((at, cols, reports));
            reports += 1;
            continue;
        }
        let Some((skip, cols, report)) = &table else {
            continue;
        };
        // "Average:" is one word where a 12-hour stamp is two.
        let skip = if tk.first() == Some(&"Average:") {
            1
        } else {
            *skip
        };
        let Some(dev) = tk.get(skip) else { continue };
        let vals = tk.get(skip + 1..).unwrap_or_default();
        if vals.len() != cols.len() || vals.iter().any(|v| num(v).is_none()) {
            continue;
        }
        out.push(row(&device(dev), cols, vals, *report));
    }
    out
}

fn row(dev: &str, cols: &[String], vals: &[&str], report: usize) -> IostatSample {
    let mut s = IostatSample {
        device: dev.to_string(),
        report,
        layout: "sar",
        ..Default::default()
    };
    for (c, v) in cols.iter().zip(vals) {
        let n = num(v);
        match c.as_str() {
            "tps" => s.transfers_per_sec = n,
            // 512-byte sectors (sysstat < 12).
            "rd_sec/s" => s.read_kb_per_sec = n.map(|x| x / 2.0),
            "wr_sec/s" => s.write_kb_per_sec = n.map(|x| x / 2.0),
            "rkB/s" => s.read_kb_per_sec = n,
            "wkB/s" => s.write_kb_per_sec = n,
            "await" => s.await_ms = n,
            "avgqu-sz" | "aqu-sz" => s.queue_len = n,
            "%util" => s.busy_pct = n,
            _ => {}
        }
    }
    if let (Some(t), Some(r), Some(w)) =
        (s.transfers_per_sec, s.read_kb_per_sec, s.write_kb_per_sec)
        && t > 0.0
    {
        s.kb_per_transfer = Some((r + w) / t);
    }
    s
}

// ---- the source spec (see sources::spec) ----

crate::rx!(
    SAR_HEADER,
    r"^\s*(\S+(\s+[AP]M)?)\s+DEV\s+tps\s+(rd_sec/s|rkB/s)\s"
);
// A device row: the stamp (or "Average:"), the device, its numbers.
crate::rx!(
    SAR_ROW,
    r"^\s*\S+(\s+[AP]M)?\s+[\w./:-]+(\s+-?\d+[.,]\d+){5,}\s*$"
);

// sysstat's banner (sources::iostat::SYSSTAT_BANNER) belongs to the sar report when a sar
// header follows it.

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "sar",
    // The banner start is tried before iostat's (which takes the same banner for its own).
    starts: &[
        (125, |l| {
            spec::Start::from(l.first().is_some_and(|t| {
                SYSSTAT_BANNER.is_match(t)
                    && l.iter().skip(1).take(3).any(|n| SAR_HEADER.is_match(n))
            }))
        }),
        (135, |l| spec::on_first(l, |t| SAR_HEADER.is_match(t))),
    ],
    member: |t, _| {
        spec::Member::from(
            SAR_HEADER.is_match(t) || SAR_ROW.is_match(t) || SYSSTAT_BANNER.is_match(t),
        )
    },
    tolerance: (1, 1),
    classify: |_, _| "sar",
    ..spec::Recogniser::NONE
};

/// sar(1) -d of sysstat: a measurement, pasted beside a question.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "sar")),
    programs: &[spec::Program::new("sar", spec::listing_args)],
    ..spec::SourceSpec::named("sar", "sar -d")
};

#[cfg(test)]
mod tests;
