//! hdparm outputs: `hdparm -I` (decoded IDENTIFY DEVICE), `hdparm -W` (write-cache query and
//! set), `hdparm -B` (the APM level) and `hdparm -t/-T` timing lines.
//!
//! Reference: hdparm(8); ATA/ACS IDENTIFY DEVICE words as hdparm decodes them: 75 (queue
//! depth), 76 (Gen1/Gen2/Gen3 signalling speeds, NCQ), 82/85 (write cache supported /
//! enabled: the `*` column in "Commands/features" marks enabled), 106 (logical/physical
//! sector size), 169 (DSM TRIM), 209 (Sector-0 offset), 217 (Nominal Media Rotation Rate).
//! hdparm's timing "MB" is 2^20 bytes.

use crate::model::{DiskFacts, UserBenchmark};
use crate::sources::util::{
    clean_line, fill_rotation, fill_sector_geometry, fill_unknown, kv, leading_f64, leading_u64,
};

/// What `hdparm -I` shows about one drive.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HdparmIdentify {
    /// "/dev/sdl" from the header line, when present.
    pub device: Option<String>,
    pub model: Option<String>,
    pub serial: Option<String>,
    pub firmware: Option<String>,
    pub transport: Option<String>,
    pub lba48_sectors: Option<u64>,
    /// The 28-bit LBA capacity: `hdparm -I`'s "LBA user addressable sectors", `hdparm -i`'s
    /// "LBAsects=" (IDENTIFY words 60-61). ATA caps it at 0x0FFFFFFF (ATA/ATAPI-6 6.2.1): a
    /// drive over 128 GiB reports the cap there and its size in words 100-103 (LBA48).
    pub lba28_sectors: Option<u64>,
    pub logical_sector_bytes: Option<u32>,
    pub physical_sector_bytes: Option<u32>,
    pub sector0_offset_bytes: Option<u64>,
    /// 0 = "Solid State Device".
    pub rotation_rpm: Option<u32>,
    /// Highest "GenN signaling speed" listed, in Gb/s (1.5, 3.0, 6.0).
    pub sata_max_gbps: Option<f64>,
    /// The Gen numbers listed (1, 2, 3).
    pub sata_gens: Vec<u8>,
    pub ncq_supported: Option<bool>,
    /// "Queue depth: 32" (word 75 + 1).
    pub queue_depth: Option<u32>,
    pub write_cache_supported: Option<bool>,
    pub write_cache_enabled: Option<bool>,
    pub look_ahead_enabled: Option<bool>,
    pub trim_supported: Option<bool>,
    /// The UDMA mode marked active ("udma6").
    pub udma_active: Option<String>,
    /// The highest Ultra DMA mode listed ("udma0 ... *udma5" -> 5): the modes the drive
    /// supports (IDENTIFY word 88 bits 0-6), starred or not.
    pub udma_max: Option<u32>,
    pub security_frozen: Option<bool>,
    /// hdparm's "SG_IO: bad/missing sense data" (sgio.c): the ATA PASS-THROUGH command came
    /// back without the ATA status descriptor SAT (T10 SAT-4 12.2.2.6) returns, so no ATA
    /// drive answered it: a bridge (USB, RAID) that does not pass ATA commands through. The
    /// identify data printed after it is the bridge's garbage, not the drive's.
    pub passthrough_failed: bool,
    /// The flags of `hdparm -i`'s "Config={ ... }" line: the names hdparm.c dump_identity
    /// gives the bits of IDENTIFY word 0 (cfg_str: "HardSect", "HdSw>15uSec", "Fixed",
    /// "RotSpdTol>.5%", "nonMagnetic", ...), in the order printed.
    pub config_flags: Vec<String>,
}

impl HdparmIdentify {
    /// The capacity in bytes: the LBA48 count, else the 28-bit one when it is below its cap
    /// (0x0FFFFFFF: the drive is larger and the 28-bit field cannot say by how much).
    pub fn size_bytes(&self) -> Option<u64> {
        let n = self
            .lba48_sectors
            .or(self.lba28_sectors.filter(|n| *n < 0x0FFF_FFFF))?;
        n.checked_mul(self.logical_sector_bytes.map_or(512, u64::from))
    }

    /// What IDENTIFY word 0 says of the medium, as `hdparm -i` names its bits (hdparm.c
    /// cfg_str). ATA-1 (X3.221-1994, 6.2.1.6) defines bit 4 "head switching time > 15 us",
    /// bit 5 "spindle motor control option implemented", bit 11 "disk transfer rate > 10
    /// Mb/s... rotational speed tolerance > 0.5%", bit 13 "track offset option", bit 14
    /// "format speed tolerance gap required" (heads, a spindle, tracks: a rotating disk) and
    /// bit 15 "non-magnetic drive" (CompactFlash sets it in its 848Ah signature, CF 4.1
    /// 6.2.1.6). Some(false) for a non-magnetic or removable-media device, Some(true) for
    /// a rotating-media bit, None when word 0 says neither (later drives set only "Fixed").
    pub fn rotating_media(&self) -> Option<bool> {
        let has = |f: &str| self.config_flags.iter().any(|x| x == f);
        if has("nonMagnetic") || has("Removeable") {
            return Some(false);
        }
        [
            "HdSw>15uSec",
            "SpinMotCtl",
            "RotSpdTol>.5%",
            "TrkOff",
            "FmtGapReq",
        ]
        .iter()
        .any(|f| has(f))
        .then_some(true)
    }
}

