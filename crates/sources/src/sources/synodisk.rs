//! Synology DSM's own disk tools and their log lines.
//!
//! `synodisk --smart_info_get /dev/DEV` (DSM's disk utility, /usr/syno/bin/synodisk) prints
//! the drive's SMART or NVMe health fields as records of "Name: ...", "Id: N", "Current:
//! ...", "Raw: ...", "Status: OK|Failed" (ATA attributes add "Worst:" and "Threshold:"),
//! each closed by a line of dashes. Its fields are DSM's reading of the drive, and DSM 7.3
//! reads NVMe drives wrongly: every field zero, the temperature 4294967023 C (-273 as an
//! unsigned 32-bit number, i.e. 0 K), "Available Spare ... Status: Failed" because DSM
//! compares a 0 it did not really read (007revad/Synology_HDD_db#534: "synodisk
//! --smart_info_get no longer works" in DSM 7.3, fine in 7.2). So these records are read to
//! be recognised and are not evidence of the drive's health by themselves: `nvme smart-log`
//! or `smartctl -a` read the drive.
//!
//! DSM's daemons log with their source file and line: "synowebapi_SYNO.Storage.CGI.Smart_
//! 1_get_health_info[21402]: smartctl/smartctl_nvme_smart_info_get.c:232 Failed to load
//! attribute DB of disk /dev/nvme0n1" (`NAME[PID]: FILE.c:LINE MESSAGE`, the syslog tag of a
//! syno* program). "Failed to load attribute DB" is DSM not finding the drive in its own
//! drive database (007revad/Synology_HDD_db#348: daily for every NVMe drive not in DSM's
//! compatibility list, harmless), not a drive error.

use crate::sources::{spec, util};

/// One `synodisk --smart_info_get` record.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Record {
    pub name: String,
    pub status: Option<String>,
}

/// "Key: value" of a synodisk record line; the value without the annotations posters add
/// after it ("<-----").
fn field(l: &str) -> Option<(&'static str, String)> {
    let (k, v) = l.trim().split_once(':')?;
    let key = [
        "Name",
        "Id",
        "Current",
        "Worst",
        "Threshold",
        "Raw",
        "Status",
    ]
    .into_iter()
    .find(|w| *w == k.trim_end())?;
    let v = v.split("<-").next().unwrap_or("").trim();
    Some((key, v.to_string()))
}

fn is_dashes(l: &str) -> bool {
    let t = l.trim();
    t.len() >= 5 && t.chars().all(|c| c == '-')
}

/// Every record of a `synodisk --smart_info_get` output.
pub(crate) fn parse(text: &str) -> Vec<Record> {
    let mut out: Vec<Record> = Vec::new();
    let mut cur: Option<Record> = None;
    let mut has_id = false;
    for raw in text.lines() {
        let c = util::clean_line(raw);
        match field(&c) {
            Some(("Name", v)) => {
                if let Some(r) = cur.take().filter(|_| has_id) {
                    out.push(r);
                }
                has_id = false;
                cur = Some(Record {
                    name: v,
                    status: None,
                });
            }
            Some(("Id", v)) => has_id |= v.parse::<u32>().is_ok() && cur.is_some(),
            Some(("Status", v)) => {
                if let Some(r) = cur.as_mut() {
                    r.status = Some(v);
                }
            }
            _ => {}
        }
    }
    if let Some(r) = cur.filter(|_| has_id) {
        out.push(r);
    }
    out
}

/// A record starts at "Name:" with "Id: N" on the next line.
fn start(lines: &[&str]) -> spec::Start {
    let f = |i: usize| lines.get(i).and_then(|l| field(&util::clean_line(l)));
    spec::Start::from(matches!(
        (f(0), f(1)),
        (Some(("Name", _)), Some(("Id", id))) if id.parse::<u32>().is_ok()
    ))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "synodisk",
    starts: &[(40, start)],
    member: |l, _| {
        let c = util::clean_line(l);
        spec::Member::from(field(&c).is_some() || is_dashes(&c))
    },
    tolerance: (1, 0),
    classify: |_, _| "synodisk",
    ..spec::Recogniser::NONE
};

/// `synodisk --smart_info_get` (Synology DSM): pasted beside a question.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    // Complete records: named, with the status synodisk gives each.
    parse: Some(|t| {
        parse(t)
            .iter()
            .filter(|r| !r.name.is_empty() && r.status.is_some())
            .count()
    }),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        p == "synodisk" && a.contains("smart_info")
    })),
    programs: &[spec::Program::new("synodisk", |a| a.starts_with("--"))],
    ..spec::SourceSpec::named("synodisk", "synodisk --smart_info_get (Synology DSM)")
};

// ---- DSM's daemon log lines ----

// "PROGRAM[PID]: DIR/FILE.c:LINE MESSAGE" with a syno* program (synowebapi_..., synostoraged,
// syno_disk_data_collector, synostgd-disk): DSM's own syslog format.
crate::rx!(
    DSM_LINE,
    r"\b(syno[\w.-]*)\[\d+\]: ([\w/.-]+\.(?:c|cpp|cc)):(\d+) (\S.*)$"
);

/// One DSM log message: the program and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DsmMessage {
    pub program: String,
    pub message: String,
}

/// Every DSM daemon line of `text`.
pub(crate) fn parse_log(text: &str) -> Vec<DsmMessage> {
    text.lines()
        .filter_map(|raw| {
            let c = util::clean_line(raw);
            let m = DSM_LINE.captures(c.trim())?;
            Some(DsmMessage {
                program: m.get(1)?.as_str().to_string(),
                message: m.get(4)?.as_str().trim().to_string(),
            })
        })
        .collect()
}

fn is_dsm_line(l: &str) -> bool {
    DSM_LINE.is_match(util::clean_line(l).trim())
}

static LOG_RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "dsm-syslog",
    starts: &[(125, |l| spec::on_first(l, is_dsm_line))],
    member: |l, _| spec::Member::from(is_dsm_line(l)),
    // Lines of other daemons between DSM's in /var/log/messages.
    tolerance: (1, 3),
    classify: |_, _| "dsm-syslog",
    ..spec::Recogniser::NONE
};

/// DSM's daemon log lines (/var/log/messages of a Synology NAS): pasted beside a question.
pub(crate) const LOG_SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| {
        parse_log(t)
            .iter()
            .filter(|m| !m.program.is_empty() && !m.message.is_empty())
            .count()
    }),
    paste: Some(spec::Paste::new(&LOG_RECOGNISER, |p, _| {
        matches!(p, "grep" | "cat" | "tail")
    })),
    ..spec::SourceSpec::named("dsm-syslog", "Synology DSM log lines")
};

#[cfg(test)]
mod tests;
