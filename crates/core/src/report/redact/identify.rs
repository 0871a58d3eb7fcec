//! Raw ATA IDENTIFY data (ATA/ACS-3 7.12.7): the serial (words 10-19) and world wide name
//! (words 108-111) are collected, and zeroed in the shared words with the checksum
//! (word 255) made valid again.

use super::*;

impl Redactor {
    pub(super) fn collect_identify(&mut self, words: &[u16]) {
        if let Some(serial) = identify_string(words, 10, 20) {
            self.add_trusted(Kind::Serial, &serial);
        }
        let w: Vec<u16> = (108..112).filter_map(|i| words.get(i).copied()).collect();
        if w.len() == 4 && w.iter().any(|x| *x != 0) {
            let hex: String = w.iter().map(|x| format!("{x:04x}")).collect();
            self.add(Kind::Wwn, &hex);
        }
    }

    pub(super) fn redact_identify(&self, mut words: Vec<u16>) -> String {
        if let Some(serial) = identify_string(&words, 10, 20) {
            let token = self.apply(&serial);
            // Right-aligned in 20 characters, as drives pad serials (ATA string, 2 chars/word).
            let padded = format!("{token:>20}");
            let bytes = padded.as_bytes();
            for i in 0..10 {
                let hi = bytes.get(2 * i).copied().unwrap_or(b' ') as u16;
                let lo = bytes.get(2 * i + 1).copied().unwrap_or(b' ') as u16;
                if let Some(w) = words.get_mut(10 + i) {
                    *w = (hi << 8) | lo;
                }
            }
        }
        for i in 108..112 {
            if let Some(w) = words.get_mut(i) {
                *w = 0;
            }
        }
        // Word 255: signature A5h in bits 7:0, checksum in 15:8 making the 512 bytes sum to
        // zero (ATA/ACS-3 7.12.7.86). Recompute it so parsers that verify it still accept.
        if words.get(255).is_some_and(|w| w & 0xff == 0xa5) {
            let sum: u32 = words
                .iter()
                .take(255)
                .map(|w| (w & 0xff) as u32 + (w >> 8) as u32)
                .sum::<u32>()
                + 0xa5;
            let check = (0x100 - (sum & 0xff)) & 0xff;
            words[255] = ((check as u16) << 8) | 0xa5;
        }
        let mut s = String::new();
        for chunk in words.chunks(8) {
            let line: Vec<String> = chunk.iter().map(|w| format!("{w:04x}")).collect();
            s.push_str(&line.join(" "));
            s.push('\n');
        }
        s
    }
}

/// 256 IDENTIFY words printed as 4-digit hex (Linux /sys/class/ata_device/*/id,
/// `hdparm --Istdout`), or None.
pub(super) fn identify_words(data: &str) -> Option<Vec<u16>> {
    let toks: Vec<&str> = data.split_whitespace().collect();
    if toks.len() != 256 || !toks.iter().all(|t| t.len() == 4) {
        return None;
    }
    toks.iter()
        .map(|t| u16::from_str_radix(t, 16).ok())
        .collect()
}

/// An ATA string (two characters per word, high byte first), trimmed.
pub(super) fn identify_string(words: &[u16], start: usize, chars: usize) -> Option<String> {
    let mut s = String::new();
    for w in words.iter().skip(start).take(chars / 2) {
        for b in [(w >> 8) as u8, (w & 0xff) as u8] {
            if b.is_ascii_graphic() || b == b' ' {
                s.push(b as char);
            }
        }
    }
    let s = s.trim().to_string();
    (!s.is_empty()).then_some(s)
}
