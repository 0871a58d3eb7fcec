//! `lsusb -v` (usbutils): diskdoc reads nothing from it, but people paste it with a USB
//! drive's question, and its device descriptor names the drive's serial number:
//! "iSerial                 3 4C530001234567891234" (the string descriptor's index, then
//! the string; USB 2.0 9.6.1, iSerialNumber). The same serial is the kernel log's
//! "SerialNumber:" (sources::kernel_log) and the tail of the usb- by-id name.

use crate::sources::spec::{self, Found, SecretKind};

/// The serial of every `iSerial N STRING` line (a 0 index has no string: no serial).
pub fn secrets(text: &str) -> Vec<Found> {
    if !text.contains("iSerial") {
        return Vec::new();
    }
    text.lines()
        .filter_map(|line| {
            let mut w = line.split_whitespace();
            if w.next() != Some("iSerial") {
                return None;
            }
            let index: u8 = w.next()?.parse().ok()?;
            let serial: Vec<&str> = w.collect();
            (index != 0 && !serial.is_empty())
                .then(|| Found::sure(SecretKind::Serial, &serial.join(" ")))
        })
        .collect()
}

/// lsusb -v: no live capture and no parser; its secrets only.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    secrets: &[spec::Secret::Scan(secrets)],
    ..spec::SourceSpec::named("lsusb", "lsusb -v")
};

#[cfg(test)]
mod tests {
    #[test]
    fn iserial_lines() {
        let t = "  iManufacturer           1 SanDisk\n  iProduct                2 Ultra\n  iSerial                 3 4C530001234567891234\n  iSerial                 0 \n";
        let v: Vec<String> = super::secrets(t).into_iter().map(|f| f.value).collect();
        assert_eq!(v, ["4C530001234567891234"]);
    }
}
