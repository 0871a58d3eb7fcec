//! `mdadm --detail /dev/mdX` (mdadm(8), Linux md): one array's superblock view. The layout
//! is Detail.c's Detail(): a "/dev/md0:" header (absent when the paste starts below it),
//! right-aligned "Key : value" rows ("Raid Level : raid6", "State : clean, degraded,
//! recovering", "Active Devices : 9", "Failed Devices : 2", "Rebuild Status : 10% complete"),
//! the superblock's "Name :", "UUID :" and "Events :" (super1.c detail_super1), then the
//! device table "Number Major Minor RaidDevice State" with one row per slot
//! ("0 8 17 0 active sync /dev/sdb1", "- 0 0 2 removed", "2 8 19 - faulty /dev/sdb3",
//! "2 8 17 0 spare rebuilding /dev/sdb1").
//!
//! The State line is "clean" or "active", then ", degraded" or ", FAILED" when members are
//! missing, then the running sync action (", recovering", ", resyncing", ", reshaping",
//! ", checking"), ", Not Started", and " (DELAYED)" / " (PENDING)" while the action waits;
//! its progress is "<Rebuild|Resync|Reshape|Check> Status : N% complete" (older mdadm
//! printed "Rebuild Status" for every action). Pastes lose the indentation and blank lines,
//! so the parser reads keys wherever they stand.
//!
//! `mdadm --examine` of a member prints the same "Key : value" rows from that member's
//! superblock (super1.c examine_super1), with "Array State : AA.A" for the slots it knows:
//! a '.' is a slot no device holds, so the array ran degraded when that superblock was
//! written.

use crate::sources::spec;
use crate::sources::util::{clean_line, leading_f64, leading_u64};

/// One row of the device table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MdDetailMember {
    /// The slot in the array ("RaidDevice"); None for "-" (spares, faulty members).
    pub raid_device: Option<u32>,
    /// The state words: "active", "sync", "spare", "rebuilding", "faulty", "removed", ...
    pub state: Vec<String>,
    /// The device node's kernel name ("sdb1"); None for a removed slot.
    pub device: Option<String>,
}

impl MdDetailMember {
    fn has(&self, w: &str) -> bool {
        self.state.iter().any(|s| s == w)
    }
}

/// What `mdadm --detail` says of one array.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MdDetail {
    /// The array's kernel name from the header ("md0", "md/data"); None without header.
    pub device: Option<String>,
    pub level: Option<String>,
    pub raid_devices: Option<u32>,
    pub active_devices: Option<u32>,
    pub working_devices: Option<u32>,
    pub failed_devices: Option<u32>,
    pub spare_devices: Option<u32>,
    /// The State line's words: "clean", "degraded", "recovering", "DELAYED" ...
    pub state: Vec<String>,
    /// The action of a "<X> Status : N% complete" line: "recovery", "resync", "reshape",
    /// "check".
    pub status_action: Option<String>,
    pub percent: Option<f64>,
    pub members: Vec<MdDetailMember>,
    /// `mdadm --examine`'s "Array State : AA.A": one letter per slot as this member's
    /// superblock records it (super1.c examine_super1: 'A' one device holds the role, 'R'
    /// two, a replacement being built, '.' none, the slot is missing).
    pub array_state: Option<String>,
}

impl MdDetail {
    fn state_has(&self, w: &str) -> bool {
        self.state.iter().any(|s| s.eq_ignore_ascii_case(w))
    }

    /// The running sync action, as /proc/mdstat names it: the State line's word
    /// (Detail.c sync_action[]), else the Status line's.
    pub fn action(&self) -> Option<String> {
        let from_state = [
            ("recovering", "recovery"),
            ("resyncing", "resync"),
            ("reshaping", "reshape"),
            ("checking", "check"),
        ]
        .iter()
        .find(|(w, _)| self.state_has(w))
        .map(|(_, a)| a.to_string());
        from_state.or_else(|| self.status_action.clone())
    }

    /// "DELAYED" or "PENDING" when the action waits for another array on the same disks.
    pub fn waiting(&self) -> Option<String> {
        ["DELAYED", "PENDING"]
            .iter()
            .find(|w| self.state.iter().any(|s| s == *w))
            .map(|w| w.to_string())
    }

    /// The State line's ", Not Started": Detail.c prints it when the array has no size
    /// (`larray_size == 0`), i.e. md assembled it but never ran it (inactive: too few of its
    /// members were present at assembly, as when it is assembled before the disks appear).
    pub(crate) fn not_started(&self) -> bool {
        self.state
            .windows(2)
            .any(|w| w[0].eq_ignore_ascii_case("not") && w[1].eq_ignore_ascii_case("started"))
    }

