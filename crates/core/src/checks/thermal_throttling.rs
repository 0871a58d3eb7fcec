//! `thermal-throttling`: the drive is, or has been, hot enough to slow itself down.
//! NVMe Base spec: Identify Controller WCTEMP/CCTEMP (warning and critical composite
//! temperature thresholds), log page 02h Composite Temperature, Temperature Sensors 1-8,
//! Warning/Critical Composite Temperature Time (minutes, lifetime), Critical Warning bit 1,
//! and Thermal Management Temperature 1/2 Transition Counts and Total Times (host-controlled
//! thermal management: TMT1 is light throttling, TMT2 heavy). The log's counters are
//! lifetime totals: they prove throttling happened, not that it happens now.

use crate::checks::common::{self, is_nvme};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::{Platform, TestName};
use crate::facts::{DiskFacts, Fact, NvmeHealth, SystemFacts};

pub const ID: &str = "thermal-throttling";

pub(crate) struct ThermalThrottling;

impl Check for ThermalThrottling {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "Temperature"
    }
    fn summary(&self) -> &'static str {
        "NVMe temperature at or above its warning/critical threshold, time spent there, thermal-management throttling counts"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        common::disks(sys)
            .filter_map(|d| match &d.nvme_health {
                Fact::Known { value, .. } if is_nvme(d) && value.temperature_c.is_some() => {
                    Some(judge(sys, d, value))
                }
                _ if d.temp_samples_c.len() == 2 => {
                    // A drive without an NVMe log (SATA with drivetemp): only the samples.
                    let h = NvmeHealth {
                        temperature_c: d.temp_samples_c.last().copied(),
                        ..Default::default()
                    };
                    Some(judge(sys, d, &h))
                }
                _ => None,
            })
            .collect()
    }
}

fn value(h: &NvmeHealth) -> String {
    let o = |v: Option<i64>| v.map(|x| x.to_string()).unwrap_or("-".into());
    let u = |v: Option<u64>| v.map(|x| x.to_string()).unwrap_or("-".into());
    format!(
        "temperature={}C warning={}C critical={}C sensors={:?} warning_time_min={} \
         critical_time_min={} tmt1={}x/{}s tmt2={}x/{}s",
        o(h.temperature_c),
        o(h.warning_temp_c),
        o(h.critical_temp_c),
        h.sensors_c,
        u(h.warning_temp_minutes),
        u(h.critical_temp_minutes),
        u(h.tmt1_count),
        u(h.tmt1_seconds),
        u(h.tmt2_count),
        u(h.tmt2_seconds)
    )
}

pub(crate) fn judge(sys: &SystemFacts, d: &DiskFacts, h: &NvmeHealth) -> Finding {
    let t = h.temperature_c.unwrap_or(0);
    let mut items: Vec<(Severity, String)> = Vec::new();
    if let Some(c) = h.critical_temp_c.filter(|c| *c > 0 && t >= *c) {
        items.push((
            Severity::Critical,
            format!("it is {t} °C now, at or above its critical threshold of {c} °C"),
        ));
    } else if let Some(w) = h.warning_temp_c.filter(|w| *w > 0 && t >= *w) {
        items.push((Severity::Warning, format!("it is {t} °C now, at or above its warning threshold of {w} °C, where drives throttle")));
    }
    if h.critical_warning.is_some_and(|c| c & 0x02 != 0) {
        items.push((
            Severity::Warning,
            "its critical-warning temperature bit is set".into(),
        ));
    }
    if let Some(m) = h.critical_temp_minutes.filter(|m| *m > 0) {
        items.push((
            Severity::Warning,
            format!("it has spent {m} minutes at or above its critical temperature"),
        ));
    }
    if let Some(m) = h.warning_temp_minutes.filter(|m| *m > 0) {
        items.push((
            Severity::Notice,
            format!("it has spent {m} minutes at or above its warning temperature"),
        ));
    }
    let tm: Vec<String> = [
        (
            h.tmt1_count,
            h.tmt1_seconds,
            "light (TMT1)",
            LONE_TRANSITION_S,
        ),
        (
            h.tmt2_count,
            h.tmt2_seconds,
            "heavy (TMT2)",
            LONE_HEAVY_TRANSITION_S,
        ),
    ]
    .iter()
    .filter_map(|(c, s, what, lone)| {
        // One lifetime entry into throttling that lasted under a minute (or whose time the
        // log does not give) is a moment of heat, not a drive that slows itself: the
        // healthy ADATA IM2P33F8 of tests/fixtures (546 power-on hours) shows exactly one.
        c.filter(|c| *c > 1 || (*c == 1 && s.is_some_and(|s| s >= *lone)))
            .map(|c| {
                format!(
                    "{c} times into {what} throttling{}",
                    s.map(|s| format!(", {s} s in all")).unwrap_or_default()
                )
            })
    })
    .collect();
    if !tm.is_empty() {
        items.push((
            Severity::Notice,
            format!("its thermal management has stepped in {}", tm.join(" and ")),
        ));
    }
    if let (Some(hot), Some(w)) = (h.sensors_c.iter().max(), h.warning_temp_c)
        && *hot >= w
        && t < w
    {
        items.push((Severity::Notice, format!("one sensor reads {hot} °C, above the {w} °C warning threshold, while the composite is {t} °C")));
    }
    if let Some(s) = heated_and_slowed(sys, d) {
        items.push((Severity::Warning, s));
    }
    let v = value(h);
    let cite = |f: Finding| common::cite(f, &d.nvme_health, v.clone());
    let Some(worst) = items.iter().map(|(s, _)| *s).max() else {
        return cite(
            common::pass(ID, d, format!("{t} °C, no thermal throttling recorded")).explain(
                format!(
                    "The drive reads {t} °C{}; its log records no time above the thresholds and no \
                 thermal-management transitions.",
                    h.warning_temp_c
                        .map(|w| format!(" (warning threshold {w} °C)"))
                        .unwrap_or_default()
                ),
            ),
        );
    };
    let now = items
        .iter()
        .any(|(_, s)| s.contains(" now,") || s.contains("while the drive warmed"));
    let mut expl = format!(
        "The drive's health log says {}. ",
        items
            .iter()
            .map(|(_, s)| s.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    );
    expl.push_str(if now {
        "A hot NVMe drive lowers its own speed, often to a fraction, until it cools: reads and \
         writes measured now are throttled. "
    } else {
        "These are lifetime counters: the drive has slowed itself for heat before; under long \
         writes it will again unless it is cooled better. "
    });
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        worst,
        if now {
            format!("{}: {t} °C, the drive is throttling", d.name)
        } else {
            format!("{}: the drive has throttled for heat", d.name)
        },
    )
    .explain(expl)
    .confidence(Confidence::Medium)
    .impact(if now { 0.6 } else { 0.2 });
    f = cite(f);
    f.fix(fix(sys.platform, d))
}

