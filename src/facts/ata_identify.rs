//! ATA IDENTIFY DEVICE data (256 little-endian words), as Linux exposes it in
//! /sys/class/ata_device/devX.Y/id and as camcontrol/hdparm describe it.
//! Word numbers follow ATA/ACS-3 (T13/2161-D) section 7.12.7.

use serde::{Deserialize, Serialize};

/// The IDENTIFY fields diskdoc uses, decoded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct AtaIdentify {
    pub model: Option<String>,
    pub serial: Option<String>,
    pub firmware: Option<String>,
    /// Word 75 bits 4:0 + 1: maximum queue depth.
    pub queue_depth: Option<u32>,
    /// Word 76 bit 8: NCQ supported.
    pub ncq_supported: Option<bool>,
    /// Word 76 bits 3:1: highest supported SATA generation as Gb/s.
    pub sata_max_gbps: Option<f64>,
    /// Word 77 bits 3:1: current negotiated speed as Gb/s.
    pub sata_current_gbps: Option<f64>,
    /// Word 82 bit 5 / word 85 bit 5: volatile write cache supported / enabled.
    pub write_cache_supported: Option<bool>,
    pub write_cache_enabled: Option<bool>,
    /// Words 106, 117-118: logical and physical sector sizes.
    pub logical_sector_bytes: Option<u32>,
    pub physical_sector_bytes: Option<u32>,
    /// Word 209: offset of LBA 0 within the first physical sector, bytes.
    pub lba0_offset_bytes: Option<u32>,
    /// Word 217: 1 = non-rotating, 0401h-FFFEh = rpm.
    pub rotation_rpm: Option<u32>,
    /// Word 222: transport major version ("SATA 3.1", "PATA").
    pub transport: Option<String>,
    /// Word 169 bit 0: DATA SET MANAGEMENT (TRIM) supported.
    pub trim_supported: Option<bool>,
}

/// Parse Linux's /sys/class/ata_device/devX.Y/id (256 words printed as hex, 8 per line).
/// None when the text does not hold 256 words.
pub fn parse_sysfs_id(_text: &str) -> Option<AtaIdentify> {
    None
}