    /// Members missing or failed: the State line says degraded or FAILED, a member is
    /// faulty or its slot removed, the kernel counts failed devices, or fewer devices are
    /// active than the array has slots (Detail.c: active_disks < raid_disks). An array
    /// that was never started is not degraded: it serves no I/O and rebuilds nothing, and
    /// its "FAILED" and "removed" slots count the members missing at assembly, which says
    /// nothing of their health ([`Self::not_started`]).
    pub fn degraded(&self) -> bool {
        if self.not_started() {
            return false;
        }
        let short = matches!(
            (self.active_devices, self.raid_devices),
            (Some(a), Some(r)) if a < r
        );
        self.state_has("degraded")
            || self.state_has("FAILED")
            || self.failed_devices.is_some_and(|f| f > 0)
            || self
                .members
                .iter()
                .any(|m| m.has("faulty") || m.has("removed"))
            || short
            || self.array_state.as_deref().is_some_and(|a| a.contains('.'))
    }

    /// Member devices in use (kernel names), removed slots left out.
    pub fn member_devices(&self) -> Vec<String> {
        self.members
            .iter()
            .filter_map(|m| m.device.clone())
            .collect()
    }

    /// Members marked faulty.
    #[cfg(test)]
    pub(crate) fn failed_members(&self) -> Vec<String> {
        self.members
            .iter()
            .filter(|m| m.has("faulty"))
            .filter_map(|m| m.device.clone())
            .collect()
    }
}

/// The keys Detail.c and super0/super1.c print before the device table.
const KEYS: &[&str] = &[
    "Version",
    "Container",
    "Creation Time",
    "Raid Level",
    "Array Size",
    "Used Dev Size",
    "Raid Devices",
    "Total Devices",
    "Preferred Minor",
    "Persistence",
    "Intent Bitmap",
    "Update Time",
    "State",
    "Active Devices",
    "Working Devices",
    "Failed Devices",
    "Spare Devices",
    "Layout",
    "Chunk Size",
    "Rounding",
    "Consistency Policy",
    "Rebuild Status",
    "Resync Status",
    "Reshape Status",
    "Check Status",
    "Delta Devices",
    "New Level",
    "New Layout",
    "New Chunksize",
    "Name",
    "UUID",
    "Events",
    "Member Arrays",
    "Cluster Name",
    "Cluster Size",
    // `mdadm --examine` of a version-1 member (super1.c examine_super1).
    "Feature Map",
    "Array UUID",
    "Avail Dev Size",
    "Data Offset",
    "Super Offset",
    "Unused Space",
    "Recovery Offset",
    "Device UUID",
    "Internal Bitmap",
    "Bad Block Log",
    "Checksum",
    "Device Role",
    "Array State",
];

/// Keys only `mdadm --detail` (and `--examine`) print: one of them near a generic key
/// ("Name :", "State :") tells the output apart from other "key : value" listings.
const OWN_KEYS: &[&str] = &[
    "Raid Level",
    "Raid Devices",
    "Total Devices",
    "Active Devices",
    "Working Devices",
    "Failed Devices",
    "Spare Devices",
    "Used Dev Size",
    "Array Size",
    "Creation Time",
    "Persistence",
    "Consistency Policy",
    "Rebuild Status",
    "Resync Status",
    "Reshape Status",
    "Intent Bitmap",
    "Preferred Minor",
    "Feature Map",
    "Array UUID",
    "Avail Dev Size",
    "Device Role",
    "Array State",
];

/// "Key : value" of one of [`KEYS`] (mdadm pads the key, then " : ").
fn key_value(line: &str) -> Option<(&'static str, &str)> {
    let t = line.trim_start();
    let (k, v) = t.split_once(" :")?;
    let k = k.trim_end();
    let key = KEYS.iter().find(|x| **x == k)?;
    Some((key, v.trim()))
}

