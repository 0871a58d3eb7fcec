//! Paste recognisers and source specs of the table-like sources (explain/nvme_diskmark.rs has what
//! their blocks prove): `lspci -vv` (lspci(8)), /proc/mdstat (md(4)), nvme-cli `smart-log`
//! and `id-ns` (nvme-smart-log(1), nvme-id-ns(1)), FreeBSD `nvmecontrol logpage -p 2` and
//! `identify` (nvmecontrol(8)), `lsblk -D` (lsblk(8)), /proc/diskstats
//! (Documentation/admin-guide/iostats.rst), `zpool get ashift POOL all-vdevs`
//! (zpoolprops(7)), `zdb -C` (zdb(8)) and CrystalDiskMark / KDiskMark text reports.
//!
//! Each family has its own [`spec::Recogniser`]; their start ranks (1-9) put them before
//! every older recogniser (ranks 10 and up), the precedence they had when explain tried
//! them first. The specs are here, one file for the family, except the two NVMe health log
//! pastes, `nvme-smart-log` and `nvmecontrol-logpage` (nvme_smart.rs, whose parser reads
//! them), `pciconf-lvc` (pciconf.rs) and `hdparm-B` (hdparm.rs), which share those files'
//! recognisers.

use crate::model::LbaFormat;
use crate::rx;
use crate::sources::spec::{self, BlockState, Live, Member, Recogniser, SourceSpec, Start};

/// The block kinds of this module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum M {
    Lspci,
    Mdstat,
    NvmeSmartLog,
    NvmeIdNs,
    NvmecontrolLog,
    NvmecontrolIdentify,
    LsblkD,
    Diskstats,
    ZpoolGet,
    Zdb,
    DiskMark,
}

// lspci: "01:00.0 Non-Volatile memory controller: ..." (pciutils ls-kernel.c/lspci.c
// show_slot_name: [domain:]bus:dev.func, then the class name and a colon).
rx!(
    LSPCI_DEV,
    r"^(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7] [A-Z][\w /()-]{2,60}: \S"
);
// The attribute names lspci -vv prints (lspci.c show_verbose, ls-caps.c).
rx!(
    LSPCI_ATTR,
    r"^\s*(Subsystem|Control|Status|Latency|Interrupt|IOMMU group|NUMA node|Region \d|Expansion ROM|Capabilities|Kernel driver in use|Kernel modules|Flags|Address|Masking|Vector table|PBA|DevCap2?|DevCtl2?|DevSta2?|LnkCap2?|LnkCtl2?|LnkSta2?|SltCap2?|SltCtl2?|SltSta2?|RootCap|RootCtl|RootSta|UESta|UEMsk|UESvrt|CESta|CEMsk|AERCap|HeaderLog|RootCmd|ErrorSrc|Bus|I/O behind bridge|Memory behind bridge|Prefetchable memory behind bridge|Secondary status|BridgeCtl|Product Name|Read-only fields|End|Max snoop latency|Max no snoop latency|L1SubCap|L1SubCtl\d|Physical Layer|Lane|LaneErrStat|PTMCap|PTMClockGranularity|PTMControl|PTMEffectiveGranularity|ARICap|ARICtl|VC\d|Caps|Arb|Ctrl|Status|Mode|Port)\b"
);
rx!(LSPCI_LINK, r"^\s*Lnk(Cap|Sta):\s*(Port #\d+, )?Speed ");
// A device line of PCI base class 01h (mass storage) as lspci names its subclasses.
rx!(
    LSPCI_STORAGE,
    r"^(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7] (?:IDE interface|SATA controller|RAID bus controller|Non-Volatile memory controller|SCSI storage controller|Serial Attached SCSI controller|Mass storage controller)(?: \[[0-9a-f]{4}\])?: \S"
);

// /proc/mdstat (drivers/md/md.c md_seq_show): "Personalities : [raid1]", "md0 : active
// raid1 sdb1[1] sda1[0]", "unused devices: <none>".
// Old kernels' documentation also shows "md0: active" (no blank before the colon).
rx!(MD_START, r"^(Personalities : |md\d+ ?: (active|inactive) )");
rx!(
    MD_MEMBER,
    r"^(Personalities : |md\d+ ?: |unused devices: |read_ahead |\s+\S|bitmap: |\[[=>.]+\]\s+(resync|recovery|reshape|check|repair))"
);

