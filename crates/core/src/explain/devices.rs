//! Which disk a pasted per-disk output is about when its command line is missing: a
//! smartctl report without `smartctl -a /dev/X`, a `camcontrol identify` whose header says
//! `pass0:`, a bare `hdparm -I` body. The device is inferred from everything in the paste,
//! in this order: a device line just above the block (`/dev/sda` printed by a loop, as
//! hw-probe does); the same drive (serial, else model) in another block that names its disk
//! (an identify and a smartctl of one drive merge into one disk); the FreeBSD boot log or
//! `camcontrol devlist` of the paste, whose `adaN: <MODEL FW>` / `<MODEL FW> at scbusN
//! target T lun L (passN,adaN)` lines tie a model or a pass device to the disk. When
//! nothing names it, the block is attached to one placeholder disk, [`PLACEHOLDER`] ("the
//! pasted disk"), so every check still runs on what is there; a second, different drive
//! (another serial) gets the next placeholder.

use super::recognize::{Block, Recognized, Tool};
use super::segment::Line;
use crate::sources;

pub use crate::facts::PASTED_DISK as PLACEHOLDER;
pub(crate) use crate::facts::is_pasted_disk as is_placeholder;

/// Tools whose output describes one drive (`Paste::one_drive` of their spec).
fn per_disk(tool: Tool) -> bool {
    tool.spec().paste.as_ref().is_some_and(|p| p.one_drive)
}

/// (model, serial) the block states for its drive.
fn identity(b: &Block) -> (Option<String>, Option<String>) {
    let mut model = None;
    let mut serial = None;
    let clean = |v: &str| {
        let v = v
            .trim()
            .trim_matches('"')
            .trim_end_matches(',')
            .trim_matches('"');
        (!v.is_empty() && v != "--" && !v.contains("...")).then(|| v.to_string())
    };
    for l in b.text.lines() {
        let t = l.trim();
        let kv = |k: &str| t.strip_prefix(k).map(str::trim);
        if model.is_none()
            && let Some(v) = kv("Device Model:")
                .or_else(|| kv("Model Number:"))
                .or_else(|| kv("Product:"))
                .or_else(|| kv("device model"))
                .or_else(|| kv("\"model_name\":"))
        {
            model = clean(v);
        }
        if serial.is_none()
            && let Some(v) = kv("Serial Number:")
                .or_else(|| kv("Serial number:"))
                .or_else(|| kv("serial number"))
                .or_else(|| kv("\"serial_number\":"))
        {
            serial = clean(v);
        }
    }
    (model, serial)
}

/// The `passN` a camcontrol identify header names ("pass0: <MODEL FW> ACS-2 ATA SATA 3.x").
fn pass_header(b: &Block) -> Option<String> {
    let first = b.text.lines().next()?.trim();
    let (name, rest) = first.split_once(": <")?;
    let _ = rest;
    (name.starts_with("pass") && name.len() > 4 && name[4..].chars().all(|c| c.is_ascii_digit()))
        .then(|| name.to_string())
}

