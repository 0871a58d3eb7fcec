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
        if !l.text.contains("GELI") || l.text.len() > 400 {
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

/// The answers to the sysfs reads explain asks for (next_commands): a typed
/// `cat /sys/block/sda/queue/write_cache` followed by "write back" / "write through"
/// (Documentation/block/queue-sysfs.rst), `.../device/queue_depth` followed by a number,
/// `.../queue/scheduler` followed by "[mq-deadline] kyber bfq none".
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
            _ => {}
        }
    }
}

/// smartctl's "/dev/sdd: Unknown USB bridge [0x8564:0x7000 (0x8000)]" (printed before it
/// asks for `-d TYPE`, outside any report) proves the disk sits behind a USB bridge.
pub(super) fn usb_bridge_lines(sys: &mut SystemFacts, lines: &[Line]) {
    for l in lines {
        let t = l.text.trim();
        let Some((dev, _)) = t.split_once(": Unknown USB bridge [") else {
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
