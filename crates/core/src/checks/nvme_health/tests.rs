use super::*;
use crate::checks::testutil::*;
use crate::checks::testutil_nvme::*;
use crate::sources::nvme_smart;

fn with_fixture(rel: &str) -> SystemFacts {
    let mut d = nvme_ssd();
    let h = nvme_smart::parse(&fixture(rel));
    assert!(h.is_some(), "{rel} did not parse");
    d.nvme_health = Fact::known(h.unwrap_or_default(), format!("pasted:{rel}"));
    linux(d)
}

fn run(sys: &SystemFacts) -> Finding {
    let fs = NvmeHealthCheck.run(sys);
    assert_eq!(fs.len(), 1, "{fs:#?}");
    fs.into_iter().next().unwrap_or_else(|| unreachable!())
}

#[test]
fn failed_crucial_p3_fires_critical_in_both_tools() {
    for rel in [
        "linux/smartctl/a-nvme-crucial-p3-4tb-failed-spare-0-readonly-critical-0x09.txt",
        "nvme-smart-log/crucial-p3-4tb-critical-0x9-spare-0-tabs.txt",
    ] {
        let f = run(&with_fixture(rel));
        assert_vs(&f, Verdict::Problem, Severity::Critical);
        assert!(f.explanation.contains("read-only"), "{}", f.explanation);
        assert!(f.explanation.contains("below the drive's threshold of 5 %"));
        assert!(f.evidence[0].value.contains("critical_warning=0x09"));
        assert!(f.fixes[0].steps.iter().any(|s| s.contains("/dev/nvme0")));
    }
}

#[test]
fn samsung_worn_out_0x04_is_warning() {
    let f = run(&with_fixture(
        "smartctl-nvme/a-nvme-samsung-critical-0x04-percentage-used-100-excerpt.txt",
    ));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.explanation.contains("Percentage Used is 100 %"));
    assert!(f.explanation.contains("smartmontools issue 537"));
}

#[test]
fn healthy_fixtures_pass() {
    for rel in [
        "nvme-smart-log/wd-2tb-healthy-nvme-cli-issue-1037.txt",
        "linux/smartctl-json/a-nvme-intel-660p.txt",
        "linux/smartctl/a-nvme-smartctl6.6-old-nvme-format.txt",
        "linux/smartctl/x-nvme-intel-optane-m10-16gb-truenas-scale.txt",
        "linux/smartctl/a-nvme-behind-usb-asmedia-sntasmedia-aarch64.txt",
        "freebsd/smartctl/x-nvme-adata-fbsd14-current.txt",
    ] {
        let f = run(&with_fixture(rel));
        assert!(
            f.verdict == Verdict::Pass
                || (f.severity == Severity::Notice && f.title.contains("512-byte")),
            "{rel}: {f:#?}"
        );
    }
}

#[test]
fn lba_512_with_4096_offered_is_notice_only_when_rated_faster() {
    // Both formats rated Rel_Perf 0 (the checkbox excerpt): a remark, no problem.
    let sys = with_fixture(
        "smartctl-nvme/x-nvme-healthy-lba-512-in-use-4096-offered-checkbox-102-excerpt.txt",
    );
    let f = run(&sys);
    assert_eq!(f.verdict, Verdict::Pass, "{f:#?}");
    assert!(f.explanation.contains("4096"), "{}", f.explanation);
    // The drive rating 4096 B faster than the format in use: the notice and its fix.
    let mut d = sys.disks[0].clone();
    if let Fact::Known { value, .. } = &mut d.nvme_health {
        for lf in &mut value.lba_formats {
            lf.rel_perf = Some(if lf.in_use { 2 } else { 0 });
        }
    }
    let f = run(&linux(d.clone()));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.fixes[0].risk.contains("erases"));
    assert!(f.fixes[0].steps[1].contains("--lbaf=1"));
    // One step apart (512 B "Good", 4096 B "Better", as a WD SN530 reports): a remark.
    if let Fact::Known { value, .. } = &mut d.nvme_health {
        for lf in &mut value.lba_formats {
            lf.rel_perf = Some(if lf.in_use { 2 } else { 1 });
        }
    }
    let f = run(&linux(d));
    assert_eq!(f.verdict, Verdict::Pass, "{f:#?}");
}

#[test]
fn unknown_and_sata_silent() {
    let mut d = nvme_ssd();
    d.nvme_health = Fact::unknown("the tool is not installed");
    let f = run(&linux(d.clone()));
    assert_vs(&f, Verdict::Unknown, Severity::Info);
    assert!(f.explanation.contains("nvme smart-log /dev/nvme0"));
    d.name = "nvd0".into();
    let f = run(&freebsd(d));
    assert!(f.explanation.contains("smartctl -a /dev/nvme0"));
    assert!(NvmeHealthCheck.run(&linux(sata_hdd_ahci())).is_empty());
}

#[test]
fn media_errors_warn() {
    let mut d = nvme_ssd();
    if let Fact::Known { value, .. } = &mut d.nvme_health {
        value.media_errors = Some(3);
    }
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.explanation.contains("3 media"));
}