// nvme-cli smart-log (nvme-print.c): a header, then "critical_warning : 0" rows.
rx!(
    NVME_SMART_START,
    r"^(Smart Log for NVME device:\S+|critical_warning\s*:\s*\S)"
);
// The rows of nvme-cli's smart-log (nvme-print.c show_smart_log / stdout_smart_log) as a
// `| grep` of it leaves them, without the header and critical_warning: "temperature : 50 C",
// "Warning Temperature Time : 0", "Temperature Sensor 2 : 90 C", "percentage_used : 3%".
// nvme-cli pads every name with blanks or tabs before the colon; smartctl's NVMe section
// never does and words its rows differently ("Temperature:", "Temperature Sensor 1:",
// "Warning  Comp. Temperature Time:"), so the padding tells the two apart. Two such rows in
// a row make the log.
rx!(
    NVME_SMART_ROW,
    r"^(?:temperature|available_spare|available_spare_threshold|percentage_used|data_units_read|data_units_written|host_read_commands|host_write_commands|controller_busy_time|power_cycles|power_on_hours|unsafe_shutdowns|media_errors|num_err_log_entries|Warning Temperature Time|Critical Composite Temperature Time|Temperature Sensor \d+|Thermal Management T\d (?:Trans Count|Total Time))\s+:\s*\S"
);
// nvme-cli id-ns: "NVME Identify Namespace 1:", "nsze    : 0x...", "lbaf  0 : ms:0 ...".
rx!(
    NVME_IDNS_START,
    r"^(NVME Identify Namespace \d+:|nsze\s*:\s*0x[0-9a-fA-F]+|lbaf\s+\d+\s*:\s*ms:\d+\s+lbads:\d+|LBA Format\s+\d+\s*:\s*Metadata Size:)"
);
// `nvme id-ns -H` spells each format out: "LBA Format  1 : Metadata Size: 0   bytes - Data
// Size: 4096 bytes - Relative Performance: 0x1 Better (in use)" (nvme-print.c).
rx!(
    NVME_LBAF_H,
    r"^\s*LBA Format\s+\d+\s*:\s*Metadata Size:\s*\d+\s+bytes\s+-\s+Data Size:\s*(\d+)\s+bytes\s+-\s+Relative Performance:\s*(0x[0-9a-fA-F]+|\d+)[^(]*(\(in use\))?"
);
rx!(
    NVME_LBAF,
    r"^\s*lbaf\s+\d+\s*:\s*ms:\s*\d+\s+lbads:\s*(\d+)\s+rp:\s*(0x[0-9a-fA-F]+|\d+)(\s*\(in use\))?"
);
rx!(KEY_VALUE, r"^\s*[A-Za-z][\w .()/#,\t-]{0,60}:\s*\S");
// FreeBSD nvmecontrol (sbin/nvmecontrol/logpage.c print_log_health; identify_ext.c).
rx!(
    NVMECONTROL_LOG_START,
    r"^(SMART/Health Information Log\s*$|Critical Warning State:\s+0x[0-9a-fA-F]+)"
);
rx!(
    NVMECONTROL_ID_START,
    r"^(Controller Capabilities/Features\s*$|Number of LBA Formats:\s+\d+|Current LBA Format:\s+LBA Format #\d+)"
);
rx!(
    NVMECONTROL_LBAF,
    r"^\s*LBA Format #(\d+): Data Size:\s+(\d+)\s+Metadata Size:\s+\d+(?:\s+Performance:\s+(Best|Better|Good|Degraded))?"
);
rx!(NVMECONTROL_CUR, r"Current LBA Format:\s+LBA Format #(\d+)");
rx!(SEPARATOR, r"^=+\s*$");

// lsblk -D (lsblk.c: DISC-ALN DISC-GRAN DISC-MAX DISC-ZERO columns).
rx!(
    LSBLK_D_HDR,
    r"^NAME\s+DISC-ALN\s+DISC-GRAN\s+DISC-MAX\s+DISC-ZERO\b"
);
rx!(
    LSBLK_D_ROW,
    r"^[\s├└│─|`-]*[\w.:\[\]-]+\s+-?\d+\s+[\d.]+[BKMGTP]?\s+[\d.]+[BKMGTP]?\s+\d+\s*$"
);
// /proc/diskstats (block/genhd.c diskstats_show): major minor name and 11, 15 or 17
// counters.
rx!(
    DISKSTATS_ROW,
    r"^\s*\d+\s+\d+\s+[a-z][\w-]*(\s+\d+){11}(\s+\d+){0,6}\s*$"
);

