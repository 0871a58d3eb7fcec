//! Explain's side of the pasted PCIe, NVMe and benchmark outputs (sources/block_recognisers.rs finds them; the
//! facts they prove are facts::pasted::device_state's): the pasted CrystalDiskMark / KDiskMark
//! sequential reads as benchmarks, and the NVMe command list of "what to run next".

use super::recognize::Recognized;
use super::segment::rx;
use crate::facts::{UserBenchmark, pasted::LINK_FILES};
use crate::sources::block_recognisers::{nvme_attach_name, nvme_controller};
use crate::sources::{self, ask, spec::Ask, spec::SourceSpec};

rx!(
    DISKMARK_TEST,
    r"Test:\s*([\d.]+)\s*(MiB|GiB)(?:\s*\(x(\d+)\))?"
);

/// What to run next for an NVMe disk of the paste (its own list: NVMe has no SATA link,
/// write-cache sysfs file of a SCSI disk or NCQ). Linux: nvme-cli's health log and
/// namespace formats, smartctl on the controller, the PCIe link from lspci and sysfs
/// (Documentation/ABI/testing/sysfs-bus-pci). FreeBSD: nvmecontrol(8) and pciconf(8) -c.
pub(crate) fn nvme_next_commands(disk: &str, linux: bool, rec: &Recognized) -> Vec<String> {
    let has = |t: &SourceSpec| rec.blocks.iter().any(|b| b.tool.is(t));
    let mut out = Vec::new();
    if linux {
        let Some(ctrl) = nvme_controller(disk) else {
            return out;
        };
        if !has(&sources::nvme_smart::NVME_CLI_SPEC)
            && !sources::SMART_REPORTS.iter().copied().any(has)
        {
            out.push(format!("nvme smart-log /dev/{ctrl}"));
            out.push(ask(Ask::SmartReport, &format!("/dev/{ctrl}")));
        }
        if !has(&sources::block_recognisers::NVME_ID_NS_SPEC) {
            out.push(format!("nvme id-ns -H /dev/{disk} | grep -i 'lba format'"));
        }
        if !has(&sources::block_recognisers::LSPCI_VV_SPEC) {
            out.push(ask(
                Ask::PciDevice,
                &format!("$(basename $(readlink /sys/class/nvme/{ctrl}/device))"),
            ));
            out.push(format!(
                "cat /sys/class/nvme/{ctrl}/device/{{{}}}",
                LINK_FILES.join(",")
            ));
        }
    } else {
        // The controller: named by the disk itself (nvme0ns1), else the only nvme(4)
        // controller the paste shows. nvd(4)/nda(4) unit numbers do not follow the
        // controllers' (nvd.c takes the lowest free unit across all of them), so with
        // none or several the poster is asked for what ties the disk to one.
        let ctrl = nvme_controller(disk).or_else(|| only_controller(rec));
        let Some(ctrl) = ctrl else {
            out.push(format!("diskinfo -v {disk}"));
            out.push("nvmecontrol devlist".to_string());
            return out;
        };
        if !has(&sources::nvme_smart::SPEC) && !sources::SMART_REPORTS.iter().copied().any(has) {
            out.push(format!("nvmecontrol logpage -p 2 {ctrl}"));
            // smartctl must be pointed at the controller node on FreeBSD (nvme(4)).
            out.push(ask(Ask::SmartReport, &format!("/dev/{ctrl}")));
        }
        if !has(&sources::block_recognisers::NVMECONTROL_IDENTIFY_SPEC) {
            out.push(format!("nvmecontrol identify {ctrl}ns1"));
        }
        if !has(&sources::pciconf::LVC_SPEC) {
            out.push(format!("pciconf -lvc {ctrl}"));
        }
    }
    out
}

/// The one nvme(4) controller the pasted outputs show ("nvme0: <...>" attach lines,
/// "nvme0@pci..." pciconf rows), None with none or several.
fn only_controller(rec: &Recognized) -> Option<String> {
    let mut seen: Vec<String> = Vec::new();
    for b in &rec.blocks {
        for name in b.text.lines().filter_map(nvme_attach_name) {
            if !seen.contains(&name) {
                seen.push(name);
            }
        }
    }
    (seen.len() == 1).then(|| seen.remove(0))
}

/// The pasted CrystalDiskMark / KDiskMark reports.
fn diskmark_blocks(rec: &Recognized) -> impl Iterator<Item = &super::recognize::Block> {
    rec.blocks.iter().filter(|b| {
        b.tool.is_any(&[
            &sources::block_recognisers::CRYSTALDISKMARK_SPEC,
            &sources::block_recognisers::KDISKMARK_SPEC,
        ])
    })
}

/// A report's lines, trimmed, each with whether it is in the "[Write]" section.
fn sections(text: &str) -> Vec<(&str, bool)> {
    let mut in_write = false;
    text.lines()
        .map(|l| {
            let t = l.trim();
            if t.starts_with("[Write") {
                in_write = true;
            } else if t.starts_with("[Read") {
                in_write = false;
            }
            (t, in_write)
        })
        .collect()
}

