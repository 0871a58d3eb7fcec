//! smartctl output (`smartctl -j -a` JSON preferred, `smartctl -a/-x` text fallback).
//!
//! Reference: smartctl(8) (exit-status bits, `-j` output), the ATA attribute IDs in common
//! use (5 Reallocated_Sector_Ct, 9 Power_On_Hours, 187 Reported_Uncorrect, 197
//! Current_Pending_Sector, 198 Offline_Uncorrectable, 199 UDMA_CRC_Error_Count), NVMe 1.4
//! SMART/Health log page 02h (Percentage Used, Media and Data Integrity Errors) and SCSI
//! SPC/SBC log pages (grown defect list, error counter log). smartctl prints numbers with
//! the user's locale, so digit grouping (`,` U+00A0 U+202F) and decimal commas are accepted.

use serde_json::Value;

use crate::model::{DeviceClass, DiskFacts, Fact, Smart, Transport};
use crate::sources::smartctl_attr::set_attr;
use crate::sources::util::{
    clean_line, fill_rotation, fill_sector_geometry, fill_unknown, find_json, kv, leading_f64,
    leading_u64, tokens,
};

/// Everything one smartctl output says, before it is merged into a [`DiskFacts`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SmartctlReport {
    /// "json" or "text".
    pub format: &'static str,
    pub model: Option<String>,
    pub vendor: Option<String>,
    pub serial: Option<String>,
    pub firmware: Option<String>,
    pub size_bytes: Option<u64>,
    pub logical_sector_bytes: Option<u32>,
    pub physical_sector_bytes: Option<u32>,
    /// "(offset 512 bytes)": LBA 0 is this far from a physical sector boundary.
    pub alignment_offset_bytes: Option<u64>,
    /// 0 for "Solid State Device".
    pub rotation_rpm: Option<u32>,
    /// Highest SATA speed the drive supports, Gb/s.
    pub link_max_gbps: Option<f64>,
    /// Negotiated SATA speed, Gb/s (may exceed the max: some firmwares report it that way).
    pub link_current_gbps: Option<f64>,
    /// "SATA 3.1", "SATA >3.2".
    pub sata_version: Option<String>,
    /// "Write cache is:" (ATA) / "Writeback Cache is:" (SCSI).
    pub write_cache_enabled: Option<bool>,
    pub write_cache_supported: Option<bool>,
    pub trim_supported: Option<bool>,
    /// "ata", "nvme", "scsi" as far as the output shows.
    pub protocol: Option<String>,
    /// The USB bridge smartctl talked through: JSON `device.type` of a USB pass-through
    /// ("sntasmedia", "sntjmicron", "sntrealtek", "usbjmicron", "usbcypress", "usbsunplus",
    /// "usbprolific"; smartctl(8) `-d TYPE`), or the text's "Unknown USB bridge" line.
    pub usb_bridge: Option<String>,
    /// "SMART Status not supported: Incomplete response, ATA output registers missing":
    /// smartctl's SAT layer (scsiata.cpp) sent ATA PASS-THROUGH and got no ATA Return
    /// descriptor back, the answer of a SCSI-to-ATA translator that implements SAT only in
    /// part (USB bridges; also some SAS HBAs and RAID controllers, so not USB by itself).
    pub sat_registers_missing: bool,
    /// smartctl's SAT layer had its ATA PASS-THROUGH refused ([`is_sat_refusal`]).
    pub sat_refused: bool,
    /// The machine smartctl ran on is a Raspberry Pi: its build line names a Raspberry Pi
    /// kernel ([`raspberry_pi_kernel`]), text "smartctl 6.6 ... [armv7l-linux-5.4.74-v7l+]"
    /// or JSON `smartctl.platform_info`.
    pub raspberry_pi: bool,
    pub smart: Smart,
    /// Set when the output carries at least one health signal (status, attributes, log).
    pub has_smart_data: bool,
    /// Why there is no SMART data: open failure message, "lacks SMART capability", info-only.
    pub smart_why: Option<String>,
    /// NVMe "Percentage Used" / SCSI "Percentage used endurance indicator".
    pub percentage_used: Option<u64>,
    /// SCSI "Elements in grown defect list".
    pub grown_defects: Option<u64>,
}

/// Parse one smartctl output (JSON when it looks like JSON, else text). None when nothing in
/// it is recognisably smartctl.
pub fn parse(output: &str) -> Option<SmartctlReport> {
    if output.contains('{')
        && let Some(v) = find_json(output)
    {
        return parse_json(&v);
    }
    parse_text(output)
}

/// Fill the disk's SMART summary (and identity, link speeds, write cache, rotation when
/// not known yet) from one smartctl output; `from` is the capture key.
pub fn apply(disk: &mut DiskFacts, from: &str, output: &str) {
    // The NVMe health log (log page 02h) for nvme-health and thermal-throttling;
    // read first, as a health log pasted alone is no full smartctl report.
    if !disk.nvme_health.is_known()
        && let Some(h) = crate::sources::nvme_smart::parse(output)
    {
        disk.nvme_health = Fact::known(h, from);
        // Log page 02h with these fields is defined only by the NVMe base specification
        // (5.14.1.2): a pasted health log alone proves the drive is NVMe.
        fill_unknown(&mut disk.transport, Some(Transport::Nvme), from);
    }
    let Some(r) = parse(output) else {
        if !disk.smart.is_known() {
            disk.smart = Fact::unknown(format!(
                "{from}: output not recognised as smartctl (empty or garbled)"
            ));
        }
        return;
    };
    fill_unknown(&mut disk.model, r.model.clone(), from);
    fill_unknown(&mut disk.vendor, r.vendor.clone(), from);
    fill_unknown(&mut disk.serial, r.serial.clone(), from);
    fill_unknown(&mut disk.firmware, r.firmware.clone(), from);
    fill_unknown(&mut disk.size_bytes, r.size_bytes, from);
    fill_sector_geometry(
        disk,
        r.logical_sector_bytes,
        r.physical_sector_bytes,
        r.alignment_offset_bytes,
        from,
    );
    fill_rotation(disk, r.rotation_rpm, from);
    // Synology DSM names its USB disks' nodes usbN (/dev/usb1, partitions usb1p1; its SATA
    // bays are sataN or sdX): such a node whose SAT answers lack the ATA output registers
    // is a drive behind a USB bridge's partial SAT.
    // A Raspberry Pi has no SATA or SAS port of its own (the boards up to the Pi 4 have
    // none; the CM4's and Pi 5's PCIe lane takes an AHCI card, whose libata translation
    // returns the registers), so a SAT layer there that drops them is a USB bridge's.
    if r.usb_bridge.is_some()
        || r.sat_refused
        || (r.sat_registers_missing && (dsm_usb_node(&disk.name) || r.raspberry_pi))
        || scsi_view_of_a_bridged_disk(&r)
    {
        fill_unknown(&mut disk.transport, Some(Transport::Usb), from);
    }
    if r.sat_refused {
        disk.amend_controller(from, |c| c.usb_passthrough_refused = Some(true));
    }
    if raid_volume_inquiry(r.vendor.as_deref(), r.model.as_deref()) && !disk.class.is_known() {
        disk.class = Fact::known(DeviceClass::RaidVolume, from);
    }
    fill_unknown(&mut disk.link_drive_max_gbps, r.link_max_gbps, from);
    fill_unknown(&mut disk.link_current_gbps, r.link_current_gbps, from);
    fill_unknown(&mut disk.write_cache_enabled, r.write_cache_enabled, from);
    fill_unknown(
        &mut disk.write_cache_supported,
        r.write_cache_supported,
        from,
    );
    fill_unknown(&mut disk.trim_supported, r.trim_supported, from);
    if r.has_smart_data {
        // A later, richer output replaces an earlier "unknown"; a known summary stays.
        if !disk.smart.is_known() {
            disk.smart = Fact::known(r.smart, from);
        }
    } else if !disk.smart.is_known() {
        let why = r.smart_why.unwrap_or_else(|| {
            "smartctl output has no health data (identity only, e.g. `smartctl -i`); run `smartctl -a` as root".to_string()
        });
        disk.smart = Fact::unknown(format!("{from}: {why}"));
    }
}

/// Whether smartctl's SCSI view shows a rotating disk whose SMART data the device in front
/// of it does not pass: the SCSI identity (scsiprint.cpp "Vendor:", "Product:") of a vendor
/// other than libata's "ATA" (the kernel's own SCSI-to-ATA translation, which passes SMART
/// through), a nominal "Rotation Rate" in rpm (the Block Device Characteristics VPD page,
/// SBC-4 6.6.2, which a SCSI-to-ATA translator fills from the drive's IDENTIFY word 217,
/// SAT-4 10.4.3), and "SMART support is: Unavailable - device lacks SMART capability"
/// (no Informational Exceptions mode page, SPC-5 7.5.9, which SAS drives carry). The drive
/// answers through a translator that reports its platters but not its health: a USB
/// bridge smartctl spoke plain SCSI to, for want of `-d sat` or a drive database entry. A
/// RAID controller's volume answers under the controller's name (`raid_volume_inquiry`)
/// and reports no rotation rate of a drive.
fn scsi_view_of_a_bridged_disk(r: &SmartctlReport) -> bool {
    let vendor = r.vendor.as_deref().map(str::trim).unwrap_or("");
    !vendor.is_empty()
        && !vendor.eq_ignore_ascii_case("ATA")
        && !matches!(r.protocol.as_deref(), Some("ata" | "nvme"))
        && r.rotation_rpm.is_some_and(|rpm| rpm > 1)
        && r.smart_why
            .as_deref()
            .is_some_and(|w| w.contains("lacks SMART capability"))
        && !raid_volume_inquiry(r.vendor.as_deref(), r.model.as_deref())
}

/// Whether a SCSI inquiry (vendor, product) is a hardware RAID controller's logical volume
/// rather than a drive: Broadcom/LSI/Avago MegaRAID volumes report the controller model
/// ("AVAGO MR9361-16i", "LSI MR9260-8i", "DELL PERC H730P Mini"), HPE Smart Array volumes
/// "HP LOGICAL VOLUME", Adaptec volumes their array name with vendor "Adaptec". smartctl
/// then says "device lacks SMART capability" and points at `-d megaraid,N`
/// (smartmontools os_linux.cpp recognises MegaRAID by the same vendor strings). LSI, Avago
/// and Broadcom make controllers, never drives: a block device answering with their name is
/// a volume whatever the product field says (MegaRAID firmware of Avago's 3108 generation
/// fills it with "AVAGO" again, Integrated RAID with "Logical Volume"); only their SAS
/// expanders ("LSI SAS2X36", SCSI device type enclosure, not a disk) answer too. IBM's
/// ServeRAID M-series are MegaRAID boards sold under IBM's name (the megaraid_sas driver
/// binds them by the LSI PCI ids); their volumes answer "IBM ServeRAID M5015" (smartctl
/// `-a` on such a volume: "Vendor: IBM / Product: ServeRAID M5015 ... SMART support is:
/// Unavailable - device lacks SMART capability"), and the older Adaptec-based ServeRAID
/// 8k volumes carry the same product prefix.
pub fn raid_volume_inquiry(vendor: Option<&str>, product: Option<&str>) -> bool {
    let v = vendor.unwrap_or("").trim().to_ascii_uppercase();
    let p = product.unwrap_or("").trim().to_ascii_uppercase();
    let megaraid_vendor = matches!(v.as_str(), "AVAGO" | "LSI" | "BROADCOM" | "LSILOGIC");
    (megaraid_vendor && !p.starts_with("SAS"))
        || (v == "DELL" && p.starts_with("PERC"))
        || (v == "IBM" && p.starts_with("SERVERAID"))
        || (matches!(v.as_str(), "HP" | "HPE" | "COMPAQ") && p.contains("LOGICAL VOLUME"))
        || v == "ADAPTEC"
}