// zpool get ashift POOL all-vdevs: "NAME PROPERTY VALUE SOURCE" then "vdev ashift N -".
rx!(ZPOOL_GET_HDR, r"^NAME\s+PROPERTY\s+VALUE\s+SOURCE\s*$");
rx!(
    ZPOOL_GET_ROW,
    r"^\S+\s+ashift\s+\d+\s+\S+\s*$|^\S+\tashift\t\d+\s*$"
);
// zdb -C: "MOS Configuration:" then a nvlist dump, "ashift: 12" under vdev_tree.
rx!(ZDB_START, r"^(MOS Configuration:|\S+:\s*$)");
rx!(
    ZDB_MEMBER,
    r"^\s+(version|name|state|txg|pool_guid|errata|hostid|hostname|com\.\S+|vdev_children|vdev_tree|type|id|guid|path|devid|phys_path|whole_disk|metaslab_array|metaslab_shift|ashift|asize|is_log|create_txg|DTL|children\[\d+\]|features_for_read|nparity|removing|is_spare|not_present|offline|faulted|degraded|resilver_txg|aux_state)(:|$)"
);

// `zdb | grep ashift`: only the "ashift: N" lines of the dump, indented as zdb printed them.
rx!(ZDB_GREP_ASHIFT, r"^\s*ashift:\s*\d+\b");

// CrystalDiskMark (hiyohiyo/CrystalDiskMark DiskMarkDlg.cpp SaveText) and KDiskMark
// (JonMagon/KDiskMark, the same layout): a title line, "[Read]" / "[Write]" sections,
// "SEQ1M Q8T1 : 3500.12 MB/s [3338.0 IOPS] < 2394.11 us>" (CDM 8) or
// "Sequential 1 MiB (Q= 8, T= 1): 450.123 MB/s [...]" (KDiskMark, CDM 6).
rx!(
    DISKMARK_START,
    r"^\s*(CrystalDiskMark \d+\.\d+|KDiskMark \(\d+\.\d+[\w.]*\):|-+\s*CrystalDiskMark)"
);
rx!(
    DISKMARK_ROW,
    r"^\s*(SEQ|RND|Sequential|Random|Seq|4KiB|4K)\s*[\w ]*(\(Q=\s*\d+,\s*T=\s*\d+\))?\s*:\s*[\d.,]+ MB/s"
);
rx!(
    DISKMARK_MEMBER,
    r"^\s*(\[(Read|Write|Mix)[^\]]*\]|-{5,}|\*\s|Flexible I/O Tester|Profile:|Test:|Mode:|Time:|OS:|Date:|Comment:|Target:|Storage:|Read & Write|Random |Sequential |SEQ|RND|https?://)"
);

