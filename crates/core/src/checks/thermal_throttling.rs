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
mod tests {
    use super::*;

    #[test]
    fn one_short_transition_is_not_throttling() {
        let base = NvmeHealth {
            temperature_c: Some(30),
            warning_temp_c: Some(83),
            critical_temp_c: Some(85),
            ..Default::default()
        };
        let d = crate::checks::testutil_nvme::nvme_ssd();
        let sys = crate::checks::testutil::linux(d.clone());
        for (count, secs, fires) in [
            (Some(1), None, false),
            (Some(1), Some(12), false),
            (Some(1), Some(84), false),
            (Some(1), Some(599), false),
            (Some(1), Some(600), true),
            (Some(8), Some(12), true),
        ] {
            let h = NvmeHealth {
                tmt1_count: count,
                tmt1_seconds: secs,
                ..base.clone()
            };
            let f = judge(&sys, &d, &h);
            assert_eq!(
                f.verdict == Verdict::Problem,
                fires,
                "{count:?} {secs:?}: {f:#?}"
            );
        }
    }
    use crate::checks::testutil::*;
    use crate::checks::testutil_nvme::{fixture, nvme_ssd};
    use crate::sources::nvme_smart;

    fn with(rel: &str) -> SystemFacts {
        let mut d = nvme_ssd();
        d.nvme_health = Fact::known(
            nvme_smart::parse(&fixture(rel)).unwrap_or_default(),
            format!("pasted:{rel}"),
        );
        linux(d)
    }

    #[test]
    fn transitions_fire_notice() {
        let f = &ThermalThrottling.run(&with(
            "linux/smartctl/a-nvme-wd-sn730-thermal-transitions-t1-3-t2-1-bbcode.txt",
        ))[0];
        assert_vs(f, Verdict::Problem, Severity::Notice);
        assert!(
            f.explanation
                .contains("3 times into light (TMT1) throttling, 584 s"),
            "{}",
            f.explanation
        );
        assert!(f.explanation.contains("1 times into heavy (TMT2)"));
        let f = &ThermalThrottling.run(&with(
            "smartctl-nvme/a-nvme-crucial-p3-500g-warning-temp-time-2-tmt1-8-excerpt.txt",
        ))[0];
        assert!(f.explanation.contains("2 minutes at or above its warning"));
    }

    #[test]
    fn throughput_drop_while_heating_fires() {
        let mut d = nvme_ssd();
        d.temp_samples_c = vec![41, 72];
        let mut s = linux(d);
        for (label, rate) in [("outer", 3.1e9), ("middle", 2.9e9), ("inner", 1.2e9)] {
            let mut r: crate::evidence::BenchResult =
                serde_json::from_str(BENCH).unwrap_or_else(|e| panic!("{e}"));
            r.label = label.into();
            r.bytes_per_sec = rate;
            s.benchmarks.push(r);
        }
        let f = &ThermalThrottling.run(&s)[0];
        assert_vs(f, Verdict::Problem, Severity::Warning);
        assert!(
            f.explanation
                .contains("dropped from 3100.0 MB/s to 1200.0 MB/s"),
            "{}",
            f.explanation
        );
        assert!(f.explanation.contains("from 41 °C to 72 °C"));
        // Warmer without a drop: nothing from the samples.
        s.benchmarks.truncate(1);
        assert_eq!(ThermalThrottling.run(&s)[0].verdict, Verdict::Pass);
    }

    const BENCH: &str = r#"{"test":"seq-read","target":"/dev/nvme0n1","disk":"nvme0n1",
        "label":"outer","block_size_bytes":1048576,"queue_depth":1,"direct":true,
        "offset_bytes":0,"bytes":1073741824,"ios":1024,"elapsed_ns":1,"bytes_per_sec":1.0,
        "iops":1.0,"latency":null,"spread_pct":null,"stop_reason":"stable","error":null}"#;

    #[test]
    fn hot_now_is_warning() {
        let mut d = nvme_ssd();
        if let Fact::Known { value, .. } = &mut d.nvme_health {
            value.temperature_c = Some(83);
        }
        let f = &ThermalThrottling.run(&linux(d))[0];
        assert_vs(f, Verdict::Problem, Severity::Warning);
        assert!(f.title.contains("throttling"));
    }

    #[test]
    fn healthy_fixtures_pass() {
        for rel in [
            "nvme-smart-log/wd-2tb-healthy-nvme-cli-issue-1037.txt",
            "linux/smartctl/a-nvme-crucial-p3-4tb-failed-spare-0-readonly-critical-0x09.txt",
            "smartctl-nvme/x-nvme-healthy-lba-512-in-use-4096-offered-checkbox-102-excerpt.txt",
        ] {
            let f = &ThermalThrottling.run(&with(rel))[0];
            assert_vs(f, Verdict::Pass, Severity::Info);
        }
        assert!(ThermalThrottling.run(&linux(sata_hdd_ahci())).is_empty());
    }
}