/// Parse `hdparm -I`. None when no identify section is recognised.
/// A line of `hdparm -i` (hdparm.c dump_identity): " Model=%.40s, FwRev=%.8s,
/// SerialNo=%.20s", " UDMA modes: udma0 ... *udma6" (the "*" marks the active mode),
/// " WriteCache=enabled". Whether the line was one.
fn lower_i(r: &mut HdparmIdentify, t: &str) -> bool {
    if let Some(rest) = t.strip_prefix("Model=")
        && rest.contains("FwRev=")
    {
        let field = |key: &str| {
            t.split_once(key)
                .map(|(_, v)| v.split(", ").next().unwrap_or(v).trim().to_string())
                .filter(|v| !v.is_empty())
        };
        r.model = field("Model=");
        r.firmware = field("FwRev=");
        r.serial = field("SerialNo=");
        return true;
    }
    if let Some(flags) = t.strip_prefix("Config={") {
        r.config_flags = flags
            .trim_end_matches('}')
            .split_whitespace()
            .map(str::to_string)
            .collect();
        return true;
    }
    // hdparm before 6.x printed the Ultra DMA modes on the " DMA modes:" line after the
    // multiword ones ("mdma2 udma0 ... *udma4"); later ones give them a " UDMA modes:" line.
    if let Some(modes) = t
        .strip_prefix("UDMA modes:")
        .or_else(|| t.strip_prefix("DMA modes:"))
    {
        if let Some(m) = modes.split_whitespace().find(|w| w.starts_with("*udma")) {
            r.udma_active = Some(m.trim_start_matches('*').to_string());
        }
        r.udma_max = udma_max(modes).or(r.udma_max);
        return true;
    }
    // " CurCHS=16383/16/63, CurSects=16514064, LBA=yes, LBAsects=78165360" (dump_identity).
    if let Some((_, v)) = t.split_once("LBAsects=") {
        r.lba28_sectors = leading_u64(v);
        return true;
    }
    // hdparm prints " AdvancedPM=no WriteCache=enabled" on one line (dump_identity).
    if let Some((_, v)) = t.split_once("WriteCache=") {
        r.write_cache_enabled = match v.split_whitespace().next().unwrap_or("") {
            "enabled" => Some(true),
            "disabled" => Some(false),
            _ => None,
        };
        return true;
    }
    false
}

/// The highest Ultra DMA mode number in a list of modes as hdparm prints them ("mdma2
/// udma0 udma1 *udma2 udma3 udma4 udma5" -> 5; the "*" marks the active one); None when the
/// list names no Ultra DMA mode.
fn udma_max(modes: &str) -> Option<u32> {
    modes
        .split_whitespace()
        .filter_map(|w| w.trim_start_matches('*').strip_prefix("udma")?.parse().ok())
        .max()
}

pub fn parse_identify(text: &str) -> Option<HdparmIdentify> {
    let mut r = HdparmIdentify::default();
    let mut recognised = false;
    let mut in_features = false;
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if t.starts_with("/dev/") && t.ends_with(':') {
            r.device = Some(t.trim_end_matches(':').to_string());
            continue;
        }
        // identify.c prints "CompactFlash ATA device" for a CFA device (general configuration
        // word 848Ah, CF+ and CompactFlash 4.1 section 6.2.1.6), "ATA device, with ... media"
        // for any other ATA device.
        if t.starts_with("ATA device") || t == "CompactFlash ATA device" {
            recognised = true;
            continue;
        }
        if t.starts_with("SG_IO: bad/missing sense data") {
            r.passthrough_failed = true;
            continue;
        }
        if t == "Commands/features:" {
            recognised = true;
            in_features = true;
            continue;
        }
        if t.ends_with(':') && !t.contains(char::is_whitespace) && t != "Commands/features:" {
            // "Security:", "Capabilities:", "Checksum:" headers end the feature list; the
            // list's own "Enabled\tSupported:" heading (identify.c prints it with a tab)
            // does not.
            in_features = false;
        }
        if in_features {
            feature(&mut r, t);
            continue;
        }
        if t.starts_with("DMA:") {
            r.udma_active = t
                .split_whitespace()
                .find(|w| w.starts_with('*'))
                .map(|w| w.trim_start_matches('*').to_string());
            r.udma_max = udma_max(t).or(r.udma_max);
            continue;
        }
        if lower_i(&mut r, t) {
            recognised = true;
            continue;
        }
        let norm = t.split_whitespace().collect::<Vec<_>>().join(" ");
        if norm == "frozen" {
            r.security_frozen = Some(true);
        } else if norm == "not frozen" {
            r.security_frozen = Some(false);
        }
        if let Some(rest) = t
            .strip_prefix("LBA48  user addressable sectors:")
            .or_else(|| t.strip_prefix("LBA48 user addressable sectors:"))
        {
            r.lba48_sectors = leading_u64(rest);
            continue;
        }
        if let Some(rest) = t
            .strip_prefix("LBA    user addressable sectors:")
            .or_else(|| t.strip_prefix("LBA user addressable sectors:"))
        {
            r.lba28_sectors = leading_u64(rest);
            continue;
        }
        let Some((k, v)) = kv(t) else { continue };
        let k: String = k.split_whitespace().collect::<Vec<_>>().join(" ");
        let val = Some(v.to_string()).filter(|s| !s.is_empty());
        match k.as_str() {
            "Model Number" => {
                recognised = true;
                r.model = val;
            }
            "Serial Number" => {
                r.serial = val.filter(|s| {
                    !s.chars()
                        .all(|c| c == 'X' || c == 'x' || c == '-' || c == ' ')
                })
            }
            "Firmware Revision" => r.firmware = val,
            "Transport" => r.transport = val,
            "Logical Sector size" => {
                r.logical_sector_bytes = leading_u64(v).and_then(|n| u32::try_from(n).ok())
            }
            "Physical Sector size" => {
                r.physical_sector_bytes = leading_u64(v).and_then(|n| u32::try_from(n).ok())
            }
            "Logical Sector-0 offset" => r.sector0_offset_bytes = leading_u64(v),
            "Nominal Media Rotation Rate" => {
                r.rotation_rpm = if v.contains("Solid State") {
                    Some(0)
                } else {
                    leading_u64(v).and_then(|n| u32::try_from(n).ok())
                }
            }
            "Queue depth" => r.queue_depth = leading_u64(v).and_then(|n| u32::try_from(n).ok()),
            _ => {}
        }
    }
    if !recognised {
        return None;
    }
    if r.queue_depth.is_some() && r.ncq_supported.is_none() {
        r.ncq_supported = Some(true);
    }
    Some(r)
}