/// The kind of block `lines[0]` starts, if it is a strong signature of one of these tools
/// (`lines[1]` is the next line); each recogniser's start detector asks for its own kind.
fn start(lines: &[&str]) -> Option<M> {
    let t = *lines.first()?;
    let lt = t.trim_start();
    let next = || lines.get(1).copied().unwrap_or("");
    // Every line of a paste passes here (and every line of a permissive block again), so
    // each pattern runs only behind a cheap test of the text it needs.
    let first = lt.as_bytes().first().copied().unwrap_or(b' ');
    if first.is_ascii_hexdigit() && lt.as_bytes().get(2) == Some(&b':') && LSPCI_DEV.is_match(lt) {
        // A device line is lspci -vv when its attributes follow (lspci -nn lists only
        // device lines and is not what is read here).
        let n = next();
        if LSPCI_ATTR.is_match(n) || LSPCI_LINK.is_match(n) || n.starts_with('\t') {
            return Some(M::Lspci);
        }
    }
    // A storage controller's line alone (`lspci | grep -i sata`, `lspci -nn`): its class
    // and name are a fact (a SATA controller in IDE mode) without any attribute.
    if first.is_ascii_hexdigit() && LSPCI_STORAGE.is_match(lt) {
        return Some(M::Lspci);
    }
    if lt.starts_with("Lnk") && LSPCI_LINK.is_match(lt) {
        return Some(M::Lspci);
    }
    if (lt.starts_with("Personalities") || lt.starts_with("md")) && MD_START.is_match(lt) {
        return Some(M::Mdstat);
    }
    // md's sync progress line alone (status_resync in drivers/md/md.c): a paste of only the
    // lines that changed while the array rebuilt.
    if first == b'[' && crate::sources::mdstat::is_progress_line(lt) {
        return Some(M::Mdstat);
    }
    if (lt.starts_with("Smart Log") || lt.starts_with("critical_warning"))
        && NVME_SMART_START.is_match(lt)
    {
        return Some(M::NvmeSmartLog);
    }
    if lt.contains(':')
        && NVME_SMART_ROW.is_match(lt)
        && NVME_SMART_ROW.is_match(next().trim_start())
    {
        return Some(M::NvmeSmartLog);
    }
    if ["NVME Identify", "nsze", "lbaf", "LBA Format"]
        .iter()
        .any(|p| lt.starts_with(p))
    {
        if NVME_IDNS_START.is_match(lt) {
            return Some(M::NvmeIdNs);
        }
        if NVMECONTROL_LBAF.is_match(lt) {
            return Some(M::NvmecontrolIdentify);
        }
    }
    if (lt.starts_with("SMART/Health") || lt.starts_with("Critical Warning State"))
        && NVMECONTROL_LOG_START.is_match(lt)
    {
        return Some(M::NvmecontrolLog);
    }
    if ["Controller Capabilities", "Number of LBA", "Current LBA"]
        .iter()
        .any(|p| lt.starts_with(p))
        && NVMECONTROL_ID_START.is_match(lt)
    {
        return Some(M::NvmecontrolIdentify);
    }
    if lt.starts_with("NAME") {
        if LSBLK_D_HDR.is_match(lt) {
            return Some(M::LsblkD);
        }
        if ZPOOL_GET_HDR.is_match(lt) && ZPOOL_GET_ROW.is_match(next().trim_start()) {
            return Some(M::ZpoolGet);
        }
    }
    if first.is_ascii_digit() && DISKSTATS_ROW.is_match(t) && DISKSTATS_ROW.is_match(next()) {
        // Two rows make /proc/diskstats; one alone may be any table of numbers.
        return Some(M::Diskstats);
    }
    if lt.contains("ashift")
        && ZPOOL_GET_ROW.is_match(lt)
        && lt.split_whitespace().next().is_some_and(is_vdev_name)
    {
        return Some(M::ZpoolGet);
    }
    // Two grepped lines start it: one alone could be a sentence's quote.
    if lt.starts_with("ashift:") && ZDB_GREP_ASHIFT.is_match(lt) && ZDB_GREP_ASHIFT.is_match(next())
    {
        return Some(M::Zdb);
    }
    if lt.ends_with(':') && ZDB_START.is_match(lt) {
        let n = next();
        if ZDB_MEMBER.is_match(n) && (lt.starts_with("MOS") || n.contains("version:")) {
            return Some(M::Zdb);
        }
    }
    if (lt.contains("MB/s") || lt.contains("DiskMark") || lt.starts_with("-----"))
        && (DISKMARK_START.is_match(t) || DISKMARK_ROW.is_match(t))
    {
        return Some(M::DiskMark);
    }
    if lt.starts_with("[Read]") && DISKMARK_ROW.is_match(next()) {
        return Some(M::DiskMark);
    }
    None
}

/// "raidz2-0", "mirror-1", "root-0": the names zpool gives to non-leaf vdevs.
pub fn is_vdev_name(n: &str) -> bool {
    ["root-", "mirror-", "raidz", "draid", "spare-", "replacing-"]
        .iter()
        .any(|p| n.starts_with(p))
}