/// Disk names and what ties them in FreeBSD boot logs and device lists of the paste:
/// (disk, model-with-firmware, pass device).
fn freebsd_inventory(rec: &Recognized) -> Vec<(String, Option<String>, Option<String>)> {
    let mut out: Vec<(String, Option<String>, Option<String>)> = Vec::new();
    for b in &rec.blocks {
        match b.tool {
            t if t.is(&sources::dmesg::SPEC) => {
                for l in b.text.lines() {
                    let t = l.trim();
                    // "ada1: <ST3200822AS 3.02> ATA-6 SATA 1.x device"
                    if let Some((name, rest)) = t.split_once(": <")
                        && is_disk(name)
                        && let Some((inq, _)) = rest.split_once('>')
                        && !out.iter().any(|(n, _, _)| n == name)
                    {
                        out.push((name.to_string(), Some(inq.trim().to_string()), None));
                    }
                }
            }
            t if t.is(&sources::camcontrol_devlist::SPEC) => {
                for l in b.text.lines() {
                    // "<Samsung SSD 860 EVO mSATA 1TB RVT41B6Q>  at scbus1 target 0 lun 0 (ada0,pass0)"
                    let t = l.trim();
                    let Some(inq) = t
                        .strip_prefix('<')
                        .and_then(|r| r.split_once('>'))
                        .map(|x| x.0)
                    else {
                        continue;
                    };
                    let Some(devs) = t.rsplit_once('(').and_then(|(_, r)| r.strip_suffix(')'))
                    else {
                        continue;
                    };
                    let names: Vec<&str> = devs.split(',').map(str::trim).collect();
                    let disk = names.iter().find(|n| is_disk(n));
                    let pass = names.iter().find(|n| n.starts_with("pass"));
                    if let Some(d) = disk
                        && !out.iter().any(|(n, _, _)| n == d)
                    {
                        out.push((
                            d.to_string(),
                            Some(inq.trim().to_string()),
                            pass.map(|p| p.to_string()),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

fn is_disk(name: &str) -> bool {
    let prefix = name.trim_end_matches(|c: char| c.is_ascii_digit());
    prefix.len() < name.len() && matches!(prefix, "ada" | "ad" | "da" | "nda" | "nvd")
}

/// A `/dev/X` alone on one of the lines just above the block (hw-probe prints the device
/// before each smartctl report; loops in forum posts do the same), or smartctl's own
/// "/dev/sde: Unknown USB bridge [...]" message a few lines above a report pasted without
/// its command line.
fn device_line_above(b: &Block, lines: &[Line]) -> Option<String> {
    let start = b.idx.0;
    let mut nonblank = 0;
    for back in 1..=4 {
        let l = lines.get(start.checked_sub(back)?)?;
        if l.src != b.src {
            return None;
        }
        let t = l.text.trim();
        if t.is_empty() {
            continue;
        }
        nonblank += 1;
        let alone = t.trim_end_matches(':');
        let named = alone
            .strip_prefix("/dev/")
            .filter(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_alphanumeric()))
            .or_else(|| {
                t.split_once(": Unknown USB bridge [")
                    .and_then(|(d, _)| d.strip_prefix("/dev/"))
                    .filter(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_alphanumeric()))
            });
        if let Some(d) = named {
            return Some(d.to_string());
        }
        if nonblank >= 2 {
            return None;
        }
    }
    None
}

/// Give every per-disk block a device (see the module docs); returns notes saying what was
/// inferred, for the reader.
pub(crate) fn infer(rec: &mut Recognized, lines: &[Line]) -> Vec<String> {
    let mut notes = Vec::new();
    let inventory = freebsd_inventory(rec);
    let ids: Vec<(Option<String>, Option<String>)> = rec.blocks.iter().map(identity).collect();
    let mut placeholders: Vec<(Option<String>, Option<String>, String)> = Vec::new();
    for i in 0..rec.blocks.len() {
        let Some(b) = rec.blocks.get(i) else { continue };
        if !per_disk(b.tool) || b.device.is_some() {
            continue;
        }
        let (model, serial) = ids.get(i).cloned().unwrap_or((None, None));
        let same_drive = |j: usize| {
            let (m, s) = ids.get(j).cloned().unwrap_or((None, None));
            match (&serial, &s) {
                (Some(a), Some(b)) => a == b,
                _ => model.is_some() && model == m,
            }
        };
        let mut why = String::new();
        let mut dev = device_line_above(b, lines).inspect(|_| {
            why = "the device line above it".to_string();
        });
        if dev.is_none() {
            dev = rec
                .blocks
                .iter()
                .enumerate()
                .filter(|(j, o)| *j != i && o.device.is_some() && per_disk(o.tool))
                .find(|(j, _)| same_drive(*j))
                .and_then(|(_, o)| o.device.clone())
                .inspect(|_| why = "the same drive (serial/model) in another output".to_string());
        }
        if dev.is_none() && model.is_none() && serial.is_none() {
            // A fragment that names no drive at all (attribute rows cut out of a report),
            // in a paste whose named per-disk outputs all describe one disk: that disk.
            let mut named = rec
                .blocks
                .iter()
                .filter(|o| per_disk(o.tool))
                .filter_map(|o| o.device.clone());
            if let Some(first) = named.next()
                && named.all(|n| n == first)
            {
                why = "the only disk the other outputs of the paste describe".to_string();
                dev = Some(first);
            }
        }
        if dev.is_none() {
            let pass = pass_header(b);
            dev = inventory
                .iter()
                .find(|(_, inq, p)| {
                    pass.is_some() && p == &pass
                        || model.as_deref().is_some_and(|m| {
                            inq.as_deref().is_some_and(|q| {
                                q == m || q.strip_prefix(m).is_some_and(|r| r.starts_with(' '))
                            })
                        })
                })
                .map(|(n, _, _)| n.clone())
                .inspect(|_| {
                    why = "the boot log or device list of the paste (same model or pass device)"
                        .to_string()
                });
        }
        let dev = match dev {
            Some(d) => d,
            None => {
                let found = placeholders.iter().find(|(m, s, _)| match (&serial, s) {
                    (Some(a), Some(b)) => a == b,
                    (None, _) | (_, None) => model.is_none() || m.is_none() || *m == model,
                });
                let name = match found {
                    Some((_, _, n)) => n.clone(),
                    None => {
                        let n = if placeholders.is_empty() {
                            PLACEHOLDER.to_string()
                        } else {
                            format!("{PLACEHOLDER}{}", placeholders.len() + 1)
                        };
                        placeholders.push((model.clone(), serial.clone(), n.clone()));
                        n
                    }
                };
                why = "nothing in the paste names its disk: it stands for \"the pasted disk\""
                    .to_string();
                name
            }
        };
        if let Some(b) = rec.blocks.get_mut(i) {
            notes.push(format!(
                "{} (lines {}-{}) is taken to be about {dev}: {why}",
                b.tool.display(),
                b.first,
                b.last
            ));
            b.device = Some(dev);
        }
    }
    notes
}

/// A command names the placeholder as [`super::DISK_PLACEHOLDER`] (`/dev/DISK`, which the
/// poster fills in); prose says "the disk you pasted". `pasted-disk2` is the second drive.
fn placeholder_in(text: &str, command: bool) -> String {
    super::segment::rx!(NAME, r"(/dev/)?\bpasted-disk(\d*)\b");
    if !text.contains(PLACEHOLDER) {
        return text.to_string();
    }
    NAME.replace_all(text, |c: &regex::Captures| {
        let n = c.get(2).map(|m| m.as_str()).unwrap_or("");
        if command {
            format!(
                "{}{}{n}",
                c.get(1).map(|m| m.as_str()).unwrap_or(""),
                super::DISK_PLACEHOLDER
            )
        } else if n.is_empty() {
            "the disk you pasted".to_string()
        } else {
            format!("the disk you pasted (drive {n})")
        }
    })
    .into_owned()
}

/// How the answer speaks of a disk the paste does not name: never the internal name in a
/// command a reader would run (`smartctl -t long /dev/DISK`, filled in by the poster), "the
/// disk you pasted" in sentences, and for evidence the pasted lines it was read from rather
/// than a capture key whose command nobody ran (`cmd:smartctl -j -a /dev/pasted-disk`).
pub(crate) fn speak_of_placeholders(
    findings: &mut [crate::checks::Finding],
    used: &[super::bundle::Used],
) {
    for f in findings.iter_mut() {
        f.title = placeholder_in(&f.title, false);
        f.explanation = placeholder_in(&f.explanation, false);
        for e in &mut f.evidence {
            if e.source.contains(PLACEHOLDER) {
                e.source = match used.iter().find(|u| u.key == e.source) {
                    Some(u) => format!("pasted:{} lines {}-{}", u.tool.id(), u.first, u.last),
                    None => placeholder_in(&e.source, false),
                };
            }
            e.value = placeholder_in(&e.value, false);
        }
        for x in &mut f.fixes {
            x.summary = placeholder_in(&x.summary, false);
            x.risk = placeholder_in(&x.risk, false);
            for s in &mut x.steps {
                *s = placeholder_in(s, true);
            }
        }
    }
}

/// The same wording for a line of prose (notes, missing facts).
pub(crate) fn placeholder_prose(text: &str) -> String {
    placeholder_in(text, false)
}

#[cfg(test)]
mod tests;
