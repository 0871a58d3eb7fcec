//! lsblk output: `lsblk -J` (plain, `-o COLS` and `-O`; typed values from util-linux 2.33+
//! and the all-strings values of older releases) and the text table (plain, `-o`, all
//! columns) with its ASCII ("|-", "`-") or UTF-8 ("├─", "└─", "│") tree.
//!
//! Reference: lsblk(8) column names (NAME KNAME MAJ:MIN RM SIZE RO TYPE MOUNTPOINT(S) FSTYPE
//! MODEL TRAN ROTA PHY-SEC LOG-SEC MIN-IO OPT-IO ALIGNMENT SCHED RQ-SIZE DISC-MAX HCTL) and
//! its table layout: text columns are left-aligned, numeric columns right-aligned, empty
//! cells are blank, so cells are located by the header's character positions.

use serde_json::Value;

use crate::model::{
    Controller, ControllerMode, DeviceClass, DiskFacts, Layer, LayerKind, Transport,
};
use crate::sources::util::{
    clean_line, fill_unknown, find_json, parse_human_size, raid_volume_product,
};

/// One row of lsblk, flattened in tree order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LsblkDevice {
    /// Name without the tree drawing: sda, sda1, centos-root.
    pub name: String,
    pub kname: Option<String>,
    /// 0 for top-level devices, 1 for their children...
    pub depth: usize,
    /// Name of the device this one is drawn under.
    pub parent: Option<String>,
    /// disk, part, lvm, crypt, raid1, loop, rom.
    pub dev_type: Option<String>,
    pub size_bytes: Option<u64>,
    /// SIZE as printed ("447.1G").
    pub size_text: Option<String>,
    pub rotational: Option<bool>,
    pub removable: Option<bool>,
    pub read_only: Option<bool>,
    pub physical_sector_bytes: Option<u32>,
    pub logical_sector_bytes: Option<u32>,
    pub min_io: Option<u64>,
    pub opt_io: Option<u64>,
    pub alignment: Option<i64>,
    pub scheduler: Option<String>,
    pub rq_size: Option<u32>,
    pub discard_max: Option<String>,
    pub model: Option<String>,
    pub transport: Option<String>,
    pub fstype: Option<String>,
    pub hctl: Option<String>,
    pub mountpoints: Vec<String>,
}

/// Layers that pass no discard although their parent takes them (`lsblk -D`: DISC-MAX 0
/// under a non-zero parent), each as (top-level disk, layer, parent, parent's DISC-MAX as
/// printed). A partition inherits its disk's limits (block/partitions), LVM and md
/// RAID 0/1/10 pass them on; dm-crypt without allow_discards is the layer that shows 0
/// here (drivers/md/dm-crypt.c).
pub fn discard_blocking_layers(devs: &[LsblkDevice]) -> Vec<(String, String, String, String)> {
    let max = |d: &LsblkDevice| d.discard_max.as_deref().and_then(parse_human_size);
    let by_name = |n: &str| devs.iter().find(|d| d.name == n);
    let mut out = Vec::new();
    for d in devs.iter().filter(|d| d.depth > 0 && max(d) == Some(0)) {
        let Some(parent) = d.parent.as_deref().and_then(by_name) else {
            continue;
        };
        if max(parent).is_none_or(|m| m == 0) {
            continue;
        }
        // Walk up to the disk (the tree is finite: each step lowers the depth).
        let mut top = parent;
        while top.depth > 0 {
            match top.parent.as_deref().and_then(by_name) {
                Some(p) if p.depth < top.depth => top = p,
                _ => break,
            }
        }
        out.push((
            top.name.clone(),
            d.name.clone(),
            parent.name.clone(),
            parent.discard_max.clone().unwrap_or_default(),
        ));
    }
    out
}