/// Fill `disk` from `hdparm -I` output where its facts are still unknown; `from` is the
/// capture key. Returns false when the text is not an identify listing.
pub fn apply_identify(disk: &mut DiskFacts, from: &str, text: &str) -> bool {
    let Some(r) = parse_identify(text) else {
        return false;
    };
    fill_unknown(&mut disk.model, r.model.clone(), from);
    fill_unknown(&mut disk.serial, r.serial.clone(), from);
    fill_unknown(&mut disk.firmware, r.firmware.clone(), from);
    fill_sector_geometry(
        disk,
        r.logical_sector_bytes,
        r.physical_sector_bytes,
        r.sector0_offset_bytes,
        from,
    );
    fill_rotation(disk, r.rotation_rpm, from);
    fill_unknown(&mut disk.link_drive_max_gbps, r.sata_max_gbps, from);
    fill_unknown(&mut disk.ncq_supported, r.ncq_supported, from);
    fill_unknown(&mut disk.ncq_drive_depth, r.queue_depth, from);
    fill_unknown(
        &mut disk.write_cache_supported,
        r.write_cache_supported,
        from,
    );
    fill_unknown(&mut disk.write_cache_enabled, r.write_cache_enabled, from);
    fill_unknown(&mut disk.trim_supported, r.trim_supported, from);
    fill_unknown(&mut disk.size_bytes, r.size_bytes(), from);
    fill_unknown(&mut disk.udma_drive_max, r.udma_max, from);
    true
}

/// One "Commands/features" row: optional `*` (enabled) then the feature name.
fn feature(r: &mut HdparmIdentify, t: &str) {
    let (enabled, name) = match t.strip_prefix('*') {
        Some(rest) => (true, rest.trim()),
        None => (false, t),
    };
    if name.starts_with("Write cache") {
        r.write_cache_supported = Some(true);
        r.write_cache_enabled = Some(enabled);
    } else if name.starts_with("Look-ahead") {
        r.look_ahead_enabled = Some(enabled);
    } else if name.starts_with("Native Command Queueing") {
        r.ncq_supported = Some(true);
    } else if name.contains("TRIM supported") {
        r.trim_supported = Some(true);
    } else if let Some(rest) = name.strip_prefix("Gen")
        && let Some(g) = rest.chars().next().and_then(|c| c.to_digit(10))
        && rest.contains("signaling speed")
    {
        let g = g as u8;
        if !r.sata_gens.contains(&g) {
            r.sata_gens.push(g);
        }
        let speed = match g {
            1 => 1.5,
            2 => 3.0,
            3 => 6.0,
            _ => 0.0,
        };
        if speed > r.sata_max_gbps.unwrap_or(0.0) {
            r.sata_max_gbps = Some(speed);
        }
    }
}

/// `hdparm -W` result for one device.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HdparmWriteCache {
    pub device: String,
    /// "setting drive write-caching to 0 (off)": the value requested, when it was a set.
    pub set_to: Option<bool>,
    /// "write-caching =  1 (on)": the drive's state as reported afterwards.
    pub enabled: Option<bool>,
}

/// Parse `hdparm -W` / `-W0` / `-W1` output, one entry per "/dev/X:" block.
pub fn parse_write_cache(text: &str) -> Vec<HdparmWriteCache> {
    let mut out: Vec<HdparmWriteCache> = Vec::new();
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if t.starts_with("/dev/") && t.ends_with(':') {
            out.push(HdparmWriteCache {
                device: t.trim_end_matches(':').to_string(),
                ..Default::default()
            });
            continue;
        }
        let onoff = |s: &str| -> Option<bool> {
            match leading_u64(s) {
                Some(0) => Some(false),
                Some(1) => Some(true),
                _ => None,
            }
        };
        if let Some(rest) = t.strip_prefix("setting drive write-caching to") {
            if out.is_empty() {
                out.push(HdparmWriteCache::default());
            }
            if let Some(last) = out.last_mut() {
                last.set_to = onoff(rest);
            }
        } else if let Some(rest) = t.strip_prefix("write-caching") {
            let v = rest.trim_start().strip_prefix('=').map(str::trim);
            if let Some(v) = v {
                if out.is_empty() {
                    out.push(HdparmWriteCache::default());
                }
                if let Some(last) = out.last_mut() {
                    last.enabled = onoff(v);
                }
            }
        }
    }
    out.retain(|w| w.enabled.is_some() || w.set_to.is_some());
    out
}

/// `using_dma` per "/dev/X:" block of `hdparm` / `hdparm -d` output (hdparm.c: the
/// HDIO_GET_DMA read-back " using_dma     =  0 (off)", the set line " setting using_dma to 1
/// (on)" and, when the HDIO_SET_DMA ioctl fails, " HDIO_SET_DMA failed: <strerror>"). Only
/// the old Linux IDE driver (drivers/ide, removed in Linux 5.14) answers these ioctls, so a
/// read-back is that driver's state. Device `None` when the paste starts below "/dev/X:".
pub fn parse_dma(text: &str) -> Vec<(Option<String>, crate::model::IdeDma)> {
    let mut out: Vec<(Option<String>, Option<bool>, Option<String>)> = Vec::new();
    let mut dev: Option<String> = None;
    let mut fresh = true;
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if HDPARM_HDR.is_match(t) {
            dev = Some(spec::strip_dev(t));
            fresh = true;
            continue;
        }
        let onoff = |s: &str| match leading_u64(s) {
            Some(0) => Some(false),
            Some(1) => Some(true),
            _ => None,
        };
        let value = t
            .strip_prefix("using_dma")
            .and_then(|r| r.trim_start().strip_prefix('='))
            .map(str::trim)
            .and_then(onoff);
        let error = t
            .strip_prefix("HDIO_SET_DMA failed:")
            .map(|e| e.trim().to_string());
        if value.is_none() && error.is_none() {
            continue;
        }
        if fresh {
            out.push((dev.clone(), None, None));
            fresh = false;
        }
        if let Some(last) = out.last_mut() {
            if value.is_some() {
                last.1 = value;
            }
            if error.is_some() {
                last.2 = error;
            }
        }
    }
    out.into_iter()
        .filter_map(|(d, on, err)| {
            // A failed set without a read-back says nothing certain about the state.
            on.map(|on| (d, crate::model::IdeDma { on, set_error: err }))
        })
        .collect()
}

/// The command that switches DMA on for an IDE-driver disk (hdparm(8) `-d1`).
pub fn dma_on_command(dev: &str) -> String {
    format!("hdparm -d1 /dev/{dev}")
}

/// The trimmed lines of hdparm's output with the device of the "/dev/X:" header above each
/// (hdparm prints one per device it was given), `None` above the first header.
fn under_device_headers(text: &str) -> Vec<(Option<String>, String)> {
    let mut out = Vec::new();
    let mut dev: Option<String> = None;
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if t.starts_with("/dev/") && t.ends_with(':') {
            dev = Some(
                t.trim_end_matches(':')
                    .trim_start_matches("/dev/")
                    .to_string(),
            );
            continue;
        }
        out.push((dev.clone(), t.to_string()));
    }
    out
}

