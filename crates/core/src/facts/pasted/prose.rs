//! Facts from the prose and typed commands of a paste rather than from tool outputs: a
//! sentence saying a disk is GELI-encrypted, the answers to the sysfs reads explain asks
//! for, and smartctl's "Unknown USB bridge" line printed outside any report.

use super::{disk_mut, set_if_unknown, whole_disk};
use crate::model::{DiskFacts, Layer, LayerKind, SystemFacts, Transport};
use crate::pasted::{Block, Line, Pasted, device_in_args};
use crate::sources;

/// A sentence saying a disk is GELI-encrypted (seed 002: "that on the HDD is on a GELI
/// encrypted partition") when no `geli list` was pasted: the disk is the one the sentence
/// names, else the one identify output shows as rotating (HDD) or not (SSD), else the only
/// disk in the text. Recorded as a GELI layer whose source is the sentence.
pub(super) fn geli_in_prose(sys: &mut SystemFacts, p: &Pasted) {
    if p.blocks.iter().any(|b| b.tool.is(&sources::geli::SPEC)) {
        return;
    }
    let ident: Vec<&Block> = p
        .blocks
        .iter()
        .filter(|b| {
            b.tool.is_any(&[
                &sources::camcontrol_identify::SPEC,
                &sources::camcontrol_identify::ATACONTROL_SPEC,
            ]) && b.device.is_some()
        })
        .collect();
    let rotating = |b: &Block| {
        b.text
            .lines()
            .find(|x| x.starts_with("media RPM"))
            .and_then(|x| x.split_whitespace().last()?.parse::<u32>().ok())
            .is_some_and(|r| r > 1)
    };
    for l in p.lines {
        if !l.text.contains("GELI") || l.text.len() > 400 || tells_of_removal(&l.text) {
            continue;
        }
        let named = l
            .text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
            .find(|w| device_in_args(w).is_some() && !whole_disk(w).is_empty())
            .map(whole_disk);
        let t = l.text.to_ascii_lowercase();
        let disk = named.or_else(|| {
            let pick = if t.contains("hdd") || t.contains("hard disk") || t.contains("harddisk") {
                ident.iter().find(|b| rotating(b))
            } else if t.contains("ssd") {
                ident.iter().find(|b| !rotating(b))
            } else if ident.len() == 1 {
                ident.first()
            } else {
                None
            };
            pick.and_then(|b| b.device.clone())
        });
        let Some(disk) = disk else { continue };
        let from = format!("pasted:prose line {}", l.first);
        let idx = match sys.disks.iter().position(|d| d.name == disk) {
            Some(i) => i,
            None => {
                sys.disks
                    .push(DiskFacts::new(&disk, &format!("/dev/{disk}")));
                sys.disks.len() - 1
            }
        };
        if let Some(d) = sys.disks.get_mut(idx)
            && !d.layers.iter().any(|x| x.kind == Some(LayerKind::Geli))
        {
            d.layers.push(Layer {
                kind: Some(LayerKind::Geli),
                name: format!("{disk} (GELI, as the text says)"),
                on: vec![disk.clone()],
                from: vec![from],
                ..Default::default()
            });
            d.notes.push(format!(
                "GELI layer known only from a sentence (line {}): \"{}\"",
                l.first,
                l.text.trim()
            ));
        }
    }
}

/// Whether a sentence about GELI tells of taking the layer away ("Detaching GELI on
/// ada1p4.eli", an installer wiping the old layout): geli(8)'s detach, kill and clear end a
/// provider's use, so the disk's I/O no longer passes through GELI and the sentence is no
/// evidence of an encryption layer.
fn tells_of_removal(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    // Whole verb forms only: "clearly", "removable" or "killer" tell of no removal.
    const VERBS: &[&str] = &[
        "detach", "kill", "clear", "destroy", "remov", "delet", "wip",
    ];
    const ENDINGS: &[&str] = &["", "e", "s", "es", "ed", "ing", "al"];
    t.split(|c: char| !c.is_ascii_alphabetic()).any(|w| {
        VERBS.iter().any(|verb| {
            w.strip_prefix(verb)
                .is_some_and(|rest| ENDINGS.contains(&rest))
        })
    })
}