/// The dm-crypt layers lsblk draws under the top-level device `top`: rows of TYPE "crypt"
/// (lsblk.c names a dm device's type by its dm uuid prefix, and cryptsetup gives every
/// mapping a "CRYPT-..." uuid, LUKS or plain), each on the row it is drawn under. `from` is
/// the capture key.
pub fn crypt_layers(devs: &[LsblkDevice], top: &str, from: &str) -> Vec<Layer> {
    let mut out: Vec<Layer> = Vec::new();
    let mut under_top = false;
    for d in devs {
        if d.depth == 0 {
            under_top = d.name == top;
            continue;
        }
        if !under_top
            || d.dev_type.as_deref() != Some("crypt")
            || out.iter().any(|l| l.name == d.name)
        {
            continue;
        }
        out.push(Layer {
            kind: Some(LayerKind::DmCrypt),
            name: d.name.clone(),
            display_name: Some(format!("/dev/mapper/{}", d.name)),
            on: d.parent.iter().cloned().collect(),
            from: vec![from.to_string()],
            ..Default::default()
        });
    }
    out
}

/// Parse JSON when the text is JSON, else the table. Empty when nothing is recognised.
pub fn parse(text: &str) -> Vec<LsblkDevice> {
    if text.contains("blockdevices")
        && let Some(v) = find_json(text)
    {
        return parse_json(&v);
    }
    let pairs = parse_pairs(text);
    if !pairs.is_empty() {
        return pairs;
    }
    parse_table(text)
}

/// Fill `disk` from the lsblk row of the same name where its facts are still unknown
/// (size, sector sizes, rotational, scheduler, model, transport); `from` is the capture key.
/// Returns false when lsblk has no row for the disk.
pub fn apply(disk: &mut DiskFacts, from: &str, devices: &[LsblkDevice]) -> bool {
    let name = disk.name.clone();
    let Some(d) = devices
        .iter()
        .find(|d| d.name == name || d.kname.as_deref() == Some(name.as_str()))
    else {
        return false;
    };
    // Only exact sizes (lsblk -b); "447.1G" is rounded and would mislead alignment maths.
    fill_unknown(
        &mut disk.size_bytes,
        d.size_bytes.filter(|_| {
            d.size_text
                .as_deref()
                .is_some_and(|s| s.chars().all(|c| c.is_ascii_digit()))
        }),
        from,
    );
    fill_unknown(&mut disk.logical_sector_bytes, d.logical_sector_bytes, from);
    fill_unknown(
        &mut disk.physical_sector_bytes,
        d.physical_sector_bytes,
        from,
    );
    fill_unknown(
        &mut disk.alignment_offset_bytes,
        d.alignment.and_then(|a| u64::try_from(a).ok()),
        from,
    );
    fill_unknown(&mut disk.rotational, d.rotational, from);
    fill_unknown(&mut disk.scheduler, d.scheduler.clone(), from);
    fill_unknown(&mut disk.model, d.model.clone(), from);
    // MODEL is the SCSI product alone (sysfs device/model): a RAID controller's volume
    // names itself there ([`raid_volume_product`]).
    if d.model.as_deref().is_some_and(raid_volume_product) {
        fill_unknown(&mut disk.class, Some(DeviceClass::RaidVolume), from);
    }
    // lsblk TRAN (util-linux misc-utils/lsblk.c get_transport): sata, ata, sas, spi, nvme,
    // usb, virtio, mmc. For a libata host it reads the driver's name (the scsi_host's
    // proc_name): "sata" when it starts with "ahci" or "sata" (sata_nv, sata_sil, ...),
    // "ata" for the other libata drivers, the SFF (IDE-interface) ones: ata_piix, pata_*,
    // ata_generic. "ata" names the controller's driver, not the drive's interface (ata_piix
    // drives the SATA ports of Intel chipsets left in IDE mode), so it is no transport.
    let tran = d.transport.as_deref().and_then(|t| match t {
        "sata" => Some(Transport::Sata),
        "sas" => Some(Transport::Sas),
        "spi" | "fc" | "iscsi" => Some(Transport::Scsi),
        "nvme" => Some(Transport::Nvme),
        "usb" => Some(Transport::Usb),
        "virtio" => Some(Transport::Virtio),
        "mmc" => Some(Transport::Mmc),
        _ => None,
    });
    fill_unknown(&mut disk.transport, tran, from);
    if d.transport.as_deref() == Some("ata") {
        fill_unknown(
            &mut disk.controller,
            Some(Controller {
                mode: Some(ControllerMode::LegacyIde),
                ..Default::default()
            }),
            from,
        );
    }
    // trim-unavailable: DISC-MAX as lsblk -D prints it ("0B", "2G").
    fill_unknown(
        &mut disk.trim.discard_max_bytes,
        d.discard_max.as_deref().and_then(parse_human_size),
        from,
    );
    true
}