/// `hdparm -B` result per "/dev/X:" block (hdparm.c get_apmmode / set_apmmode): the level
/// after " APM_level\t= ", or the value a "setting Advanced Power Management level to 0x7f
/// (127)" line requested when no read-back follows. `None` for "off" (255: APM disabled)
/// and "not supported". Device `None` when the paste starts below the "/dev/X:" line.
pub fn parse_apm(text: &str) -> Vec<(Option<String>, Option<u32>)> {
    let mut out: Vec<(Option<String>, Option<u32>, bool)> = Vec::new();
    for (dev, line) in under_device_headers(text) {
        let t = line.as_str();
        // ATA/ACS IDENTIFY word 91: levels 01h-FEh; FFh is "disabled" and never a level.
        let level = |s: &str| {
            leading_u64(s)
                .and_then(|v| u32::try_from(v).ok())
                .filter(|v| (1..=254).contains(v))
        };
        if let Some(rest) = t.strip_prefix("APM_level") {
            let v = rest
                .trim_start()
                .strip_prefix('=')
                .map(str::trim)
                .unwrap_or("");
            let l = level(v);
            match out.last_mut() {
                Some(last) if last.0 == dev && !last.2 => {
                    last.1 = l;
                    last.2 = true;
                }
                _ => out.push((dev.clone(), l, true)),
            }
        } else if let Some(rest) = t.strip_prefix("setting Advanced Power Management level to") {
            let v = rest.split('(').nth(1).unwrap_or("");
            out.push((dev.clone(), level(v), false));
        }
    }
    out.into_iter().map(|(d, l, _)| (d, l)).collect()
}

/// `hdparm -S N` per "/dev/X:" block: " setting standby to N (...)" (hdparm.c, then
/// interpret_standby's words), as the drive's own standby timer in milliseconds; 0 ("off")
/// and the vendor-specific/reserved values give none. The encoding is ATA/ACS's STANDBY /
/// IDLE Count field, as interpret_standby decodes it: 1-240 are N x 5 s, 241-251 are
/// (N - 240) x 30 min, 252 is 21 min, 255 is 21 min 15 s.
pub fn parse_standby(text: &str) -> Vec<(Option<String>, u64, String)> {
    let mut out = Vec::new();
    for (dev, line) in under_device_headers(text) {
        let t = line.as_str();
        let Some(n) = t.strip_prefix("setting standby to").and_then(leading_u64) else {
            continue;
        };
        let secs: Option<u64> = match n {
            1..=240 => n.checked_mul(5),
            241..=251 => n.checked_sub(240).and_then(|m| m.checked_mul(30 * 60)),
            252 => Some(21 * 60),
            255 => Some(21 * 60 + 15),
            _ => None,
        };
        if let Some(ms) = secs.and_then(|s| s.checked_mul(1000)) {
            out.push((dev.clone(), ms, t.to_string()));
        }
    }
    out
}

/// hdparm -I's "Advanced power management level: 128" (identify.c, from IDENTIFY word 91
/// when word 86 bit 3 says APM is enabled; "disabled" otherwise).
pub fn identify_apm(text: &str) -> Option<u32> {
    text.lines().find_map(|raw| {
        let line = clean_line(raw);
        let v = line
            .trim()
            .strip_prefix("Advanced power management level:")?;
        leading_u64(v.trim())
            .and_then(|v| u32::try_from(v).ok())
            .filter(|v| (1..=254).contains(v))
    })
}

/// `hdparm -t` / `-T` lines ("Timing buffered disk reads: 1536 MB in  3.00 seconds =
/// 511.61 MB/sec") as benchmarks; device from the preceding "/dev/X:" line.
pub fn parse_timing(text: &str) -> Vec<UserBenchmark> {
    let mut out = Vec::new();
    let mut dev: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = clean_line(raw);
        let t = line.trim();
        if t.starts_with("/dev/") && t.ends_with(':') {
            dev = Some(t.trim_end_matches(':').to_string());
            continue;
        }
        let (tool, rest) = if let Some(r) = t.strip_prefix("Timing buffered disk reads:") {
            ("hdparm -t", r)
        } else if let Some(r) = t.strip_prefix("Timing O_DIRECT disk reads:") {
            ("hdparm -t --direct", r)
        } else if let Some(r) = t
            .strip_prefix("Timing cached reads:")
            // hdparm before 6.0 named the -T figure "buffer-cache reads" (time_cache).
            .or_else(|| t.strip_prefix("Timing buffer-cache reads:"))
        {
            ("hdparm -T", r)
        } else {
            continue;
        };
        const MIB: f64 = 1024.0 * 1024.0;
        let mb = leading_f64(rest);
        let secs = rest.split_once(" in ").and_then(|(_, s)| leading_f64(s));
        let rate = rest.split_once('=').and_then(|(_, s)| {
            let n = leading_f64(s)?;
            let unit = s.split_whitespace().nth(1).unwrap_or("MB/sec");
            Some(if unit.starts_with("kB") {
                n * 1024.0
            } else if unit.starts_with("GB") {
                n * MIB * 1024.0
            } else {
                n * MIB
            })
        });
        out.push(UserBenchmark {
            tool: tool.to_string(),
            input: dev.clone(),
            bytes: mb.map(|m| (m * MIB) as u64),
            seconds: secs,
            bytes_per_sec: rate,
            flags: if tool.contains("direct") {
                vec!["iflag=direct".into()]
            } else {
                Vec::new()
            },
            from: format!("line {}", i + 1),
            ..Default::default()
        });
    }
    out
}

// ---- the source specs (see sources::spec) ----
use crate::sources::spec;