/// Whether `t` continues a block of kind `m`.
fn member(m: M, t: &str) -> bool {
    let lt = t.trim_start();
    match m {
        M::Lspci => {
            LSPCI_DEV.is_match(lt)
                || LSPCI_STORAGE.is_match(lt)
                || LSPCI_ATTR.is_match(t)
                || t.starts_with([' ', '\t'])
                // lspci's wrapped flag lines ("ExtTag- AttnBtn- ...") pasted without tabs.
                || lt.split_whitespace().take(3).all(|w| w.ends_with(['+', '-']))
                    && !lt.is_empty()
        }
        M::Mdstat => MD_MEMBER.is_match(t),
        M::NvmeSmartLog | M::NvmecontrolLog => KEY_VALUE.is_match(t) || SEPARATOR.is_match(lt),
        M::NvmeIdNs => {
            NVME_LBAF.is_match(t)
                || NVME_LBAF_H.is_match(t)
                || KEY_VALUE.is_match(t)
                || NVME_IDNS_START.is_match(lt)
        }
        M::NvmecontrolIdentify => {
            KEY_VALUE.is_match(t) || SEPARATOR.is_match(lt) || NVMECONTROL_LBAF.is_match(t)
        }
        M::LsblkD => LSBLK_D_ROW.is_match(t),
        M::Diskstats => DISKSTATS_ROW.is_match(t),
        M::ZpoolGet => ZPOOL_GET_ROW.is_match(lt) || ZPOOL_GET_HDR.is_match(lt),
        M::Zdb => {
            ZDB_MEMBER.is_match(t)
                || ZDB_GREP_ASHIFT.is_match(t)
                || ZDB_START.is_match(lt) && lt.starts_with("MOS")
        }
        M::DiskMark => {
            DISKMARK_ROW.is_match(t) || DISKMARK_MEMBER.is_match(t) || DISKMARK_START.is_match(t)
        }
    }
}

/// The pool a `zpool get ... POOL all-vdevs` or `zdb -C POOL` command names.
pub fn pool_of_command(cmd: &str) -> Option<String> {
    // Only the command's own words: not a `| grep ashift` after it.
    let own = cmd.split('|').next().unwrap_or(cmd);
    let w: Vec<&str> = own.split_whitespace().collect();
    if w.first() == Some(&"zdb") {
        return w
            .iter()
            .skip(1)
            .next_back()
            .filter(|p| !p.starts_with('-'))
            .map(|p| p.to_string());
    }
    let i = w.iter().position(|x| *x == "all-vdevs")?;
    w.get(i.checked_sub(1)?).map(|p| p.to_string())
}

/// The NVMe controller ("nvme0") a device argument or header names: nvme0, /dev/nvme0,
/// nvme0n1 (its namespace), nvme0ns1 (FreeBSD's namespace node).
pub fn nvme_controller(dev: &str) -> Option<String> {
    let d = dev.trim_start_matches("/dev/");
    let rest = d.strip_prefix("nvme")?;
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    (!digits.is_empty()).then(|| format!("nvme{digits}"))
}

/// The nvme(4) controller an attach line or a pciconf row names: "nvme0: <Generic NVMe
/// Device> mem ..." (kern/subr_bus.c device_print_prettyname() before the description)
/// or "nvme0@pci0:1:0:0: ..." (pciconf -l), None for any other line.
pub fn nvme_attach_name(line: &str) -> Option<String> {
    let l = line.trim_start();
    let name: String = l
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    let rest = l.get(name.len()..)?;
    let attach = rest.starts_with(": <") || rest.starts_with("@pci");
    (attach && nvme_controller(&name).as_deref() == Some(name.as_str())).then_some(name)
}

/// The controller a `Smart Log for NVME device:nvme0n1` header names.
pub fn nvme_header_device(text: &str) -> Option<String> {
    NVME_SMART_HDR_DEV
        .captures(text)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().to_string())
}

rx!(NVME_SMART_HDR_DEV, r"NVME device:\s*(nvme\d+)");

/// The LBAF Relative Performance field as nvme-cli prints it ("0x2", "2"): 0 best .. 3
/// degraded (a 2-bit field, NVMe Base spec Identify Namespace LBAF).
fn rel_perf(s: Option<&str>) -> Option<u8> {
    let s = s?;
    let v = match s.strip_prefix("0x") {
        Some(h) => u8::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    };
    v.filter(|r| *r <= 3)
}