// ---------------------------------------------------------------------------------------
// JSON

fn jtext(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(if *b { "1" } else { "0" }.to_string()),
        _ => None,
    }
}

fn jbool(v: Option<&Value>) -> Option<bool> {
    match v? {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim() {
            "1" | "true" => Some(true),
            "0" | "false" => Some(false),
            _ => None,
        },
        Value::Number(n) => n.as_u64().map(|n| n != 0),
        _ => None,
    }
}

fn jnum(v: Option<&Value>) -> Option<u64> {
    match v? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn parse_json(v: &Value) -> Vec<LsblkDevice> {
    let mut out = Vec::new();
    if let Some(arr) = v.get("blockdevices").and_then(Value::as_array) {
        for d in arr {
            walk(d, 0, None, &mut out);
        }
    }
    out
}

fn walk(d: &Value, depth: usize, parent: Option<&str>, out: &mut Vec<LsblkDevice>) {
    if depth > 64 {
        return;
    }
    let name = jtext(d.get("name")).unwrap_or_default();
    let size_text = jtext(d.get("size"));
    let size_bytes = match d.get("size") {
        Some(Value::Number(n)) => n.as_u64(),
        _ => size_text.as_deref().and_then(parse_human_size),
    };
    let mut mountpoints: Vec<String> = d
        .get("mountpoints")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|m| jtext(Some(m))).collect())
        .unwrap_or_default();
    if let Some(m) = jtext(d.get("mountpoint"))
        && !mountpoints.contains(&m)
    {
        mountpoints.push(m);
    }
    out.push(LsblkDevice {
        name: name.clone(),
        kname: jtext(d.get("kname")),
        depth,
        parent: parent.map(str::to_string),
        dev_type: jtext(d.get("type")),
        size_bytes,
        size_text,
        rotational: jbool(d.get("rota")),
        removable: jbool(d.get("rm")),
        read_only: jbool(d.get("ro")),
        physical_sector_bytes: jnum(d.get("phy-sec")).and_then(|n| u32::try_from(n).ok()),
        logical_sector_bytes: jnum(d.get("log-sec")).and_then(|n| u32::try_from(n).ok()),
        min_io: jnum(d.get("min-io")),
        opt_io: jnum(d.get("opt-io")),
        alignment: jnum(d.get("alignment"))
            .and_then(|n| i64::try_from(n).ok())
            .or_else(|| jtext(d.get("alignment")).and_then(|s| s.parse().ok())),
        scheduler: jtext(d.get("sched")),
        rq_size: jnum(d.get("rq-size")).and_then(|n| u32::try_from(n).ok()),
        discard_max: jtext(d.get("disc-max")),
        model: jtext(d.get("model")),
        transport: jtext(d.get("tran")),
        fstype: jtext(d.get("fstype")),
        hctl: jtext(d.get("hctl")),
        mountpoints,
    });
    if let Some(children) = d.get("children").and_then(Value::as_array) {
        for c in children {
            walk(c, depth + 1, Some(&name), out);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Pairs (`lsblk -P`)

/// The rows of `lsblk -P`: one device per line as KEY="value" pairs (lsblk(8) "-P,
/// --pairs": "Produce output in the form of key="value" pairs. All potentially unsafe
/// value characters are hex-escaped (\x<code>)", so a value holds no quote). util-linux
/// 2.37 and later name the columns as shell variables ("MAJ_MIN", "PHY_SEC": libsmartcols
/// scols_table_enable_shellvar), older releases as the table's header ("MAJ:MIN",
/// "PHY-SEC"). The pairs are read into the JSON shape `-J` prints (lowercase names, "-"
/// for "_") and walked like it. -P lists every device flat: a row whose PKNAME names a
/// parent, or a partition or mapping row after a disk, is drawn under it. Lines around
/// the rows (a program's log that ran lsblk, ceph-volume's "stdout NAME=...") are skipped.
fn parse_pairs(text: &str) -> Vec<LsblkDevice> {
    let mut out: Vec<LsblkDevice> = Vec::new();
    let mut top: Option<String> = None;
    for line in text.lines() {
        let Some(row) = LSBLK_PAIRS.captures(line).and_then(|c| c.get(1)) else {
            continue;
        };
        let mut obj = serde_json::Map::new();
        for c in LSBLK_PAIR.captures_iter(row.as_str()) {
            let (Some(k), Some(v)) = (c.get(1), c.get(2)) else {
                continue;
            };
            let key = k.as_str().to_ascii_lowercase().replace('_', "-");
            obj.insert(key, Value::String(v.as_str().to_string()));
        }
        let text_of = |k: &str| jtext(obj.get(k));
        let parent = text_of("pkname").or_else(|| {
            let child =
                text_of("type").is_some_and(|t| !matches!(t.as_str(), "disk" | "loop" | "rom"));
            top.clone().filter(|_| child)
        });
        let (depth, parent) = match parent {
            Some(p) => (1, Some(p)),
            None => {
                top = text_of("name");
                (0, None)
            }
        };
        walk(&Value::Object(obj), depth, parent.as_deref(), &mut out);
    }
    out
}

// ---------------------------------------------------------------------------------------
// Table

struct Col {
    name: String,
    start: usize,
    end: usize,
}

/// Split off the tree drawing; returns (depth, name).
fn untree(cell: &str) -> (usize, String) {
    let mut depth_chars = 0usize;
    let mut name_start = 0usize;
    let chars: Vec<char> = cell.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if matches!(c, '├' | '└' | '│' | '─' | '|' | '`' | '-' | ' ') {
            depth_chars = i + 1;
            continue;
        }
        name_start = i;
        break;
    }
    let name: String = chars.iter().skip(name_start.max(depth_chars)).collect();
    // Each level of the tree is two characters wide ("├─", "│ ", "  ").
    (depth_chars.div_ceil(2), name.trim().to_string())
}

fn parse_table(text: &str) -> Vec<LsblkDevice> {
    let lines: Vec<String> = text.lines().map(clean_line).collect();
    let mut out = Vec::new();
    let mut cols: Vec<Col> = Vec::new();
    let mut stack: Vec<(usize, String)> = Vec::new();
    for l in &lines {
        let chars: Vec<char> = l.chars().collect();
        let trimmed = l.trim_start();
        if trimmed.starts_with("NAME ") || trimmed == "NAME" {
            cols = header_cols(l);
            stack.clear();
            continue;
        }
        if cols.is_empty() {
            // No header pasted: a row in lsblk's default column order is still read.
            if let Some(d) = default_row(l, &mut stack) {
                out.push(d);
            }
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        let cells = split_row(&chars, &cols);
        let get = |n: &str| -> Option<String> {
            cols.iter()
                .position(|c| c.name == n)
                .and_then(|i| cells.get(i).cloned())
                .flatten()
        };
        let Some(name_cell) = cells.first().cloned().flatten() else {
            // A wrapped continuation (MOUNTPOINTS lists one mount per line).
            if let (Some(mp), Some(last)) = (get("MOUNTPOINTS"), out.last_mut()) {
                let last: &mut LsblkDevice = last;
                last.mountpoints.push(mp);
            }
            continue;
        };
        let (depth, name) = untree(&name_cell);
        if name.is_empty() {
            continue;
        }
        while stack.last().is_some_and(|(d, _)| *d >= depth) {
            stack.pop();
        }
        let parent = stack.last().map(|(_, n)| n.clone());
        stack.push((depth, name.clone()));
        let bool01 = |s: Option<String>| match s.as_deref() {
            Some("1") => Some(true),
            Some("0") => Some(false),
            _ => None,
        };
        let size_text = get("SIZE");
        let mut mountpoints = Vec::new();
        if let Some(m) = get("MOUNTPOINTS").or_else(|| get("MOUNTPOINT")) {
            mountpoints.push(m);
        }
        out.push(LsblkDevice {
            name,
            kname: get("KNAME"),
            depth,
            parent,
            dev_type: get("TYPE"),
            size_bytes: size_text.as_deref().and_then(parse_human_size),
            size_text,
            rotational: bool01(get("ROTA")),
            removable: bool01(get("RM")),
            read_only: bool01(get("RO")),
            physical_sector_bytes: get("PHY-SEC").and_then(|s| s.parse().ok()),
            logical_sector_bytes: get("LOG-SEC").and_then(|s| s.parse().ok()),
            min_io: get("MIN-IO").and_then(|s| s.parse().ok()),
            opt_io: get("OPT-IO").and_then(|s| s.parse().ok()),
            alignment: get("ALIGNMENT").and_then(|s| s.parse().ok()),
            scheduler: get("SCHED"),
            rq_size: get("RQ-SIZE").and_then(|s| s.parse().ok()),
            discard_max: get("DISC-MAX"),
            model: get("MODEL"),
            transport: get("TRAN"),
            fstype: get("FSTYPE"),
            hctl: get("HCTL"),
            mountpoints,
        });
    }
    out
}

/// A row of lsblk's default columns (NAME MAJ:MIN RM SIZE RO TYPE MOUNTPOINT(S), lsblk(8)
/// "default output") pasted without its header line, e.g.
/// `  └─sda3_crypt 254:0 0 1.8T 0 crypt /`; None for any other line. `stack` keeps the
/// (depth, name) of the rows above, for the parent.
fn default_row(l: &str, stack: &mut Vec<(usize, String)>) -> Option<LsblkDevice> {
    let c = LSBLK_DEFAULT_ROW.captures(l)?;
    let (depth, name) = untree(c.get(1)?.as_str());
    if name.is_empty() {
        return None;
    }
    while stack.last().is_some_and(|(d, _)| *d >= depth) {
        stack.pop();
    }
    let parent = stack.last().map(|(_, n)| n.clone());
    stack.push((depth, name.clone()));
    let bool01 = |i: usize| c.get(i).map(|m| m.as_str() == "1");
    let size_text = c.get(3).map(|m| m.as_str().to_string());
    let mountpoints = c
        .get(6)
        .map(|m| m.as_str().trim())
        .filter(|m| !m.is_empty())
        .map(|m| vec![m.to_string()])
        .unwrap_or_default();
    Some(LsblkDevice {
        name,
        depth,
        parent,
        dev_type: c.get(5).map(|m| m.as_str().to_string()),
        size_bytes: size_text.as_deref().and_then(parse_human_size),
        size_text,
        removable: bool01(2),
        read_only: bool01(4),
        mountpoints,
        ..Default::default()
    })
}

fn header_cols(l: &str) -> Vec<Col> {
    let chars: Vec<char> = l.chars().collect();
    let mut cols = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars.get(i).is_some_and(|c| *c != ' ') {
            let start = i;
            while chars.get(i).is_some_and(|c| *c != ' ') {
                i += 1;
            }
            cols.push(Col {
                name: chars
                    .get(start..i)
                    .map(|s| s.iter().collect())
                    .unwrap_or_default(),
                start,
                end: i,
            });
        } else {
            i += 1;
        }
    }
    cols
}

/// Cells of a row by header position. A token ending exactly where a header ends belongs
/// to that (right-aligned) column; otherwise to the column whose start it is at or after.
fn split_row(chars: &[char], cols: &[Col]) -> Vec<Option<String>> {
    let mut toks: Vec<(usize, usize, String)> = Vec::new();
    // The NAME cell keeps its tree drawing and ends before the second column's text.
    let mut i = 0;
    let mut first = true;
    while i < chars.len() {
        if chars.get(i) == Some(&' ') && !first {
            i += 1;
            continue;
        }
        let start = i;
        if first {
            // Tree drawing may contain spaces: the name is everything up to the first
            // space after a non-tree character.
            let mut seen_name = false;
            while let Some(c) = chars.get(i) {
                if *c == ' ' && seen_name {
                    break;
                }
                if !matches!(c, '├' | '└' | '│' | '─' | '|' | '`' | '-' | ' ') {
                    seen_name = true;
                }
                i += 1;
            }
            toks.push((
                start,
                i,
                chars
                    .get(start..i)
                    .map(|s| s.iter().collect())
                    .unwrap_or_default(),
            ));
            first = false;
            continue;
        }
        while chars.get(i).is_some_and(|c| *c != ' ') {
            i += 1;
        }
        let tok: String = chars
            .get(start..i)
            .map(|s| s.iter().collect())
            .unwrap_or_default();
        toks.push((start, i, tok));
    }
    let mut cells: Vec<Vec<String>> = vec![Vec::new(); cols.len()];
    let rest = toks.len().saturating_sub(1);
    let aligned = toks
        .iter()
        .skip(1)
        .filter(|(s, e, _)| cols.iter().any(|c| c.end == *e || c.start == *s))
        .count();
    // Whitespace collapsed by a forum or mail client: columns no longer line up, so take
    // the cells in order (correct as long as no cell was empty).
    let sequential = rest + 1 == cols.len() || aligned * 2 < rest;
    for (k, (start, end, tok)) in toks.into_iter().enumerate() {
        let idx = if k == 0 {
            0
        } else if sequential {
            k.min(cols.len().saturating_sub(1))
        } else {
            let overlap = |c: &Col| end.min(c.end).saturating_sub(start.max(c.start));
            cols.iter()
                .position(|c| c.end == end)
                .or_else(|| {
                    cols.iter()
                        .enumerate()
                        .filter(|(_, c)| overlap(c) > 0)
                        .max_by_key(|(_, c)| overlap(c))
                        .map(|(i, _)| i)
                })
                .or_else(|| cols.iter().rposition(|c| c.start <= start))
                .unwrap_or(0)
                .max(1.min(cols.len().saturating_sub(1)))
        };
        if let Some(c) = cells.get_mut(idx) {
            c.push(tok);
        }
    }
    cells
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            let s = v.join(" ");
            // The NAME cell keeps its leading tree indentation (it encodes the depth).
            let s = if i == 0 {
                s.trim_end().to_string()
            } else {
                s.trim().to_string()
            };
            (!s.trim().is_empty()).then_some(s)
        })
        .collect()
}