// hdparm prints "\n%s:\n" before each device (hdparm.c process_dev); pages and wikis
// often indent the whole output, header included ("  /dev/hda:").
crate::rx!(HDPARM_HDR, r"^\s*/dev/[\w/.-]+:\s*$");
crate::rx!(
    HDPARM_I,
    r"^(ATA device, with|CompactFlash ATA device|\s+(Model Number|Serial Number|Firmware Revision|Transport|Standards|Configuration|Capabilities|Commands/features|Security|Logical Unit WWN|Checksum|Used|Supported|Likely used|CHS|LBA|Logical|Physical|device size|cache/buffer|Form Factor|Nominal Media Rotation Rate|R/W multiple|DMA|PIO|Cycle time|Enabled|Queue depth|Master password|Device)\b)"
);
// `hdparm -i` (hdparm.c dump_identity): the kernel's saved identify, one "Model=...,
// FwRev=..., SerialNo=..." line and "key=value" lines after it.
crate::rx!(HDPARM_LOWER_I_START, r"^\s*Model=[^,]*,\s*FwRev=");
crate::rx!(
    HDPARM_LOWER_I,
    r"^\s*(Model=|Config=\{|RawCHS=|BuffType=|CurCHS=|IORDY=|PIO modes:|DMA modes:|UDMA modes:|AdvancedPM=|WriteCache=|Drive conforms to:|\* signifies the current active mode)"
);
crate::rx!(
    HDPARM_W,
    r"^\s*(setting drive write-caching to \d|write-caching\s*=\s*\d)"
);
// `hdparm -d` (hdparm.c: "setting using_dma to %d (%s)" for -dN, then the HDIO_GET_DMA
// read-back " using_dma     = %2ld (%s)"): words no other tool prints, so they start a
// settings block even without the "/dev/X:" header a pasted excerpt may drop.
crate::rx!(
    HDPARM_D,
    r"^\s*(setting using_dma to [01] \((?:on|off)\)|using_dma\s*=\s*[01] \((?:on|off)\))\s*$"
);
crate::rx!(
    HDPARM_T,
    r"^\s*Timing (buffered disk reads|cached reads|buffer-cache reads|O_DIRECT disk reads|O_DIRECT cached reads):\s+[\d.]+ MB in\s+[\d.]+ seconds\s*=\s*[\d.]+ [kMG]B/sec"
);
crate::rx!(
    HDPARM_OTHER,
    r"^\s*(setting |APM_level|acoustic|readonly|readahead|geometry|multcount|IO_support|I/O support|unmaskirq|using_dma|keepsettings|nowerr|busstate|standby|write-caching|Timing )"
);

/// "/dev/sda:" counts only when an hdparm line follows; otherwise nothing starts there.
fn start_header(lines: &[&str]) -> spec::Start {
    let t = lines.first().copied().unwrap_or("");
    if !HDPARM_HDR.is_match(t) {
        return spec::Start::No;
    }
    if let Some(n) = spec::next_nonblank(lines, 1, 1) {
        let nt = lines.get(n).copied().unwrap_or("");
        // hdparm's pass-through complaint (sgio.c) comes first when a bridge garbles it.
        if HDPARM_I.is_match(nt)
            || HDPARM_OTHER.is_match(nt)
            || HDPARM_T.is_match(nt)
            || nt.starts_with("SG_IO: ")
        {
            return spec::Start::Yes;
        }
    }
    spec::Start::Stop
}

fn start_line(lines: &[&str]) -> spec::Start {
    let t = lines.first().copied().unwrap_or("");
    spec::Start::from(
        t.starts_with("ATA device, with")
            || t == "CompactFlash ATA device"
            || HDPARM_W.is_match(t)
            || HDPARM_D.is_match(t)
            || HDPARM_T.is_match(t)
            || HDPARM_LOWER_I_START.is_match(t),
    )
}

fn member(t: &str, st: &spec::BlockState) -> spec::Member {
    if HDPARM_HDR.is_match(t) {
        return if st.rows > 0 {
            spec::Member::NewBlock
        } else {
            spec::Member::Yes
        };
    }
    spec::Member::from(
        t.starts_with([' ', '\t'])
            || t.starts_with("ATA device")
            || t == "CompactFlash ATA device"
            || t.starts_with("SG_IO: ")
            || HDPARM_I.is_match(t)
            || HDPARM_LOWER_I.is_match(t)
            || HDPARM_OTHER.is_match(t)
            || (t.ends_with(':')
                && t.len() < 40
                && t.starts_with(|c: char| c.is_ascii_uppercase())),
    )
}

/// -B APM level, -t timings, -I identify, else -W.
fn classify(text: &str, _: Option<&str>) -> &'static str {
    if text.contains("APM_level") && !text.contains("ATA device") && !text.contains("write-caching")
    {
        // hdparm -B (hdparm.c get_apmmode prints " APM_level\t= N").
        "hdparm-B"
    } else if text.lines().any(|l| HDPARM_T.is_match(l)) && !text.contains("ATA device") {
        "hdparm-t"
    } else if text.contains("ATA device")
        || text.lines().any(|l| HDPARM_LOWER_I_START.is_match(l))
        || text
            .lines()
            .any(|l| HDPARM_I.is_match(l) && l.contains("Model Number"))
    {
        "hdparm-I"
    } else {
        "hdparm-W"
    }
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "hdparm",
    starts: &[(150, start_header), (151, start_line)],
    member,
    tolerance: (2, 2),
    classify,
    ..spec::Recogniser::NONE
};

/// The "/dev/sda:" line hdparm prints before each device's output.
fn device(text: &str) -> Option<String> {
    text.lines()
        .find(|l| HDPARM_HDR.is_match(l))
        .map(spec::strip_dev)
}

const PASTE: spec::Paste = spec::Paste {
    device: Some(device),
    flat: &[FLAT_IDENTITY, FLAT_TIMING, FLAT_SETTINGS],
    ..spec::Paste::new(&RECOGNISER, |p, _| p == "hdparm")
};

/// `hdparm -i` run together on one line: the line starts of hdparm.c dump_identity
/// (" Model=%.40s, FwRev=%.8s, SerialNo=%.20s", " Config={", " RawCHS=", " BuffType=",
/// " CurCHS=", " IORDY=", " PIO modes:", " DMA modes:", " UDMA modes:", " AdvancedPM=",
/// " WriteCache=", " Drive conforms to:").
const FLAT_IDENTITY: spec::Flat = spec::Flat {
    starts: &[
        r"\b(Model=)",
        r"\b(Config=\{)",
        r"\b(RawCHS=)",
        r"\b(BuffType=)",
        r"\b(CurCHS=)",
        r"\b(IORDY=)",
        r"\b(PIO\s+modes:)",
        r"\b(DMA\s+modes:)",
        r"\b(UDMA\s+modes:)",
        r"\b(AdvancedPM=)",
        r"\b(WriteCache=)",
        r"\b(Drive\s+conforms\s+to:)",
        r"(\*\s+signifies\s+the\s+current\s+active\s+mode)",
    ],
    need: r"\bModel=.*\bFwRev=",
    min: 4,
};

