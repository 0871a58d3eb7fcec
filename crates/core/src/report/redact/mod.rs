//! Redaction of shared reports: serial numbers, WWNs/EUI-64s/NGUIDs/SAS addresses, host
//! names, user names, MAC addresses, filesystem and partition labels and UUIDs become stable
//! tokens (`SERIAL-1`, `WWN-1`, `HOST-1`, `USER-1`, `MAC-1`, `LABEL-1`, `UUID-1`). One
//! [`Redactor`] serves the whole output, so the same serial gets the same token in the facts,
//! the findings, the raw command outputs and the capture keys, and two disks stay
//! distinguishable.
//!
//! Secrets are collected from the facts (serial, wwn, hostname, every string) and by pattern
//! from the raw outputs: smartctl ("Serial Number:", "LU WWN Device Id:", "IEEE EUI-64:",
//! "Logical Unit id:", "SAS address", `-j` keys `serial_number`, `wwn`, `eui64`),
//! camcontrol/atacontrol ("serial number", "WWN"), hdparm ("Serial Number:", "SerialNo=",
//! "Logical Unit WWN Device Identifier:"), lsblk -J ("serial", "wwn", "label", "uuid",
//! "partlabel", "partuuid"), blkid/lsblk -P (`LABEL="..."`, `UUID="..."`), dumpe2fs
//! ("Filesystem volume name:", "Filesystem UUID:"), sysfs `serial`/`wwid`/`sas_address`
//! files, GEOM ("ident:", "lunid:", "label:", "rawuuid:"), diskinfo -v ("# Disk ident."),
//! the kernel log ("SerialNumber:" of USB, "serial=", "Serial Number X", UUIDs of mounted
//! filesystems, syslog host prefixes), /dev/disk/by-{id,uuid,label,partuuid,partlabel} and
//! FreeBSD /dev/{gpt,gptid,ufs,ufsid,label,diskid} names, any 8-4-4-4-12 UUID that is not a
//! well-known GPT type, shell prompts (`user@host:/path`, `[user@host ~]$`), `sudo -u USER`,
//! `~USER`, home-like paths (/home, /Users, /usr/home, /mnt, /media, /run/media, /Volumes),
//! the serial/WWN words of raw ATA IDENTIFY data (ATA/ACS-3 7.12.7: words 10-19 serial,
//! words 108-111 world wide name, word 255 checksum) and the GPT partition names of device
//! reads (which are also cut to the partition-table bytes, see
//! `sources::partition_table::minimize`).
//!
//! Sources whose secrets only their layout locates declare a scanner
//! (`sources::spec::Secret::Scan`): ZFS pool names and GUIDs (`zpool status`, `zpool get`,
//! `zfs get`, `zdb -C`: `POOL-1`, `GUID-1`), the serial and WWN parts of vdev names, and
//! lsusb's `iSerial`. udev's by-id names are read wherever they stand (`sources::by_id`),
//! keeping the model: `ata-Samsung_SSD_860_EVO_1TB_SERIAL-1`.
//!
//! Tokens are recognised only in their exact form ([`is_token`]), never by prefix: a host
//! named `host-db01` is a secret. [`Redactor::verify`] is the last line of defence: before
//! an output is written it looks for every collected secret in it (also as hex, UTF-16 hex,
//! base64 and by-id forms) and fails closed ([`Leak`]).

use std::collections::BTreeMap;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::checks::Finding;
use crate::evidence::{Capture, EvidenceBundle, hex_decode, hex_encode_sparse};
use crate::explain::Explanation;
use crate::facts::SystemFacts;
use crate::report::Report;
use crate::sources::SPECS;
use crate::sources::by_id;
use crate::sources::partition_table;
use crate::sources::spec::{Found, Scanner, Secret};

mod bundle;
mod free_text;
mod guard;
mod identify;
mod json;
mod kernel;
mod keys;
mod patterns;
#[cfg(test)]
mod placeholder_tests;
mod placeholders;
mod report;
mod rules;
#[cfg(test)]
mod tests;
mod tokens;
mod tool_outputs;

