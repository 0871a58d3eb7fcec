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
        let t: Vec<&str> = l.split_whitespace().collect();
        if t.len() >= 10 && t.first()?.parse::<u64>().ok()? == id && t.get(2)?.starts_with("0x") {
            leading_u64(t.get(9)?)
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn text_and_json() {
        let t = "193 Load_Cycle_Count        0x0032   198   198   000    Old_age   Always       -       7282\n";
        assert_eq!(super::ata_raw(t, 193), Some(7282));
        assert_eq!(super::ata_raw(t, 9), None);
        let j = r#"{"ata_smart_attributes":{"table":[{"id":193,"raw":{"value":1239994}}]}}"#;
        assert_eq!(super::ata_raw(j, 193), Some(1239994));
        assert_eq!(super::ata_raw("193 x", 193), None);
    }
}