/// `hdparm -t`/`-T` run together with its prompt (and whatever came before it): the typed
/// command, the "/dev/sda:" header and each "Timing ... reads:" line (hdparm.c
/// time_device, time_cache).
const FLAT_TIMING: spec::Flat = spec::Flat {
    starts: &[
        r"(?:^|\s)([#$]\s+(?:sudo\s+)?hdparm\s+-)",
        r"(?:^|\s)(/dev/[\w/-]+:)\s+Timing\s",
        r"\b(Timing\s+(?:buffered\s+disk|cached|O_DIRECT\s+disk|O_DIRECT\s+cached)\s+reads:)",
    ],
    need: r"Timing\s+(?:buffered\s+disk|cached|O_DIRECT\s+disk|O_DIRECT\s+cached)\s+reads:",
    min: 2,
};

/// Plain `hdparm` / `hdparm -d` run together on one line: the "/dev/hda:" header and each
/// settings read-back of hdparm.c (" multcount     = %2ld", " IO_support    =", " unmaskirq
/// =", " using_dma     =", " keepsettings  =", " readonly      =", " readahead     =",
/// " geometry      =", and in hdparm before 6.x " I/O support  =", " nowerr       =",
/// " busstate     ="). Cut only when the DMA read-back is among them, the one explain reads.
const FLAT_SETTINGS: spec::Flat = spec::Flat {
    starts: &[
        r"(?:^|\s)(/dev/[\w/-]+:)\s+(?:setting |multcount|IO_support|I/O support|unmaskirq|using_dma)",
        r"\b((?:multcount|IO_support|I/O\s+support|unmaskirq|using_dma|keepsettings|readonly|readahead|geometry|nowerr|busstate|write-caching)\s*=\s*\d)",
        r"\b(setting\s+using_dma\s+to\s+\d)",
        r"\b(HDIO_SET_DMA\s+failed:)",
    ],
    need: r"\busing_dma\s*=\s*[01]\b",
    min: 3,
};

/// hdparm(8) -I (and -i's "SerialNo="): captured by no live probe (sysfs and the ATA
/// IDENTIFY words give the same facts).
pub const IDENTIFY_SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| usize::from(parse_identify(t).is_some())),
    secrets: &[
        spec::Secret::After("logical unit wwn device identifier", spec::SecretKind::Wwn),
        // The lines under it split the WWN (NAA, IEEE OUI, "Unique ID"): the unique id is
        // the drive's own part (hdparm.c, identify: words 108-111), the OUI its vendor's.
        spec::Secret::After("unique id", spec::SecretKind::Wwn),
        spec::Secret::After("serial number", spec::SecretKind::Serial),
        spec::Secret::After("serialno=", spec::SecretKind::Serial),
    ],
    // -I is one drive's IDENTIFY; -W, -t and -B print a line per device.
    paste: Some(spec::Paste {
        one_drive: true,
        ..PASTE
    }),
    programs: &[spec::Program::new("hdparm", spec::flags_or_node).deciding_platform()],
    mention: Some(r"hdparm\s+-\w+"),
    ..spec::SourceSpec::named("hdparm-I", "hdparm -I")
};

/// The Linux probe's `hdparm -B /dev/sdX` (plan::device_state::hdparm_apm): the APM level.
#[cfg(any(test, feature = "testutil"))]
pub const APM_LIVE: spec::Live = spec::Live::Cmd(&["hdparm", "-B", "{dev}"]);
/// `hdparm -W /dev/sdX`: the write cache setting.
#[cfg(any(test, feature = "testutil"))]
pub const WRITE_CACHE_LIVE: spec::Live = spec::Live::Cmd(&["hdparm", "-W", "{dev}"]);

/// hdparm -W.
pub const WRITE_CACHE_SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse_write_cache(t).len()),
    paste: Some(PASTE),
    ..spec::SourceSpec::named("hdparm-W", "hdparm -W")
};

/// hdparm -B: the drive's APM level (read by `parse_apm`; explain/nvme_diskmark.rs puts it on the
/// disk). The live probe's key is `plan::device_state`'s `hdparm -B /dev/sdX`, but no live
/// derivation reads a pasted block under it, so it is stored under none.
pub const APM_SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse_apm(t).iter().filter(|(_, l)| l.is_some()).count()),
    paste: Some(PASTE),
    ..spec::SourceSpec::named("hdparm-B", "hdparm -B")
};

/// hdparm -t/-T: a measurement.
pub const TIMING_SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse_timing(t).len()),
    paste: Some(PASTE),
    ..spec::SourceSpec::named("hdparm-t", "hdparm -t")
};

#[cfg(test)]
mod tests {
    use super::*;

    /// hdparm before 6.0 ("Timing buffer-cache reads:") under an indented "/dev/hda:"
    /// header, as a wiki page shows it: the block starts at the header, so the device is
    /// named, and both timings are read; an indented header with prose under it starts
    /// nothing.
    #[test]
    fn old_wording_under_an_indented_header() {
        let t = "  /dev/hda:\nTiming buffer-cache reads: 128 MB in 1.06 seconds = 120.75 MB/sec\nTiming buffered disk reads: 64 MB in 35.70 seconds = 1.79 MB/sec\n";
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(start_header(&lines), spec::Start::Yes);
        let r = parse_timing(t);
        let tools: Vec<(&str, Option<&str>)> = r
            .iter()
            .map(|b| (b.tool.as_str(), b.input.as_deref()))
            .collect();
        assert_eq!(
            tools,
            vec![
                ("hdparm -T", Some("/dev/hda")),
                ("hdparm -t", Some("/dev/hda"))
            ]
        );
        assert!(
            r.get(1)
                .and_then(|b| b.bytes_per_sec)
                .is_some_and(|v| (v - 1.79 * 1048576.0).abs() < 1.0)
        );
        assert_eq!(
            start_header(&["  /dev/hda:", "is where my old disk lives"]),
            spec::Start::Stop
        );
        assert!(parse_timing("Timing buffer-cache misses: many\n").is_empty());
    }

    #[test]
    fn a_bridge_that_drops_ata_pass_through() {
        // hdparm sgio.c when the SAT status descriptor is missing; the identify after it
        // is the bridge's.
        let h = parse_identify(
            "/dev/sdc:\nSG_IO: bad/missing sense data, sb[]:  70 00 05 00 00 00 00 0a 00 00\n\n\
             ATA device, with non-removable media\nStandards:\n\tLikely used: 1\n",
        )
        .expect("identify");
        assert!(h.passthrough_failed);
        let ok = parse_identify("/dev/sda:\n\nATA device, with non-removable media\n")
            .expect("identify");
        assert!(!ok.passthrough_failed);
    }