/// A single thermal-management transition counts only when it lasted this long (seconds):
/// ten minutes, a long session of sustained writes held back. A lone shorter episode in the
/// drive's life (an NVMe drive of 436 power-on hours with one 84 s transition, a healthy control
/// of the reviewed corpus's batch 21) is a moment of heat, and cannot explain a disk that is
/// slow now; repeated transitions can, whatever their length.
const LONE_TRANSITION_S: u64 = 600;

/// The same for heavy throttling (TMT2, NVMe 1.3 section 8.4.5 "Host Controlled Thermal
/// Management": the drive takes stronger measures, at a larger cost in speed), for which a
/// lone minute already matters.
const LONE_HEAVY_TRANSITION_S: u64 = 60;

/// The temperature rose by at least this much between the samples before and after the tests.
const ROSE_C: i64 = 10;

/// "throughput dropped from A to B while the temperature rose from X to Y": the same test
/// kind run more than once, its last run under 70 % of its first, and the drive 10 °C warmer
/// (solid-state drives only).
fn heated_and_slowed(sys: &SystemFacts, d: &DiskFacts) -> Option<String> {
    let [before, after] = d.temp_samples_c.as_slice() else {
        return None;
    };
    if after.checked_sub(*before)? < ROSE_C {
        return None;
    }
    // An HDD's inner zones are slower by design: only solid-state drives are compared.
    if common::media(d) != Some(common::Media::Ssd) {
        return None;
    }
    let rs = crate::checks::measured_common::by_disk(sys).remove(&d.name)?;
    let ok: Vec<_> = rs
        .iter()
        .filter(|r| r.error.is_none() && r.bytes_per_sec > 0.0)
        .collect();
    for kind in [TestName::SeqRead, TestName::SeqWrite] {
        let same: Vec<_> = ok.iter().filter(|r| r.test == kind).collect();
        if let (Some(first), Some(last)) = (same.first(), same.last())
            && same.len() >= 2
            && last.bytes_per_sec < first.bytes_per_sec * 0.7
        {
            return Some(format!(
                "during the tests {kind} throughput dropped from {} to {} while the drive \
                 warmed from {before} °C to {after} °C",
                crate::checks::measured_common::mbps(first.bytes_per_sec),
                crate::checks::measured_common::mbps(last.bytes_per_sec)
            ));
        }
    }
    None
}

fn fix(platform: Platform, d: &DiskFacts) -> Fix {
    let c =
        crate::plan::device_state::nvme_controller(&d.name).unwrap_or_else(|| "/dev/nvme0".into());
    let watch = match platform {
        Platform::Freebsd => {
            "Watch it under load: `nvmecontrol logpage -p 2 nvme0` (Temperature)".to_string()
        }
        _ => {
            format!("Watch it under load: `sudo nvme smart-log {c} | grep -i temp` (or `sensors`)")
        }
    };
    Fix {
        platform,
        summary: "cool the drive".into(),
        steps: vec![
            watch,
            "Fit an M.2 heatsink (many boards ship one under the slot cover), remove the \
             sticker only if the vendor says so, and give the slot airflow"
                .into(),
            "Keep it away from the GPU's exhaust; in laptops, clean the fan and vents".into(),
        ],
        risk: "none to the data; a heatsink must not press on components beside the slot".into(),
    }
}

#[cfg(test)]
mod tests;
