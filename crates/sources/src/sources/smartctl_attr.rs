//! One ATA SMART attribute's raw value from smartctl output: `-j` JSON
//! (`ata_smart_attributes.table[].id` / `.raw.value`) or the text attribute table (columns
//! ID# ATTRIBUTE_NAME FLAG VALUE WORST THRESH TYPE UPDATED WHEN_FAILED RAW_VALUE). Used for
//! attributes the SMART summary does not keep: 193 Load_Cycle_Count (head load/unload
//! cycles; ATA/ACS has no standard meaning for vendor attributes, smartmontools' drivedb
//! names them).

use serde_json::Value;

use crate::model::Smart;
use crate::sources::util::{clean_line, find_json, leading_u64};

/// Put an attribute's raw value where the checks read it (ids as in smartmontools'
/// drivedb.h defaults). The ids are the drive's, not a tool's: smartctl's tables and
/// atacontrol(8)'s `smart` listing both fill them in here.
pub(crate) fn set_attr(s: &mut Smart, id: u64, raw: Option<u64>) {
    let Some(raw) = raw else { return };
    match id {
        5 => s.reallocated_sectors = Some(raw),
        9 => s.power_on_hours = s.power_on_hours.or(Some(raw)),
        187 => s.reported_uncorrect = Some(raw),
        197 => s.pending_sectors = Some(raw),
        198 => s.offline_uncorrectable = Some(raw),
        199 => s.udma_crc_errors = Some(raw),
        _ => {}
    }
}

/// The raw value of attribute `id`, if the output has it.
pub fn ata_raw(output: &str, id: u64) -> Option<u64> {
    if output.contains("ata_smart_attributes")
        && let Some(v) = find_json(output)
    {
        return v
            .get("ata_smart_attributes")?
            .get("table")?
            .as_array()?
            .iter()
            .find(|r| r.get("id").and_then(Value::as_u64) == Some(id))?
            .get("raw")?
            .get("value")?
            .as_u64();
    }
    output.lines().find_map(|l| {
        let l = clean_line(l);
        row_raw(&l.split_whitespace().collect::<Vec<_>>(), id)
    })
}

/// The raw value of attribute `id` on one row of smartctl's text attribute table, split
/// into words: the long form of `-A` (ataprint.cpp PrintSmartAttribWithThres: ID NAME
/// 0xFLAG VALUE WORST THRESH TYPE UPDATED WHEN_FAILED RAW) or the brief form of `-x` (ID NAME
/// FLAGS VALUE WORST THRESH FAIL RAW, the flags spelled as the letters "PO--CK", one per
/// bit, '-' for a clear one).
fn row_raw(t: &[&str], id: u64) -> Option<u64> {
    if t.first()?.parse::<u64>().ok()? != id {
        return None;
    }
    let flags = t.get(2)?;
    let brief = flags.trim_end_matches('+').len() == 6
        && flags
            .trim_end_matches('+')
            .chars()
            .zip("POSRCK".chars())
            .all(|(c, f)| c == f || c == '-');
    if t.len() >= 10 && flags.starts_with("0x") {
        leading_u64(t.get(9)?)
    } else if t.len() >= 8 && brief {
        leading_u64(t.get(7)?)
    } else {
        None
    }
}

/// A time of day a poster wrote on its own line between repeated readings (a `date`, or a
/// bare stamp): "00.05.00h", "14:18", "14:18:07", "Fri Oct 31 00:15:00 CET 2008".
/// Seconds since midnight.
fn time_of_day(line: &str) -> Option<u32> {
    let t = line.trim().trim_end_matches('h');
    let words: Vec<&str> = t.split_whitespace().collect();
    // A bare stamp, or date(1)'s default format with the clock as its fourth word.
    let clock = match words.as_slice() {
        [one] => *one,
        [_, _, _, c, ..] if words.len() <= 6 => *c,
        _ => return None,
    };
    let parts: Vec<&str> = clock.split([':', '.']).collect();
    if !(2..=3).contains(&parts.len())
        || parts
            .iter()
            .any(|p| p.is_empty() || p.len() > 2 || !p.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let n = |i: usize| parts.get(i).and_then(|p| p.parse::<u32>().ok());
    let (h, m, s) = (n(0)?, n(1)?, n(2).unwrap_or(0));
    (h < 24 && m < 60 && s < 60).then(|| h * 3600 + m * 60 + s)
}

/// Every reading of text attribute `id` in the output, in order, each with the time of day
/// written on a line of its own between it and the previous reading (None when there is
/// none): a poster who runs `smartctl -A | grep Load_Cycle` several times and notes the
/// time. Only text tables (a JSON document holds one reading).
pub(crate) fn ata_raw_timed(output: &str, id: u64) -> Vec<(Option<u32>, u64)> {
    let mut out = Vec::new();
    let mut stamp: Option<u32> = None;
    for l in output.lines() {
        let l = clean_line(l);
        let t: Vec<&str> = l.split_whitespace().collect();
        if let Some(v) = row_raw(&t, id) {
            out.push((stamp.take(), v));
        } else if let Some(s) = time_of_day(&l) {
            stamp = Some(s);
        }
    }
    out
}

/// How attribute `id` grew between the first and the last of its readings that have a time
/// of day before them ([`ata_raw_timed`]): None with fewer than two such readings, a count
/// that went down, or no time between them. A stamp earlier than the one before it is the
/// next day (people watch a counter for minutes or hours, not days).
pub fn watched(output: &str, id: u64) -> Option<crate::model::WatchedLoadCycles> {
    let timed: Vec<(u32, u64)> = ata_raw_timed(output, id)
        .into_iter()
        .filter_map(|(t, v)| Some((t?, v)))
        .collect();
    let (&(_, first), &(_, last)) = (timed.first()?, timed.last()?);
    let mut seconds: u32 = 0;
    for w in timed.windows(2) {
        let (a, b) = (w.first()?.0, w.get(1)?.0);
        let step = if b >= a {
            b - a
        } else {
            b.checked_add(86_400)?.checked_sub(a)?
        };
        seconds = seconds.checked_add(step)?;
    }
    (seconds > 0 && last >= first).then_some(crate::model::WatchedLoadCycles {
        first,
        last,
        seconds,
    })
}

#[cfg(test)]
mod tests;