    #[test]
    fn settings_cut_back_into_lines_are_read() {
        // What `explain::segment::unflatten` makes of a settings line run together
        // (FLAT_SETTINGS, tested there): the header and each read-back on a line of its own,
        // without hdparm's leading space.
        let text = "/dev/hda:\nmultcount = 16 (on)\nI/O support = 1 (32-bit)\n\
                    unmaskirq = 1 (on)\nusing_dma = 0 (off)\nkeepsettings = 0 (off)\n";
        let v = parse_dma(text);
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(v[0].0.as_deref(), Some("hda"));
        assert!(!v[0].1.on);
        // hdparm before 6.x's "I/O support" wording is an hdparm line of the block.
        assert!(HDPARM_OTHER.is_match(" I/O support  =  0 (default 16-bit)"));
        assert!(!HDPARM_OTHER.is_match(" I/O scheduler = mq-deadline"));
    }

    #[test]
    fn dma_lines_start_a_block_without_their_header() {
        for l in ["setting using_dma to 0 (off)", " using_dma    =  1 (on)"] {
            assert_eq!(start_line(&[l]), spec::Start::Yes, "{l}");
        }
        // Prose about the setting is not hdparm's output.
        assert_eq!(
            start_line(&["using_dma = 0 makes it slow"]),
            spec::Start::No
        );
    }

    #[test]
    fn dma_read_back_and_refused_set() {
        // A real paste (ubuntuforums, 2008: an ICH9 SATA drive on the IDE driver of Linux
        // 2.6.15), as `hdparm -d1` and then plain `hdparm` printed it.
        let v = parse_dma(
            "/dev/hdc:\n setting using_dma to 1 (on)\n HDIO_SET_DMA failed: Operation not \
             permitted\n using_dma    =  0 (off)\n\n/dev/hdc:\n multcount    = 16 (on)\n \
             using_dma    =  0 (off)\n",
        );
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].0.as_deref(), Some("hdc"));
        assert!(!v[0].1.on);
        assert_eq!(v[0].1.set_error.as_deref(), Some("Operation not permitted"));
        assert!(v[1].1.set_error.is_none());
        let on = parse_dma("/dev/hda:\n using_dma     =  1 (on)\n");
        assert!(on[0].1.on);
        // A set that failed with no read-back is not a state.
        assert!(parse_dma("/dev/hda:\n HDIO_SET_DMA failed: Operation not permitted\n").is_empty());
        assert!(parse_dma("write-caching =  1 (on)\n").is_empty());
    }

    #[test]
    fn timing_lines() {
        let v = parse_timing(
            "/dev/sda:\n Timing cached reads:   20000 MB in  2.00 seconds = 10000.00 MB/sec\n Timing buffered disk reads: 1536 MB in  3.00 seconds = 511.61 MB/sec\n",
        );
        assert_eq!(v.len(), 2);
        let b = v.get(1).cloned().unwrap_or_default();
        assert_eq!(b.tool, "hdparm -t");
        assert_eq!(b.input.as_deref(), Some("/dev/sda"));
        assert_eq!(b.seconds, Some(3.0));
        assert_eq!(b.bytes_per_sec, Some(511.61 * 1024.0 * 1024.0));
    }

    #[test]
    fn the_28_bit_capacity_is_the_size_below_its_cap() {
        let small = " Model=EXAMPLE 40G, FwRev=1.0, SerialNo=X1\n \
                     CurCHS=16383/16/63, CurSects=16514064, LBA=yes, LBAsects=78165360\n";
        let mut d = DiskFacts::new("hda", "/dev/hda");
        assert!(apply_identify(&mut d, "k", small));
        assert_eq!(d.size_bytes.get(), Some(78_165_360 * 512));
        let wc =
            parse_identify(" Model=X, FwRev=1, SerialNo=2\n AdvancedPM=no WriteCache=enabled\n");
        assert_eq!(wc.and_then(|h| h.write_cache_enabled), Some(true));
        // A drive over 128 GiB reports the cap: its size is not known from this line.
        let big = " Model=EXAMPLE 2T, FwRev=1.0, SerialNo=X2\n \
                   CurCHS=16383/16/63, CurSects=16514064, LBA=yes, LBAsects=268435455\n";
        let mut d = DiskFacts::new("sda", "/dev/sda");
        assert!(apply_identify(&mut d, "k", big));
        assert_eq!(d.size_bytes.get(), None);
        // hdparm -I: the LBA48 count wins over the capped 28-bit one.
        let i = "ATA device, with non-removable media\n\tModel Number:       EXAMPLE 2T\n\
                 \tLBA    user addressable sectors:  268435455\n\
                 \tLBA48  user addressable sectors: 3907029168\n";
        let h = parse_identify(i).expect("identify");
        assert_eq!(h.lba28_sectors, Some(268_435_455));
        assert_eq!(h.lba48_sectors, Some(3_907_029_168));
    }

    #[test]
    fn lower_i_identities_of_both_hdparm_generations() {
        // hdparm.c dump_identity: " Model=%.40s, FwRev=%.8s, SerialNo=%.20s", " Config={"
        // with one name per IDENTIFY word 0 bit, then the mode lines; hdparm 5.x put the
        // UDMA modes on the "DMA modes:" line.
        let old = "/dev/hdb:\n\n Model=EXAMPLE DISK 1, FwRev=1.0, SerialNo=X1\n \
                   Config={ HardSect NotMFM HdSw>15uSec Fixed DTR>10Mbs }\n \
                   PIO modes: pio0 pio1 pio2 pio3 pio4\n \
                   DMA modes: mdma0 mdma1 mdma2 udma0 udma1 udma2 *udma3\n";
        let h = parse_identify(old).expect("identify");
        assert_eq!(h.device.as_deref(), Some("/dev/hdb"));
        assert_eq!(h.udma_active.as_deref(), Some("udma3"));
        // The highest mode listed is the drive's, starred or not.
        assert_eq!(h.udma_max, Some(3));
        assert_eq!(h.rotating_media(), Some(true));
        // hdparm 6+: a separate UDMA line; word 0 says only "Fixed".
        let new = " Model=EXAMPLE DISK 2, FwRev=2.0, SerialNo=X2\n Config={ Fixed }\n \
                   DMA modes:  mdma0 mdma1 *mdma2\n UDMA modes: udma0 udma1 udma2 udma3 udma4 udma5\n";
        let h = parse_identify(new).expect("identify");
        assert_eq!(h.udma_active, None);
        // The multiword-only "DMA modes:" line before it leaves the UDMA line's maximum.
        assert_eq!(h.udma_max, Some(5));
        let mut d = DiskFacts::new("hdc", "/dev/hdc");
        assert!(apply_identify(&mut d, "k", new));
        assert_eq!(d.udma_drive_max.get(), Some(5));
        // hdparm -I's "DMA:" line lists multiword and Ultra modes together; a mode above the
        // starred one counts. A list with no Ultra DMA mode gives none.
        let i = "ATA device, with non-removable media\n\tModel Number:       EXAMPLE 3\n\
                 Capabilities:\n\tDMA: mdma0 mdma1 mdma2 udma0 udma1 udma2 udma3 udma4 *udma5 udma6\n";
        assert_eq!(parse_identify(i).and_then(|h| h.udma_max), Some(6));
        assert_eq!(udma_max("mdma0 mdma1 *mdma2"), None);
        assert_eq!(h.config_flags, vec!["Fixed".to_string()]);
        assert_eq!(h.rotating_media(), None);
        // A CompactFlash card's word 0 (848Ah): removable, non-magnetic.
        let cf = " Model=EXAMPLE CF, FwRev=3.0, SerialNo=X3\n \
                  Config={ HardSect NotMFM Removeable DTR>10Mbs nonMagnetic }\n";
        let h = parse_identify(cf).expect("identify");
        assert_eq!(h.rotating_media(), Some(false));
        // A rotating bit next to "nonMagnetic" does not make it a disk.
        let mixed = " Model=EXAMPLE, FwRev=3.0, SerialNo=X4\n Config={ HdSw>15uSec nonMagnetic }\n";
        assert_eq!(
            parse_identify(mixed).expect("identify").rotating_media(),
            Some(false)
        );
    }

    /// hdparm -I of a CompactFlash device (identify.c's "CompactFlash ATA device" banner),
    /// with the feature list's heading as identify.c prints it ("\t   Enabled\tSupported:",
    /// a tab between the words): the write cache it lists without a star is off. NOT A
    /// CAPTURE: lines in identify.c's layout.
    #[test]
    fn a_compactflash_identify_with_tabs_keeps_its_features() {
        let t = "/dev/sda:\n\nCompactFlash ATA device\n\tModel Number:       EXAMPLE CF\n\
                 Commands/features:\n\tEnabled\tSupported:\n\t   *\tSMART feature set\n\
                 \t    \tWrite cache\n\t   *\tCFA feature set\n";
        let h = parse_identify(t).expect("identify");
        assert_eq!(h.model.as_deref(), Some("EXAMPLE CF"));
        assert_eq!(
            (h.write_cache_supported, h.write_cache_enabled),
            (Some(true), Some(false))
        );
    }

    #[test]
    fn garbage() {
        assert!(parse_identify("Commands/features\n*").is_none());
        assert!(parse_write_cache("write-caching").is_empty());
    }

    #[test]
    fn apm_levels() {
        let t = "/dev/sda:\n APM_level\t= 254\n\n/dev/sdb:\n setting Advanced Power Management level to 0x7f (127)\n APM_level\t= not supported\n";
        assert_eq!(
            super::parse_apm(t),
            vec![
                (Some("sda".to_string()), Some(254)),
                (Some("sdb".to_string()), None)
            ]
        );
        assert_eq!(super::parse_apm(" APM_level = off\n"), vec![(None, None)]);
        // hdparm.c's set line with interpret_standby's words, NOT A CAPTURE.
        let st = super::parse_standby(
            "/dev/sdb:\n setting standby to 4 (20 seconds)\n\n/dev/sdc:\n setting standby to 242 (1 hours)\n setting standby to 0 (off)\n",
        );
        let got: Vec<(Option<&str>, u64)> =
            st.iter().map(|(d, ms, _)| (d.as_deref(), *ms)).collect();
        assert_eq!(got, [(Some("sdb"), 20_000), (Some("sdc"), 3_600_000)]);
        assert_eq!(
            super::identify_apm("\tAdvanced power management level: 128\n"),
            Some(128)
        );
        assert_eq!(
            super::identify_apm("\tAdvanced power management level: disabled\n"),
            None
        );
    }
}

