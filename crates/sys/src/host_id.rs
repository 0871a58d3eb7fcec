//! A stable, anonymous name for this machine, so `diskdoc summarize` can put the reports of
//! one host on one row although redaction has replaced every host name by `HOST-1`.
//!
//! machine-id(5) asks that the machine ID itself never leave the machine and says how to get
//! an ID for one application instead: "the machine ID should be hashed with a cryptographic,
//! keyed hash function, using a fixed, application-specific key". This is exactly
//! sd_id128_get_machine_app_specific(3) (systemd src/libsystemd/sd-id128/sd-id128.c): HMAC-SHA256
//! keyed with the 16 machine-ID bytes over the 16 application-ID bytes, the first 16 bytes of
//! the digest, marked as a version-4 UUID. So `systemd-id128 machine-id --app-specific=APP`
//! prints the same value, and the machine ID cannot be recovered from it.
//!
//! FreeBSD has no machine-id(5); its counterpart is the host UUID hostid(8) keeps in
//! /etc/hostid and the kernel reports as `kern.hostuuid`. It is keyed the same way.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// diskdoc's application ID (made once with `systemd-id128 new`: 1c57132e5cb54c719f8f8bde99fd9c0e): the HMAC
/// message.
pub const APP_ID: [u8; 16] = [
    0x1c, 0x57, 0x13, 0x2e, 0x5c, 0xb5, 0x4c, 0x71, 0x9f, 0x8f, 0x8b, 0xde, 0x99, 0xfd, 0x9c, 0x0e,
];

/// The 16 bytes of an ID written as 32 hex digits (machine-id(5)) or as a UUID with dashes
/// (FreeBSD's hostuuid); None for anything else (an empty or uninitialised file).
pub fn parse_id128(text: &str) -> Option<[u8; 16]> {
    let hex: String = text.trim().chars().filter(|c| *c != '-').collect();
    if hex.len() != 32 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0u8; 16];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    // machine-id(5): an all-zero ID (or "uninitialized") means none has been set.
    (out != [0u8; 16]).then_some(out)
}

/// sd_id128_get_machine_app_specific(): HMAC-SHA256(key = machine ID, message = app ID),
/// cut to 16 bytes and marked as a random (version 4, RFC 9562 variant) UUID; written as
/// 32 lower-case hex digits like machine-id(5).
pub fn app_specific(machine: &[u8; 16], app: &[u8; 16]) -> String {
    let mut mac = match Hmac::<Sha256>::new_from_slice(machine) {
        Ok(m) => m,
        // HMAC takes a key of any length (RFC 2104); this arm cannot be reached.
        Err(_) => return String::new(),
    };
    mac.update(app);
    let digest = mac.finalize().into_bytes();
    let mut id = [0u8; 16];
    id.copy_from_slice(&digest[..16]);
    id[6] = (id[6] & 0x0f) | 0x40;
    id[8] = (id[8] & 0x3f) | 0x80;
    id.iter().map(|b| format!("{b:02x}")).collect()
}

/// This machine's diskdoc host ID, or None when it has no machine ID to key it with.
pub fn this_host() -> Option<String> {
    let machine = machine_id()?;
    Some(app_specific(&machine, &APP_ID))
}

#[cfg(target_os = "linux")]
fn machine_id() -> Option<[u8; 16]> {
    // machine-id(5); D-Bus keeps a copy at the second path on systems without systemd.
    ["/etc/machine-id", "/var/lib/dbus/machine-id"]
        .iter()
        .find_map(|p| {
            std::fs::read_to_string(p)
                .ok()
                .and_then(|t| parse_id128(&t))
        })
}

#[cfg(target_os = "freebsd")]
fn machine_id() -> Option<[u8; 16]> {
    // hostid(8): the kernel's copy first, then the file rc.d/hostid writes it to.
    crate::os::sysctl("kern.hostuuid")
        .data()
        .and_then(parse_id128)
        .or_else(|| {
            std::fs::read_to_string("/etc/hostid")
                .ok()
                .and_then(|t| parse_id128(&t))
        })
}

#[cfg(not(any(target_os = "linux", target_os = "freebsd")))]
fn machine_id() -> Option<[u8; 16]> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_in_both_spellings_parse_and_empty_ones_do_not() {
        let a = parse_id128("3d1219c7c4c5404aaa1f6d2a48adfda4\n").expect("machine-id form");
        let b = parse_id128("3d1219c7-c4c5-404a-aa1f-6d2a48adfda4").expect("uuid form");
        assert_eq!(a, b);
        assert_eq!(a[0], 0x3d);
        assert_eq!(a[15], 0xa4);
        for bad in [
            "",
            "uninitialized",
            "00000000000000000000000000000000",
            "3d1219c7c4c5404aaa1f6d2a48adfd",
            "zz1219c7c4c5404aaa1f6d2a48adfda4",
        ] {
            assert_eq!(parse_id128(bad), None, "{bad}");
        }
    }

    /// The value is a version-4 UUID, differs per application ID and per machine, and is
    /// the same every time (the HMAC itself is checked against systemd-id128 in
    /// tests/it/fleet.rs on a machine that has it).
    #[test]
    fn app_specific_ids_are_stable_v4_and_keyed() {
        let m = parse_id128("3d1219c7c4c5404aaa1f6d2a48adfda4").expect("id");
        let id = app_specific(&m, &APP_ID);
        assert_eq!(id.len(), 32);
        assert_eq!(&id[12..13], "4", "{id}");
        assert!(matches!(&id[16..17], "8" | "9" | "a" | "b"), "{id}");
        assert_eq!(id, app_specific(&m, &APP_ID));
        assert_ne!(id, app_specific(&m, &[0u8; 16]));
        let mut other = m;
        other[0] ^= 1;
        assert_ne!(id, app_specific(&other, &APP_ID));
        assert!(
            !id.contains("3d1219c7"),
            "the machine ID does not show through"
        );
    }
}