/// The answers to the sysfs reads explain asks for (next_commands): a typed
/// `cat /sys/block/sda/queue/write_cache` followed by "write back" / "write through"
/// (Documentation/block/queue-sysfs.rst), `.../device/queue_depth` followed by a number,
/// `.../queue/scheduler` followed by "[mq-deadline] kyber bfq none", and the queue's
/// rotational flag and logical and physical block sizes.
pub(super) fn sysfs_answers(sys: &mut SystemFacts, p: &Pasted) {
    for c in p.commands.iter().filter(|c| c.typed && c.program == "cat") {
        let Some(path) = c
            .text
            .split_whitespace()
            .find(|w| w.starts_with("/sys/block/"))
        else {
            continue;
        };
        let mut parts = path.trim_start_matches("/sys/block/").split('/');
        let (Some(disk), Some(rest)) = (parts.next(), parts.next()) else {
            continue;
        };
        let attr = match (rest, parts.next()) {
            ("queue", Some(a)) | ("device", Some(a)) => a.to_string(),
            _ => continue,
        };
        // The answer: the next non-empty line of the same input.
        let Some(ans) = p
            .lines
            .iter()
            .skip(c.idx.saturating_add(1))
            .take_while(|l| l.src == c.src)
            .find(|l| !l.text.trim().is_empty())
        else {
            continue;
        };
        let a = ans.text.trim();
        let from = format!("pasted:cat {path} line {}", ans.first);
        if disk.is_empty() || !disk.chars().all(|ch| ch.is_ascii_alphanumeric()) {
            continue;
        }
        let Some(d) = disk_mut(sys, disk) else {
            continue;
        };
        match attr.as_str() {
            "write_cache" if a == "write back" => {
                set_if_unknown(&mut d.write_cache_enabled, Some(true), &from)
            }
            "write_cache" if a == "write through" => {
                set_if_unknown(&mut d.write_cache_enabled, Some(false), &from)
            }
            "queue_depth" => {
                set_if_unknown(&mut d.queue_depth, a.parse::<u32>().ok(), &from);
            }
            "scheduler" if a.contains('[') || !a.contains(' ') => {
                set_if_unknown(&mut d.scheduler, Some(a.to_string()), &from);
            }
            "rotational" if a == "0" || a == "1" => {
                set_if_unknown(&mut d.rotational, Some(a == "1"), &from)
            }
            "physical_block_size" => {
                set_if_unknown(&mut d.physical_sector_bytes, a.parse::<u32>().ok(), &from)
            }
            "logical_block_size" => {
                set_if_unknown(&mut d.logical_sector_bytes, a.parse::<u32>().ok(), &from)
            }
            _ => {}
        }
    }
}

/// A pasted listing of disk attributes with their sysfs paths (sources::sysfs_values): the
/// same values the typed `cat` answers above give, by the disk each path names.
pub(super) fn sysfs_listing(sys: &mut SystemFacts, p: &Pasted) {
    for b in p
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::sysfs_values::SPEC))
    {
        for v in sources::sysfs_values::parse(&b.text) {
            let Some(d) = disk_mut(sys, &v.disk) else {
                continue;
            };
            let from = b.key.as_str();
            let a = v.value.as_str();
            let num = || a.parse::<u32>().ok();
            match v.attr.as_str() {
                // Documentation/block/queue-sysfs.rst: "write back" / "write through".
                "queue/write_cache" if a == "write back" => {
                    set_if_unknown(&mut d.write_cache_enabled, Some(true), from)
                }
                "queue/write_cache" if a == "write through" => {
                    set_if_unknown(&mut d.write_cache_enabled, Some(false), from)
                }
                "device/queue_depth" => set_if_unknown(&mut d.queue_depth, num(), from),
                "queue/scheduler" if a.contains('[') || !a.contains(' ') => {
                    set_if_unknown(&mut d.scheduler, Some(a.to_string()), from)
                }
                "queue/rotational" if a == "0" || a == "1" => {
                    set_if_unknown(&mut d.rotational, Some(a == "1"), from)
                }
                "queue/physical_block_size" => {
                    set_if_unknown(&mut d.physical_sector_bytes, num(), from)
                }
                "queue/logical_block_size" => {
                    set_if_unknown(&mut d.logical_sector_bytes, num(), from)
                }
                _ => {}
            }
        }
    }
}

/// smartctl's "/dev/sdd: Unknown USB bridge [0x8564:0x7000 (0x8000)]" (printed before it
/// asks for `-d TYPE`, outside any report) proves the disk sits behind a USB bridge.
pub(super) fn usb_bridge_lines(sys: &mut SystemFacts, lines: &[Line]) {
    for l in lines {
        let t = l.text.trim();
        // "Unsupported USB bridge [...]" is the same lookup's answer for an ID drivedb.h
        // lists as unsupported (smartmontools dev_interface.cpp get_usb_dev_type_by_id).
        let Some((dev, _)) = t
            .split_once(": Unknown USB bridge [")
            .or_else(|| t.split_once(": Unsupported USB bridge ["))
        else {
            continue;
        };
        let Some(name) = dev.strip_prefix("/dev/") else {
            continue;
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
            continue;
        }
        let from = format!("pasted:line {}", l.first);
        if let Some(d) = disk_mut(sys, name) {
            set_if_unknown(&mut d.transport, Some(Transport::Usb), &from);
        }
    }
}