// ---- the source specs (see sources::spec) ----
use crate::sources::spec;

crate::rx!(
    LSBLK_HDR,
    r"^NAME\s+(MAJ:MIN|KNAME|FSTYPE|SIZE|TYPE|ROTA|PHY-SEC|MODEL|TRAN|ALIGNMENT|LOG-SEC|MIN-IO|SCHED|RM|MOUNTPOINTS?|HCTL|VENDOR|REV|SERIAL|WWN|PKNAME|DISC-MAX|DISC-GRAN)\b.*\b(MAJ:MIN|SIZE|TYPE|ROTA|PHY-SEC|LOG-SEC|MODEL|TRAN|MOUNTPOINTS?|FSTYPE)\b"
);
// lsblk's default columns without the header: tree-drawn NAME, MAJ:MIN, RM (0/1), SIZE
// ("1.8T", "512M", "0B"), RO (0/1), TYPE (lsblk.c: disk, part, rom, loop, lvm, crypt,
// mpath, dmraid, raid1, md, ... the dm uuid prefix lowercased for dm devices), then the
// optional mountpoint.
crate::rx!(
    LSBLK_DEFAULT_ROW,
    r"^([\s├└│─|`-]*[\w.:@+\[\]-]+)\s+\d{1,4}:\d{1,7}\s+([01])\s+(\d+(?:[.,]\d+)?[BKMGTPEZ]?)\s+([01])\s+([a-z][a-z0-9_-]*)(?:\s+(\S.*?))?\s*$"
);
crate::rx!(LSBLK_ROW, r"^[\s├└│─|`-]*[\w.:\[\]-]+\s+(\S+\s+){1,}\S");
// One `lsblk -P` row (group 1), alone or at the end of a log line that carries it: NAME
// first, as lsblk prints its columns in the order asked and every -o list a tool or
// person types starts with it, then at least one more pair.
crate::rx!(
    LSBLK_PAIRS,
    r#"(?:^|\s)(NAME="[^"]*"(?:\s+[A-Z][A-Z0-9:_-]*="[^"]*")+)\s*$"#
);
crate::rx!(LSBLK_PAIR, r#"([A-Z][A-Z0-9:_-]*)="([^"]*)""#);

/// Whether a JSON document is lsblk's (its top-level "blockdevices" array).
pub(crate) fn is_json(head: &str) -> bool {
    head.contains("\"blockdevices\"")
}

/// A headerless paste of the default table: a top-level row (no tree drawing) followed by
/// another row of the same layout. One such line alone is too little to name the tool.
fn start_headerless(lines: &[&str]) -> spec::Start {
    let row = |t: &&str| LSBLK_DEFAULT_ROW.is_match(t);
    spec::Start::from(
        lines
            .first()
            .is_some_and(|t| row(t) && t.starts_with(|c: char| c.is_ascii_alphanumeric()))
            && lines.get(1).is_some_and(row),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "lsblk",
    starts: &[
        (160, |l| spec::on_first(l, |t| LSBLK_HDR.is_match(t))),
        (161, start_headerless),
        (162, |l| spec::on_first(l, |t| LSBLK_PAIRS.is_match(t))),
    ],
    member: |t, _| {
        spec::Member::from(
            LSBLK_PAIRS.is_match(t)
                || (LSBLK_ROW.is_match(t)
                    && !t.starts_with(|c: char| c.is_ascii_uppercase() && t.contains(". "))),
        )
    },
    // A -P row behind a log's header ("[...][ceph_volume.process][INFO  ] stdout NAME=..."):
    // the row alone.
    clean: Some(|t| {
        LSBLK_PAIRS
            .captures(t)
            .and_then(|c| c.get(1))
            .filter(|m| m.start() > 0)
            .map(|m| m.as_str().to_string())
    }),
    classify: |_, _| "lsblk",
    ..spec::Recogniser::NONE
};

/// lsblk(8) table: the SERIAL/WWN/LABEL/UUID columns of `-o`/`-f`, and `-P` pairs (read by
/// report::redact's generic KEY="value" rule).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    fixture_dirs: &["linux/lsblk-o"],
    parse: Some(|t| parse(t).len()),
    secrets: &[
        spec::Secret::Column("LABEL", spec::SecretKind::Label),
        spec::Secret::Column("PARTLABEL", spec::SecretKind::Label),
        spec::Secret::Column("UUID", spec::SecretKind::Uuid),
        spec::Secret::Column("PARTUUID", spec::SecretKind::Uuid),
        spec::Secret::Column("PTUUID", spec::SecretKind::Uuid),
        spec::Secret::Column("SERIAL", spec::SecretKind::Serial),
        spec::Secret::Column("WWN", spec::SecretKind::Wwn),
    ],
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "lsblk")),
    programs: &[spec::Program::new("lsblk", spec::listing_args).deciding_platform()],
    ..spec::SourceSpec::named("lsblk", "lsblk")
};