/// What `hdparm -B` says of a drive's Advanced Power Management.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Apm {
    /// The level, 1-254 (1-127 permit spin-down, 128-254 do not: hdparm(8) -B).
    Level(u32),
    /// Supported but disabled.
    Off,
    NotSupported,
}

/// The ` APM_level\t= ` line of `hdparm -B DEV`. hdparm.c (9.58, get_apmmode) prints IDENTIFY
/// word 91 bits 7:0 when word 83 bit 3 (APM supported, with bits 15:14 = 01b valid) and word
/// 86 bit 3 (enabled) are set, "off" when only supported, "not supported" otherwise.
pub fn apm(text: &str) -> Option<Apm> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once('=')?;
        if k.trim() != "APM_level" {
            return None;
        }
        match v.trim() {
            "off" => Some(Apm::Off),
            "not supported" => Some(Apm::NotSupported),
            n => n
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=255).contains(n))
                .map(Apm::Level),
        }
    })
}

#[cfg(test)]
mod apm_tests {
    use super::{Apm, apm};

    #[test]
    fn apm_lines() {
        // The three forms hdparm.c prints (get_apmmode), after the device header line.
        assert_eq!(
            apm("\n/dev/sdb:\n APM_level\t= 128\n"),
            Some(Apm::Level(128))
        );
        assert_eq!(apm("/dev/sda:\n APM_level\t= off\n"), Some(Apm::Off));
        assert_eq!(
            apm(
                "/dev/sda:\n HDIO_DRIVE_CMD failed: Input/output error\n APM_level\t= not supported\n"
            ),
            Some(Apm::NotSupported)
        );
        assert_eq!(apm(" APM_level      = 254"), Some(Apm::Level(254)));
        assert_eq!(apm(" APM_level\t= 0"), None);
        assert_eq!(apm(" APM_level\t= 99999999999999999999"), None);
        assert_eq!(apm("/dev/sda:\n write-caching =  1 (on)\n"), None);
    }
}