/// Whether smartctl's drive-database family string marks the drive as shingled (SMR), e.g.
/// "Seagate BarraCuda 3.5 (SMR)" or "WD Red (SMR)". Drive-managed SMR slows sustained
/// random writes once its CMR cache zone fills.
pub fn family_is_smr(family: &str) -> bool {
    family.contains("(SMR)")
        || family.contains(" SMR")
        || family.contains("Shingled")
        // smartmontools before 7.2 named the family without its "(SMR)" (drivedb.h
        // "Seagate Archive HDD", ST[568]000AS00[01][12]): every drive of it is shingled.
        || family.trim() == "Seagate Archive HDD"
}

// ---------------------------------------------------------------------------------------
// JSON (smartctl 6.7+ `-j`; json_format_version 0.1 and 1.0)

fn jstr(v: &Value, path: &[&str]) -> Option<String> {
    let mut cur = v;
    for p in path {
        cur = cur.get(p)?;
    }
    cur.as_str()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn ju64(v: &Value, path: &[&str]) -> Option<u64> {
    let mut cur = v;
    for p in path {
        cur = cur.get(p)?;
    }
    cur.as_u64()
        .or_else(|| cur.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64))
}

/// Speed of an `interface_speed.max/current` object: units_per_second x bits_per_unit, or
/// its "6.0 Gb/s" string when the numbers were trimmed away.
fn jspeed(v: Option<&Value>) -> Option<f64> {
    let v = v?;
    if let (Some(u), Some(b)) = (
        v.get("units_per_second").and_then(Value::as_f64),
        v.get("bits_per_unit").and_then(Value::as_f64),
    ) {
        let g = u * b / 1e9;
        if g.is_finite() && g > 0.0 {
            return Some((g * 10.0).round() / 10.0);
        }
    }
    let s = v.get("string")?.as_str()?;
    gbps_in(s)
}