pub(crate) use bundle::redactor_for;
pub use bundle::{redact_bundle, share_bundle};
use guard::Guard;
pub use guard::Leak;
pub(crate) use report::apply_report;
pub use report::{redact_explanation, redact_facts, share_explanation};
use tokens::Matcher;

/// What a secret is; decides the token prefix and how it is matched (defined with the
/// source specs, which say where each source prints which kind).
pub(crate) use crate::sources::spec::SecretKind as Kind;

/// Whether `v` is a token exactly as [`Redactor::add`] makes them (`HOST-3`): the form a
/// redacted report carries, never a secret. Only the exact form counts: a host named
/// `host-db01` or a user `user-ops` starts like a token and is a secret all the same.
pub(crate) fn is_token(v: &str) -> bool {
    Kind::ALL.iter().any(|k| {
        v.strip_prefix(k.prefix())
            .and_then(|r| r.strip_prefix('-'))
            .is_some_and(|n| {
                !n.is_empty() && !n.starts_with('0') && n.chars().all(|c| c.is_ascii_digit())
            })
    })
}

/// Collects secrets, then rewrites strings with one consistent token map.
#[derive(Debug, Default, Clone)]
pub struct Redactor {
    /// (kind, canonical form) -> token.
    tokens: BTreeMap<(Kind, String), String>,
    counters: BTreeMap<Kind, u32>,
    /// Literal needle -> (token, whole words only): host names, user names and labels
    /// only match whole words.
    needles: BTreeMap<String, (String, bool)>,
    /// GPT partition type GUIDs of the device reads: kinds of partition, not secrets, even
    /// when diskdoc has no name for them (the facts then show the GUID as the type).
    type_guids: std::collections::BTreeSet<String>,
    /// Host names too short to replace wherever they appear as a word ("vm" is also in
    /// /proc/sys/vm/...): replaced only where a host name stands (see `apply`).
    short_hosts: BTreeMap<String, String>,
    /// The needles sorted longest first and one Aho-Corasick automaton over them, built on
    /// the first `apply` after the last change (linear in the text, not in text x
    /// secrets).
    matcher: std::sync::OnceLock<Matcher>,
    /// Every form of every secret the final check looks for, built on the first `verify`
    /// after the last change.
    guard: std::sync::OnceLock<Guard>,
    /// WWN canonical forms by length: a fragment can only lie inside a longer one, so `add`
    /// searches those alone (all of them was quadratic in the number of WWNs).
    wwn_by_len: BTreeMap<usize, Vec<String>>,
}

impl Redactor {
    pub fn new() -> Redactor {
        Redactor::default()
    }

    /// Register a secret; returns its token, or None when the value is a placeholder or does
    /// not look like that kind of secret.
    pub fn add(&mut self, kind: Kind, value: &str) -> Option<String> {
        self.add_with(kind, value, false)
    }

    /// Register a secret read from where only that secret stands (a sysfs `serial` file,
    /// a JSON `serial` key, the facts, `Label: value`): serials need no digits then, so a
    /// virtio serial such as `overlayblk` is a secret too.
    pub(crate) fn add_trusted(&mut self, kind: Kind, value: &str) -> Option<String> {
        self.add_with(kind, value, true)
    }

    /// The final check before an output is written: `out` must hold none of the secrets
    /// collected, in any form they could take: as text (as `apply` would have replaced
    /// it), as hex of its bytes (device reads are stored as hex) or of UTF-16 (GPT names),
    /// as base64, with blanks as udev's by-id names write them, a GUID as a hex number.
    /// A hit means redaction missed a path: the caller writes nothing and fails.
    pub fn verify(&self, out: &str) -> Result<(), Leak> {
        self.guard.get_or_init(|| Guard::new(self)).check(out)
    }

    /// The tokens handed out so far, by kind and canonical value (for tests and `--explain`).
    pub fn tokens(&self) -> &BTreeMap<(Kind, String), String> {
        &self.tokens
    }
}