/// A device-table row: Number (or "-"), Major, Minor, RaidDevice (or "-"), then the state
/// words and the device path (Detail.c prints "   %5d   %5d    %5d    %5d     ").
fn member_row(line: &str) -> Option<MdDetailMember> {
    // A user's note after the row ("   # the disk I added") is not output.
    let body = line.split(" #").next().unwrap_or(line);
    let w: Vec<&str> = body.split_whitespace().collect();
    let num = |s: &str| s == "-" || s.chars().all(|c| c.is_ascii_digit());
    let [n, maj, min, slot, rest @ ..] = w.as_slice() else {
        return None;
    };
    if !(num(n) && maj.parse::<u32>().is_ok() && min.parse::<u32>().is_ok() && num(slot)) {
        return None;
    }
    let words = [
        "active",
        "sync",
        "spare",
        "rebuilding",
        "faulty",
        "removed",
        "writemostly",
        "failfast",
        "journal",
        "missing",
    ];
    let mut m = MdDetailMember {
        raid_device: slot.parse().ok(),
        ..Default::default()
    };
    for r in rest {
        if let Some(d) = r.strip_prefix("/dev/") {
            m.device = Some(d.to_string());
        } else if words.contains(r) || r.starts_with("set-") {
            m.state.push(r.to_string());
        } else {
            return None;
        }
    }
    (!m.state.is_empty() || m.device.is_some()).then_some(m)
}

/// The "/dev/md0:" header Detail.c prints first.
fn header_device(line: &str) -> Option<String> {
    let t = line.trim();
    let d = t.strip_suffix(':')?.strip_prefix("/dev/")?;
    (d.starts_with("md") && !d.contains(char::is_whitespace)).then(|| d.to_string())
}

/// Every array of the text (`mdadm --detail` prints one per device named).
pub fn parse(text: &str) -> Vec<MdDetail> {
    let mut out: Vec<MdDetail> = Vec::new();
    // Whether the current array's device table has started (a key after it is a new array).
    let mut in_table = false;
    for raw in text.lines() {
        let line = clean_line(raw);
        if let Some(d) = header_device(&line) {
            out.push(MdDetail {
                device: Some(d),
                ..Default::default()
            });
            in_table = false;
            continue;
        }
        if let Some((k, v)) = key_value(&line) {
            if out.is_empty() || (in_table && k != "State") {
                out.push(MdDetail::default());
                in_table = false;
            }
            let Some(a) = out.last_mut() else { continue };
            let n = || leading_u64(v).and_then(|x| u32::try_from(x).ok());
            match k {
                "Raid Level" => a.level = v.split_whitespace().next().map(str::to_string),
                "Raid Devices" => a.raid_devices = n(),
                "Active Devices" => a.active_devices = n(),
                "Working Devices" => a.working_devices = n(),
                "Failed Devices" => a.failed_devices = n(),
                "Spare Devices" => a.spare_devices = n(),
                "State" => {
                    a.state = v
                        .split([',', ' ', '(', ')'])
                        .map(str::trim)
                        .filter(|w| !w.is_empty())
                        .map(str::to_string)
                        .collect();
                }
                "Array State" => {
                    a.array_state = v
                        .split_whitespace()
                        .next()
                        .filter(|w| w.chars().all(|c| matches!(c, 'A' | 'R' | '.' | '?')))
                        .map(str::to_string);
                }
                "Rebuild Status" | "Resync Status" | "Reshape Status" | "Check Status" => {
                    a.status_action = Some(
                        match k {
                            "Rebuild Status" => "recovery",
                            "Resync Status" => "resync",
                            "Reshape Status" => "reshape",
                            _ => "check",
                        }
                        .to_string(),
                    );
                    a.percent = leading_f64(v).filter(|p| (0.0..=100.0).contains(p));
                }
                _ => {}
            }
            continue;
        }
        let t = line.trim_start();
        if t.starts_with("Number") && t.contains("Major") && t.contains("RaidDevice") {
            in_table = true;
            continue;
        }
        if let Some(m) = member_row(&line)
            && let Some(a) = out.last_mut()
        {
            in_table = true;
            a.members.push(m);
        }
    }
    out.retain(|a| *a != MdDetail::default());
    out
}

// ---- the source spec (see sources::spec) ----

/// Whether a line is one of the output's own: a key, the table header or a row.
fn is_member(line: &str) -> bool {
    let t = line.trim_start();
    key_value(line).is_some()
        || header_device(line).is_some()
        || is_table_header(t)
        || member_row(line).is_some()
        || crate::sources::util::is_elision(t)
}

/// Detail.c's device-table header, "Number   Major   Minor   RaidDevice State".
fn is_table_header(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("Number") && t.contains("RaidDevice")
}

fn own_key(line: &str) -> bool {
    key_value(line).is_some_and(|(k, _)| OWN_KEYS.contains(&k))
}

