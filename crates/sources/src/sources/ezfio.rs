//! ezFIO (earlephilhower/ezfio, ezfio.py): an NVMe/SATA SSD test suite driving fio. Before
//! its tests it prints "ezFio test parameters:" and right-aligned "Key: value" lines
//! (`CollectSystemInfo`/`CollectDriveInfo`: "Drive: /dev/nvme1n1", "Model: ...",
//! "Serial: ...", "AvailCapacity: 931 GiB", "TestedCapacity: 9 GiB", "CPU: ...",
//! "Cores: 24", "Frequency: 3700", "FIO Version: fio-3.36"), then a results table
//! "Test Description ... BW(MB/s) IOPS Lat(us)" whose rows end in three numbers (or
//! "DONE DONE" for the preconditioning passes). The parameters describe the test, not a
//! problem; the results are fio's, run O_DIRECT on the raw device.

use crate::sources::{spec, util};

/// The parameters and results of one ezFIO run.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct EzfioRun {
    pub drive: Option<String>,
    pub model: Option<String>,
    pub serial: Option<String>,
    pub tested_capacity: Option<String>,
    pub fio_version: Option<String>,
    /// (test description, MB/s, IOPS, latency in microseconds).
    pub results: Vec<(String, f64, f64, f64)>,
}

const KEYS: [&str; 10] = [
    "Drive",
    "Model",
    "Serial",
    "AvailCapacity",
    "TestedCapacity",
    "TestedOffset",
    "CPU",
    "Cores",
    "Frequency",
    "FIO Version",
];

fn param(l: &str) -> Option<(&str, &str)> {
    let (k, v) = l.trim().split_once(": ")?;
    KEYS.contains(&k).then_some((k, v.trim()))
}

/// A result row: a description, then "BW IOPS Lat" as numbers.
fn result(l: &str) -> Option<(String, f64, f64, f64)> {
    let t = util::tokens(l);
    let n = t.len();
    if n < 4 {
        return None;
    }
    let num = |i: usize| t.get(i).and_then(|v| v.parse::<f64>().ok());
    let (bw, iops, lat) = (num(n - 3)?, num(n - 2)?, num(n - 1)?);
    let desc = t.get(..n - 3)?.join(" ");
    (!desc.chars().any(|c| c.is_ascii_digit()) || desc.contains(' '))
        .then_some((desc, bw, iops, lat))
}

/// Every run in the text.
pub fn parse(text: &str) -> Vec<EzfioRun> {
    let mut out: Vec<EzfioRun> = Vec::new();
    for raw in text.lines() {
        let l = util::clean_line(raw);
        if l.trim() == "ezFio test parameters:" {
            out.push(EzfioRun::default());
            continue;
        }
        let Some(r) = out.last_mut() else { continue };
        if let Some((k, v)) = param(&l) {
            let v = Some(v.to_string());
            match k {
                "Drive" => r.drive = v,
                "Model" => r.model = v,
                "Serial" => r.serial = v,
                "TestedCapacity" => r.tested_capacity = v,
                "FIO Version" => r.fio_version = v,
                _ => {}
            }
        } else if let Some(row) = result(&l) {
            r.results.push(row);
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn member(l: &str, _: &spec::BlockState) -> spec::Member {
    let c = util::clean_line(l);
    let t = c.trim();
    spec::Member::from(
        param(t).is_some()
            || result(t).is_some()
            || t.starts_with("Test Description")
            || t.starts_with("---")
            || t.ends_with("DONE")
            || (!t.is_empty() && t.chars().all(|c| c == '*' || c == '-')),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "ezfio",
    starts: &[(40, |lines| {
        spec::on_first(lines, |l| {
            util::clean_line(l).trim() == "ezFio test parameters:"
        })
    })],
    member,
    tolerance: (3, 0),
    classify: |_, _| "ezfio",
    ..spec::Recogniser::NONE
};

/// ezFIO: a measurement people paste, captured by no probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    secrets: &[spec::Secret::Scan(|t| {
        parse(t)
            .iter()
            .filter_map(|r| r.serial.as_deref())
            .filter(|s| !s.is_empty())
            .map(|s| spec::Found::sure(spec::SecretKind::Serial, s))
            .collect()
    })],
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        p == "ezfio.py" || p == "ezfio"
    })),
    programs: &[spec::Program::new("ezfio.py", |a| {
        a.is_empty() || a.starts_with('-')
    })],
    ..spec::SourceSpec::named("ezfio", "ezFIO")
};

#[cfg(test)]
mod tests;