/// lsblk -J: the same columns as JSON members.
pub const JSON_SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    secrets: &[
        spec::Secret::After("\"serial\"", spec::SecretKind::Serial),
        spec::Secret::After("\"wwn\"", spec::SecretKind::Wwn),
        spec::Secret::After("\"partlabel\"", spec::SecretKind::Label),
        spec::Secret::After("\"label\"", spec::SecretKind::Label),
        spec::Secret::After("\"partuuid\"", spec::SecretKind::Uuid),
        spec::Secret::After("\"ptuuid\"", spec::SecretKind::Uuid),
        spec::Secret::After("\"uuid\"", spec::SecretKind::Uuid),
        spec::Secret::JsonKey("serial", spec::SecretKind::Serial),
        spec::Secret::JsonKey("wwn", spec::SecretKind::Wwn),
        spec::Secret::JsonKey("label", spec::SecretKind::Label),
        spec::Secret::JsonKey("partlabel", spec::SecretKind::Label),
        spec::Secret::JsonKey("uuid", spec::SecretKind::Uuid),
        spec::Secret::JsonKey("partuuid", spec::SecretKind::Uuid),
        spec::Secret::JsonKey("ptuuid", spec::SecretKind::Uuid),
    ],
    paste: Some(spec::Paste {
        owns: Some(is_json),

        ..spec::Paste::new(&super::json_doc::JSON, |p, _| p == "lsblk")
    }),
    ..spec::SourceSpec::named("lsblk-J", "lsblk -J")
};

#[cfg(test)]
mod tests;