/// An output starts at its "/dev/mdX:" header followed by a key, or (header cut off) at a
/// key line with one of the keys only mdadm prints on it or on the next non-blank line.
fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let first = clean_line(first);
    let at = spec::next_nonblank(lines, 1, 2);
    let next = at
        .and_then(|i| lines.get(i))
        .map(|l| clean_line(l))
        .unwrap_or_default();
    if header_device(&first).is_some() {
        // A poster who cut the keys keeps the header, an elision and the device table
        // ("/dev/md90:", "....", "    Number   Major   Minor   RaidDevice State").
        let table = || {
            at.and_then(|i| spec::next_nonblank(lines, i + 1, 2))
                .and_then(|i| lines.get(i))
                .is_some_and(|l| is_table_header(&clean_line(l)))
        };
        return spec::Start::from(
            key_value(&next).is_some() || (crate::sources::util::is_elision(&next) && table()),
        );
    }
    spec::Start::from(key_value(&first).is_some() && (own_key(&first) || own_key(&next)))
}

/// The kernel name the header names: "/dev/md127:" -> "md127".
fn text_device(text: &str) -> Option<String> {
    text.lines().map(clean_line).find_map(|l| header_device(&l))
}

/// Where `mdadm --detail` prints secrets: the array's UUID, and its name, which for
/// metadata 1.x is "HOST:NAME" with " (local to host HOST)" (super1.c detail_super1:
/// the host name the array was created on).
pub fn secrets(text: &str) -> Vec<spec::Found> {
    use spec::{Found, SecretKind};
    if !text.lines().any(|l| own_key(&clean_line(l))) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for l in text.lines().map(clean_line) {
        match key_value(&l) {
            Some(("UUID", v)) => {
                if let Some(u) = v.split_whitespace().next() {
                    out.push(Found::sure(SecretKind::Uuid, u));
                }
                if let Some(h) = local_host(v) {
                    out.push(Found::sure(SecretKind::Host, h));
                }
            }
            Some(("Name", v)) => {
                let name = v.split_whitespace().next().unwrap_or("");
                match name.split_once(':') {
                    Some((host, label)) => {
                        if !host.is_empty() && host != "any" {
                            out.push(Found::sure(SecretKind::Host, host));
                        }
                        if !label.is_empty() && !label.chars().all(|c| c.is_ascii_digit()) {
                            out.push(Found::sure(SecretKind::Label, label));
                        }
                    }
                    None if !name.is_empty() && !name.chars().all(|c| c.is_ascii_digit()) => {
                        out.push(Found::sure(SecretKind::Label, name));
                    }
                    None => {}
                }
                if let Some(h) = local_host(v) {
                    out.push(Found::sure(SecretKind::Host, h));
                }
            }
            Some(("Cluster Name", v)) if !v.is_empty() => {
                out.push(Found::sure(SecretKind::Label, v));
            }
            _ => {}
        }
    }
    out
}

/// The host of "(local to host HOST)".
fn local_host(v: &str) -> Option<&str> {
    let (_, rest) = v.split_once("local to host ")?;
    let h = rest.trim_end_matches(')').trim();
    (!h.is_empty()).then_some(h)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "mdadm-detail",
    starts: &[(2, start)],
    member: |t, _| spec::Member::from(is_member(&clean_line(t))),
    // Detail.c separates its groups by one blank line, two after the superblock's lines.
    tolerance: (2, 0),
    classify: |_, _| "mdadm-detail",
    ..spec::Recogniser::NONE
};

/// The argument of `mdadm --detail` / `-D` (mdadm(8) Misc mode), `--query` too.
fn detail_args(a: &str) -> bool {
    a.split_whitespace().any(|w| {
        matches!(w, "--detail" | "-D" | "--query" | "-Q" | "--misc")
            || (w.starts_with('-') && !w.starts_with("--") && w.contains('D'))
    })
}

/// The live capture: one array.
pub(crate) const LIVE: spec::Live = spec::Live::Cmd(&["mdadm", "--detail", "{dev}"]);

/// `mdadm --detail /dev/mdX` (Linux).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    live: &[LIVE],
    pasted_as: Some(LIVE),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste {
        device: Some(text_device),
        ..spec::Paste::new(&RECOGNISER, |p, t| p == "mdadm" && detail_args(t))
    }),
    // One declaration of the program for its modes that have a reader here or in
    // sources::mdadm_assemble.
    programs: &[spec::Program::new("mdadm", |a| {
        detail_args(a) || crate::sources::mdadm_assemble::assemble_args(a)
    })],
    mention: Some(r"mdadm\s+(?:--detail|-D)"),
    secrets: &[spec::Secret::Scan(secrets)],
    ..spec::SourceSpec::named("mdadm-detail", "mdadm --detail")
};

#[cfg(test)]
mod tests;
