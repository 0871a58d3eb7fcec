//! `sdparm` (sg3_utils' companion): SCSI mode page fields, `sdparm --get=WCE /dev/sdX`,
//! `sdparm -p po /dev/sdX` (power condition page), `sdparm /dev/sdX` (the common pages).
//! sdparm(8) prints a device line "    /dev/sdb: SEAGATE   ST4000NM0023      0004", a page
//! heading ("Caching (SBC) [ca] mode page:", "Power condition mode page:") and one row per
//! field: "WCE           1  [cha: y, def:  1, sav:  1]" (current value, then whether it is
//! changeable, its default and its saved value).
//!
//! The fields diskdoc reads: WCE (Caching mode page 08h, SBC-3 6.5.5: write cache enable)
//! and the power condition page 1Ah (SPC-4 7.5.13): IDLE_A/IDLE_B/IDLE_C and
//! STANDBY_Y/STANDBY_Z enable bits with their timers IACT/IBCT/ICCT/SYCT/SZCT in units of
//! 100 ms. Standby_z stops the spindle; standby_y slows it.

use crate::model::DriveTimer;
use crate::sources::spec;
use crate::sources::util::clean_line;

// "WCE           1  [cha: y, def:  1, sav:  1]", "SZCT          36000  [cha: y, def:36000, sav:36000]";
// `--get` and older versions print "[cha: y]" or "[cha: n, def:  1]".
crate::rx!(
    FIELD,
    r"^\s*([A-Z][A-Z0-9_]{1,15})\s+(-?\d+)\s+\[cha:\s*[ny](?:,\s*def:\s*-?\d+)?(?:,\s*sav:\s*-?\d+)?\]"
);
// "    /dev/sdi: SEAGATE   ST2000NX0463      NT32"
crate::rx!(DEVICE, r"^\s*(/dev/\S+):\s+(\S.*)$");
crate::rx!(PAGE, r"^\s*[A-Z][\w ()/,-]*\bmode page:?\s*$");

/// What the text says about one device.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sdparm {
    /// The device node of the heading line.
    pub device: Option<String>,
    /// Vendor, product and revision as the heading prints them.
    pub inquiry: Option<String>,
    /// WCE: the drive's volatile write cache is on.
    pub write_cache: Option<bool>,
    /// The power condition page's timers, in page order.
    pub timers: Vec<DriveTimer>,
    /// Fields read.
    pub fields: usize,
}

/// (enable bit, timer field, spins down) of the power condition page's conditions.
const CONDITIONS: &[(&str, &str, bool)] = &[
    ("IDLE_A", "IACT", false),
    ("IDLE_B", "IBCT", false),
    ("IDLE_C", "ICCT", false),
    ("STANDBY_Y", "SYCT", true),
    ("STANDBY_Z", "SZCT", true),
];

pub fn parse(text: &str) -> Sdparm {
    let mut out = Sdparm::default();
    let mut fields: Vec<(String, i64, String)> = Vec::new();
    for raw in text.lines() {
        let l = clean_line(raw);
        if let Some(c) = FIELD.captures(&l) {
            let name = c.get(1).map_or("", |m| m.as_str()).to_string();
            let Some(v) = c.get(2).and_then(|m| m.as_str().parse::<i64>().ok()) else {
                continue;
            };
            fields.push((name, v, l.trim().to_string()));
        } else if let Some(c) = DEVICE.captures(&l)
            && out.device.is_none()
        {
            out.device = c.get(1).map(|m| spec::strip_dev(m.as_str()));
            out.inquiry = c
                .get(2)
                .map(|m| m.as_str().split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    out.fields = fields.len();
    let get = |n: &str| fields.iter().find(|(k, _, _)| k == n);
    out.write_cache = get("WCE").map(|(_, v, _)| *v != 0);
    for (bit, timer, spins_down) in CONDITIONS {
        let (Some((_, on, l1)), Some((_, t, l2))) = (get(bit), get(timer)) else {
            continue;
        };
        let Some(ms) = u64::try_from(*t).ok().and_then(|t| t.checked_mul(100)) else {
            continue;
        };
        out.timers.push(DriveTimer {
            condition: bit.to_string(),
            enabled: *on != 0,
            timer_ms: ms,
            spins_down: *spins_down,
            line: format!("{l1}; {l2}"),
        });
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn is_member(line: &str) -> bool {
    let l = clean_line(line);
    FIELD.is_match(&l) || PAGE.is_match(&l)
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let l = clean_line(first);
    if FIELD.is_match(&l) {
        return spec::Start::Yes;
    }
    // The device heading or a page heading, with a field row within the next lines.
    let heading = PAGE.is_match(&l) || DEVICE.is_match(&l);
    let field_follows = lines
        .iter()
        .skip(1)
        .take(3)
        .any(|x| FIELD.is_match(&clean_line(x)));
    spec::Start::from(heading && field_follows)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "sdparm",
    starts: &[(63, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    tolerance: (1, 0),
    classify: |_, _| "sdparm",
    ..spec::Recogniser::NONE
};

fn text_device(text: &str) -> Option<String> {
    text.lines().map(clean_line).find_map(|l| {
        DEVICE
            .captures(&l)
            .and_then(|c| c.get(1))
            .map(|m| spec::strip_dev(m.as_str()))
    })
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).fields),
    paste: Some(spec::Paste {
        device: Some(text_device),
        one_drive: true,
        ..spec::Paste::new(&RECOGNISER, |p, _| p == "sdparm")
    }),
    programs: &[spec::Program::new("sdparm", |a| {
        a.starts_with('-') || a.starts_with("/dev/")
    })],
    mention: Some(r"sdparm\s+(?:--get|--page|-p|-a)"),
    ..spec::SourceSpec::named("sdparm", "sdparm (SCSI mode pages)")
};

#[cfg(test)]
mod tests;