/// A CrystalDiskMark / KDiskMark report's figures as pasted benchmarks (sources::diskmark):
/// its best sequential read and write and its 4 KiB random rows with their queue depths. The
/// tools read a test file through the filesystem with O_DIRECT-like unbuffered I/O (CDM:
/// DiskSpd -Sh; KDiskMark: fio --direct=1).
pub(crate) fn diskmark_benchmarks(rec: &Recognized) -> Vec<UserBenchmark> {
    diskmark_blocks(rec)
        .flat_map(|b| {
            sources::diskmark::benchmarks(&b.text, b.tool.display(), &b.key, test_bytes(&b.text))
        })
        .collect()
}

/// The pasted PiBenchmarks tables (sources::pibenchmarks) and Raspberry Pi Diagnostics SD
/// card tests (sources::agnostics) as pasted benchmarks.
pub(crate) fn pi_benchmarks(rec: &Recognized) -> Vec<UserBenchmark> {
    let mut out = Vec::new();
    for b in &rec.blocks {
        if b.tool.is(&sources::pibenchmarks::SPEC) {
            out.extend(sources::pibenchmarks::benchmarks(&b.text, &b.key));
        } else if b.tool.is(&sources::agnostics::SPEC) {
            out.extend(sources::agnostics::benchmarks(&b.text, &b.key));
        }
    }
    out
}

// The random 4 KiB read at queue depth 1, one thread: CrystalDiskMark 6+ "RND4K Q1T1:" and
// KDiskMark "Random 4 KiB (Q= 1, T= 1):" rows (the rate in MB/s first).
rx!(
    DISKMARK_RND4K_Q1T1,
    r"(?i)^\s*(RND4K\s*Q1T1|Random\s*4\s*KiB\s*\(Q=\s*1,\s*T=\s*1\))\s*:\s*([\d.,]+) MB/s"
);

/// At queue depth 1 a random read's rate is 4 KiB over one read's latency. NAND flash
/// takes 40-100 us per read, and the fastest storage ever sold, 3D XPoint (Intel Optane
/// SSD P5800X, "<5 us" media latency in its datasheet), some 10 us once the kernel's block
/// path and the filesystem are added: 400 MB/s at most. Above 500 MB/s (under 8.2 us per
/// read) no device answered; the page cache did.
const Q1_RANDOM_FROM_RAM: f64 = 5.0e8;

/// Pasted CrystalDiskMark / KDiskMark reports and fio_mark.sh tables whose RND4K Q1T1 read (bytes/s) is faster
/// than any storage device reads 4 KiB blocks at queue depth 1, with the block's key.
pub(crate) fn diskmark_q1_random_from_ram(rec: &Recognized) -> Vec<(f64, String)> {
    let mut out = Vec::new();
    for b in diskmark_blocks(rec) {
        for (t, in_write) in sections(&b.text) {
            let Some(c) = DISKMARK_RND4K_Q1T1.captures(t) else {
                continue;
            };
            // CrystalDiskMark's one-table layout labels the direction on the row.
            if in_write || t.contains("Write") {
                continue;
            }
            let Some(mb) = c
                .get(2)
                .and_then(|v| v.as_str().replace(',', "").parse::<f64>().ok())
            else {
                continue;
            };
            let bps = mb * 1e6;
            if bps.is_finite() && bps > Q1_RANDOM_FROM_RAM {
                out.push((bps, b.key.clone()));
                break;
            }
        }
    }
    // bihell/fio's fio_mark.sh table: its RND4K-Q1T1 row, MiB/s (sources::fio_mark).
    for b in rec
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::fio_mark::SPEC))
    {
        let fast = sources::fio_mark::parse(&b.text).into_iter().find_map(|r| {
            let bps = r.read_mibs? * 1048576.0;
            (r.block_bytes == 4096
                && r.queue_depth == 1
                && r.threads == 1
                && bps.is_finite()
                && bps > Q1_RANDOM_FROM_RAM)
                .then_some(bps)
        });
        if let Some(bps) = fast {
            out.push((bps, b.key.clone()));
        }
    }
    out
}

/// The sequential large-record read of a pasted iozone results table (sources::iozone) as a
/// pasted benchmark, and of iozone's own table the best sequential read and write when the
/// iozone command line the block follows (its own, else the last one typed before it in
/// the same input) ran with O_DIRECT.
pub(crate) fn iozone_benchmarks(rec: &Recognized) -> Vec<UserBenchmark> {
    let mut out = Vec::new();
    for b in rec
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::iozone::SPEC))
    {
        out.extend(sources::iozone::seq_read_benchmark(&b.text, &b.key));
        out.extend(sources::iozone::pts_benchmarks(&b.text, &b.key));
        let typed = rec
            .commands
            .iter()
            .filter(|c| c.src == b.src && c.idx < b.idx.0 && c.program == "iozone")
            .map(|c| c.text.as_str())
            .next_back();
        let command = b.command.as_deref().or(typed).unwrap_or("");
        out.extend(sources::iozone::native_benchmarks(&b.text, command, &b.key));
    }
    out
}

/// "Test: 1 GiB (x5)" -> bytes of one pass.
fn test_bytes(text: &str) -> Option<u64> {
    let c = DISKMARK_TEST.captures(text)?;
    let n: f64 = c.get(1)?.as_str().parse().ok()?;
    let unit: f64 = match c.get(2)?.as_str() {
        "GiB" => 1073741824.0,
        _ => 1048576.0,
    };
    let v = n * unit;
    (v.is_finite() && v > 0.0 && v < 1e18).then_some(v as u64)
}
