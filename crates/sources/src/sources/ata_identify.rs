//! ATA IDENTIFY DEVICE data (256 little-endian words), as Linux exposes it in
//! /sys/class/ata_device/devX.Y/id and as camcontrol/hdparm describe it.
//! Word numbers follow ATA/ACS-3 (T13/2161-D) section 7.12.7 ("IDENTIFY DEVICE data").

// The decoded form lives in the model (a disk's facts hold it); this module decodes into it.
pub use crate::model::AtaIdentify;

/// Number of words in IDENTIFY DEVICE data (512 bytes).
pub const WORDS: usize = 256;

/// Parse Linux's /sys/class/ata_device/devX.Y/id (256 words printed as 4-digit hex, 8 per
/// line; drivers/ata/libata-transport.c). Whitespace and line wrapping are not trusted: any
/// run of whitespace separates words. None when the text does not hold exactly 256 words.
pub fn parse_sysfs_id(text: &str) -> Option<AtaIdentify> {
    let words: Option<Vec<u16>> = text
        .split_whitespace()
        .map(|w| u16::from_str_radix(w, 16).ok())
        .collect();
    let words = words?;
    if words.len() != WORDS {
        return None;
    }
    from_words(&words)
}

/// Decode IDENTIFY words (host order). None when fewer than 256 words are given or the
/// block is all zeros / all ones (no device answered).
pub fn from_words(w: &[u16]) -> Option<AtaIdentify> {
    if w.len() < WORDS {
        return None;
    }
    if w.iter().all(|&x| x == 0) || w.iter().all(|&x| x == 0xFFFF) {
        return None;
    }
    let word = |i: usize| w.get(i).copied().unwrap_or(0);
    // Many "optional" words use 0000h and FFFFh for "not reported".
    let reported = |v: u16| v != 0 && v != 0xFFFF;
    // Words 83 and 87 bits 15:14 = 01b validate words 82-84 and 85-87 (ACS-3 7.12.7.41,
    // 7.12.7.44): older drives that never filled them leave garbage there.
    let valid_8284 = word(83) & 0xC000 == 0x4000;
    let valid_8587 = word(87) & 0xC000 == 0x4000;

    let mut id = AtaIdentify {
        // Words 10-19: serial number, 20 ASCII chars; 23-26: firmware revision, 8 chars;
        // 27-46: model number, 40 chars (ACS-3 7.12.7.10/.13/.14). Each word holds two
        // characters, the first in the high byte.
        serial: ata_string(w.get(10..20)),
        firmware: ata_string(w.get(23..27)),
        model: ata_string(w.get(27..47)),
        ..Default::default()
    };

    // Word 76 (SATA capabilities): 0000h/FFFFh = not a SATA device or not reported (QEMU's
    // IDE drive reports 0). Bit 0 shall be zero; bits 1,2,3 = Gen1/2/3 supported; bit 8 NCQ.
    let w76 = word(76);
    if reported(w76) && w76 & 1 == 0 {
        id.sata_max_gbps = if w76 & (1 << 3) != 0 {
            Some(6.0)
        } else if w76 & (1 << 2) != 0 {
            Some(3.0)
        } else if w76 & (1 << 1) != 0 {
            Some(1.5)
        } else {
            None
        };
        id.ncq_supported = Some(w76 & (1 << 8) != 0);
        // Word 75 bits 4:0: maximum queue depth - 1; meaningful only with NCQ support.
        if w76 & (1 << 8) != 0 {
            id.queue_depth = Some(u32::from(word(75) & 0x1F) + 1);
        }
        // Word 77 bits 3:1: coded current negotiated speed (ACS-3 7.12.7.38; SATA 3.x).
        let w77 = word(77);
        if reported(w77) {
            id.sata_current_gbps = match (w77 >> 1) & 0x7 {
                1 => Some(1.5),
                2 => Some(3.0),
                3 => Some(6.0),
                _ => None,
            };
        }
    }

    // Words 82 bit 5 / 85 bit 5: volatile write cache supported / enabled.
    if valid_8284 && reported(word(82)) {
        id.write_cache_supported = Some(word(82) & (1 << 5) != 0);
    }
    if valid_8587 && reported(word(85)) {
        id.write_cache_enabled = Some(word(85) & (1 << 5) != 0);
    }

    // Word 106 (physical/logical sector size), valid when bit 14 = 1 and bit 15 = 0.
    // Bit 12: logical sector longer than 256 words, size in words 117-118 (in words, low
    // word first). Bit 13: several logical sectors per physical, 2^(bits 3:0) of them.
    let w106 = word(106);
    if w106 & 0xC000 == 0x4000 {
        let logical: u32 = if w106 & (1 << 12) != 0 {
            let words = u32::from(word(117)) | (u32::from(word(118)) << 16);
            words.saturating_mul(2)
        } else {
            512
        };
        if logical >= 512 {
            id.logical_sector_bytes = Some(logical);
            let ratio_log2 = if w106 & (1 << 13) != 0 {
                u32::from(w106 & 0xF)
            } else {
                0
            };
            id.physical_sector_bytes = logical.checked_shl(ratio_log2);
            // Word 209 (alignment of logical blocks within a physical block), valid when
            // bit 15 = 0 and bit 14 = 1; bits 13:0 = logical sector offset of LBA 0.
            let w209 = word(209);
            if w209 & 0xC000 == 0x4000 {
                id.lba0_offset_bytes = Some(u32::from(w209 & 0x3FFF).saturating_mul(logical));
            }
        }
    }

    // Word 217 (nominal media rotation rate): 0000h not reported, 0001h non-rotating
    // (solid state), 0401h-FFFEh rpm, others reserved.
    id.rotation_rpm = match word(217) {
        1 => Some(0),
        r @ 0x0401..=0xFFFE => Some(u32::from(r)),
        _ => None,
    };

    // Word 169 bit 0: DATA SET MANAGEMENT command (TRIM) supported.
    let w169 = word(169);
    if w169 != 0xFFFF {
        id.trim_supported = Some(w169 & 1 != 0);
    }

    // Words 83/86 bit 3: Advanced Power Management supported / enabled (ACS-3 7.12.7.41,
    // 7.12.7.44); word 91 bits 7:0 the current level (7.12.7.48), as hdparm -B reads it.
    if valid_8284 && word(83) & 0x0008 != 0 {
        id.apm_level = Some(if word(86) & 0x0008 != 0 {
            Some(u32::from(word(91) & 0xff)).filter(|l| *l > 0)
        } else {
            None
        });
    }

    // Word 222 (transport major version): bits 15:12 type (0 parallel, 1 serial), the
    // highest set bit of 11:0 the newest version supported. 0000h/FFFFh not reported.
    let w222 = word(222);
    if reported(w222) {
        let versions = w222 & 0x0FFF;
        let top = (0..12).rev().find(|b| versions & (1 << b) != 0);
        id.transport = match w222 >> 12 {
            0 => Some(match top {
                Some(0) => "PATA ATA8-APT".to_string(),
                Some(1) => "PATA ATA/ATAPI-7".to_string(),
                _ => "PATA".to_string(),
            }),
            1 => Some(match top {
                Some(0) => "SATA ATA8-AST".to_string(),
                Some(1) => "SATA 1.0a".to_string(),
                Some(2) => "SATA II Extensions".to_string(),
                Some(3) => "SATA 2.5".to_string(),
                Some(4) => "SATA 2.6".to_string(),
                Some(5) => "SATA 3.0".to_string(),
                Some(6) => "SATA 3.1".to_string(),
                Some(7) => "SATA 3.2".to_string(),
                Some(8) => "SATA 3.3".to_string(),
                Some(9) => "SATA 3.4".to_string(),
                Some(10) => "SATA 3.5".to_string(),
                _ => "SATA".to_string(),
            }),
            0xE => Some("PCIe".to_string()),
            _ => None,
        };
    }
    Some(id)
}