/// LBA formats of nvme-cli `id-ns` ("lbaf 1 : ms:0 lbads:12 rp:0 (in use)": data size
/// 2^lbads, NVMe Base spec Identify Namespace LBAF) or nvmecontrol identify ("LBA Format
/// #01: Data Size: 4096 Metadata Size: 0 Performance: Best", "Current LBA Format: LBA
/// Format #01").
pub fn lba_formats(text: &str) -> Vec<LbaFormat> {
    let mut out = Vec::new();
    let current: Option<u32> = NVMECONTROL_CUR
        .captures(text)
        .and_then(|c| c.get(1)?.as_str().parse().ok());
    for l in text.lines() {
        if let Some(c) = NVME_LBAF.captures(l) {
            let Some(ds) = c.get(1).and_then(|m| m.as_str().parse::<u32>().ok()) else {
                continue;
            };
            // lbads is a power of two exponent; 9 (512 B) .. 16 are the real ones.
            if !(9..=16).contains(&ds) {
                continue;
            }
            out.push(LbaFormat {
                data_bytes: 1u32 << ds,
                in_use: c.get(3).is_some(),
                rel_perf: rel_perf(c.get(2).map(|m| m.as_str())),
            });
        } else if let Some(c) = NVME_LBAF_H.captures(l) {
            let Some(ds) = c
                .get(1)
                .and_then(|m| m.as_str().parse::<u32>().ok())
                .filter(|d| d.is_power_of_two() && (512..=65536).contains(d))
            else {
                continue;
            };
            out.push(LbaFormat {
                data_bytes: ds,
                in_use: c.get(3).is_some(),
                rel_perf: rel_perf(c.get(2).map(|m| m.as_str())),
            });
        } else if let Some(c) = NVMECONTROL_LBAF.captures(l) {
            let (Some(n), Some(ds)) = (
                c.get(1).and_then(|m| m.as_str().parse::<u32>().ok()),
                c.get(2).and_then(|m| m.as_str().parse::<u32>().ok()),
            ) else {
                continue;
            };
            if !ds.is_power_of_two() || !(512..=65536).contains(&ds) {
                continue;
            }
            // identify_ext.c prints the RP field as Best/Better/Good/Degraded (0..3).
            let rp = c.get(3).map(|m| match m.as_str() {
                "Best" => 0,
                "Better" => 1,
                "Good" => 2,
                _ => 3,
            });
            out.push(LbaFormat {
                data_bytes: ds,
                in_use: current == Some(n),
                rel_perf: rp,
            });
        }
    }
    out
}

// ---- the recognisers and specs (see sources::spec) ----

/// A start detector for kind `m`: the line starts `m`'s output when [`start`] says so.
macro_rules! start_of {
    ($m:expr) => {
        |l: &[&str]| Start::from(start(l) == Some($m))
    };
}

/// A recogniser of one kind: [`member`] lines, the kind's tolerance (lspci separates
/// functions by one blank line, mdstat arrays too; the benchmark reports put a blank line
/// between header, [Read] and [Write]) and one id, or the benchmark reports' two.
macro_rules! recogniser {
    ($vis:vis $name:ident, $id:expr, $m:expr, $rank:expr, $tol:expr, $classify:expr) => {
        $vis static $name: Recogniser = Recogniser {
            name: $id,
            starts: &[($rank, start_of!($m))],
            member: |t: &str, _: &BlockState| Member::from(member($m, t)),
            tolerance: $tol,
            classify: $classify,
            ..Recogniser::NONE
        };
    };
}