fn parse_json(v: &Value) -> Option<SmartctlReport> {
    if !v.is_object() {
        return None;
    }
    let mut r = SmartctlReport {
        format: "json",
        ..Default::default()
    };
    let exit = ju64(v, &["smartctl", "exit_status"]);
    let errors: Vec<String> = v
        .get("smartctl")
        .and_then(|s| s.get("messages"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter(|m| m.get("severity").and_then(Value::as_str) == Some("error"))
                .filter_map(|m| m.get("string").and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();

    r.sat_refused = errors.iter().any(|m| is_sat_refusal(m));
    r.raspberry_pi =
        jstr(v, &["smartctl", "platform_info"]).is_some_and(|p| raspberry_pi_kernel(&p));
    r.protocol = jstr(v, &["device", "protocol"]).map(|p| p.to_ascii_lowercase());
    r.usb_bridge = jstr(v, &["device", "type"]).filter(|t| is_usb_device_type(t));
    r.model = jstr(v, &["model_name"]).or_else(|| jstr(v, &["product"]));
    r.vendor = jstr(v, &["vendor"]);
    r.serial = jstr(v, &["serial_number"]).filter(|s| !is_anonymised(s));
    r.firmware = jstr(v, &["firmware_version"]).or_else(|| jstr(v, &["revision"]));
    r.size_bytes = ju64(v, &["user_capacity", "bytes"])
        .or_else(|| ju64(v, &["nvme_total_capacity"]))
        .filter(|b| *b > 0);
    r.logical_sector_bytes = ju64(v, &["logical_block_size"]).and_then(|n| u32::try_from(n).ok());
    r.physical_sector_bytes = ju64(v, &["physical_block_size"]).and_then(|n| u32::try_from(n).ok());
    if r.physical_sector_bytes.is_none() && r.logical_sector_bytes.is_some() {
        // SCSI -j without a physical_block_size key means LB per PB exponent 0.
        if r.protocol.as_deref() == Some("scsi") {
            r.physical_sector_bytes = r.logical_sector_bytes;
        }
    }
    r.rotation_rpm = ju64(v, &["rotation_rate"]).and_then(|n| u32::try_from(n).ok());
    if let Some(is) = v.get("interface_speed") {
        r.link_max_gbps = jspeed(is.get("max"));
        r.link_current_gbps = jspeed(is.get("current"));
    }
    r.sata_version = jstr(v, &["sata_version", "string"]);
    if let Some(wc) = v.get("write_cache") {
        r.write_cache_enabled = wc.get("enabled").and_then(Value::as_bool);
        r.write_cache_supported = wc.get("supported").and_then(Value::as_bool);
    }
    r.trim_supported = v
        .get("trim")
        .and_then(|t| t.get("supported"))
        .and_then(Value::as_bool);
    r.smart.model_family = jstr(v, &["model_family"]);

    let mut signals = false;
    if let Some(p) = v
        .get("smart_status")
        .and_then(|s| s.get("passed"))
        .and_then(Value::as_bool)
    {
        r.smart.health_passed = Some(p);
        signals = true;
    }
    if let Some(table) = v
        .get("ata_smart_attributes")
        .and_then(|a| a.get("table"))
        .and_then(Value::as_array)
    {
        signals = true;
        for row in table {
            let Some(id) = row.get("id").and_then(Value::as_u64) else {
                continue;
            };
            let name = row.get("name").and_then(Value::as_str).unwrap_or("?");
            let raw = row
                .get("raw")
                .and_then(|r| r.get("value"))
                .and_then(Value::as_u64);
            // raw.string begins with the decoded count even when raw.value packs fields.
            let raw_str = row
                .get("raw")
                .and_then(|r| r.get("string"))
                .and_then(Value::as_str)
                .and_then(leading_u64);
            let when = row.get("when_failed").and_then(Value::as_str).unwrap_or("");
            if !when.is_empty() && when != "-" {
                r.smart
                    .failing_attributes
                    .push(format!("{id} {name} ({when})"));
            }
            set_attr(&mut r.smart, id, raw_str.or(raw));
            let num = |k: &str| row.get(k).and_then(Value::as_u64).map(|v| v.to_string());
            let worst = num("worst");
            set_life_used(
                &mut r.smart,
                num("value").and_then(|v| life_used_percent(id, name, &v, worst.as_deref())),
            );
        }
    }
    if let Some(h) = ju64(v, &["power_on_time", "hours"]) {
        r.smart.power_on_hours = Some(h);
    }
    if let Some(n) = v.get("nvme_smart_health_information_log") {
        signals = true;
        r.smart.media_errors = n.get("media_errors").and_then(Value::as_u64);
        r.percentage_used = n.get("percentage_used").and_then(Value::as_u64);
        if r.smart.power_on_hours.is_none() {
            r.smart.power_on_hours = n.get("power_on_hours").and_then(Value::as_u64);
        }
    }
    if let Some(g) = ju64(v, &["scsi_grown_defect_list"]) {
        signals = true;
        r.grown_defects = Some(g);
        // SBC: the grown defect list is the SCSI counterpart of reallocated sectors.
        r.smart.reallocated_sectors = Some(g);
    }
    if let Some(log) = v.get("scsi_error_counter_log") {
        let mut unc = 0u64;
        let mut any = false;
        for dir in ["read", "write", "verify"] {
            if let Some(n) = log
                .get(dir)
                .and_then(|d| d.get("total_uncorrected_errors"))
                .and_then(Value::as_u64)
            {
                unc = unc.saturating_add(n);
                any = true;
            }
        }
        if any {
            signals = true;
            r.smart.reported_uncorrect = Some(unc);
        }
    }
    if let Some(table) = v
        .get("sata_phy_event_counters")
        .and_then(|p| p.get("table"))
        .and_then(Value::as_array)
    {
        for row in table {
            if let (Some(id), Some(val)) = (
                row.get("id").and_then(Value::as_u64),
                row.get("value").and_then(Value::as_u64),
            ) {
                phy_counter(&mut r.smart, id, val);
            }
        }
    }
    if let Some(c) = ju64(v, &["ata_smart_error_log", "extended", "count"])
        .or_else(|| ju64(v, &["ata_smart_error_log", "summary", "count"]))
    {
        r.smart.error_log_count = Some(c);
        signals = true;
    }
    // The failed self-tests smartctl counts in the traditional log and in GP log 0x07
    // (ataprint.cpp: "error_count_total" less "error_count_outdated", the failures a newer
    // extended test that completed without error has outdated), as in the text form.
    if let Some(n) = ["standard", "extended"]
        .iter()
        .filter_map(|&k| {
            let total = ju64(v, &["ata_smart_self_test_log", k, "error_count_total"])?;
            let outdated =
                ju64(v, &["ata_smart_self_test_log", k, "error_count_outdated"]).unwrap_or(0);
            Some(total.saturating_sub(outdated))
        })
        .max()
    {
        r.smart.self_test_errors = Some(n);
        signals = true;
    }
    // The log's rows pasted without its counts: a cut-out `table` array, or one of its row
    // objects alone. smartctl writes each ATA row as {"type": {...}, "status": {"value",
    // "string", "remaining_percent", "passed"}, "lifetime_hours", "lba"} (ataprint.cpp,
    // ataPrintSelfTestlogEntry), "passed": false for a test that ended in a failure
    // ("Completed: read failure", with the LBA of the first error).
    if r.smart.self_test_errors.is_none() {
        let mut rows: Vec<&Value> = ["standard", "extended"]
            .iter()
            .filter_map(|&k| {
                v.get("ata_smart_self_test_log")?
                    .get(k)?
                    .get("table")?
                    .as_array()
            })
            .flatten()
            .collect();
        if is_self_test_row(v) {
            rows.push(v);
        }
        if !rows.is_empty() {
            let failed = rows
                .iter()
                .filter(|row| self_test_row_passed(row) == Some(false))
                .count();
            r.smart.self_test_errors = u64::try_from(failed).ok();
            signals = true;
        }
    }
    sanitize(&mut r.smart);
    // The drive's own endurance figure (NVMe, SCSI, ATA Device Statistics) before a
    // vendor life attribute's.
    r.smart.percentage_used = r.percentage_used.or(r.smart.percentage_used);
    r.smart.grown_defects = r.grown_defects;
    r.has_smart_data = signals;
    if !signals {
        // smartctl(8): exit-status bit 1 = device open failed / no IDENTIFY.
        r.smart_why = if !errors.is_empty() {
            Some(format!(
                "smartctl failed (exit status {}): {}",
                exit.unwrap_or(0),
                errors.join("; ")
            ))
        } else if exit.is_some_and(|e| e & 2 != 0) {
            Some(format!(
                "smartctl could not open the device (exit status {})",
                exit.unwrap_or(0)
            ))
        } else {
            None
        };
    }
    let any_identity = r.model.is_some()
        || r.serial.is_some()
        || r.size_bytes.is_some()
        || r.link_current_gbps.is_some()
        || r.logical_sector_bytes.is_some();
    if !signals && !any_identity && exit.is_none() && r.smart_why.is_none() {
        return None;
    }
    Some(r)
}

/// An ATA self-test log row object of smartctl -j (see parse_json): its status with the
/// "passed" verdict, and the lifetime the test ran at.
fn is_self_test_row(v: &Value) -> bool {
    self_test_row_passed(v).is_some()
        && v.get("lifetime_hours").is_some_and(Value::is_u64)
        && v.get("type").is_some_and(Value::is_object)
}

fn self_test_row_passed(v: &Value) -> Option<bool> {
    v.get("status")?.get("passed")?.as_bool()
}

/// One SATA Phy event counter (SATA 3.x spec, GP log 11h): ids 1 and 0Bh count CRC errors,
/// 2..7 R_ERR responses.
fn phy_counter(s: &mut Smart, id: u64, val: u64) {
    match id {
        0x0001 | 0x000b => {
            s.sata_phy_crc_errors = Some(s.sata_phy_crc_errors.unwrap_or(0).saturating_add(val))
        }
        0x0002..=0x0007 => {
            s.sata_phy_r_errors = Some(s.sata_phy_r_errors.unwrap_or(0).saturating_add(val))
        }
        _ => {}
    }
}

/// Drop values that cannot be what their name says: some vendors pack other counters into
/// the Power_On_Hours raw value (OCZ: 210058260563646); more than 100 years is not hours.
fn sanitize(s: &mut Smart) {
    if s.power_on_hours.is_some_and(|h| h > 876_000) {
        s.power_on_hours = None;
    }
}

/// Serials replaced by anonymisers ("--", "...", all X).
fn is_anonymised(s: &str) -> bool {
    let t = s.trim();
    t.is_empty()
        || t.chars().all(|c| c == '-' || c == '.' || c == ' ')
        || t.chars().all(|c| c == 'X' || c == 'x')
}

// SSD life attributes as smartmontools' drive database (drivedb.h) names them per vendor, by
// id and name: Samsung 177 Wear_Leveling_Count, Intel 233 Media_Wearout_Indicator, SandForce
// and Kingston 231 SSD_Life_Left, Kingston/Phison 169 Remaining_Lifetime_Perc,
// Crucial/Micron 202 Percent_Lifetime_Remain. Their normalized VALUE (not the raw count) is
// the drive's own estimate of the rated write endurance left, 100 when new, falling to 1 (or
// 0) when used up. The id matters: WD's SSDs put the percentage *used* in 230
// Media_Wearout_Indicator, and "Perc_Rated_Life_Used" counts up too; neither is read.
const LIFE_LEFT: [(u64, &str); 5] = [
    (177, "Wear_Leveling_Count"),
    (233, "Media_Wearout_Indicator"),
    (231, "SSD_Life_Left"),
    (169, "Remaining_Lifetime_Perc"),
    (202, "Percent_Lifetime_Remain"),
];

/// The share of rated endurance used (0-100 %) an SSD life attribute gives (`id` and `name`
/// as smartctl prints them, `value` and `worst` its VALUE and WORST columns); None for any
/// other attribute, a VALUE that is no number ("---": the drive does not normalize it), and
/// a VALUE below WORST: WORST is the lowest VALUE ever seen, so such a row is not tracking
/// wear (some Phison firmware prints "000 100" on fresh drives).
fn life_used_percent(id: u64, name: &str, value: &str, worst: Option<&str>) -> Option<u64> {
    if !LIFE_LEFT.contains(&(id, name)) {
        return None;
    }
    let v: u64 = value.parse().ok()?;
    if let Some(w) = worst.and_then(|w| w.parse::<u64>().ok())
        && v < w
    {
        return None;
    }
    (v <= 100).then(|| 100 - v)
}

/// Keep the most worn reading when several life attributes are present.
fn set_life_used(s: &mut Smart, used: Option<u64>) {
    if let Some(u) = used {
        s.percentage_used = Some(s.percentage_used.map_or(u, |p| p.max(u)));
    }
}

/// The first "N.N Gb/s" in `s`.
fn gbps_in(s: &str) -> Option<f64> {
    let i = s.find("Gb/s")?;
    let before = s.get(..i)?.trim_end();
    let start = before
        .rfind(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .map(|p| p + 1)
        .unwrap_or(0);
    leading_f64(before.get(start..)?)
}

// ---------------------------------------------------------------------------------------
// Text (`-a`, `-x`, smartctl 5.40 .. 7.5)

#[derive(PartialEq)]
enum TableKind {
    None,
    /// "ID# ATTRIBUTE_NAME FLAG VALUE WORST THRESH TYPE UPDATED WHEN_FAILED RAW_VALUE".
    Long,
    /// "-x" brief form "ID# ATTRIBUTE_NAME FLAGS VALUE WORST THRESH FAIL RAW_VALUE".
    Brief,
}

fn parse_text(output: &str) -> Option<SmartctlReport> {
    let mut r = SmartctlReport {
        format: "text",
        ..Default::default()
    };
    let mut recognised = false;
    let mut signals = false;
    let mut table = TableKind::None;
    let mut in_scsi_errlog = false;
    let mut in_phy = false;
    let mut scsi_unc: Option<u64> = None;
    let mut logged_unc: Option<u64> = None;
    // The lifetime of the error-log entry being read, and of the newest UNC entry.
    let mut entry_hours: Option<u64> = None;
    let mut last_unc_hours: Option<u64> = None;
    let mut self_tests = SelfTestTally::default();
    let joined = join_wrapped_rows(output);
    for raw in joined.iter().map(String::as_str) {
        let line = clean_line(raw);
        let t = line.trim();
        if t.starts_with("smartctl ") && t.contains("Copyright") || t.starts_with("smartctl ") {
            recognised = true;
            // "smartctl 6.6 2017-11-05 r4594 [armv7l-linux-5.4.74-v7l+] (local build)":
            // smartctl.cpp print_smartctl_header prints the build's platform string, which
            // on Linux carries the running kernel's release (os_linux.cpp get_os_version_str).
            if let Some((_, p)) = t.split_once('[')
                && let Some((p, _)) = p.split_once(']')
            {
                r.raspberry_pi |= raspberry_pi_kernel(p);
            }
        }
        if t.starts_with("=== START OF") {
            recognised = true;
            table = TableKind::None;
            continue;
        }
        if t.starts_with("ID#") && t.contains("ATTRIBUTE_NAME") {
            recognised = true;
            signals = true;
            table = if t.contains("WHEN_FAILED") {
                TableKind::Long
            } else {
                TableKind::Brief
            };
            continue;
        }
        if table != TableKind::None {
            if attribute_row(&mut r.smart, t, &table) {
                continue;
            }
            // The legend ("||||||_ K auto-keep") or a blank line ends the table.
            table = TableKind::None;
        }
        // A long-form row pasted without the table header (the poster kept only the rows
        // that worried them): ID NAME 0xFLAG VALUE WORST THRESH TYPE UPDATED WHEN RAW.
        if headless_long_row(t) && attribute_row(&mut r.smart, t, &TableKind::Long) {
            recognised = true;
            signals = true;
            continue;
        }
        // The same for the brief "-x" form: ID NAME FLAGS VALUE WORST THRESH FAIL RAW.
        if SMART_BRIEF_ROW.is_match(t) && attribute_row(&mut r.smart, t, &TableKind::Brief) {
            recognised = true;
            signals = true;
            continue;
        }
        if t.starts_with("SATA Phy Event Counters") {
            in_phy = true;
            continue;
        }
        // `smartctl -x` Device Statistics (ataprint.cpp print_device_statistics), pasted
        // alone: smartctl's, even without the banner.
        if t.starts_with("Device Statistics (GP Log 0x04)")
            || t.starts_with("Device Statistics (SMART Log 0x04)")
        {
            recognised = true;
            continue;
        }
        if in_phy {
            // "0x0001  2            0  Command failed due to ICRC error"
            let tk = tokens(t);
            let id = tk
                .first()
                .and_then(|x| x.strip_prefix("0x"))
                .and_then(|h| u64::from_str_radix(h, 16).ok());
            match (id, tk.get(2).and_then(|x| leading_u64(x))) {
                (Some(id), Some(val)) => {
                    phy_counter(&mut r.smart, id, val);
                    continue;
                }
                _ if t.starts_with("ID") => continue,
                _ => in_phy = false,
            }
        }
        // The ATA error log, summary or extended (smartctl -l error / -l xerror, ataprint.cpp):
        // "Error 16 occurred at disk power-on lifetime: 9377 hours ..." heads each entry, and
        // its register line ends "Error: UNC at LBA = 0x009492b0 = 9736880" when the drive
        // could not read the data ("UNC 2 sectors at ..." in the extended form).
        if error_log_entry_head(t) {
            recognised = true;
            signals = true;
            entry_hours = t
                .split_once(" occurred at disk power-on lifetime: ")
                .and_then(|(_, h)| leading_u64(h));
            continue;
        }
        // A write command's entry names the same error-register bit 6 "WP" (ataprint.cpp
        // format_st_er_desc: bit 6 is "UNC" for the read commands and "WP" for WRITE DMA,
        // WRITE FPDMA QUEUED, WRITE SECTOR(S) and their kin): the drive failed a write of
        // that LBA, a medium error like the unreadable read ("Error: WP at LBA = ...").
        if let Some(rest) = t.split_once("Error: ").map(|x| x.1)
            && ["UNC", "WP"].iter().any(|w| {
                rest.strip_prefix(w)
                    .is_some_and(|r| r.is_empty() || r.starts_with(' ') || r.starts_with(','))
            })
        {
            recognised = true;
            signals = true;
            logged_unc = Some(logged_unc.unwrap_or(0).saturating_add(1));
            if let Some(h) = entry_hours {
                last_unc_hours = Some(last_unc_hours.map_or(h, |x| x.max(h)));
            }
            continue;
        }
        if self_test_log_head(t) {
            recognised = true;
            self_tests.new_log();
            continue;
        }
        if let Some(n) = outdated_failures(t) {
            recognised = true;
            signals = true;
            self_tests.counted(n);
            continue;
        }
        if let Some(row) = self_test_row(t) {
            recognised = true;
            signals = true;
            self_tests.row(row);
            continue;
        }
        if t.starts_with("Error counter log") {
            in_scsi_errlog = true;
            continue;
        }
        if in_scsi_errlog {
            let low = t.to_ascii_lowercase();
            if let Some(rest) = ["read:", "write:", "verify:"]
                .iter()
                .find_map(|p| low.strip_prefix(p))
            {
                // Last column is "Total uncorrected errors" (SCSI error counter log page).
                let cols = tokens(rest);
                if let Some(n) = cols.last().and_then(|x| leading_u64(x)) {
                    scsi_unc = Some(scsi_unc.unwrap_or(0).saturating_add(n));
                }
                // The one before it "Gigabytes processed [10^9 bytes]"; a verify moves no
                // data over the link (SBC VERIFY compares inside the drive).
                if !low.starts_with("verify:")
                    && let Some(gb) = cols
                        .len()
                        .checked_sub(2)
                        .and_then(|i| cols.get(i))
                        .and_then(|x| x.parse::<f64>().ok())
                        .filter(|g| g.is_finite() && *g >= 0.0)
                {
                    r.smart.scsi_transferred_gb =
                        Some(r.smart.scsi_transferred_gb.unwrap_or(0.0) + gb);
                }
                continue;
            }
            if t.is_empty() || t.starts_with("Non-medium") {
                in_scsi_errlog = false;
            }
        }
        text_kv(&mut r, t, &mut recognised, &mut signals);
    }
    if let Some(u) = scsi_unc {
        r.smart.reported_uncorrect = Some(u);
        signals = true;
    }
    r.smart.error_log_unc = logged_unc;
    r.smart.error_log_unc_last_hours = last_unc_hours;
    if let Some(n) = self_tests.failed() {
        r.smart.self_test_errors = Some(n);
    }
    if !recognised {
        return None;
    }
    // SCSI READ CAPACITY(16): smartctl prints "Physical block size" only when it differs
    // from the logical one (LB per PB exponent > 0).
    if r.physical_sector_bytes.is_none()
        && r.vendor.is_some()
        && r.protocol.as_deref() != Some("ata")
    {
        r.physical_sector_bytes = r.logical_sector_bytes;
    }
    sanitize(&mut r.smart);
    r.smart.percentage_used = r.percentage_used.or(r.smart.percentage_used);
    r.smart.grown_defects = r.grown_defects;
    r.has_smart_data = signals;
    Some(r)
}

/// A mail client re-wrapping at 72 columns moves the RAW_VALUE of a long attribute row to a
/// line of its own ("...Always       -" / "8256"): join such pairs back.
fn join_wrapped_rows(output: &str) -> Vec<String> {
    let lines: Vec<&str> = output.lines().collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while let Some(l) = lines.get(i) {
        let tk = tokens(l);
        let cut_row = (7..=9).contains(&tk.len())
            && tk.first().is_some_and(|x| x.parse::<u16>().is_ok())
            && tk.get(2).is_some_and(|x| x.starts_with("0x"))
            && tk
                .get(6)
                .is_some_and(|x| *x == "Pre-fail" || *x == "Old_age");
        let next = lines.get(i + 1).map(|n| tokens(n)).unwrap_or_default();
        let whole = tk.len() + next.len();
        if cut_row
            && !next.is_empty()
            && (10..=14).contains(&whole)
            && next
                .last()
                .is_some_and(|x| leading_u64(x).is_some() || x.ends_with(')'))
        {
            out.push(format!("{} {}", l.trim_end(), next.join(" ")));
            i += 2;
        } else {
            out.push(l.to_string());
            i += 1;
        }
    }
    out
}

/// The outcome of one row of a drive's self-test log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SelfTestRow {
    /// The test ended in a failure the drive records against itself.
    Failed,
    /// A full-surface (extended, long) test that completed without error.
    FullScanPassed,
    /// Anything else: a short test that passed, an aborted or running test.
    Other,
}

/// The failed self-tests of the logs in one smartctl output. smartctl prints the log newest
/// first and counts a failure only while no newer extended test completed without error
/// (ataprint.cpp ataPrintSmartSelfTestlog: the others are "outdated by newer successful
/// extended offline self-test"); `smartctl -x` prints the same entries twice (the
/// traditional log and GP log 0x07), so the largest count of one log is the drive's.
#[derive(Default)]
struct SelfTestTally {
    best: Option<u64>,
    failed: u64,
    rows: u64,
    superseded: bool,
}

impl SelfTestTally {
    fn new_log(&mut self) {
        self.close();
        self.failed = 0;
        self.rows = 0;
        self.superseded = false;
    }
    fn row(&mut self, row: SelfTestRow) {
        self.rows = self.rows.saturating_add(1);
        match row {
            SelfTestRow::Failed if !self.superseded => self.failed = self.failed.saturating_add(1),
            SelfTestRow::FullScanPassed => self.superseded = true,
            _ => {}
        }
    }
    /// smartctl's own count of the log's failures that are not outdated; it is the last
    /// line of the log, so it also stands when the rows above it were not pasted.
    fn counted(&mut self, n: u64) {
        self.failed = n;
        self.rows = self.rows.max(1);
    }
    fn close(&mut self) {
        if self.rows > 0 {
            self.best = Some(self.best.map_or(self.failed, |b| b.max(self.failed)));
        }
    }
    fn failed(mut self) -> Option<u64> {
        self.close();
        self.best
    }
}

/// "1 of 3 failed self-tests are outdated by newer successful extended offline self-test # 1"
/// (ataprint.cpp ataPrintSmartSelfTestlog prints igncnt of igncnt+errcnt; only errcnt, the
/// failures newer than the last passed extended test, count): the failures still standing.
fn outdated_failures(t: &str) -> Option<u64> {
    let (n, rest) = t.split_once(" of ")?;
    let (m, rest) = rest.split_once(' ')?;
    if !rest.starts_with("failed self-tests are outdated by newer successful") {
        return None;
    }
    m.parse::<u64>().ok()?.checked_sub(n.parse().ok()?)
}

/// The title of a self-test log: ATA "SMART Self-test log structure revision number 1" and
/// "SMART Extended Self-test Log Version: 1 (1 sectors)" (ataprint.cpp), SCSI "SMART
/// Self-test log" (scsiprint.cpp), or the column header when the title was not pasted.
fn self_test_log_head(t: &str) -> bool {
    t.starts_with("SMART Self-test log")
        || t.starts_with("SMART Extended Self-test Log Version:")
        || (t.starts_with("Num ") && t.contains("Test_Description") && t.contains("Status"))
}

/// One row of a self-test log, "# 1  Extended offline    Completed: read failure       90%
/// 8810         379252423". The statuses are smartmontools' own words: ATA
/// (ataprint.cpp ataPrintSmartSelfTestEntry, from the ACS self-test execution status:
/// "Completed: read failure", "Completed: servo/seek failure", "Completed: electrical
/// failure", "Completed: unknown failure", "Completed: handling damage??", "Fatal or unknown
/// error" are failures) and SCSI (scsiprint.cpp self_test_result, SPC-3 7.2.10: "Completed,
/// segment failed", "Failed in first/second segment", "Failed in segment -->", "Unknown
/// error, incomplete").
fn self_test_row(t: &str) -> Option<SelfTestRow> {
    let rest = t.strip_prefix('#')?.trim_start();
    let n: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if n.is_empty() {
        return None;
    }
    let rest = rest.get(n.len()..)?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    const FAILED: &[&str] = &[
        "Completed: read failure",
        "Completed: servo/seek failure",
        "Completed: electrical failure",
        "Completed: unknown failure",
        "Completed: handling damage",
        "Fatal or unknown error",
        "Completed, segment failed",
        "Failed in first segment",
        "Failed in second segment",
        "Failed in segment",
        "Unknown error, incomplete",
    ];
    const OTHER: &[&str] = &[
        "Completed without error",
        "Aborted by host",
        "Interrupted (host reset)",
        "Self-test routine in progress",
        "Aborted (by user command)",
        "Aborted (device reset ?)",
        "Self test in progress",
        "Unknown status",
        "Completed",
    ];
    if FAILED.iter().any(|f| rest.contains(f)) {
        return Some(SelfTestRow::Failed);
    }
    let status = OTHER.iter().find(|f| rest.contains(*f))?;
    // ATA "Extended offline"/"Extended captive", SCSI "Background long"/"Foreground long".
    let full = rest.contains("Extended ") || rest.contains(" long");
    let passed = *status == "Completed without error"
        || (*status == "Completed" && !rest.contains("Completed,"));
    Some(if full && passed {
        SelfTestRow::FullScanPassed
    } else {
        SelfTestRow::Other
    })
}

/// "Error 757 [244] occurred at disk power-on lifetime: 11218 hours (467 days + 10 hours)".
fn error_log_entry_head(t: &str) -> bool {
    let Some(rest) = t.strip_prefix("Error ") else {
        return false;
    };
    let n: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    !n.is_empty() && rest.contains(" occurred at disk power-on lifetime: ")
}

/// Whether `t` has the shape of a long-form attribute row (10 columns, hex flags, a
/// Pre-fail/Old_age type and an Always/Offline update column).
fn headless_long_row(t: &str) -> bool {
    let tk = tokens(t);
    tk.len() >= 10
        && tk.first().is_some_and(|x| x.parse::<u16>().is_ok())
        && tk.get(2).is_some_and(|x| x.starts_with("0x"))
        && tk
            .get(6)
            .is_some_and(|x| *x == "Pre-fail" || *x == "Old_age")
        && tk.get(7).is_some_and(|x| *x == "Always" || *x == "Offline")
}

/// One attribute-table row; false when `t` is not a row.
fn attribute_row(s: &mut Smart, t: &str, kind: &TableKind) -> bool {
    let tk = tokens(t);
    let Some(id) = tk.first().and_then(|x| x.parse::<u64>().ok()) else {
        return false;
    };
    if tk.len() < 6 {
        return false;
    }
    let name = tk.get(1).copied().unwrap_or("?");
    let (when_idx, raw_idx) = match kind {
        TableKind::Long => (8, 9),
        _ => (6, 7),
    };
    let when = tk.get(when_idx).copied().unwrap_or("-");
    if when != "-" && !when.is_empty() {
        s.failing_attributes.push(format!("{id} {name} ({when})"));
    }
    let raw = tk.get(raw_idx).and_then(|x| leading_u64(x));
    set_attr(s, id, raw);
    set_life_used(
        s,
        tk.get(3)
            .and_then(|v| life_used_percent(id, name, v, tk.get(4).copied())),
    );
    true
}

/// An attribute quoted by its smartctl name outside the table, as posters summarise a
/// report: "Current_Pending_Sector   val=099 worst=098 thresh=000  raw=624",
/// "Reallocated_Sector_Ct: 8", "Offline_Uncorrectable = 3" (the names are smartmontools'
/// drivedb.h defaults for these ids). Returns (id, raw value).
fn named_attribute(t: &str) -> Option<(u64, u64)> {
    const NAMES: [(&str, u64); 6] = [
        ("Reallocated_Sector_Ct", 5),
        ("Power_On_Hours", 9),
        ("Reported_Uncorrect", 187),
        ("Current_Pending_Sector", 197),
        ("Offline_Uncorrectable", 198),
        ("UDMA_CRC_Error_Count", 199),
    ];
    let (name, id) = NAMES.iter().find(|(n, _)| t.starts_with(n))?;
    let rest = t.get(name.len()..)?;
    let v = if let Some(i) = rest.find("raw=") {
        rest.get(i + 4..)?
    } else {
        rest.trim_start()
            .strip_prefix([':', '='])
            .map(str::trim_start)?
    };
    let digits: String = v.chars().take_while(|c| c.is_ascii_digit()).collect();
    Some((*id, digits.parse().ok()?))
}

/// smartctl `-d` device types that talk through a USB bridge (smartctl(8) "-d TYPE":
/// usbasm1352r, usbcypress, usbjmicron, usbprolific, usbsunplus, sntasmedia, sntjmicron,
/// sntrealtek).
pub fn is_usb_device_type(t: &str) -> bool {
    let t = t.trim().to_ascii_lowercase();
    t.starts_with("usb") || t.starts_with("snt")
}

/// Synology DSM's node name of a USB disk: "usb" and a unit number (see apply).
pub(crate) fn dsm_usb_node(name: &str) -> bool {
    name.strip_prefix("usb")
        .is_some_and(|n| !n.is_empty() && n.len() <= 3 && n.bytes().all(|b| b.is_ascii_digit()))
}

/// smartctl's report that the device refused the ATA PASS-THROUGH command its SAT layer sent
/// for IDENTIFY DEVICE (smartmontools src/ataprint.cpp: "Read Device Identity failed: %s",
/// then "If this is a USB connected device, look at the various --device=TYPE variants";
/// lib/scsiata.cpp sat_device::ata_pass_through: "scsi error %s" with lib/scsicmds.cpp
/// scsiErrString of the sense: ILLEGAL REQUEST with ASC 20h "unsupported scsi opcode" or
/// 24h "unsupported field in scsi command"). smartctl takes that path for a USB device
/// (lib/os_linux.cpp autodetect_smart_device: a USB ID gives a "sat" type) or an "ATA"
/// INQUIRY; libata's and SAS HBAs' translators implement the command, so a translator that
/// does not know it is a USB bridge that passes no ATA command (a USB-NVMe bridge, or one
/// that needs its own `-d` type).
///
/// The same refusal of a USB-NVMe bridge's tunnel: smartctl reaches an NVMe drive behind
/// one only through the bridge's vendor SCSI command (lib/scsinvme.cpp: sntasmedia,
/// sntjmicron, sntrealtek wrap the NVMe command in a SCSI CDB), so "Read NVMe Identify
/// Controller failed: scsi error ..." (src/nvmeprint.cpp) is the bridge refusing that
/// command; a native NVMe device fails with an "NVMe Status" instead.
pub(crate) fn is_sat_refusal(msg: &str) -> bool {
    [
        "Read Device Identity failed: scsi error ",
        "Read NVMe Identify Controller failed: scsi error ",
    ]
    .iter()
    .any(|k| {
        msg.split_once(k).is_some_and(|(_, e)| {
            e.starts_with("unsupported scsi opcode")
                || e.starts_with("unsupported field in scsi command")
        })
    })
}

/// A Raspberry Pi kernel's release, as `uname -r` and smartctl's build line give it: the
/// Raspberry Pi Foundation's kernels (github.com/raspberrypi/linux) append their defconfig's
/// CONFIG_LOCALVERSION and a "+" ("5.4.74-v7l+": bcm2711_defconfig "-v7l"; "-v7+" bcm2709,
/// "-v8+" the 64-bit bcm2711, "-v8-16k+" bcm2712), and Raspberry Pi OS's Debian-packaged
/// kernels since 2023 carry "rpi" flavours ("6.1.0-rpi7-rpi-v8", "6.6.51+rpt-rpi-2712").
/// Arch Linux ARM's linux-rpi packages end in "-rpi-ARCH" ("6.1.57-2-rpi-ARCH") and
/// Ubuntu's Raspberry Pi kernels in "-raspi" ("5.15.0-1034-raspi").
/// The plain "+" of the Pi 1 build is left out: any self-built kernel can end in "+".
pub fn raspberry_pi_kernel(platform: &str) -> bool {
    let p = platform.trim().to_ascii_lowercase();
    // smartctl's platform string is "ARCH-linux-RELEASE"; uname -r is the release alone.
    let release = p.split_once("-linux-").map_or(p.as_str(), |(_, r)| r);
    ["-v7+", "-v7l+", "-v8+", "-v8-16k+"]
        .iter()
        .any(|s| release.ends_with(s))
        || release.contains("+rpt-rpi-")
        || [
            "-rpi-v6",
            "-rpi-v7",
            "-rpi-v7l",
            "-rpi-v8",
            "-rpi-2712",
            "-rpi-arch",
            "-raspi",
        ]
        .iter()
        .any(|s| release.ends_with(s))
}

fn text_kv(r: &mut SmartctlReport, t: &str, recognised: &mut bool, signals: &mut bool) {
    if t.contains("Incomplete response, ATA output registers missing") {
        r.sat_registers_missing = true;
    }
    if is_sat_refusal(t) {
        r.sat_refused = true;
    }
    // "/dev/sdd: Unknown USB bridge [0x8564:0x7000 (0x8000)]"
    if t.contains("USB bridge [") {
        r.usb_bridge.get_or_insert_with(|| "unknown".to_string());
    }
    if let Some(rest) = t.strip_prefix("SMART overall-health self-assessment test result:") {
        *recognised = true;
        *signals = true;
        r.smart.health_passed = Some(rest.trim().starts_with("PASSED"));
        return;
    }
    if let Some(rest) = t.strip_prefix("SMART Health Status:") {
        *recognised = true;
        *signals = true;
        r.smart.health_passed = Some(rest.trim() == "OK");
        return;
    }
    // `smartctl -x` Device Statistics page 7 (ACS-3 9.10.8, "Percentage Used Endurance
    // Indicator"): "0x07  0x008  1               3  N--  Percentage Used Endurance Indicator".
    if t.ends_with("Percentage Used Endurance Indicator") {
        let tk = tokens(t);
        if tk.first().is_some_and(|p| p.starts_with("0x07"))
            && let Some(v) = tk.get(3).and_then(|v| v.parse::<u64>().ok())
        {
            *signals = true;
            r.percentage_used = Some(v);
        }
        return;
    }
    if t == "No Errors Logged" {
        *signals = true;
        if r.smart.error_log_count.is_none() {
            r.smart.error_log_count = Some(0);
        }
        return;
    }
    if let Some((id, raw)) = named_attribute(t) {
        *signals = true;
        set_attr(&mut r.smart, id, Some(raw));
        return;
    }
    let Some((k, v)) = kv(t) else { return };
    let val = || Some(v.to_string()).filter(|s| !s.is_empty());
    match k {
        "Device Model" | "Model Number" => {
            *recognised = true;
            r.model = val();
        }
        "Product" => {
            *recognised = true;
            r.model = val();
            r.protocol.get_or_insert_with(|| "scsi".into());
        }
        "Vendor" => r.vendor = val(),
        "Model Family" => {
            *recognised = true;
            r.smart.model_family = val();
        }
        "Serial Number" | "Serial number" => {
            *recognised = true;
            r.serial = val().filter(|s| !is_anonymised(s));
        }
        "Firmware Version" | "Revision" => r.firmware = val(),
        "User Capacity" | "Total NVM Capacity" | "Namespace 1 Size/Capacity" => {
            if r.size_bytes.is_none() {
                r.size_bytes = leading_u64(v).filter(|n| *n > 0);
            }
        }
        "Sector Sizes" | "Sector Size" => sector_sizes(r, v),
        "Logical block size" => {
            r.logical_sector_bytes = leading_u64(v).and_then(|n| u32::try_from(n).ok())
        }
        "Physical block size" => {
            r.physical_sector_bytes = leading_u64(v).and_then(|n| u32::try_from(n).ok())
        }
        "Namespace 1 Formatted LBA Size" => {
            r.protocol = Some("nvme".into());
            r.logical_sector_bytes = leading_u64(v).and_then(|n| u32::try_from(n).ok())
        }
        "Rotation Rate" => {
            r.rotation_rpm = if v.contains("Solid State") {
                Some(0)
            } else {
                leading_u64(v).and_then(|n| u32::try_from(n).ok())
            }
        }
        "SATA Version is" => {
            r.protocol = Some("ata".into());
            // "SATA 3.1, 6.0 Gb/s (current: 3.0 Gb/s)"; the part before the comma is the
            // spec revision, the first speed the drive's maximum (IDENTIFY word 76).
            let (ver, rest) = v.split_once(',').unwrap_or((v, ""));
            r.sata_version = Some(ver.trim().to_string()).filter(|s| !s.is_empty());
            let (max_part, cur_part) = match rest.split_once("current:") {
                Some((a, b)) => (a, Some(b)),
                None => (rest, None),
            };
            r.link_max_gbps = gbps_in(max_part);
            r.link_current_gbps = cur_part.and_then(gbps_in);
        }
        "Write cache is" | "Writeback Cache is" => {
            let low = v.to_ascii_lowercase();
            if low.starts_with("enabled") {
                r.write_cache_enabled = Some(true);
                r.write_cache_supported = Some(true);
            } else if low.starts_with("disabled") {
                r.write_cache_enabled = Some(false);
                r.write_cache_supported = Some(true);
            } else if low.starts_with("unavailable") || low.starts_with("not supported") {
                r.write_cache_supported = Some(false);
            }
        }
        "TRIM Command" => {
            r.trim_supported = Some(v.starts_with("Available"));
        }
        "SMART support is" => {
            *recognised = true;
            if v.starts_with("Unavailable") {
                r.smart_why = Some(format!(
                    "SMART support is unavailable ({v}); behind a RAID controller use `smartctl -d megaraid,N` or the vendor tool"
                ));
            } else if v.starts_with("Disabled") {
                r.smart_why = Some("SMART is disabled on the drive (`smartctl -s on`)".into());
            }
        }
        "Media and Data Integrity Errors" => {
            *signals = true;
            r.protocol = Some("nvme".into());
            r.smart.media_errors = leading_u64(v);
        }
        "Percentage Used" | "Percentage used endurance indicator" => {
            *signals = true;
            r.percentage_used = leading_u64(v);
        }
        "Power On Hours" => r.smart.power_on_hours = leading_u64(v),
        "Elements in grown defect list" => {
            // scsiprint.cpp prints it alone too (`smartctl -a | grep 'grown defect'`).
            *recognised = true;
            *signals = true;
            r.grown_defects = leading_u64(v);
            r.smart.reallocated_sectors = r.grown_defects;
        }
        "Non-medium error count" => {
            *signals = true;
            r.smart.scsi_non_medium_errors = leading_u64(v);
        }
        "ATA Error Count" | "Device Error Count" => {
            *signals = true;
            r.smart.error_log_count = leading_u64(v);
        }
        "Transport protocol" => {
            r.protocol = Some(v.to_ascii_lowercase());
        }
        _ => {
            // "Accumulated power on time, hours:minutes 146:02 [8762 minutes]" (SCSI).
            if let Some(rest) = t.strip_prefix("Accumulated power on time, hours:minutes") {
                r.smart.power_on_hours = leading_u64(rest);
            }
        }
    }
}

/// "512 bytes logical, 4096 bytes physical (offset 512 bytes)" or
/// "512 bytes logical/physical" (smartctl Sector Size(s) line, IDENTIFY words 106/117/209).
fn sector_sizes(r: &mut SmartctlReport, v: &str) {
    if v.contains("logical/physical") {
        let n = leading_u64(v).and_then(|n| u32::try_from(n).ok());
        r.logical_sector_bytes = n;
        r.physical_sector_bytes = n;
        return;
    }
    for part in v.split(',') {
        let p = part.trim();
        let n = leading_u64(p).and_then(|n| u32::try_from(n).ok());
        if p.contains("logical") {
            r.logical_sector_bytes = n;
        } else if p.contains("physical") {
            r.physical_sector_bytes = n;
        }
        if let Some(off) = p.split_once("(offset").map(|(_, o)| o) {
            r.alignment_offset_bytes = leading_u64(off);
        }
    }
    if r.alignment_offset_bytes.is_none() && r.physical_sector_bytes.is_some() {
        r.alignment_offset_bytes = Some(0);
    }
}

#[cfg(test)]
mod raid_tests {
    use super::*;

    #[test]
    fn raid_volume_inquiries() {
        assert!(raid_volume_inquiry(Some("AVAGO"), Some("MR9361-16i")));
        assert!(raid_volume_inquiry(Some("DELL"), Some("PERC H730P Mini")));
        assert!(raid_volume_inquiry(Some("HP"), Some("LOGICAL VOLUME")));
        assert!(raid_volume_inquiry(Some("IBM"), Some("ServeRAID M5015")));
        // IBM also sold drives under its own name: those are no volumes.
        assert!(!raid_volume_inquiry(Some("IBM"), Some("ST300MM0006")));
        assert!(!raid_volume_inquiry(Some("IBM-ESXS"), Some("ST9146803SS")));
        assert!(!raid_volume_inquiry(Some("SEAGATE"), Some("ST1200MM0088")));
        assert!(!raid_volume_inquiry(None, Some("MR9361")));
        // goodcommand.net 2019 (`smartctl -a /dev/sdb` behind an Avago controller): the
        // product repeats the vendor; an expander of the same vendor is no volume.
        assert!(raid_volume_inquiry(Some("AVAGO"), Some("AVAGO")));
        assert!(!raid_volume_inquiry(Some("LSI"), Some("SAS2X36")));
    }

    #[test]
    fn device_statistics_endurance_and_life_attributes() {
        // smartmontools PR 643 (HPE VK000480GXNZA, `smartctl -x`): the Device Statistics
        // page 7 row; pasted alone the section is still smartctl's.
        let t = "Device Statistics (GP Log 0x04)\n\
                 Page  Offset Size        Value Flags Description\n\
                 0x07  =====  =               =  ===  == Solid State Device Statistics (rev 1) ==\n\
                 0x07  0x008  1               3  ---  Percentage Used Endurance Indicator\n";
        let r = parse(t).expect("recognised by its section title");
        assert_eq!(r.smart.percentage_used, Some(3));
        // Life attributes by id and name; WD's 230 counts used, not left; a VALUE below
        // WORST does not track wear.
        assert_eq!(
            life_used_percent(177, "Wear_Leveling_Count", "002", Some("002")),
            Some(98)
        );
        assert_eq!(
            life_used_percent(233, "Media_Wearout_Indicator", "001", None),
            Some(99)
        );
        assert_eq!(
            life_used_percent(230, "Media_Wearout_Indicator", "100", None),
            None
        );
        assert_eq!(
            life_used_percent(231, "SSD_Life_Left", "000", Some("100")),
            None
        );
        assert_eq!(
            life_used_percent(169, "Remaining_Lifetime_Perc", "---", None),
            None
        );
    }

    #[test]
    fn a_second_information_section_is_a_second_drive() {
        // Two `smartctl -i` sections pasted one after the other, the second without its
        // banner (lore.kernel.org linux-pci, August 2023, shape as posted).
        let one = "=== START OF INFORMATION SECTION ===\nDevice Model:     A\nUser Capacity:    1 bytes\nRotation Rate:    Solid State Device\nSATA Version is:  SATA 3.3, 6.0 Gb/s (current: 1.5 Gb/s)\n";
        let st = spec::BlockState {
            rows: 5,
            ..Default::default()
        };
        assert_eq!(
            text_member("=== START OF INFORMATION SECTION ===", &st),
            spec::Member::NewBlock
        );
        let fresh = spec::BlockState::default();
        assert_eq!(
            text_member("=== START OF INFORMATION SECTION ===", &fresh),
            spec::Member::Yes
        );
        assert!(parse(one).is_some());
    }

    #[test]
    fn attribute_rows_without_their_header_still_count() {
        // FastVPSEestiOu/storage-system-monitoring#10: two rows kept out of a report.
        let t = "5 Reallocated_Sector_Ct   0x0033   094   094   036    Pre-fail  Always       -       8256\n\n\
                 9 Power_On_Hours          0x0032   078   078   000    Old_age   Always       -       19436\n";
        let r = parse(t).expect("recognised by its rows");
        assert!(r.has_smart_data);
        assert_eq!(r.smart.reallocated_sectors, Some(8256));
        // A line that only looks numeric is not a row.
        assert!(parse("5 apples 0x0033 are not a row\n").is_none());
    }

    #[test]
    fn self_test_logs_count_their_failures() {
        // ATA (ataprint.cpp ataPrintSmartSelfTestEntry), newest first: a failure counts
        // unless a newer extended test passed; under the banner of smartctl 5.x
        // ("smartctl version 5.37 [...]") or 6.x and later, or with no banner at all.
        let row = |n: u32, test: &str, status: &str, hours: u32, lba: &str| {
            format!("#{n:>2}  {test:<19} {status:<29} 90%  {hours:>8}         {lba}\n")
        };
        let head = "SMART Self-test log structure revision number 1\n\
                    Num  Test_Description    Status                  Remaining  LifeTime(hours)  LBA_of_first_error\n";
        let failed = |banner: &str, rows: &str| {
            parse(&format!("{banner}{head}{rows}"))
                .unwrap_or_else(|| panic!("not recognised: {banner}"))
                .smart
                .self_test_errors
        };
        let reads = row(
            1,
            "Short offline",
            "Completed: read failure",
            3828,
            "123590136",
        ) + &row(
            2,
            "Extended offline",
            "Completed: read failure",
            3825,
            "0x001f807f",
        ) + &row(3, "Short offline", "Completed without error", 26, "-");
        for banner in [
            "",
            "smartctl version 5.37 [powerpc-unknown-linux-gnu] Copyright (C) 2002-6 Bruce Allen\n\n=== START OF READ SMART DATA SECTION ===\n",
            "smartctl 7.4 2023-08-01 r5530 [x86_64-linux-6.8.0] (local build)\n\n=== START OF READ SMART DATA SECTION ===\n",
        ] {
            assert_eq!(failed(banner, &reads), Some(2), "{banner}");
        }
        for status in [
            "Completed: servo/seek failure",
            "Completed: electrical failure",
            "Completed: unknown failure",
            "Completed: handling damage??",
            "Fatal or unknown error",
        ] {
            let r = row(1, "Conveyance offline", status, 100, "-");
            assert_eq!(failed("", &r), Some(1), "{status}");
        }
        // A newer extended test that passed outdates the older failures (smartctl's own
        // count); a short one does not.
        let outdated = row(1, "Extended offline", "Completed without error", 4000, "-")
            + &row(
                2,
                "Short offline",
                "Completed: read failure",
                3828,
                "123590136",
            );
        assert_eq!(failed("", &outdated), Some(0));
        let short_pass = row(1, "Short offline", "Completed without error", 4000, "-")
            + &row(
                2,
                "Short offline",
                "Completed: read failure",
                3828,
                "123590136",
            );
        assert_eq!(failed("", &short_pass), Some(1));
        let clean = row(1, "Short offline", "Completed without error", 26, "-")
            + &row(2, "Short offline", "Aborted by host", 25, "-")
            + &row(3, "Short offline", "Interrupted (host reset)", 24, "-");
        assert_eq!(failed("", &clean), Some(0));
        // smartctl -x prints the traditional log and GP log 0x07 with the same entries:
        // counted once.
        let twice = format!(
            "{head}{reads}\nSMART Extended Self-test Log Version: 1 (1 sectors)\n\
             Num  Test_Description    Status                  Remaining  LifeTime(hours)  LBA_of_first_error\n{reads}"
        );
        let r = parse(&twice).unwrap_or_else(|| panic!("not recognised"));
        assert_eq!(r.smart.self_test_errors, Some(2));
        // SCSI (scsiprint.cpp self_test_result): "Failed in segment -->" and kin.
        let scsi = "SMART Self-test log\n\
                    Num  Test              Status                 segment  LifeTime  LBA_first_err [SK ASC ASQ]\n\
                    \x20    Description                              number   (hours)\n\
                    # 1  Background long   Failed in segment -->       3      12345        0x1a2b3c [0x3 0x11 0x0]\n\
                    # 2  Background short  Completed                   -      12300                 - [-   -    -]\n";
        let r = parse(scsi).unwrap_or_else(|| panic!("not recognised"));
        assert_eq!(r.smart.self_test_errors, Some(1));
        // Without a log, nothing is claimed.
        let none = parse("SMART overall-health self-assessment test result: PASSED\n")
            .unwrap_or_else(|| panic!("not recognised"));
        assert_eq!(none.smart.self_test_errors, None);
    }

    #[test]
    fn json_self_test_logs_count_what_smartctl_counts() {
        let j = r#"{"smartctl":{"version":[7,4]},"ata_smart_self_test_log":{"standard":{"revision":1,"count":3,"error_count_total":2,"error_count_outdated":1}}}"#;
        let r = parse(j).unwrap_or_else(|| panic!("not recognised"));
        assert_eq!(r.smart.self_test_errors, Some(1));
    }

    #[test]
    fn error_log_entries_count_their_unc_errors() {
        // Napsty/check_smart#102 (summary form) and smartmontools#11 (extended form).
        let t = "Error 16 occurred at disk power-on lifetime: 9377 hours (390 days + 17 hours)\n\
                 \x20 40 51 c0 b0 92 94 40  Error: UNC at LBA = 0x009492b0 = 9736880\n\
                 Error 484 [3] occurred at disk power-on lifetime: 12634 hours (526 days + 10 hours)\n\
                 \x20 40 -- 51 00 02 00 00 00 0f 24 40 00 00  Error: UNC 2 sectors at LBA = 0x000f2440 = 992320\n\
                 Error 2 occurred at disk power-on lifetime: 10 hours (0 days + 10 hours)\n\
                 \x20 84 51 00 00 00 00 a0  Error: ICRC, ABRT at LBA = 0x00000000 = 0\n";
        let r = parse(t).unwrap_or_else(|| panic!("not recognised"));
        assert_eq!(r.smart.error_log_unc, Some(2));
        // The newest UNC entry's lifetime, whatever the order (the ICRC entry is no UNC).
        assert_eq!(r.smart.error_log_unc_last_hours, Some(12634));
        assert!(r.has_smart_data);
        let none =
            parse("SMART overall-health self-assessment test result: PASSED\nNo Errors Logged\n")
                .unwrap_or_else(|| panic!("not recognised"));
        assert_eq!(none.smart.error_log_unc, None);
        assert_eq!(none.smart.error_log_count, Some(0));
    }

    #[test]
    fn usb_bridges_from_json_device_type_and_text() {
        let json = r#"{"device": {"name": "/dev/sda", "type": "sntasmedia", "protocol": "NVMe"},
                       "model_name": "Samsung Portable SSD T7", "smart_status": {"passed": true}}"#;
        let mut d = DiskFacts::new("sda", "/dev/sda");
        apply(&mut d, "cmd:smartctl -j -a /dev/sda", json);
        assert_eq!(d.transport.get(), Some(Transport::Usb));
        let sat = json.replace("sntasmedia", "sat");
        let mut d = DiskFacts::new("sda", "/dev/sda");
        apply(&mut d, "cmd:smartctl -j -a /dev/sda", &sat);
        assert!(
            !d.transport.is_known(),
            "sat alone is also SAS HBAs and RAID pass-through"
        );
        assert!(is_usb_device_type("usbjmicron") && !is_usb_device_type("megaraid,0"));
    }
}

// ---- the source specs (see sources::spec) ----
use crate::sources::spec;

// An NVMe health log can be pasted alone, from its "SMART/Health Information (NVMe Log
// 0x02)" title on (smartctl's nvmeprint.cpp print_smart_log), and so can entries of the
// ATA error log ("Error 16 occurred at disk power-on lifetime: ...", ataprint.cpp).
crate::rx!(
    SMART_START,
    r"^(smartctl (version )?\d+\.\d+ |=== START OF [A-Z][A-Z /-]+ SECTION ===|SMART Self-test log structure revision number \d|SMART Extended Self-test Log Version: \d|SMART/Health Information \(NVMe Log |Error \d+ (\[\d+\] )?occurred at disk power-on lifetime: |SMART (Extended Comprehensive )?Error Log Version: |SATA Phy Event Counters \(GP Log 0x11\)|Device Statistics \((?:GP|SMART) Log 0x04\)|(Device Model|Model Family|Model Number|User Capacity|Sector Sizes?|Rotation Rate|SATA Version is|SMART overall-health self-assessment test result|SMART Health Status|Smartctl open device|Total NVM Capacity|Namespace 1 Formatted LBA Size|Writeback Cache is|Logical block size|LU is fully provisioned|Elements in grown defect list):|Supported Power States\s*$|Warning  Comp\. Temp\. Threshold:)"
);
crate::rx!(
    // One row of smartctl's attribute table pasted without its header ("5
    // Reallocated_Sector_Ct 0x0033 094 094 036 Pre-fail Always - 8256"): a report cut down
    // to the rows the poster found interesting.
    SMART_ATTR_ROW,
    r"^\s*\d{1,3}\s+[A-Za-z][\w-]*\s+0x[0-9a-fA-F]{4}\s+\d{1,3}\s+\d{1,3}\s+[\d-]{1,3}\s+(Pre-fail|Old_age)(\s+(Always|Offline))?(\s+\S+)?(\s+\d.*)?\s*$"
);
crate::rx!(
    // A row of the brief attribute table of `smartctl -x` (ataprint.cpp
    // PrintSmartAttribWithThres, brief format): the FLAGS column spells the flag bits as
    // letters, P prefailure, O updated online, S performance, R error rate, C event count,
    // K auto-keep, '-' for a bit that is clear; FAIL is "-", "NOW" or "Past"
    // ("197 Current_Pending_Sector -O--C- 100 100 000 - 8").
    SMART_BRIEF_ROW,
    r"^\s*\d{1,3}\s+[A-Za-z][\w-]*\s+[P-][O-][S-][R-][C-][K-]\+?\s+\d{1,3}\s+\d{1,3}\s+[\d-]{1,3}\s+(-|NOW|Past)\s+\d.*$"
);
crate::rx!(
    SMART_MEMBER,
    r"^([A-Z][\w /().,#+-]{1,60}:(\s|$)|===|\s|ID#|Copyright \(C\)|Num\s|Index\s|No Errors Logged|No self-tests|SMART |ATA Error Count|Error \d+ |Supported Power States|Supported LBA Sizes|Id\s+Fmt|Vendor|Product|Revision|Compliance|User Capacity|Logical|Rotation|Form Factor|Device|Serial|LU WWN|Firmware|Local Time|Read|Write|Verify|Non-medium|Elements|Current|Specified|Accumulated|Manufactured|Blocks|Percentage|General Purpose|Address|Page|Pending|Device Statistics|Flags|SCT|Temperature|Phy|SATA Phy|Interval|Min/Max|Lifetime|Under/Over|Power|Unsafe|Media|Error|Warning|Critical|Available|Data Units|Host|Controller|\d+\s+\S+\s+0x[0-9a-f]{4}\s|0x[0-9a-f]{2}\s|\d+\s+[\w-]+\s+\d|ID\s+Size\s+Value|0x[0-9a-f]{4}\s+\d+\s+\d+\s)"
);
crate::rx!(SMART_JSON_DEV, r#""name"\s*:\s*"(/dev/[^"]+)""#);
// A few lines of the NVMe health log cut out of a report (nvmeprint.cpp print_smart_log's
// labels, each "%-33s" padded, then the value): "Media and Data Integrity Errors:    0",
// "Warning  Comp. Temperature Time:    0". Only the labels no other tool prints start an
// excerpt, and only with a second health line after them.
crate::rx!(
    NVME_HEALTH_START,
    r"^\s*(Critical Warning|Available Spare Threshold|Percentage Used|Unsafe Shutdowns|Media and Data Integrity Errors|Error Information Log Entries|Warning  Comp\. Temperature Time|Critical Comp\. Temperature Time):\s+(0x)?[\d,]+"
);
crate::rx!(
    NVME_HEALTH_LINE,
    r"^\s*(Critical Warning|Temperature|Available Spare|Available Spare Threshold|Percentage Used|Data Units (Read|Written)|Host (Read|Write) Commands|Controller Busy Time|Power Cycles|Power On Hours|Unsafe Shutdowns|Media and Data Integrity Errors|Error Information Log Entries|Warning  Comp\. Temperature Time|Critical Comp\. Temperature Time|Temperature Sensor \d+|Thermal Temp\. \d+ (Transition Count|Total Time)):\s+\S"
);

// The self-test log's column header, pasted without the section line above it: ATA
// (ataprint.cpp ataPrintSelfTestlog: "Num  Test_Description    Status                  Remaining
// LifeTime(hours)  LBA_of_first_error") and NVMe (nvmeprint.cpp print_self_test_log: "Num
// Test_Description  Status                       Power_on_Hours  Failing_LBA  NSID Seg SCT
// Code"); then a row: ATA "# 1  Extended offline    Completed without error ...", NVMe
// " 0   Extended          Completed without error ...".
crate::rx!(
    SELF_TEST_HEADER,
    r"^\s*Num\s+Test_Description\s+Status\s+(Remaining\s+LifeTime\(hours\)|Power_on_Hours\s+Failing_LBA)"
);
crate::rx!(
    SELF_TEST_ROW,
    r"^\s*#?\s*\d{1,2}\s+(Short|Extended|Conveyance|Selective|Offline|Vendor|Background|Foreground|Default|Abort)\S*\s"
);

/// A self-test log pasted from its column header: the header and a test row under it.
fn self_test_log_excerpt(lines: &[&str]) -> spec::Start {
    first_then_next(
        lines,
        |t| SELF_TEST_HEADER.is_match(t),
        |t| SELF_TEST_ROW.is_match(t),
    )
}

/// A start made of a first line and the next non-blank one, each cleaned of markup.
fn first_then_next(
    lines: &[&str],
    first: impl Fn(&str) -> bool,
    next: impl Fn(&str) -> bool,
) -> spec::Start {
    let clean = |t: &str| crate::sources::util::clean_line(t);
    spec::Start::from(
        lines.first().is_some_and(|t| first(&clean(t)))
            && spec::next_nonblank(lines, 1, 1)
                .and_then(|n| lines.get(n))
                .is_some_and(|t| next(&clean(t))),
    )
}

/// An excerpt of the NVMe health log: a distinctive health line followed by another.
fn nvme_health_excerpt(lines: &[&str]) -> spec::Start {
    let clean = |t: &str| crate::sources::util::clean_line(t);
    spec::Start::from(
        lines
            .first()
            .is_some_and(|t| NVME_HEALTH_START.is_match(&clean(t)))
            && lines
                .get(1)
                .is_some_and(|t| NVME_HEALTH_LINE.is_match(&clean(t))),
    )
}

// smartctl's answer when it cannot tell how to reach the drive behind a USB bridge
// (smartctl.cpp main_worker: "%s: %s\n" with the device and the open error, then "Please
// specify device type with the -d option." and UsageSummary's "Use smartctl -h to get a
// usage summary"); dev_interface.cpp get_usb_dev_type_by_id sets that error to "Unknown USB
// bridge [0x059f:0x1010 (0xc683)]" (a USB ID not in drivedb.h) or "Unsupported USB bridge
// [...]" (one listed as unsupported). Only a USB device reaches that lookup.
crate::rx!(
    USB_BRIDGE_ERROR,
    r"^\s*/dev/[\w/.-]+: Uns?(?:known|upported) USB bridge \[0x[0-9a-fA-F]{4}:0x[0-9a-fA-F]{4}"
);

/// smartctl's refusal of a drive behind an unknown USB bridge ([`USB_BRIDGE_ERROR`]): the
/// error line, then its request for `-d TYPE` on the next non-blank line.
fn usb_bridge_error(lines: &[&str]) -> spec::Start {
    first_then_next(
        lines,
        |t| USB_BRIDGE_ERROR.is_match(t),
        is_device_type_request,
    )
}

fn is_device_type_request(t: &str) -> bool {
    let t = t.trim();
    t.starts_with("Please specify device type with the -d option")
        || t.starts_with("Use smartctl -h to get a usage summary")
}

fn text_member(t: &str, st: &spec::BlockState) -> spec::Member {
    if t.starts_with("smartctl ") && SMART_START.is_match(t) && st.rows > 3 {
        return spec::Member::NewBlock;
    }
    // A second drive's report pasted after the first without its banner: smartctl prints
    // one INFORMATION SECTION per run (smartctl.cpp), so another one is another run.
    if t.trim() == "=== START OF INFORMATION SECTION ===" && st.rows > 3 {
        return spec::Member::NewBlock;
    }
    let tt = t.trim();
    spec::Member::from(
        SMART_START.is_match(t)
            || SMART_MEMBER.is_match(t)
            || SMART_ATTR_ROW.is_match(t)
            || SMART_BRIEF_ROW.is_match(t)
            || USB_BRIDGE_ERROR.is_match(t)
            || is_device_type_request(t)
            || tt == "..."
            // The reasons under an NVMe drive's "FAILED!" (nvmeprint.cpp).
            || crate::sources::nvme_smart::is_warning_reason(tt)
            // The tail of a row a mail client wrapped onto its own line ("-       8256",
            // "Always       -       65").
            || (!tt.is_empty()
                && tt.len() <= 40
                && (tt.starts_with(|c: char| c.is_ascii_digit() || c == '-')
                    || tt.starts_with("Always")
                    || tt.starts_with("Offline"))
                && !t.contains(':'))
            || t.starts_with('#'),
    )
}

static TEXT: spec::Recogniser = spec::Recogniser {
    name: "smartctl",
    starts: &[
        (140, |l| {
            spec::on_first(l, |t| {
                SMART_START.is_match(t) || SMART_ATTR_ROW.is_match(t) || SMART_BRIEF_ROW.is_match(t)
            })
        }),
        (141, nvme_health_excerpt),
        (142, self_test_log_excerpt),
        (143, usb_bridge_error),
    ],
    member: text_member,
    tolerance: (3, 3),
    permissive: true,
    // smartctl -x of an NVMe drive prints the error information log as a section of its
    // own report (nvmeprint.cpp print_error_log); the table alone is nvme-error-log's.
    absorbs: Some(|other, _| other == "nvme-error-log"),
    classify: |_, _| "smartctl",
    ..spec::Recogniser::NONE
};

/// Both probes run `smartctl -j -a /dev/X` (NVMe: the controller node, /dev/nvme0); the
/// parser reads JSON and falls back to text, so pasted text is stored under the same key.
/// smartctl(8): -j JSON output, -a all SMART and identity information.
pub const CAPTURE_ARGV: &[&str] = &["smartctl", "-j", "-a", "{dev}"];
const LIVE: &[spec::Live] = &[spec::Live::Cmd(CAPTURE_ARGV)];

/// The key (and argv) of the probes' SMART capture of `device`, a kernel name with or
/// without /dev/: `capture_key("sda")` is "cmd:smartctl -j -a /dev/sda".
pub fn capture_key(device: &str) -> crate::evidence::SourceKey {
    let disk = device.trim_start_matches("/dev/");
    crate::evidence::SourceKey::Command(
        CAPTURE_ARGV
            .iter()
            .map(|a| crate::evidence::fill_template(a, disk))
            .collect(),
    )
}
/// Whether a capture key (lower-cased) is one of smartctl's: the probe's `-j -a`, a pasted
/// `-x`, `-a` or `-i`. smartctl reads the drive's IDENTIFY data, so an offset of LBA 0 it
/// shows is the drive's (ACS word 209), which runs the other way from the kernel's.
pub fn names_key(key: &str) -> bool {
    key.contains("smartctl")
}
/// `smartctl -x /dev/X`: the extended text report users paste (no probe runs it).
#[cfg(any(test, feature = "testutil"))]
pub const EXTENDED: spec::Live = spec::Live::Cmd(&["smartctl", "-x", "{dev}"]);
const PASTED_AS: Option<spec::Live> = Some(spec::Live::Cmd(CAPTURE_ARGV));

/// smartctl(8) -a/-x text: serials, WWNs (ATA "LU WWN Device Id", SCSI "Logical Unit id",
/// NVMe "IEEE EUI-64"), SAS addresses.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    live: LIVE,
    pasted_as: PASTED_AS,
    parse: Some(|t| usize::from(parse(t).is_some())),
    secrets: &[
        spec::Secret::After("lu wwn device id", spec::SecretKind::Wwn),
        spec::Secret::After("logical unit id", spec::SecretKind::Wwn),
        spec::Secret::After("ieee eui-64", spec::SecretKind::Wwn),
        spec::Secret::After("sas address", spec::SecretKind::Wwn),
        spec::Secret::After("serial number", spec::SecretKind::Serial),
    ],
    paste: Some(spec::Paste {
        one_drive: true,
        flat: &[FLAT],
        ..spec::Paste::new(&TEXT, |p, _| p == "smartctl")
    }),
    programs: &[spec::Program::new("smartctl", spec::flags_or_node)],
    mention: Some(r"smartctl(?:\s+-[\w,-]+)*"),
    // smartctl(8): -a all SMART information, -x all of it plus the extended logs (SATA
    // phy counters, the GP error log), -i identity (the "SATA Version is:" line), -c the
    // capabilities with the self-test durations, -t long the extended self-test, -d sat
    // the SCSI-to-ATA translation of USB bridges, -d megaraid,N drive N behind an LSI
    // MegaRAID controller.
    asks: &[
        (spec::Ask::SmartProgram, "smartctl"),
        (spec::Ask::SmartReport, "smartctl -a {dev}"),
        (spec::Ask::SmartJson, "smartctl -j -a {dev}"),
        (spec::Ask::SmartExtended, "smartctl -x {dev}"),
        (spec::Ask::SmartSataLine, "smartctl -i {dev} | grep SATA"),
        (spec::Ask::SmartLongTest, "smartctl -t long {dev}"),
        (spec::Ask::SmartTestTimes, "smartctl -c"),
        (spec::Ask::SmartSatReport, "smartctl -d sat -a {dev}"),
        (spec::Ask::SmartSatOption, "smartctl -d sat"),
        (spec::Ask::SmartSatIdentity, "smartctl -d sat -i {dev}"),
        (spec::Ask::SmartMegaraidOption, "smartctl -d megaraid,N"),
        (
            spec::Ask::SmartMegaraidReport,
            "smartctl -a -d megaraid,N {dev}",
        ),
    ],
    ..spec::SourceSpec::named("smartctl", "smartctl")
};

/// The line starts of smartctl's text report (smartctl.cpp print_smartctl_header: the
/// banner "smartctl 7.3 2022-02-28 r5338 ..." or, before 5.37, "smartctl version 5.33";
/// ataprint.cpp print_drive_info, PrintSmartAttribWithThres and its brief "-x" form with
/// the flags column "PO--CK"; scsiprint.cpp's "Elements in grown defect list:"; nvmeprint.cpp's
/// health lines), as web pages that lost the newlines run them together.
const FLAT: spec::Flat = spec::Flat {
    starts: &[
        r"\b(smartctl\s+(?:version\s+)?\d+\.\d+\s)",
        r"\b(Copyright\s+\(C\)\s+\d{4})",
        r"\b(Home\s+page\s+is\s)",
        r"(===\s+START\s+OF\s)",
        r"\b((?:Model\s+Family|Device\s+Model|Model\s+Number|Serial\s+Number|LU\s+WWN\s+Device\s+Id|Firmware\s+Version|User\s+Capacity|Total\s+NVM\s+Capacity|Sector\s+Sizes?|Rotation\s+Rate|Form\s+Factor|Device\s+is|ATA\s+Version\s+is|SATA\s+Version\s+is|Local\s+Time\s+is|SMART\s+support\s+is|SMART\s+overall-health\s+self-assessment\s+test\s+result|SMART\s+Health\s+Status|General\s+SMART\s+Values|SMART\s+Attributes\s+Data\s+Structure\s+revision\s+number|Vendor\s+Specific\s+SMART\s+Attributes\s+with\s+Thresholds|Elements\s+in\s+grown\s+defect\s+list|Offline\s+data\s+collection\s+status|Self-test\s+execution\s+status|SMART\s+Error\s+Log\s+Version|SMART\s+Self-test\s+log\s+structure\s+revision\s+number|Critical\s+Warning|Percentage\s+Used|Media\s+and\s+Data\s+Integrity\s+Errors|Available\s+Spare):)",
        r"\b(ID\#\s+ATTRIBUTE_NAME\s)",
        // An attribute row: id, name, flags (hex or the brief letters), three 3-digit values.
        r"(?:^|\s)(\d{1,3}\s+[A-Za-z][\w/.-]*\s+(?:0x[0-9a-fA-F]{4}|[-POSRCK]{6})\s+\d{3}\s+\d{3}\s+(?:\d{3}|---)\s)",
    ],
    need: r"smartctl\s+(?:version\s+)?\d+\.\d+|===\s+START\s+OF|ID\#\s+ATTRIBUTE_NAME|\d\s+[A-Za-z][\w/.-]*\s+(?:0x[0-9a-fA-F]{4}|[-POSRCK]{6})\s+\d{3}\s+\d{3}\s",
    min: 3,
};

/// smartctl -j: `serial_number`, `wwn` (an object of numbers, see report::redact), `eui64`.
pub const JSON_SPEC: spec::SourceSpec = spec::SourceSpec {
    live: LIVE,
    pasted_as: PASTED_AS,
    parse: Some(|t| usize::from(parse(t).is_some())),
    secrets: &[
        spec::Secret::After("\"serial_number\"", spec::SecretKind::Serial),
        spec::Secret::After("\"wwn\"", spec::SecretKind::Wwn),
        spec::Secret::JsonKey("serial_number", spec::SecretKind::Serial),
        spec::Secret::JsonKey("wwn", spec::SecretKind::Wwn),
        spec::Secret::JsonKey("eui64", spec::SecretKind::Wwn),
    ],
    paste: Some(spec::Paste {
        device: Some(|text| {
            SMART_JSON_DEV
                .captures(text)
                .and_then(|c| c.get(1))
                .map(|m| spec::strip_dev(m.as_str()))
        }),
        one_drive: true,
        ..spec::Paste::new(&super::json_doc::JSON, |p, _| p == "smartctl")
    }),
    ..spec::SourceSpec::named("smartctl-json", "smartctl -j")
};

#[cfg(test)]
mod tests;