/// smartctl's "/dev/sdc: Unknown USB bridge [0x1e91:0xa4ae (0x100)]" (dev_interface.cpp
/// get_usb_dev_type_by_id: a USB ID drivedb.h does not list) marks the disk's USB controller
/// `usb_bridge_unknown`. Run after the other tools' facts, so the controller the USB
/// listings (lsusb, the kernel log) filled is kept and only flagged. Only "Unknown": an
/// "Unsupported" bridge is one drivedb.h lists as passing no commands, which no `-d` type
/// changes.
pub(super) fn unknown_usb_bridges(sys: &mut SystemFacts, lines: &[Line]) {
    for l in lines {
        let Some((dev, _)) = l.text.trim().split_once(": Unknown USB bridge [") else {
            continue;
        };
        let Some(name) = dev.strip_prefix("/dev/") else {
            continue;
        };
        let from = format!("pasted:line {}", l.first);
        let Some(d) = disk_mut(sys, name) else {
            continue;
        };
        if d.transport.get() != Some(Transport::Usb) {
            continue;
        }
        d.amend_controller(&from, |c| c.usb_bridge_unknown = Some(true));
    }
}

// hdparm's words when the SCSI layer in front of the drive does not carry its ATA
// PASS-THROUGH command (hdparm sgio.c: "SG_IO: bad/missing sense data" when no ATA status
// descriptor came back, "SG_IO: questionable sense data"; identify.c's
// "HDIO_DRIVE_CMD(identify) failed: Invalid argument" when neither SG_IO nor the legacy
// ioctl reaches a drive). On a /dev/sdX disk that is a SCSI-ATA translation that does not
// pass ATA commands: in practice a USB-SATA bridge (a SAS HBA's SATL passes them). Newer
// kernels' libata answers some commands with no sense data at all, which hdparm reports
// with the same words and an all-zero sb[] dump; that alone is not a bridge.
crate::rx!(
    PASSTHROUGH_REFUSED,
    r"SG_IO: (?:bad/missing|questionable) sense data|HDIO_DRIVE_CMD\(identify\) failed: Invalid argument|HDIO_GET_IDENTITY failed: Invalid argument"
);
crate::rx!(HDPARM_DEVICE, r"^\s*/dev/(sd[a-z]+)\d*:\s*$");
// A kernel command line or modprobe option that keeps a USB bridge off UAS:
// "usb-storage.quirks=0bc2:231a:u" (Documentation/admin-guide/kernel-parameters.txt,
// usb-storage.quirks, flag u = IGNORE_UAS).
crate::rx!(
    UAS_QUIRK,
    r"(?:usb[-_]storage\.quirks=|options\s+usb[-_]storage\s+quirks=)[0-9A-Fa-f]{4}:[0-9A-Fa-f]{4}:[a-z]*u"
);

/// The disk a line of hdparm's output is about: the "/dev/sdX:" heading above it (hdparm
/// prints one per device), else the only sdX disk of the paste.
fn hdparm_disk(lines: &[Line], at: usize, sys: &SystemFacts) -> Option<String> {
    let from = at.saturating_sub(6);
    let above = lines.get(from..=at).unwrap_or(&[]);
    if let Some(d) = above.iter().rev().find_map(|l| {
        HDPARM_DEVICE
            .captures(&l.text)
            .and_then(|c| c.get(1))
            .map(|m| m.as_str().to_string())
    }) {
        return Some(d);
    }
    let sd: Vec<&str> = sys
        .disks
        .iter()
        .map(|d| d.name.as_str())
        .filter(|n| n.starts_with("sd"))
        .collect();
    match sd.as_slice() {
        [only] => Some(only.to_string()),
        _ => None,
    }
}

/// hdparm -C's answer with a power state it decoded (hdparm.c: "drive state is:  %s",
/// "active/idle", "standby", "sleeping", "NVcache_spindown", "NVcache_spinup"), not its
/// "unknown" when the command's answer could not be read.
fn decoded_power_state(t: &str) -> bool {
    t.split_once("drive state is:")
        .map(|(_, v)| v.trim())
        .is_some_and(|v| !v.is_empty() && !v.starts_with("unknown"))
}