recogniser!(LSPCI_VV, "lspci-vv", M::Lspci, 1, (1, 2), |_, _| "lspci-vv");
recogniser!(MDSTAT, "mdstat", M::Mdstat, 2, (1, 1), |_, _| "mdstat");
recogniser!(
    pub(crate) NVME_SMART_LOG,
    "nvme-smart-log",
    M::NvmeSmartLog,
    3,
    (1, 0),
    |_, _| "nvme-smart-log"
);
recogniser!(
    NVME_ID_NS,
    "nvme-id-ns",
    M::NvmeIdNs,
    4,
    (1, 0),
    |_, _| "nvme-id-ns"
);
recogniser!(
    NVMECONTROL_IDENTIFY,
    "nvmecontrol-identify",
    M::NvmecontrolIdentify,
    5,
    (1, 0),
    |_, _| "nvmecontrol-identify"
);
recogniser!(
    pub(crate) NVMECONTROL_LOGPAGE,
    "nvmecontrol-logpage",
    M::NvmecontrolLog,
    5,
    (1, 0),
    |_, _| "nvmecontrol-logpage"
);
recogniser!(LSBLK_D, "lsblk-D", M::LsblkD, 6, (1, 0), |_, _| "lsblk-D");
recogniser!(
    DISKSTATS,
    "diskstats",
    M::Diskstats,
    7,
    (1, 0),
    |_, _| "diskstats"
);
recogniser!(
    ZPOOL_GET_ASHIFT,
    "zpool-get-ashift",
    M::ZpoolGet,
    8,
    (1, 0),
    |_, _| "zpool-get-ashift"
);
recogniser!(ZDB_C, "zdb-C", M::Zdb, 8, (1, 1), |_, _| "zdb-C");
recogniser!(DISKMARK, "diskmark", M::DiskMark, 9, (2, 1), diskmark_tool);

/// Both print "Sequential 1 MiB (Q= 8, T= 1)" rows; KDiskMark runs fio on Linux and says so
/// in its title and OS line ("OS: arch unknown [linux 6.16.4-arch1-1]").
fn diskmark_tool(text: &str, _: Option<&str>) -> &'static str {
    if text.contains("KDiskMark")
        || text.contains("[linux ")
        || text.contains("Flexible I/O Tester")
    {
        "kdiskmark"
    } else {
        "crystaldiskmark"
    }
}

fn count_lines(text: &str, re: &regex::Regex) -> usize {
    text.lines().filter(|l| re.is_match(l)).count()
}

/// `lspci -vv` (Linux): the PCIe links of explain/nvme_diskmark.rs. No live probe reads it (sysfs
/// gives the links natively).
pub const LSPCI_VV_SPEC: SourceSpec = SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    fixture_dirs: &["lspci-vv"],
    parse: Some(|t| super::lspci::parse(t).len()),
    paste: Some(spec::Paste::new(&LSPCI_VV, |p, _| p == "lspci")),
    programs: &[spec::Program::new("lspci", |a| {
        a.is_empty() || a.starts_with('-')
    })],
    // lspci(8): -nn numeric ids, -k the kernel driver in use, -vv the capabilities (LnkCap
    // what the link can do, LnkSta what it runs at), -s one device by its address.
    asks: &[
        (spec::Ask::PciProgram, "lspci"),
        (spec::Ask::PciDrivers, "lspci -nnk"),
        (
            spec::Ask::PciStorageDrivers,
            "lspci -nnk | grep -iA3 'sata\\|ide\\|raid\\|nvme'",
        ),
        (spec::Ask::PciSataDrivers, "lspci -nnk | grep -iA3 sata"),
        (spec::Ask::PciVerbose, "lspci -vv"),
        (spec::Ask::PciDevice, "lspci -vv -s {dev}"),
        (
            spec::Ask::PciLinkLines,
            "lspci -vv -s {dev} | grep -E 'LnkCap|LnkSta'",
        ),
    ],
    ..SourceSpec::named("lspci-vv", "lspci -vv")
};

/// /proc/mdstat, stored under the Linux probe's key (`plan::device_state::MDSTAT`).
pub const MDSTAT_SPEC: SourceSpec = SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    fixture_dirs: &["mdstat"],
    live: &[Live::File("/proc/mdstat")],
    pasted_as: Some(Live::File("/proc/mdstat")),
    parse: Some(|t| super::mdstat::parse(t).len()),
    paste: Some(spec::Paste {
        flat: &[crate::sources::mdstat::FLAT],
        ..spec::Paste::new(&MDSTAT, |p, t| p == "cat" && t.contains("mdstat"))
    }),
    ..SourceSpec::named("mdstat", "/proc/mdstat")
};

/// `nvme id-ns` (nvme-cli): the namespace's LBA formats. No live probe reads it.
pub const NVME_ID_NS_SPEC: SourceSpec = SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| lba_formats(t).len()),
    paste: Some(spec::Paste::new(&NVME_ID_NS, |p, t| {
        p == "nvme" && t.contains("id-ns")
    })),
    ..SourceSpec::named("nvme-id-ns", "nvme id-ns")
};

