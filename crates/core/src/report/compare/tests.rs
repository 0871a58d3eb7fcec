use super::*;
use crate::checks::Severity;
use crate::evidence::{EvidenceBundle, Origin, Platform};
use crate::facts::DiskFacts;

fn report(findings: Vec<Finding>) -> Report {
    let mut r = Report::from_bundle(
        EvidenceBundle::new(Platform::Linux, Origin::Live),
        Vec::new(),
    );
    r.facts.disks.push(DiskFacts::new("sda", "/dev/sda"));
    r.findings = findings;
    r
}

fn f(check: &str, v: Verdict) -> Finding {
    let sev = if v == Verdict::Problem {
        Severity::Warning
    } else {
        Severity::Info
    };
    Finding::new(check, "sda", v, sev, format!("{check} on sda"))
}

/// A run with tests, then one without (`--no-bench`): the measured problem was not
/// tested again, so it is not "resolved"; a configuration problem that now passes is.
#[test]
fn a_problem_the_later_run_did_not_test_is_not_resolved() {
    let before = report(vec![
        f("write-much-slower-than-read", Verdict::Problem),
        f("write-cache-disabled", Verdict::Problem),
        f("latency-outliers", Verdict::Problem),
    ]);
    // The later run measured nothing: latency-outliers (a measured check) has no
    // finding there at all, write-much-slower-than-read says unknown.
    let after = report(vec![
        f("write-much-slower-than-read", Verdict::Unknown),
        f("write-cache-disabled", Verdict::Pass),
    ]);
    let c = compare(&before, &after, "before", "after");
    let ids = |l: &[FindingChange]| l.iter().map(|x| x.check.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&c.resolved), ["write-cache-disabled"]);
    assert_eq!(
        ids(&c.not_checked_again),
        ["write-much-slower-than-read", "latency-outliers"]
    );
    let s = summary(&c);
    assert!(s.contains("1 finding resolved"), "{s}");
    assert!(s.contains("2 findings not checked again"), "{s}");
    let t = render_text(&c);
    assert!(
        t.contains("not checked again: [warning] sda: write-much-slower-than-read"),
        "{t}"
    );
}

/// The before report's prediction against the after report's own write test.
#[test]
fn a_prediction_is_checked_against_the_after_measurement() {
    let mut wc = f("write-cache-disabled", Verdict::Problem);
    wc.expected_effect = Some(crate::checks::effect::ExpectedEffect {
        metric: crate::checks::effect::EffectMetric::SeqWriteMbps,
        queue_depth: None,
        unit: "MB/s".into(),
        from: Some(12.9),
        low: Some(58.0),
        high: 84.0,
        basis: "t".into(),
    });
    let before = report(vec![wc]);
    let write = |mbps: f64| crate::checks::effect::tests::seq(TestName::SeqWrite, "sda", mbps);
    for (mbps, word) in [(76.0, "as predicted"), (30.0, "below the prediction")] {
        let mut after = report(vec![f("write-cache-disabled", Verdict::Pass)]);
        after.facts.benchmarks.push(write(mbps));
        let c = compare(&before, &after, "before", "after");
        assert_eq!(c.predictions.len(), 1);
        assert!(
            c.predictions[0].verdict.contains(word),
            "{:?}",
            c.predictions
        );
        assert!(
            c.predictions[0]
                .verdict
                .starts_with("predicted sequential writes 58"),
            "{:?}",
            c.predictions
        );
        assert!(render_text(&c).contains(word));
    }
    let after = report(vec![f("write-cache-disabled", Verdict::Pass)]);
    let c = compare(&before, &after, "before", "after");
    assert!(c.predictions[0].verdict.contains("not measured after"));
}