/// ATA pass-through refused on an sdX disk, and quirks that keep a bridge off UAS: the disk
/// sits behind a USB bridge. Run after the tools' own facts, so a transport a report named
/// (smartctl's SAS, a RAID volume) is kept.
pub(super) fn bridge_refusals(sys: &mut SystemFacts, lines: &[Line]) {
    for (i, l) in lines.iter().enumerate() {
        let t = l.text.as_str();
        let from = format!("pasted:line {}", l.first);
        if PASSTHROUGH_REFUSED.is_match(t) {
            // libata's own translation can answer with no sense at all (an all-zero sb[]
            // dump) while hdparm still decodes the answer ("drive state is: standby"): that
            // is the kernel's SATL, not a bridge. A bridge's answer carries sense bytes
            // without the ATA status descriptor, or leaves the state unknown.
            let zeros = t
                .split_once("sb[]:")
                .is_some_and(|(_, b)| b.split_whitespace().all(|x| x.chars().all(|c| c == '0')));
            let unknown_after = lines.iter().skip(i.saturating_add(1)).take(2).any(|x| {
                x.text.contains("drive state is:  unknown")
                    || x.text.contains("drive state is: unknown")
            });
            if zeros && !unknown_after {
                continue;
            }
            let Some(name) = hdparm_disk(lines, i, sys) else {
                continue;
            };
            // The same disk's power state decoded by another `hdparm -C` of the paste: the
            // path returns the ATA status descriptor hdparm reads (sgio.c accepts only
            // descriptor-format sense, 72h with descriptor 09h), and a bridge's translation
            // does not change between runs, so the failed answer came from something that
            // did: a kernel whose libata answered in fixed format for a while (Linux 6.10's
            // "ata: libata-scsi: Honor the D_SENSE bit for CK_COND=1 and no error", reverted
            // after it broke hdparm), not a bridge.
            let decoded_elsewhere = lines.iter().enumerate().any(|(j, x)| {
                j != i
                    && decoded_power_state(&x.text)
                    && hdparm_disk(lines, j, sys).as_deref() == Some(name.as_str())
            });
            if decoded_elsewhere {
                continue;
            }
            if let Some(d) = disk_mut(sys, &name)
                && d.class.get() != Some(crate::model::DeviceClass::RaidVolume)
            {
                set_if_unknown(&mut d.transport, Some(Transport::Usb), &from);
            }
        } else if UAS_QUIRK.is_match(t) {
            // The drive's own IDENTIFY says SATA (its side of the bridge); the quirk says
            // the host reaches it over USB.
            let sd: Vec<String> = sys
                .disks
                .iter()
                .filter(|d| {
                    d.name.starts_with("sd")
                        && matches!(
                            d.transport.get(),
                            None | Some(Transport::Sata | Transport::Unknown)
                        )
                })
                .map(|d| d.name.clone())
                .collect();
            if let [only] = sd.as_slice()
                && let Some(d) = disk_mut(sys, only)
            {
                d.transport = crate::model::Fact::known(Transport::Usb, from.clone());
                super::linux_text::mark_usb(d, "usb-storage", &from);
            }
        }
    }
}

#[cfg(test)]
mod tests;

/// The DMA state a typed `hdparm -d0 /dev/hda` (or `-d 1`) leaves the disk in, when no
/// `using_dma` read-back of it was pasted: hdparm(8), "-d Disable/enable the using_dma flag
/// for this drive", which only the old IDE driver (drivers/ide) honours, so the disk must be
/// one it names (hdX; an sdX under libata answers with an error and keeps DMA). The last
/// such command per disk is the state the measurements after it ran in (a tip that turns DMA
/// off and then times `hdparm -t`). A read-back of the driver's own state always wins.
pub(super) fn typed_dma_settings(sys: &mut SystemFacts, p: &Pasted) {
    let mut last: Vec<(String, bool, usize)> = Vec::new();
    for c in p
        .commands
        .iter()
        .filter(|c| c.typed && c.program == "hdparm")
    {
        // hdparm's device is its last argument (hdparm [options] [device ...]).
        let Some(dev) = c
            .device
            .as_deref()
            .or_else(|| {
                c.text
                    .split_whitespace()
                    .rev()
                    .find(|w| w.starts_with("/dev/"))
            })
            .map(|d| d.trim_start_matches("/dev/"))
        else {
            continue;
        };
        if !dev.starts_with("hd") {
            continue;
        }
        let words: Vec<&str> = c.text.split_whitespace().collect();
        let value = words.iter().enumerate().find_map(|(i, w)| {
            let v = match w.strip_prefix("-d")? {
                "" => *words.get(i + 1)?,
                v => v,
            };
            match v {
                "0" => Some(false),
                "1" => Some(true),
                _ => None,
            }
        });
        let Some(on) = value else { continue };
        let disk = whole_disk(dev);
        last.retain(|(d, _, _)| *d != disk);
        last.push((disk, on, c.line));
    }
    for (disk, on, line) in last {
        let Some(d) = disk_mut(sys, &disk) else {
            continue;
        };
        if d.ide_dma.is_known() {
            continue;
        }
        d.ide_dma = crate::model::Fact::known(
            crate::model::IdeDma {
                on,
                set_error: None,
            },
            format!("pasted:command line {line}"),
        );
        d.notes.push(format!(
            "DMA {} known from the typed hdparm -d command (line {line}), not from a read-back",
            if on { "on" } else { "off" }
        ));
    }
}