/// FreeBSD `nvmecontrol identify`: the namespace's LBA formats. No live probe reads it.
pub const NVMECONTROL_IDENTIFY_SPEC: SourceSpec = SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    parse: Some(|t| lba_formats(t).len()),
    paste: Some(spec::Paste::new(&NVMECONTROL_IDENTIFY, |p, t| {
        p == "nvmecontrol" && t.contains("identify")
    })),
    ..SourceSpec::named("nvmecontrol-identify", "nvmecontrol identify")
};

/// `lsblk -D` (Linux): discard granularity and limits. No live probe reads it (sysfs
/// queue/discard_* natively).
pub const LSBLK_D_SPEC: SourceSpec = SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    fixture_dirs: &["lsblk-D"],
    parse: Some(|t| count_lines(t, &LSBLK_D_ROW)),
    paste: Some(spec::Paste::new(&LSBLK_D, |p, _| p == "lsblk")),
    ..SourceSpec::named("lsblk-D", "lsblk -D")
};

/// /proc/diskstats: one sample of the I/O counters (no rate without a second). No live
/// probe reads it (sysfs stat natively).
pub(crate) const DISKSTATS_SPEC: SourceSpec = SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| count_lines(t, &DISKSTATS_ROW)),
    paste: Some(spec::Paste::new(&DISKSTATS, |p, t| {
        p == "cat" && t.contains("diskstats")
    })),
    ..SourceSpec::named("diskstats", "/proc/diskstats")
};

/// The pool a `zpool get ... POOL all-vdevs` or `zdb -C POOL` command names.
fn pool_of(cmd: &str) -> Option<String> {
    pool_of_command(cmd)
}

/// `zpool get ashift POOL all-vdevs`, stored under plan.rs's ZPOOL_ASHIFT key of the pool
/// the command names (these outputs name a pool, not a disk).
pub const ZPOOL_GET_ASHIFT_SPEC: SourceSpec = SourceSpec {
    live: &[super::zpool_ashift::ZPOOL_GET_LIVE],
    pasted_as: Some(super::zpool_ashift::ZPOOL_GET_LIVE),
    parse: Some(|t| super::zpool_ashift::parse_vdev_props(t).len()),
    paste: Some(spec::Paste {
        command_device: Some(pool_of),
        ..spec::Paste::new(&ZPOOL_GET_ASHIFT, |p, _| p == "zpool")
    }),
    ..SourceSpec::named("zpool-get-ashift", "zpool get ashift all-vdevs")
};

/// `zdb -C POOL`, stored under plan.rs's ZDB_CONFIG key of the pool the command names.
pub const ZDB_C_SPEC: SourceSpec = SourceSpec {
    live: &[super::zpool_ashift::ZDB_LIVE],
    pasted_as: Some(super::zpool_ashift::ZDB_LIVE),
    parse: Some(|t| super::zpool_ashift::parse_zdb(t).len()),
    paste: Some(spec::Paste {
        command_device: Some(pool_of),
        ..spec::Paste::new(&ZDB_C, |p, _| p == "zdb")
    }),
    // Options, or a pipe (`zdb | grep ashift`): not prose such as "zdb shows".
    programs: &[spec::Program::new("zdb", |a| {
        a.starts_with('-') || a.starts_with('|')
    })],
    ..SourceSpec::named("zdb-C", "zdb -C")
};

/// A CrystalDiskMark text report (Windows): a measurement, stored under no live key.
pub const CRYSTALDISKMARK_SPEC: SourceSpec = SourceSpec {
    parse: Some(|t| count_lines(t, &DISKMARK_ROW)),
    paste: Some(spec::Paste::new(&DISKMARK, |_, _| false)),
    ..SourceSpec::named("crystaldiskmark", "CrystalDiskMark")
};

/// A KDiskMark text report (Linux, fio underneath): a measurement.
pub const KDISKMARK_SPEC: SourceSpec = SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| count_lines(t, &DISKMARK_ROW)),
    paste: Some(spec::Paste::new(&DISKMARK, |_, _| false)),
    ..SourceSpec::named("kdiskmark", "KDiskMark")
};

#[cfg(test)]
mod tests;