/// Decode an ATA string: two characters per word, high byte first; trailing spaces and
/// NULs padding. Non-printable bytes (firmware garbage) become '?'. None when empty.
fn ata_string(words: Option<&[u16]>) -> Option<String> {
    let mut s = String::new();
    for &w in words? {
        for b in [(w >> 8) as u8, (w & 0xFF) as u8] {
            s.push(if b.is_ascii_graphic() || b == b' ' {
                b as char
            } else if b == 0 {
                ' '
            } else {
                '?'
            });
        }
    }
    let t = s.trim();
    if t.is_empty() {
        None
    } else {
        Some(t.to_string())
    }
}

/// Encode a string the way IDENTIFY stores it (for tests and hand-made bundles).
pub fn encode_string(text: &str, words: usize) -> Vec<u16> {
    let mut bytes: Vec<u8> = text.bytes().take(words * 2).collect();
    bytes.resize(words * 2, b' ');
    bytes
        .chunks(2)
        .map(|c| {
            (u16::from(c.first().copied().unwrap_or(b' ')) << 8)
                | u16::from(c.get(1).copied().unwrap_or(b' '))
        })
        .collect()
}

/// Format words the way Linux prints the sysfs `id` attribute (8 per line).
pub fn format_sysfs_id(w: &[u16]) -> String {
    let mut s = String::new();
    for (i, x) in w.iter().enumerate() {
        s.push_str(&format!("{x:04x}"));
        s.push(if (i + 1) % 8 == 0 { '\n' } else { ' ' });
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A SATA 6 Gb/s SSD: NCQ depth 32, write cache on, 512e, TRIM, SATA 3.2.
    fn ssd_words() -> Vec<u16> {
        let mut w = vec![0u16; WORDS];
        w[10..20].copy_from_slice(&encode_string("S3Z9NB0K123456A", 10));
        w[23..27].copy_from_slice(&encode_string("RVT04B6Q", 4));
        w[27..47].copy_from_slice(&encode_string("Samsung SSD 860 EVO 500GB", 20));
        w[75] = 0x001F;
        w[76] = 0x010E; // Gen1|Gen2|Gen3 + NCQ
        w[77] = 0x0006; // current = Gen3
        w[82] = 0x7469; // bit 5 set
        w[83] = 0x4000;
        w[85] = 0x7429; // bit 5 set
        w[87] = 0x4000;
        w[106] = 0x6003; // valid, multiple logical per physical, 2^3
        w[169] = 0x0001;
        w[209] = 0x4000; // LBA 0 at offset 0
        w[217] = 0x0001;
        w[222] = 0x10FF; // serial, up to SATA 3.2 (bit 7)
        w
    }

    #[test]
    fn decodes_a_sata_ssd() {
        let id = from_words(&ssd_words()).unwrap();
        assert_eq!(id.model.as_deref(), Some("Samsung SSD 860 EVO 500GB"));
        assert_eq!(id.serial.as_deref(), Some("S3Z9NB0K123456A"));
        assert_eq!(id.firmware.as_deref(), Some("RVT04B6Q"));
        assert_eq!(id.queue_depth, Some(32));
        assert_eq!(id.ncq_supported, Some(true));
        assert_eq!(id.sata_max_gbps, Some(6.0));
        assert_eq!(id.sata_current_gbps, Some(6.0));
        assert_eq!(id.write_cache_supported, Some(true));
        assert_eq!(id.write_cache_enabled, Some(true));
        assert_eq!(id.logical_sector_bytes, Some(512));
        assert_eq!(id.physical_sector_bytes, Some(4096));
        assert_eq!(id.lba0_offset_bytes, Some(0));
        assert_eq!(id.rotation_rpm, Some(0));
        assert_eq!(id.trim_supported, Some(true));
        assert_eq!(id.transport.as_deref(), Some("SATA 3.2"));
        assert!(id.is_serial());
    }

    #[test]
    fn sysfs_text_round_trip_and_rewrapped_lines() {
        let w = ssd_words();
        let text = format_sysfs_id(&w);
        assert_eq!(text.lines().count(), 32);
        assert_eq!(parse_sysfs_id(&text), from_words(&w));
        // Re-wrapped to 5 words a line with tabs: still the same words.
        let rewrapped: String = text
            .split_whitespace()
            .collect::<Vec<_>>()
            .chunks(5)
            .map(|c| c.join("\t"))
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(parse_sysfs_id(&rewrapped), from_words(&w));
    }

    #[test]
    fn qemu_style_ide_disk_reports_no_sata_fields() {
        let mut w = vec![0u16; WORDS];
        w[27..47].copy_from_slice(&encode_string("QEMU HARDDISK", 20));
        w[23..27].copy_from_slice(&encode_string("2.5+", 4));
        w[82] = 0x4021;
        w[83] = 0x7400;
        w[85] = 0x4001; // write cache disabled
        w[87] = 0x4000;
        w[76] = 0x0000;
        w[77] = 0xFFFF;
        w[106] = 0x0000; // not valid -> no sector size claim
        let id = from_words(&w).unwrap();
        assert_eq!(id.model.as_deref(), Some("QEMU HARDDISK"));
        assert_eq!(id.firmware.as_deref(), Some("2.5+"));
        assert_eq!(id.sata_max_gbps, None);
        assert_eq!(id.ncq_supported, None);
        assert_eq!(id.queue_depth, None);
        assert_eq!(id.sata_current_gbps, None);
        assert_eq!(id.write_cache_supported, Some(true));
        assert_eq!(id.write_cache_enabled, Some(false));
        assert_eq!(id.logical_sector_bytes, None);
        assert_eq!(id.rotation_rpm, None);
        assert_eq!(id.transport, None);
    }

    #[test]
    fn hdd_4kn_with_offset_and_pata() {
        let mut w = vec![0u16; WORDS];
        w[76] = 0x0106; // Gen1|Gen2 + NCQ
        w[75] = 0x0000; // depth 1
        w[77] = 0x0002; // current Gen1: a downgraded link
        w[106] = 0x5000; // valid, logical > 256 words, 1:1
        w[117] = 2048; // 2048 words = 4096 bytes
        w[118] = 0;
        w[209] = 0x4001; // LBA 0 one logical sector into the physical one
        w[217] = 7200;
        w[222] = 0x0003; // parallel, ATA/ATAPI-7
        let id = from_words(&w).unwrap();
        assert_eq!(id.sata_max_gbps, Some(3.0));
        assert_eq!(id.sata_current_gbps, Some(1.5));
        assert_eq!(id.queue_depth, Some(1));
        assert_eq!(id.logical_sector_bytes, Some(4096));
        assert_eq!(id.physical_sector_bytes, Some(4096));
        assert_eq!(id.lba0_offset_bytes, Some(4096));
        assert_eq!(id.rotation_rpm, Some(7200));
        assert_eq!(id.transport.as_deref(), Some("PATA ATA/ATAPI-7"));
        assert!(id.is_parallel());
        // Words 82-87 not validated -> unknown, not "false".
        assert_eq!(id.write_cache_supported, None);
        assert_eq!(id.write_cache_enabled, None);
    }

    #[test]
    fn garbage_and_truncation_are_none() {
        assert_eq!(parse_sysfs_id(""), None);
        assert_eq!(parse_sysfs_id("zzzz 0000"), None);
        let text = format_sysfs_id(&ssd_words());
        let cut: Vec<&str> = text.split_whitespace().take(255).collect();
        assert_eq!(parse_sysfs_id(&cut.join(" ")), None);
        assert_eq!(from_words(&[0u16; 10]), None);
        assert_eq!(from_words(&[0u16; WORDS]), None);
        assert_eq!(from_words(&[0xFFFFu16; WORDS]), None);
        // Non-printable model bytes are shown, not trusted.
        let mut w = ssd_words();
        w[27] = 0x0141;
        assert_eq!(
            from_words(&w).unwrap().model.as_deref().map(|m| &m[..2]),
            Some("?A")
        );
        // Word 106 claiming an absurd shift does not panic.
        w[106] = 0x600F;
        w[209] = 0x7FFF;
        let id = from_words(&w).unwrap();
        assert_eq!(id.physical_sector_bytes, Some(512 << 15));
    }
}

#[cfg(test)]
mod proptests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_words_decode_without_panic(w in proptest::collection::vec(any::<u16>(), 256)) {
            let id = from_words(&w);
            if let Some(id) = id {
                // Round trip through the sysfs text form gives the same answer.
                prop_assert_eq!(parse_sysfs_id(&format_sysfs_id(&w)), Some(id.clone()));
                if let Some(q) = id.queue_depth {
                    prop_assert!((1..=32).contains(&q));
                }
            }
        }

        #[test]
        fn any_text_parses_without_panic(s in ".{0,2000}") {
            let _ = parse_sysfs_id(&s);
        }
    }
}
