//! sfdisk output: `sfdisk -l` (same listing as fdisk, see [`crate::sources::fdisk`]) and
//! `sfdisk -d` dumps, both the util-linux >= 2.26 syntax ("label: gpt", "start=2048,
//! size=..., type=83") and the older one ("unit: sectors", "Id=83", padded numbers, empty
//! slots listed with size 0).
//!
//! Reference: sfdisk(8) "-d, --dump" and the input format it documents.

use crate::sources::fdisk::{self, FdiskDisk, FdiskPartition};
use crate::sources::util::{clean_line, leading_u64};

/// `sfdisk -l`: the fdisk listing parser.
pub fn parse_list(text: &str) -> Vec<FdiskDisk> {
    fdisk::parse(text)
}

/// `sfdisk -d`: one disk per "# partition table of /dev/X" (or per "label-id"/first row).
/// Empty slots (size 0, type 0) of old dumps are dropped.
pub fn parse_dump(text: &str) -> Vec<FdiskDisk> {
    let mut out: Vec<FdiskDisk> = Vec::new();
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if let Some(dev) = t.strip_prefix("# partition table of ") {
            out.push(FdiskDisk {
                device: Some(dev.trim().to_string()),
                units: Some("sectors".into()),
                ..Default::default()
            });
            continue;
        }
        if let Some((k, v)) = t.split_once(':') {
            let (k, v) = (k.trim(), v.trim());
            if !k.starts_with('/') {
                if out.is_empty() && matches!(k, "label" | "label-id" | "unit" | "device") {
                    out.push(FdiskDisk::default());
                }
                if let Some(d) = out.last_mut() {
                    match k {
                        "label" => d.label = Some(v.to_string()),
                        "label-id" => d.identifier = Some(v.to_string()),
                        "device" => d.device = Some(v.to_string()),
                        "unit" => d.units = Some(v.to_string()),
                        "sector-size" => {
                            d.logical_sector_bytes =
                                leading_u64(v).and_then(|n| u32::try_from(n).ok())
                        }
                        _ => {}
                    }
                }
                continue;
            }
            // "/dev/sda1 : start=     2048, size=  2097152, Id=83, bootable"
            let mut p = FdiskPartition {
                device: k.to_string(),
                ..Default::default()
            };
            p.number = k
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_digit())
                .collect::<String>()
                .chars()
                .rev()
                .collect::<String>()
                .parse()
                .ok();
            for field in v.split(',') {
                let f = field.trim();
                if f == "bootable" {
                    p.boot = true;
                    continue;
                }
                let Some((fk, fv)) = f.split_once('=') else {
                    continue;
                };
                let fv = fv.trim();
                match fk.trim() {
                    "start" => p.start = leading_u64(fv),
                    "size" => p.sectors = leading_u64(fv),
                    "Id" | "type" => {
                        let id = fv.to_ascii_lowercase();
                        if id.len() <= 2 {
                            p.type_id = Some(id);
                        } else {
                            p.type_name = Some(fv.to_string());
                        }
                    }
                    "name" => {
                        p.type_name = p
                            .type_name
                            .clone()
                            .or(Some(fv.trim_matches('"').to_string()))
                    }
                    _ => {}
                }
            }
            if p.sectors == Some(0) && p.type_id.as_deref().is_none_or(|id| id == "0") {
                continue;
            }
            p.end = match (p.start, p.sectors) {
                (Some(s), Some(n)) if n > 0 => s.checked_add(n - 1),
                _ => None,
            };
            p.extended = matches!(p.type_id.as_deref(), Some("5") | Some("f") | Some("85"));
            if out.is_empty() {
                out.push(FdiskDisk::default());
            }
            if let Some(d) = out.last_mut() {
                if d.label.is_none() && p.type_id.is_some() {
                    d.label = Some("dos".into());
                }
                d.partitions.push(p);
            }
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

crate::rx!(
    SFDISK_D_START,
    r"^(# partition table of /dev/\S+|label: (dos|gpt)|unit: sectors)"
);
crate::rx!(
    SFDISK_D_MEMBER,
    r"^(label|label-id|device|unit|first-lba|last-lba|sector-size|# partition table of):|^/dev/\S+\s*:\s*start=|^# partition table of "
);
crate::rx!(
    SFDISK_D_DEV,
    r"(?m)^# partition table of (/dev/\S+)|^device: (/dev/\S+)|^(/dev/[a-z]+)\d+\s*:"
);

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "sfdisk-d",
    starts: &[(180, |l| spec::on_first(l, |t| SFDISK_D_START.is_match(t)))],
    member: |t, _| spec::Member::from(SFDISK_D_START.is_match(t) || SFDISK_D_MEMBER.is_match(t)),
    tolerance: (1, 0),
    classify: |_, _| "sfdisk-d",
    ..spec::Recogniser::NONE
};

/// sfdisk(8) -d: "label-id:" is the disk's GPT GUID or MBR signature.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse_dump(t).len()),
    secrets: &[spec::Secret::After("label-id:", spec::SecretKind::Uuid)],
    paste: Some(spec::Paste {
        device: Some(|text| {
            SFDISK_D_DEV
                .captures(text)
                .and_then(|c| c.get(1).or(c.get(2)).or(c.get(3)))
                .map(|m| spec::strip_dev(m.as_str()))
        }),

        ..spec::Paste::new(&RECOGNISER, |p, _| p == "sfdisk")
    }),
    programs: &[spec::Program::new("sfdisk", spec::flags_or_node).deciding_platform()],
    ..spec::SourceSpec::named("sfdisk-d", "sfdisk -d")
};
