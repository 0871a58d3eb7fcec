use super::*;
use crate::checks::Severity;
use crate::evidence::{BenchResult, Platform};
use crate::facts::{Fact, PcieLink};

fn sys_with(d: DiskFacts, results: Vec<BenchResult>) -> SystemFacts {
    let mut s = SystemFacts::empty(Platform::Linux);
    s.disks.push(d);
    s.benchmarks = results;
    s
}

/// A large-block, queue-depth-1 result of `test` on `disk` at `mbps`.
pub(crate) fn seq(test: TestName, disk: &str, mbps: f64) -> BenchResult {
    BenchResult {
        test,
        disk: disk.into(),
        block_size_bytes: 1 << 20,
        queue_depth: 1,
        bytes: 1 << 30,
        bytes_per_sec: mbps * 1e6,
        direct: true,
        ..Default::default()
    }
}

/// diskdoc's own 4 KiB random-read result: `ios` reads at `qd` in `ns` nanoseconds.
fn rand4k(disk: &str, qd: u32, ios: u64, ns: u64) -> BenchResult {
    BenchResult {
        test: TestName::RandRead,
        disk: disk.into(),
        block_size_bytes: 4096,
        queue_depth: qd,
        ios,
        elapsed_ns: ns,
        bytes: ios * 4096,
        direct: true,
        ..Default::default()
    }
}

/// A 4 KiB random-read prediction at queue depth 32 (the 870 EVO's 85-105 % range).
pub(crate) fn qd32_read_effect() -> ExpectedEffect {
    ExpectedEffect {
        metric: EffectMetric::RandReadIops,
        unit: "IOPS".into(),
        queue_depth: Some(32),
        from: None,
        low: Some(83_300.0),
        high: 102_900.0,
        basis: "t".into(),
    }
}

fn problem(check: &str, dev: &str) -> Finding {
    Finding::new(check, dev, Verdict::Problem, Severity::Warning, "t")
}

/// A fix for a test finding: `annotate` gives a reason only to a finding that has one.
fn any_fix() -> crate::checks::Fix {
    crate::checks::Fix {
        platform: Platform::Linux,
        summary: "s".into(),
        steps: vec![],
        risk: String::new(),
    }
}

#[test]
fn link_arithmetic() {
    assert_eq!(sata_link_mbps(6.0), 600.0);
    assert_eq!(sata_link_mbps(1.5), 150.0);
    // PCIe 3.0 x4: 8 GT/s, 128b/130b: 3938 MB/s; PCIe 2.0 x1: 500 MB/s.
    assert!((pcie_link_mbps(8.0, 4) - 3938.46).abs() < 0.1);
    assert!((pcie_link_mbps(5.0, 1) - 500.0).abs() < 1e-9);
}

/// A SATA SSD that could link at 6 Gb/s, linked at 1.5 (the port's top speed not known).
fn slow_sata_ssd() -> DiskFacts {
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.class = Fact::known(DeviceClass::Ssd, "t");
    d.link_current_gbps = Fact::known(1.5, "t");
    d.link_drive_max_gbps = Fact::known(6.0, "t");
    d
}

/// An SSD linked at 1.5 Gb/s that drive and port could run at 6: reads should reach
/// the SATA SSD range, from the 140 MB/s it measured.
#[test]
fn ssd_on_a_slow_sata_link_gets_the_ssd_range() {
    let mut d = slow_sata_ssd();
    d.link_port_max_gbps = Fact::known(6.0, "t");
    let s = sys_with(d, vec![seq(TestName::SeqRead, "sda", 140.0)]);
    let mut fs = vec![problem("sata-link-below-max", "sda")];
    annotate(&s, &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert_eq!(e.metric, EffectMetric::SeqReadMbps);
    assert_eq!(e.from, Some(140.0));
    assert_eq!(e.low, Some(450.0));
    assert_eq!(e.high, 560.0);
    let line = e.sentence();
    assert!(
        line.starts_with("Expected after the fix: sequential reads 450-560 MB/s, from 140 now"),
        "{line}"
    );
    // The same SSD whose port tops out at 3 Gb/s: the 3 Gb/s ceiling binds.
    let mut d = s.disks[0].clone();
    d.link_port_max_gbps = Fact::known(3.0, "t");
    let mut fs = vec![problem("sata-link-below-max", "sda")];
    annotate(&sys_with(d, vec![]), &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert!(
        (e.high - 288.0).abs() < 1e-9 && e.low == Some(261.0),
        "{e:?}"
    );
}

/// An NVMe drive linked at 5 GT/s x1 that supports 8 GT/s x`max_width`.
fn nvme_at_gen2_x1(max_width: u32) -> DiskFacts {
    let mut d = DiskFacts::new("nvme0n1", "/dev/nvme0n1");
    d.class = Fact::known(DeviceClass::Nvme, "t");
    d.pcie = Fact::known(
        vec![PcieLink {
            hop: 0,
            current_gts: Some(5.0),
            max_gts: Some(8.0),
            current_width: Some(1),
            max_width: Some(max_width),
            ..Default::default()
        }],
        "t",
    );
    d
}

#[test]
fn nvme_on_a_narrow_pcie_path_gets_a_ceiling_only() {
    let d = nvme_at_gen2_x1(4);
    let mut fs = vec![problem("pcie-link-limited", "nvme0n1")];
    annotate(&sys_with(d, vec![]), &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert_eq!(e.low, None);
    assert!((e.high - 3662.8).abs() < 1.0, "{e:?}");
    assert!(e.sentence().contains("up to 3663 MB/s"), "{}", e.sentence());
}

/// A disk behind a Raspberry Pi 5's PCIe connector as config.txt gives it: the port (hop 1)
/// at its default Gen 2 x1, able to run Gen 3 x1; the device's own link unknown.
fn pi5_gen2_port_disk() -> DiskFacts {
    let mut d = DiskFacts::new("pasted-disk", "pasted-disk");
    d.pcie = Fact::known(
        vec![PcieLink {
            hop: 1,
            current_gts: Some(5.0),
            max_gts: Some(8.0),
            current_width: Some(1),
            max_width: Some(1),
            ..Default::default()
        }],
        "t",
    );
    d
}

/// Only the port's link known (a Raspberry Pi 5 connector at its default Gen 2 x1, able
/// to run Gen 3): a read that fills the Gen 2 link gives a range from that read to the
/// same share of the Gen 3 link; a read that does not fill it gives none, and says why.
#[test]
fn port_only_link_needs_a_link_bound_read() {
    let d = pi5_gen2_port_disk();
    let iozone = |mbps: f64| crate::facts::UserBenchmark {
        tool: "iozone".into(),
        block_size_bytes: Some(1 << 20),
        bytes_per_sec: Some(mbps * 1e6),
        from: "t".into(),
        ..Default::default()
    };
    // 442.15 MB/s (geerlingguy/raspberry-pi-pcie-devices#664's Gen 2 read) of the
    // 465 MB/s Gen 2 x1 payload ceiling: the link set it.
    let mut s = sys_with(d.clone(), vec![]);
    s.user_benchmarks.push(iozone(442.15));
    let mut fs = vec![problem("pcie-link-limited", "pasted-disk")];
    annotate(&s, &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    let gen3 = pcie_link_mbps(8.0, 1) * PCIE_EFFICIENCY.1;
    let gen2 = pcie_link_mbps(5.0, 1) * PCIE_EFFICIENCY.1;
    assert_eq!(e.low, Some(442.15));
    assert!((e.high - 442.15 * gen3 / gen2).abs() < 1e-6, "{e:?}");
    assert!(e.high < gen3 && e.high > 860.0, "{e:?}");
    // 300 MB/s does not fill the link: the drive may be what stops it.
    let mut s = sys_with(d, vec![]);
    s.user_benchmarks.push(iozone(300.0));
    let mut fs = vec![problem("pcie-link-limited", "pasted-disk")];
    fs[0].fixes.push(any_fix());
    annotate(&s, &mut fs);
    assert!(fs[0].expected_effect.is_none());
    let why = fs[0].expected_effect_unknown.clone().unwrap_or_default();
    assert!(why.contains("fills the current link"), "{why}");
}

/// Write cache off on an HDD: from the drive's own read rate when there is one, else
/// from its cache-off write figure by the measured ratio; never guessed without either.
#[test]
fn hdd_write_cache_from_a_read_or_a_write_figure() {
    let mut d = DiskFacts::new("ada0", "/dev/ada0");
    d.class = Fact::known(DeviceClass::Hdd, "t");
    let mut fs = vec![problem("write-cache-disabled", "ada0")];
    annotate(&sys_with(d.clone(), vec![]), &mut fs);
    assert!(fs[0].expected_effect.is_none());
    let why = why_none(&sys_with(d.clone(), vec![]), &fs[0]).expect("a reason");
    assert!(why.contains("no large sequential write"), "{why}");
    // Only the cache-off write: 4.5-6.5x of it.
    let mut fs = vec![problem("write-cache-disabled", "ada0")];
    annotate(
        &sys_with(d.clone(), vec![seq(TestName::SeqWrite, "ada0", 12.9)]),
        &mut fs,
    );
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert_eq!(e.metric, EffectMetric::SeqWriteMbps);
    assert_eq!(e.from, Some(12.9));
    assert!(
        (e.low.unwrap_or(0.0) - 58.05).abs() < 1e-9 && (e.high - 83.85).abs() < 1e-9,
        "{e:?}"
    );
    assert!(e.basis.contains("revolution"), "{}", e.basis);
    // A fast drive's range stops at the fastest HDDs' rating.
    let mut fs = vec![problem("write-cache-disabled", "ada0")];
    annotate(
        &sys_with(d.clone(), vec![seq(TestName::SeqWrite, "ada0", 60.0)]),
        &mut fs,
    );
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert!(e.high == 290.0 && e.low == Some(270.0), "{e:?}");
    // With a read figure too, the read decides.
    let mut fs = vec![problem("write-cache-disabled", "ada0")];
    annotate(
        &sys_with(
            d.clone(),
            vec![
                seq(TestName::SeqWrite, "ada0", 12.9),
                seq(TestName::SeqRead, "ada0", 85.0),
            ],
        ),
        &mut fs,
    );
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert_eq!(e.from, Some(12.9));
    assert!(
        e.low == Some(68.0) && (e.high - 89.25).abs() < 1e-9,
        "{e:?}"
    );
    // An SSD gets none, and says why.
    let mut s = d.clone();
    s.class = Fact::known(DeviceClass::Ssd, "t");
    let sys = sys_with(s, vec![seq(TestName::SeqWrite, "ada0", 12.9)]);
    let mut fs = vec![problem("write-cache-disabled", "ada0")];
    annotate(&sys, &mut fs);
    assert!(fs[0].expected_effect.is_none());
    assert!(why_none(&sys, &fs[0]).is_some_and(|w| w.contains("SSD")));
    // A pass is never annotated.
    let mut pass = vec![Finding::new(
        "write-cache-disabled",
        "ada0",
        Verdict::Pass,
        Severity::Info,
        "t",
    )];
    annotate(&SystemFacts::empty(Platform::Linux), &mut pass);
    assert!(pass[0].expected_effect.is_none());
}

fn dd(input: &str, output: &str, bs: u64, bytes: u64, mbps: f64) -> crate::facts::UserBenchmark {
    crate::facts::UserBenchmark {
        tool: "dd".into(),
        input: Some(input.into()),
        output: Some(output.into()),
        block_size_bytes: Some(bs),
        bytes: Some(bytes),
        bytes_per_sec: Some(mbps * 1e6),
        from: "t".into(),
        ..Default::default()
    }
}

/// Seed 000's shape: the ata driver's cache off, no class, a 10 GB dd in 10 MiB blocks
/// to a file; a small write or a second disk gives no range.
#[test]
fn pasted_file_write_on_the_only_disk_counts() {
    let d = DiskFacts::new("ad4", "/dev/ad4");
    let mut s = sys_with(d.clone(), vec![]);
    s.user_benchmarks.push(dd(
        "/dev/zero",
        "/tmp/foo",
        10 << 20,
        10_485_760_000,
        12.918632,
    ));
    let mut fs = vec![problem("write-cache-disabled", "ad4")];
    annotate(&s, &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert!(
        e.low.is_some_and(|l| l <= 75.4) && e.high >= 77.0,
        "seed 000 measured 75-77 MB/s with the cache on: {e:?}"
    );
    assert!(e.basis.contains("taken as an HDD"), "{}", e.basis);
    let mut small = s.clone();
    small.user_benchmarks[0].block_size_bytes = Some(4096);
    let mut fs = vec![problem("write-cache-disabled", "ad4")];
    annotate(&small, &mut fs);
    assert!(fs[0].expected_effect.is_none());
    let mut two = s.clone();
    two.disks.push(DiskFacts::new("ad6", "/dev/ad6"));
    let mut fs = vec![problem("write-cache-disabled", "ad4")];
    annotate(&two, &mut fs);
    assert!(fs[0].expected_effect.is_none());
}

/// A problem finding with a fix and no model gets its reason on the finding itself; one
/// without a fix, or with a range, gets none.
#[test]
fn a_finding_without_a_range_carries_the_reason() {
    let s = SystemFacts::empty(Platform::Linux);
    let fix = any_fix();
    let mut fs = vec![
        problem("ncq-unavailable", "sda").fix(fix.clone()),
        problem("trim-unavailable", "sda"),
    ];
    annotate(&s, &mut fs);
    let why = fs[0].expected_effect_unknown.as_deref().unwrap_or("");
    assert!(why.contains("NCQ"), "{why}");
    assert!(fs[1].expected_effect_unknown.is_none());
    let line = effect_line(&fs[0]).unwrap_or_default();
    assert!(
        line.starts_with("Expected after the fix: no range is given, because NCQ"),
        "{line}"
    );
    assert!(effect_line(&fs[1]).is_none());
}

/// Every check diskdoc runs, as a problem with a fix on a run that knows nothing else,
/// gets a reason of its own: none falls through to the catch-all meant for an id this
/// module has not heard of (a report of another version).
#[test]
fn every_check_predicts_or_says_why_not() {
    let s = SystemFacts::empty(Platform::Linux);
    let fix = any_fix();
    let catch_all = "no model with a source predicts";
    // Without the disk in the facts, and with a disk nothing else is known about.
    let mut with_disk = s.clone();
    with_disk.disks.push(DiskFacts::new("sda", "/dev/sda"));
    for run in [&s, &with_disk] {
        for c in crate::checks::CHECKS {
            let mut fs = vec![problem(c.id(), "sda").fix(fix.clone())];
            annotate(run, &mut fs);
            let why = fs[0].expected_effect_unknown.as_deref().unwrap_or("");
            assert!(
                fs[0].expected_effect.is_some() || !why.is_empty(),
                "{}: neither a range nor a reason",
                c.id()
            );
            assert!(!why.contains(catch_all), "{}: {why}", c.id());
        }
    }
    let mut fs = vec![problem("a-check-of-a-later-version", "sda").fix(fix)];
    annotate(&s, &mut fs);
    let why = fs[0].expected_effect_unknown.as_deref().unwrap_or("");
    assert!(why.contains(catch_all), "{why}");
}

/// A read flattened at a slow SATA link's ceiling (link-ceiling-reached) gets the SATA link
/// model's range, as sata-link-below-max does; a port that tops out at the current speed
/// gets the reason instead.
#[test]
fn a_read_at_the_link_ceiling_gets_the_link_range() {
    let mut d = slow_sata_ssd();
    let s = sys_with(d.clone(), vec![seq(TestName::SeqRead, "sda", 140.0)]);
    let mut fs = vec![problem("link-ceiling-reached", "sda")];
    annotate(&s, &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert_eq!((e.from, e.low, e.high), (Some(140.0), Some(450.0), 560.0));
    d.link_port_max_gbps = Fact::known(1.5, "t");
    let fix = any_fix();
    let mut fs = vec![problem("link-ceiling-reached", "sda").fix(fix)];
    annotate(&sys_with(d, vec![]), &mut fs);
    assert!(fs[0].expected_effect.is_none());
    let why = fs[0].expected_effect_unknown.as_deref().unwrap_or("");
    assert!(why.contains("another port or controller"), "{why}");
}

/// A read the current link bound (>= 80 % of its payload ceiling) is the low end on the
/// faster link; one well below it leaves only the ceiling.
#[test]
fn a_link_bound_figure_is_the_low_end() {
    let d = nvme_at_gen2_x1(1);
    // Gen 2 x1: 500 MB/s of data, 465 of payload at most; 442 is link-bound.
    let mut fs = vec![problem("pcie-link-limited", "nvme0n1")];
    annotate(
        &sys_with(d.clone(), vec![seq(TestName::SeqRead, "nvme0n1", 442.0)]),
        &mut fs,
    );
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    // The same share of Gen 3 x1's 915.7 MB/s: 442 / 465 x 915.7 = 870.4; 85-100 % of it.
    assert!((e.high - 870.4).abs() < 0.5, "{e:?}");
    assert!(e.low.is_some_and(|l| (l - 739.9).abs() < 0.5), "{e:?}");
    assert!(e.basis.contains("the link set the figure"), "{}", e.basis);
    let mut fs = vec![problem("pcie-link-limited", "nvme0n1")];
    annotate(
        &sys_with(d, vec![seq(TestName::SeqRead, "nvme0n1", 200.0)]),
        &mut fs,
    );
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert_eq!(e.low, None);
}

/// A drive in the table caps the link model's ceiling at its rating.
#[test]
fn a_rated_drive_caps_the_link_ceiling() {
    let mut d = nvme_at_gen2_x1(4);
    d.model = Fact::known("Samsung SSD 970 PRO 512GB".to_string(), "t");
    let mut fs = vec![problem("pcie-link-limited", "nvme0n1")];
    annotate(&sys_with(d, vec![]), &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    // Gen 3 x4 carries 3663 MB/s of payload; the 970 PRO 512GB is rated for 3500.
    assert_eq!(e.high, 3500.0);
    assert!(e.basis.contains("970 PRO"), "{}", e.basis);
}

/// Seed 001's shape: dd if=/dev/ad4 with 512-byte blocks on a Deskstar T7K250; large
/// blocks read its outer zone, 85-105 % of the 67.8 MB/s rating. With skip= the zone is
/// unknown; a drive not in the table gets no range.
#[test]
fn small_blocks_on_a_rated_drive_reach_its_media_rate() {
    let mut d = DiskFacts::new("ad4", "/dev/ad4");
    d.model = Fact::known("HDT722525DLA380".to_string(), "t");
    let mut s = sys_with(d.clone(), vec![]);
    let mut u = dd("/dev/ad4", "/dev/null", 512, 1 << 30, 7.02);
    u.command = Some("dd if=/dev/ad4 of=/dev/null".into());
    s.user_benchmarks.push(u.clone());
    let mut fs = vec![problem("benchmark-small-blocks", "ad4")];
    annotate(&s, &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert_eq!(e.metric, EffectMetric::SeqReadMbps);
    assert!(e.from.is_some_and(|f| (f - 7.02).abs() < 1e-9), "{e:?}");
    // 85 % of the 67.8 MB/s rating, less the 72.9 µs each 512-byte request costs now
    // (512 B / 7.02 MB/s) spent once per 1 MiB block.
    let t = 512.0 / 7.02e6;
    let low = 1_048_576.0 / (t + 1_048_576.0 / 57.63e6) / 1e6;
    assert!(e.low.is_some_and(|l| (l - low).abs() < 1e-9), "{e:?}");
    assert!(low > 57.3 && low < 57.5, "{low}");
    assert!(e.basis.contains("72.9 µs"), "{}", e.basis);
    assert!((e.high - 71.19).abs() < 1e-9, "{e:?}");
    assert!(e.basis.contains("outer zone"), "{}", e.basis);
    let mut skip = s.clone();
    skip.user_benchmarks[0].command = Some("dd if=/dev/ad4 of=/dev/null skip=100000".into());
    let mut fs = vec![problem("benchmark-small-blocks", "ad4")];
    annotate(&skip, &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert!(
        e.low.is_some_and(|l| l < 32.9 && l > 32.8) && (e.high - 71.19).abs() < 1e-9,
        "{e:?}"
    );
    let mut other = s.clone();
    other.disks[0].model = Fact::known("SAMSUNG SP2004C".to_string(), "t");
    let mut fs = vec![problem("benchmark-small-blocks", "ad4")];
    annotate(&other, &mut fs);
    assert!(fs[0].expected_effect.is_none());
    let why = why_none(&other, &fs[0]).unwrap_or_default();
    assert!(
        why.contains("SP2004C") && why.contains("drives.rs"),
        "{why}"
    );
    // A SATA link slower than the rating caps the range.
    let mut slow = s.clone();
    slow.disks[0].link_current_gbps = Fact::known(1.5, "t");
    slow.disks[0].model = Fact::known("Samsung SSD 870 EVO 1TB".to_string(), "t");
    let mut fs = vec![problem("benchmark-small-blocks", "ad4")];
    annotate(&slow, &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert!(
        (e.high - 144.0).abs() < 1e-9 && e.low == Some(144.0),
        "{e:?}"
    );
}

/// Write cache off on a rated HDD with no figure: the rating's zone range.
#[test]
fn write_cache_on_a_rated_hdd_without_figures() {
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.class = Fact::known(DeviceClass::Hdd, "t");
    d.model = Fact::known("Hitachi HDS725050KLA360".to_string(), "t");
    let mut fs = vec![problem("write-cache-disabled", "sda")];
    annotate(&sys_with(d, vec![]), &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert_eq!((e.low, e.high, e.from), (Some(31.0), 64.8, None));
    assert!(e.basis.contains("7K500"), "{}", e.basis);
}

/// A rated HDD whose source states only the maximum sustained rate (Seagate Desktop
/// HDD.15: "maxes out at 180 MB/s", no inner-zone figure): with no figure saying which
/// zone the writes land in, the range has no low end, only the rating as its ceiling.
#[test]
fn write_cache_on_a_maximum_only_hdd_is_up_to_its_rating() {
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.class = Fact::known(DeviceClass::Hdd, "t");
    d.model = Fact::known("ST4000DM000-1F2168".to_string(), "t");
    let mut fs = vec![problem("write-cache-disabled", "sda")];
    annotate(&sys_with(d, vec![]), &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert_eq!((e.low, e.high, e.from), (None, 180.0, None));
    assert!(e.basis.contains("no inner-zone rate"), "{}", e.basis);
    assert!(e.sentence().contains("up to 180 MB/s"), "{}", e.sentence());
}

/// A SATA SSD in legacy IDE mode or with NCQ off: with NCQ its 4 KiB random reads at
/// queue depth 32 reach 85-105 % of its rating (Samsung 870 EVO: 98,000 IOPS), and the
/// figure measured now is diskdoc's own queue-depth-32 result; a slow link caps the range;
/// an unrated drive gets the reason instead, naming its model.
#[test]
fn ncq_brings_a_rated_ssd_to_its_queued_random_rating() {
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.model = Fact::known("Samsung SSD 870 EVO 1TB".to_string(), "t");
    // 6790 reads of 4 KiB at QD32 in one second: what a queue of one gives.
    let qd32 = rand4k("sda", 32, 6790, 1_000_000_000);
    for check in ["controller-legacy-mode", "ncq-unavailable"] {
        let mut fs = vec![problem(check, "sda")];
        annotate(&sys_with(d.clone(), vec![qd32.clone()]), &mut fs);
        let e = fs[0].expected_effect.as_ref().expect("an effect");
        assert_eq!(
            (e.metric, e.queue_depth, e.unit.as_str()),
            (EffectMetric::RandReadIops, Some(32), "IOPS")
        );
        assert!(e.low.is_some_and(|l| (l - 83_300.0).abs() < 1e-6), "{e:?}");
        assert!((e.high - 102_900.0).abs() < 1e-6, "{e:?}");
        assert_eq!(e.from, Some(6790.0));
        assert_eq!(
            e.range_words(),
            "4 KiB random reads at queue depth 32 83300-102900 IOPS, from 6790 now"
        );
        assert!(e.basis.contains("870 EVO"), "{}", e.basis);
    }
    // A 1.5 Gb/s link carries 144 MB/s of payload: 35156 reads of 4 KiB a second.
    let mut slow = d.clone();
    slow.link_current_gbps = Fact::known(1.5, "t");
    let mut fs = vec![problem("ncq-unavailable", "sda")];
    annotate(&sys_with(slow, vec![]), &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert!(
        (e.high - 35_156.25).abs() < 0.01 && e.low == Some(e.high),
        "{e:?}"
    );
    // A drive the table has no row for: no range, and the reason names it.
    let mut other = d.clone();
    other.model = Fact::known("SAMSUNG SP2004C".to_string(), "t");
    let why = no_range_why(&sys_with(other, vec![]), "ncq-unavailable", "sda");
    assert!(
        why.contains("SP2004C") && why.contains("queue depth 32"),
        "{why}"
    );
    // A rated SSD without a random rating (the Crucial MX500 row states none).
    let mut mx = d.clone();
    mx.model = Fact::known("CT1000MX500SSD1".to_string(), "t");
    let why = no_range_why(&sys_with(mx, vec![]), "controller-legacy-mode", "sda");
    assert!(why.contains("Crucial MX500"), "{why}");
}

/// The reason a problem finding of `check` on `dev` with a fix carries, asserting it
/// got no range.
fn no_range_why(s: &SystemFacts, check: &str, dev: &str) -> String {
    let mut fs = vec![problem(check, dev).fix(any_fix())];
    annotate(s, &mut fs);
    assert!(
        fs[0].expected_effect.is_none(),
        "{:?}",
        fs[0].expected_effect
    );
    fs[0].expected_effect_unknown.clone().unwrap_or_default()
}

/// Pasted reads that name no device count for the only disk when the tool reads the
/// disk past every cache (hdparm -t, with or without --direct; a CrystalDiskMark or
/// KDiskMark SEQ1M read); hdparm -T times the page cache and never counts.
#[test]
fn pasted_direct_reads_count_for_the_only_disk() {
    let bench = |tool: &str, mbps: f64| crate::facts::UserBenchmark {
        tool: tool.into(),
        bytes_per_sec: Some(mbps * 1e6),
        from: "t".into(),
        ..Default::default()
    };
    for tool in [
        "hdparm -t --direct",
        "hdparm -t",
        "CrystalDiskMark",
        "KDiskMark",
    ] {
        let mut s = sys_with(DiskFacts::new("sda", "/dev/sda"), vec![]);
        s.user_benchmarks.push(bench(tool, 569.33));
        assert_eq!(
            measured(&s, "sda", EffectMetric::SeqReadMbps),
            Some(569.33),
            "{tool}"
        );
        s.disks.push(DiskFacts::new("sdb", "/dev/sdb"));
        assert_eq!(
            measured(&s, "sda", EffectMetric::SeqReadMbps),
            None,
            "{tool}"
        );
    }
    let mut s = sys_with(DiskFacts::new("sda", "/dev/sda"), vec![]);
    s.user_benchmarks.push(bench("hdparm -T", 3069.0));
    assert_eq!(measured(&s, "sda", EffectMetric::SeqReadMbps), None);
}

/// compare's figure for a random-read prediction is the after run's own result at the
/// predicted queue depth, not one at another depth.
#[test]
fn a_random_prediction_is_measured_at_its_queue_depth() {
    let r = |qd: u32, ios: u64| rand4k("sda", qd, ios, 2_000_000_000);
    let s = sys_with(
        DiskFacts::new("sda", "/dev/sda"),
        vec![r(1, 20_000), r(32, 180_000)],
    );
    let e = qd32_read_effect();
    assert_eq!(measured_for(&s, "sda", &e), Some(90_000.0));
    let e1 = ExpectedEffect {
        queue_depth: Some(1),
        ..e.clone()
    };
    assert_eq!(measured_for(&s, "sda", &e1), Some(10_000.0));
    assert_eq!(measured(&s, "sda", EffectMetric::RandWriteIops), None);
}

#[test]
fn fitted_cases_are_named() {
    assert!(fitted_on("write-cache-enable--wd5001abys-freebsd81-dd.txt"));
    assert!(!fitted_on(
        "sata-link-fix--thinkpad-t61-bios-sata2-hdparm.txt"
    ));
}

/// The 1998 Fireball case's shape: the raw twin of a buffered device reads at about the
/// same rate.
#[test]
fn buffered_device_predicts_about_the_same_rate() {
    let mut s = SystemFacts::empty(Platform::Freebsd);
    s.user_benchmarks.push(dd(
        "/dev/wd2",
        "/dev/null",
        1 << 20,
        1_342_177_280,
        9.859716,
    ));
    let mut fs = vec![problem("benchmark-buffered-device", "wd2")];
    annotate(&s, &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert_eq!(e.metric, EffectMetric::SeqReadMbps);
    assert!(e.low.is_some_and(|l| l <= 9.83) && e.high >= 9.83, "{e:?}");
    assert!(e.basis.contains("/dev/rwd2"), "{}", e.basis);
    let mut none = vec![problem("benchmark-buffered-device", "wd3")];
    annotate(&s, &mut none);
    assert!(none[0].expected_effect.is_none());
    assert!(why_none(&s, &none[0]).is_some());
}

/// The per-request arithmetic: with no fixed cost a 1 MiB block runs at the media rate;
/// with the whole time per request of a 512-byte run at 7 MB/s as fixed cost it loses
/// 73 µs of every 1 MiB block.
#[test]
fn fixed_cost_per_request_is_spread_over_the_fix_block() {
    assert_eq!(rate_at_fix_block(100.0, None), 100.0);
    assert_eq!(rate_at_fix_block(100.0, Some(0.0)), 100.0);
    let t = 512.0 / 7.0e6;
    let r = rate_at_fix_block(100.0, Some(t));
    assert!(
        (r - 1_048_576.0 / (t + 0.010_485_76) / 1e6).abs() < 1e-9,
        "{r}"
    );
    assert!(r > 99.2 && r < 99.4, "{r}");
    // A bad time leaves the media rate alone rather than producing NaN.
    assert_eq!(rate_at_fix_block(100.0, Some(f64::NAN)), 100.0);
}

/// A disk whose model is not rated, with a 512-byte dd and a 1 MiB dd of the same disk in
/// one paste: the large run bounds the range; without its rate, or without the large run,
/// no range, and the reason names what is missing.
#[test]
fn small_blocks_with_a_large_block_run_of_the_same_disk() {
    let mut d = DiskFacts::new("sdb", "/dev/sdb");
    d.model = Fact::known("Unrated Disk 1000".to_string(), "t");
    let mut s = sys_with(d, vec![]);
    s.user_benchmarks
        .push(dd("/dev/sdb", "/dev/null", 512, 100 << 20, 8.0));
    s.user_benchmarks
        .push(dd("/dev/sdb", "/dev/null", 1 << 20, 2 << 30, 150.0));
    let mut fs = vec![problem("benchmark-small-blocks", "sdb")];
    annotate(&s, &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert_eq!(e.metric, EffectMetric::SeqReadMbps);
    assert_eq!(e.from, Some(8.0));
    assert!(e.low.is_some_and(|l| (l - 135.0).abs() < 1e-9), "{e:?}");
    // 128 KiB at 150 MB/s take 873.8 µs, of which at most 64 µs (512 B at 8 MB/s) is
    // fixed cost: the media rate is at most 131072 B / 809.8 µs = 161.9 MB/s.
    let t = 512.0 / 8e6;
    let high = 131_072.0 / (131_072.0 / 150e6 - t) / 1e6;
    assert!((e.high - high).abs() < 1e-9 && e.high < 162.0, "{e:?}");
    assert!(e.high / e.low.unwrap_or(1.0) < 1.8, "{e:?}");
    // The same small read into a file written with oflag=dsync: the synchronous writes
    // set its rate, so it says nothing of the disk read.
    let mut synced = s.clone();
    synced.user_benchmarks[0].output = Some("boot.img".into());
    synced.user_benchmarks[0].flags = vec!["oflag=dsync".into()];
    let mut fs = vec![problem("benchmark-small-blocks", "sdb")];
    annotate(&synced, &mut fs);
    assert!(
        fs[0].expected_effect.is_none(),
        "{:?}",
        fs[0].expected_effect
    );
    // Only the small run: no range, and the reason names the unrated model.
    let mut small = s.clone();
    small.user_benchmarks.truncate(1);
    let mut fs = vec![problem("benchmark-small-blocks", "sdb")];
    fs[0].fixes.push(any_fix());
    annotate(&small, &mut fs);
    assert!(fs[0].expected_effect.is_none());
    let why = fs[0].expected_effect_unknown.clone().unwrap_or_default();
    assert!(
        why.contains("Unrated Disk 1000") && why.contains("128 KiB"),
        "{why}"
    );
    // No model at all: the reason says the drive's model is not known.
    small.disks[0].model = Fact::unknown("t");
    let mut fs = vec![problem("benchmark-small-blocks", "sdb")];
    fs[0].fixes.push(any_fix());
    annotate(&small, &mut fs);
    let why = fs[0].expected_effect_unknown.clone().unwrap_or_default();
    assert!(
        why.contains("the drive's model is not known from the paste"),
        "{why}"
    );
}

/// A Bulk-Only disk on a USB 3 Gen 1 link whose read is at Bulk-Only's estimated limit:
/// UAS on the same link reads at most 30 % faster, never above UAS's estimate nor the
/// drive's rating. Below the limit, on another link or without a read: a reason instead.
#[test]
fn bot_to_uas_on_a_gen1_link_at_bots_limit() {
    let usb = |drv: &str, mbps: Option<f64>| {
        let mut d = DiskFacts::new("sda", "/dev/sda");
        d.controller = Fact::known(
            crate::model::Controller {
                usb_driver: Some(drv.to_string()),
                usb_speed_mbps: mbps,
                ..Default::default()
            },
            "t",
        );
        d
    };
    let run = |d: DiskFacts, mbps: Option<f64>| {
        let results = mbps
            .map(|m| vec![seq(TestName::SeqRead, "sda", m)])
            .unwrap_or_default();
        let mut fs = vec![problem("virtual-or-bridged-device", "sda")];
        fs[0].fixes.push(crate::checks::Fix {
            summary: UAS_FIX.into(),
            ..any_fix()
        });
        annotate(&sys_with(d, results), &mut fs);
        fs.remove(0)
    };
    let f = run(usb("usb-storage", Some(5000.0)), Some(230.0));
    let e = f.expected_effect.as_ref().expect("an effect");
    assert_eq!(e.metric, EffectMetric::SeqReadMbps);
    assert_eq!(e.low, Some(230.0));
    assert!((e.high - 299.0).abs() < 1e-9, "{e:?}");
    assert!(e.basis.contains("250 MB/s"), "{}", e.basis);
    // Near UAS's estimate the estimate caps the range.
    let e = run(usb("usb-storage", Some(5000.0)), Some(330.0))
        .expected_effect
        .expect("an effect");
    assert_eq!(e.high, 400.0);
    // A rated drive caps it too (Samsung 860 EVO, 550 MB/s: no cap at 299).
    let mut rated = usb("usb-storage", Some(5000.0));
    rated.model = Fact::known("Samsung SSD 860 EVO 500GB".to_string(), "t");
    let e = run(rated, Some(230.0)).expected_effect.expect("an effect");
    assert!((e.high - 299.0).abs() < 1e-9, "{e:?}");
    // Each missing fact gives its reason.
    for (d, mbps, words) in [
        (usb("usb-storage", Some(5000.0)), Some(150.0), "below 80 %"),
        (usb("usb-storage", Some(5000.0)), None, "no large-block"),
        (usb("usb-storage", None), Some(230.0), "USB link's speed"),
        (
            usb("usb-storage", Some(480.0)),
            Some(35.0),
            "USB 3 Gen 1 (5000M) only",
        ),
        (
            usb("usb-storage", Some(10000.0)),
            Some(230.0),
            "USB 3 Gen 1 (5000M) only",
        ),
    ] {
        let f = run(d, mbps);
        assert!(f.expected_effect.is_none(), "{words}");
        let why = f.expected_effect_unknown.clone().unwrap_or_default();
        assert!(why.contains(words), "{words}: {why}");
    }
    // Without the UAS fix (uas already, umass), no model applies.
    let mut fs = vec![problem("virtual-or-bridged-device", "sda")];
    fs[0].fixes.push(any_fix());
    annotate(
        &sys_with(
            usb("uas", Some(5000.0)),
            vec![seq(TestName::SeqRead, "sda", 230.0)],
        ),
        &mut fs,
    );
    assert!(fs[0].expected_effect.is_none());
}

/// A PATA hard disk in PIO whose model is rated (the Deskstar 7K500): with DMA its first
/// sectors read at 85-105 % of the outer-zone rating; an Ultra DMA/33 ceiling on both
/// ends caps it. An unrated model gets no range, and the reason names it.
#[test]
fn dma_on_reaches_a_rated_hdds_outer_zone() {
    let mut d = DiskFacts::new("hda", "/dev/hda");
    d.model = Fact::known("HDS725050KLA360".to_string(), "t");
    d.ide_dma = Fact::known(
        crate::facts::IdeDma {
            on: false,
            set_error: None,
        },
        "t",
    );
    let mut fs = vec![problem("controller-legacy-mode", "hda")];
    annotate(&sys_with(d.clone(), vec![]), &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert_eq!(e.metric, EffectMetric::SeqReadMbps);
    assert!(
        e.low.is_some_and(|l| (l - 64.8 * 0.85).abs() < 1e-9),
        "{e:?}"
    );
    assert!((e.high - 64.8 * 1.05).abs() < 1e-9, "{e:?}");
    assert!(e.basis.contains("7K500"), "{}", e.basis);
    let mut slow = d.clone();
    slow.pata_mode = Fact::known(
        crate::facts::PataMode {
            drive_max_udma_mb_s: Some(133),
            host_max_udma_mb_s: Some(33),
            ..Default::default()
        },
        "t",
    );
    let mut fs = vec![problem("controller-legacy-mode", "hda")];
    annotate(&sys_with(slow, vec![]), &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert!(e.high == 33.3 && e.low == Some(33.3), "{e:?}");
    let mut other = d.clone();
    other.model = Fact::known("HTS721060G9AT00".to_string(), "t");
    let mut fs = vec![problem("controller-legacy-mode", "hda")];
    fs[0].fixes.push(any_fix());
    annotate(&sys_with(other, vec![]), &mut fs);
    assert!(fs[0].expected_effect.is_none());
    let why = fs[0].expected_effect_unknown.clone().unwrap_or_default();
    assert!(
        why.contains("HTS721060G9AT00") && why.contains("drives.rs"),
        "{why}"
    );
}

/// A PATA hard disk in PIO whose model the table does not rate: the Ultra DMA modes it
/// reports (hdparm -i) date its generation. A desktop drive that supports mode 5 or 6 gets the
/// ATA/100-133 class range (85-105 % of 29.4-67.8 MB/s), said as a class range in the basis;
/// the host's slower top mode caps it. Near misses: a mode-4 drive, a notebook drive, an SSD
/// and a drive whose modes are not shown get no range, each with its reason.
#[test]
fn dma_on_for_an_unrated_pata_disk_gets_its_generations_class_range() {
    let pio = |model: &str, modes: Option<u32>| {
        let mut d = DiskFacts::new("hdb", "/dev/hdb");
        d.model = Fact::known(model.to_string(), "t");
        if let Some(m) = modes {
            d.udma_drive_max = Fact::known(m, "t");
        }
        d.ide_dma = Fact::known(
            crate::facts::IdeDma {
                on: false,
                set_error: None,
            },
            "t",
        );
        d
    };
    let run = |d: DiskFacts| {
        let mut fs = vec![problem("controller-legacy-mode", "hdb").fix(any_fix())];
        annotate(&sys_with(d, vec![]), &mut fs);
        fs.remove(0)
    };
    let f = run(pio("Maxtor 6Y080P0", Some(6)));
    let e = f.expected_effect.as_ref().expect("a class range");
    assert_eq!(e.metric, EffectMetric::SeqReadMbps);
    assert!(
        e.low.is_some_and(|l| (l - 29.4 * 0.85).abs() < 1e-9),
        "{e:?}"
    );
    assert!((e.high - 67.8 * 1.05).abs() < 1e-9, "{e:?}");
    assert!(
        e.basis.contains("class range") && e.basis.contains("Maxtor 6Y080P0"),
        "{}",
        e.basis
    );
    // The host tops out at UDMA/33: its burst rate caps the class.
    let mut slow_host = pio("Maxtor 6Y080P0", Some(6));
    slow_host.pata_mode = Fact::known(
        crate::facts::PataMode {
            drive_max_udma_mb_s: Some(133),
            host_max_udma_mb_s: Some(33),
            ..Default::default()
        },
        "t",
    );
    let e = run(slow_host).expected_effect.expect("capped");
    assert!(e.high == 33.3 && e.low == Some(29.4 * 0.85), "{e:?}");
    // Near misses, each with its reason.
    for (d, words) in [
        (pio("QUANTUM FIREBALL EX6.4A", Some(4)), "mode 4"),
        (pio("ST94011A", Some(5)), "notebook"),
        (pio("Maxtor 6Y080P0", None), "Ultra DMA modes"),
    ] {
        let f = run(d);
        assert!(
            f.expected_effect.is_none(),
            "{words}: {:?}",
            f.expected_effect
        );
        let why = f.expected_effect_unknown.unwrap_or_default();
        assert!(why.contains(words), "{words}: {why}");
    }
    let mut ssd = pio("EXAMPLE FLASH", Some(5));
    ssd.class = Fact::known(DeviceClass::Ssd, "t");
    assert!(run(ssd).expected_effect.is_none());
}

/// A parallel-ATA disk held at UDMA/33 by a 40-wire cable while drive and host support
/// UDMA/100 (the kernel's /proc/ide/amd table of the corpus's lkml2003mar AMD-768 post:
/// "Cable Type: 40w", "Transfer Rate: 33.3MB/s", "Highest DMA rate: UDMA100"): with an
/// 80-wire cable a rated hard disk reads at its outer-zone rating, capped by UDMA/100's
/// burst rate; a disk the table does not rate gets the PATA reason, not the SATA one. Near
/// misses: a disk already at the top mode both ends support gets no range, and a SATA disk's
/// finding still goes to the SATA link model.
#[test]
fn pata_mode_held_low_by_the_cable_reaches_a_rated_hdds_outer_zone() {
    let held = |model: &str, cur: u32| {
        let mut d = DiskFacts::new("hda", "/dev/hda");
        d.model = Fact::known(model.to_string(), "t");
        d.pata_mode = Fact::known(
            crate::facts::PataMode {
                current_udma_mb_s: Some(cur),
                drive_max_udma_mb_s: Some(100),
                host_max_udma_mb_s: Some(100),
                cable_40_wire: true,
                ..Default::default()
            },
            "t",
        );
        d
    };
    let run = |d: DiskFacts| {
        let mut fs = vec![problem("sata-link-below-max", "hda").fix(any_fix())];
        annotate(&sys_with(d, vec![]), &mut fs);
        fs.remove(0)
    };
    let f = run(held("HDS725050KLA360", 33));
    let e = f.expected_effect.as_ref().expect("an effect");
    assert_eq!(e.metric, EffectMetric::SeqReadMbps);
    assert!(
        e.low.is_some_and(|l| (l - 64.8 * 0.85).abs() < 1e-9),
        "{e:?}"
    );
    assert!((e.high - 64.8 * 1.05).abs() < 1e-9, "{e:?}");
    assert!(
        e.basis.contains("UDMA/100 instead of UDMA/33") && e.basis.contains("7K500"),
        "{}",
        e.basis
    );
    // Not rated: the reason names the PATA mode and the missing rating, not a SATA link.
    let f = run(held("HTS721060G9AT00", 33));
    assert!(f.expected_effect.is_none());
    let why = f.expected_effect_unknown.unwrap_or_default();
    assert!(
        why.contains("parallel ATA") && why.contains("100.0 MB/s") && why.contains("drives.rs"),
        "{why}"
    );
    assert!(!why.contains("negotiated link speed"), "{why}");
    // Already at the top mode both ends support: nothing to gain, no range.
    assert!(run(held("HDS725050KLA360", 100)).expected_effect.is_none());
    // A SATA disk (no PATA mode) still gets the SATA link model.
    let mut fs = vec![problem("sata-link-below-max", "sda").fix(any_fix())];
    annotate(&sys_with(slow_sata_ssd(), vec![]), &mut fs);
    assert!(fs[0].expected_effect.is_some(), "{:?}", fs[0]);
}

/// On Linux the same check is about the page cache: no ratio to the buffered rate, and
/// the reason says so.
#[test]
fn linux_page_cache_run_gets_no_raw_device_ratio() {
    let mut s = SystemFacts::empty(Platform::Linux);
    s.disks.push(DiskFacts::new("sdb", "/dev/sdb"));
    s.user_benchmarks
        .push(dd("/dev/zero", "/dev/sdb", 32 << 20, 10 << 30, 197.0));
    let mut fs = vec![problem("benchmark-buffered-device", "sdb")];
    fs[0].fixes.push(any_fix());
    annotate(&s, &mut fs);
    assert!(
        fs[0].expected_effect.is_none(),
        "{:?}",
        fs[0].expected_effect
    );
    let why = fs[0].expected_effect_unknown.clone().unwrap_or_default();
    assert!(why.contains("page cache"), "{why}");
}

/// Write cache off, and the only pasted write is small and synchronous (fio sync=1 or dd
/// oflag=dsync, 4 KiB): the reason says these writes do not get faster with the cache on.
/// Near misses: the same write with O_DIRECT only, a synchronous write in 1 MiB blocks, a
/// read, and a synchronous write of another disk when there are two keep the general reason.
#[test]
fn small_synchronous_writes_get_no_gain_from_the_write_cache() {
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.class = Fact::known(DeviceClass::Hdd, "t");
    let fio = crate::facts::UserBenchmark {
        tool: "fio".into(),
        command: Some("fio 4krandw rw=randwrite bs=4k (write)".into()),
        block_size_bytes: Some(4096),
        bytes_per_sec: Some(1_085_337.6),
        flags: vec!["direct=1".into(), "oflag=sync".into()],
        from: "pasted:fio lines 7-9".into(),
        ..Default::default()
    };
    let why_of = |s: &SystemFacts| no_range_why(s, "write-cache-disabled", "sda");
    let mut s = sys_with(d.clone(), vec![]);
    s.user_benchmarks.push(fio.clone());
    let why = why_of(&s);
    assert!(why.contains("4 KiB blocks synchronously"), "{why}");
    assert!(why.contains("will not get faster"), "{why}");
    assert!(why.contains("1.09 MB/s"), "{why}");
    // dd oflag=dsync in 512-byte blocks to the disk.
    let mut s = sys_with(d.clone(), vec![]);
    let mut w = dd("/dev/zero", "/dev/sda", 512, 1 << 20, 0.2);
    w.flags = vec!["oflag=dsync".into()];
    s.user_benchmarks.push(w.clone());
    let why = why_of(&s);
    assert!(why.contains("512-byte blocks synchronously"), "{why}");
    // Near misses.
    let general = "no large sequential write";
    let mut direct = fio.clone();
    direct.flags = vec!["direct=1".into()];
    let mut s = sys_with(d.clone(), vec![]);
    s.user_benchmarks.push(direct);
    assert!(why_of(&s).contains(general));
    let mut read = fio.clone();
    read.command = Some("fio 4krandr rw=randread bs=4k (read)".into());
    let mut s = sys_with(d.clone(), vec![]);
    s.user_benchmarks.push(read);
    assert!(why_of(&s).contains(general));
    let mut other = w.clone();
    other.output = Some("/dev/sdb".into());
    let mut s = sys_with(d.clone(), vec![]);
    s.disks.push(DiskFacts::new("sdb", "/dev/sdb"));
    s.user_benchmarks.push(other);
    assert!(why_of(&s).contains(general));
    let mut big = w.clone();
    big.block_size_bytes = Some(1 << 20);
    big.bytes = Some(1 << 20);
    let mut s = sys_with(d, vec![]);
    s.user_benchmarks.push(big);
    let mut fs = vec![problem("write-cache-disabled", "sda").fix(any_fix())];
    annotate(&s, &mut fs);
    assert!(
        fs[0]
            .expected_effect_unknown
            .as_deref()
            .is_none_or(|w| !w.contains("synchronously"))
    );
}

/// A pasted fio job of sequential O_DIRECT reads in 1 MiB blocks with no filename (the
/// shape of a DSM post: `fio --directory=. --bs=1M --rw=read --direct=1`) is the read figure
/// of the only disk there is, as a CrystalDiskMark file is; random reads, buffered reads,
/// small blocks or a second disk are not.
#[test]
fn a_direct_sequential_fio_read_is_the_only_disks_figure() {
    let fio = |rw: &str, bs: u64, direct: bool| crate::facts::UserBenchmark {
        tool: "fio".into(),
        command: Some(format!("fio read_throughput rw={rw} bs=1M (read)")),
        block_size_bytes: Some(bs),
        bytes_per_sec: Some(240e6),
        flags: if direct {
            vec!["direct=1".into()]
        } else {
            vec![]
        },
        from: "t".into(),
        ..Default::default()
    };
    let with = |u: crate::facts::UserBenchmark, disks: usize| {
        let mut s = SystemFacts::empty(Platform::Linux);
        for i in 0..disks {
            let n = format!("sd{}", ['q', 'r'][i]);
            s.disks.push(DiskFacts::new(&n, &format!("/dev/{n}")));
        }
        s.user_benchmarks.push(u);
        figure(&s, "sdq", Op::Read)
    };
    assert_eq!(with(fio("read", 1 << 20, true), 1), Some(240.0));
    assert_eq!(with(fio("randread", 1 << 20, true), 1), None);
    assert_eq!(with(fio("read", 1 << 20, false), 1), None);
    assert_eq!(with(fio("read", 4096, true), 1), None);
    assert_eq!(with(fio("read", 1 << 20, true), 2), None);
    // A write job is the write figure, not the read one.
    let mut w = fio("write", 1 << 20, true);
    w.command = Some("fio w rw=write bs=1M (write)".into());
    let mut s = SystemFacts::empty(Platform::Linux);
    s.disks.push(DiskFacts::new("sdq", "/dev/sdq"));
    s.user_benchmarks.push(w);
    assert_eq!(figure(&s, "sdq", Op::Write), Some(240.0));
    assert_eq!(figure(&s, "sdq", Op::Read), None);
}

/// The benchmark programs' figures of a file on the only disk (sources::diskmark,
/// sources::pibenchmarks, sources::agnostics) enter the models as that disk's measured
/// figures: the sequential read and write, and each 4 KiB random row at its own queue depth.
/// A NCQ-less SATA SSD whose KDiskMark RND4K Q32T1 read is pasted gets that read as the
/// figure now, and a SATA SSD on a slow link gets the SEQ1M read as its `from`.
#[test]
fn pasted_benchmark_programs_give_the_only_disk_its_figures() {
    // KDiskMark's rows (their IOPS and latency columns left out).
    let kdm = [
        "[Read]",
        "Sequential 1 MiB (Q= 8, T= 1): 140.321 MB/s",
        "Random 4 KiB (Q=32, T= 1): 27.810 MB/s",
        "Random 4 KiB (Q= 1, T= 1): 25.000 MB/s",
        "[Write]",
        "Sequential 1 MiB (Q= 8, T= 1): 130.000 MB/s",
        "Random 4 KiB (Q=32, T=16): 60.000 MB/s",
    ]
    .join("\n");
    let runs = crate::sources::diskmark::benchmarks(&kdm, "KDiskMark", "t", None);
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.model = Fact::known("Samsung SSD 870 EVO 1TB".to_string(), "t");
    let mut s = sys_with(d, vec![]);
    s.user_benchmarks = runs.clone();
    assert_eq!(
        measured(&s, "sda", EffectMetric::SeqReadMbps),
        Some(140.321)
    );
    assert_eq!(measured(&s, "sda", EffectMetric::SeqWriteMbps), Some(130.0));
    let at = |qd: u32, metric: EffectMetric| {
        measured_for(
            &s,
            "sda",
            &ExpectedEffect {
                metric,
                queue_depth: Some(qd),
                ..qd32_read_effect()
            },
        )
    };
    assert!(
        at(32, EffectMetric::RandReadIops).is_some_and(|v| (v - 27.81e6 / 4096.0).abs() < 1e-6)
    );
    assert!(at(1, EffectMetric::RandReadIops).is_some_and(|v| (v - 25e6 / 4096.0).abs() < 1e-6));
    // The Q32 write ran 16 threads: not a queue-depth-32 figure.
    assert_eq!(at(32, EffectMetric::RandWriteIops), None);
    let mut fs = vec![problem("ncq-unavailable", "sda")];
    annotate(&s, &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert!(e.from.is_some_and(|f| (f - 6789.55).abs() < 0.01), "{e:?}");
    // The same report on a slow SATA link: the SEQ1M read is the figure now.
    let mut slow = slow_sata_ssd();
    slow.link_port_max_gbps = Fact::known(6.0, "t");
    let mut s2 = sys_with(slow, vec![]);
    s2.user_benchmarks = runs.clone();
    let mut fs = vec![problem("sata-link-below-max", "sda")];
    annotate(&s2, &mut fs);
    let e = fs[0].expected_effect.as_ref().expect("an effect");
    assert_eq!(e.from, Some(140.321));
    // Near misses: a second disk (the report names no device), and the write row alone is
    // not a read.
    let mut two = s.clone();
    two.disks.push(DiskFacts::new("sdb", "/dev/sdb"));
    assert_eq!(measured(&two, "sda", EffectMetric::SeqReadMbps), None);
    assert_eq!(at_depth_none(&two), None);
    let mut writes_only = s.clone();
    writes_only
        .user_benchmarks
        .retain(|u| pasted_pattern(u) == Some("write"));
    assert_eq!(
        measured(&writes_only, "sda", EffectMetric::SeqReadMbps),
        None
    );
    // PiBenchmarks: the hdparm read and fio's iodepth-64 random read; its 4 KiB buffered dd
    // write is no large-block write figure.
    let pib = "HDParm                    Disk Read                 419.38 MB/s
DD                        Disk Write                171 MB/s
FIO                       4k random read            106113 IOPS (424455 KB/s)";
    let mut s3 = sys_with(DiskFacts::new("sda", "/dev/sda"), vec![]);
    s3.user_benchmarks = crate::sources::pibenchmarks::benchmarks(pib, "t");
    assert!(
        measured(&s3, "sda", EffectMetric::SeqReadMbps)
            .is_some_and(|v| (v - 419.38 * 1.048576).abs() < 1e-6)
    );
    assert_eq!(measured(&s3, "sda", EffectMetric::SeqWriteMbps), None);
    let e64 = ExpectedEffect {
        queue_depth: Some(64),
        ..qd32_read_effect()
    };
    assert!(measured_for(&s3, "sda", &e64).is_some_and(|v| (v - 106113.0).abs() < 1.0));
    // The SD card test: its 512 KiB O_DIRECT write is the write figure.
    let agn = "seq-write;0;0;19550;38\nrand-4k-read;11636;2909;0;0";
    let mut s4 = sys_with(DiskFacts::new("mmcblk0", "/dev/mmcblk0"), vec![]);
    s4.user_benchmarks = crate::sources::agnostics::benchmarks(agn, "t");
    assert!(
        measured(&s4, "mmcblk0", EffectMetric::SeqWriteMbps).is_some_and(|v| (v - 19550.0
            * 1024.0
            / 1e6)
            .abs()
            < 1e-9)
    );
}

/// The pasted random figure at any depth of `sda` in a paste of two disks: none.
fn at_depth_none(s: &SystemFacts) -> Option<f64> {
    measured(s, "sda", EffectMetric::RandReadIops)
}

/// A check that raised no finding says which reported state it reads. The in-repo
/// Ultrastar 7K6000 case (serverfault 857271) holds fio's 4 KiB sync write and the typed
/// command `hdparm -W 0 /dev/sda` without its output: no disk has a write-cache state, and
/// the reason says a typed command is not the drive's report. Near miss: a disk whose cache
/// the kernel reports on ("[sda] Write cache: enabled") has nothing to fix; a check this does
/// not cover gives no reason of its own.
#[test]
fn a_silent_write_cache_check_says_which_report_it_reads() {
    let mut s = SystemFacts::empty(Platform::Linux);
    s.disks.push(DiskFacts::new("sda", "/dev/sda"));
    let said = |s: &SystemFacts, check: &str| silent::why_silent(s, check).unwrap_or_default();
    // NCQ: the in-repo sonic-buildimage#13964 case quotes "`ata2.00: FORCE: horkage
    // modified (noncq)` should appear on the dmesg" in a sentence, and the ST6000AS0002 case
    // holds only dd's summary: no NCQ state either way. A SATA link check without any link
    // speed says which lines carry it (the ThinkPad T61 cases' summary table of hdparm and
    // dd). The encryption check with no layer: a CrystalDiskMark report prints no volume
    // state (the in-repo BitLocker case names BitLocker in a heading only).
    for (check, words) in [
        ("write-cache-disabled", "typed `hdparm -W 0`"),
        ("ncq-unavailable", "quoted in a sentence"),
        ("sata-link-below-max", "SATA link up 1.5 Gbps"),
        ("encryption-bound", "no encryption layer"),
    ] {
        let why = said(&s, check);
        assert!(why.contains(words), "{why}");
    }
    // Near misses: the kernel's "[sda] Write cache: enabled" and libata's "NCQ (depth 32)"
    // leave nothing to fix.
    s.disks[0].write_cache_enabled = Fact::known(true, "t");
    s.disks[0].ncq_active = Fact::known(true, "t");
    for (check, words) in [
        (
            "write-cache-disabled",
            "the write cache is on (sda): nothing to fix",
        ),
        ("ncq-unavailable", "NCQ is in use (sda): nothing to fix"),
    ] {
        let why = said(&s, check);
        assert!(why.contains(words), "{why}");
    }
    assert!(silent::why_silent(&s, "media-errors").is_none());
}

/// A link fix's one range is for sequential reads; asked for 4 KiB reads at queue depth 1
/// (the in-repo Raspberry Pi 5 iozone case: `dtparam=pciex1`, Gen 2 x1, able to run Gen 3
/// x1), the reason gives the transfer's time per read on both links from the NVMe and PCIe
/// byte counts: 4710 bytes take 9.4 µs at 500 MB/s and 4.8 µs at 984.6 MB/s. Near misses:
/// queue depth 32 (not latency-bound) gets the plain metric reason, the finding's own metric
/// none.
#[test]
fn a_link_range_asked_for_queue_depth_1_reads_gives_the_transfer_arithmetic() {
    let d = pi5_gen2_port_disk();
    let s = sys_with(d, vec![]);
    let mut f = problem("pcie-link-limited", "pasted-disk");
    f.expected_effect = Some(ExpectedEffect {
        metric: EffectMetric::SeqReadMbps,
        unit: "MB/s".into(),
        queue_depth: None,
        from: Some(442.15),
        low: Some(442.15),
        high: 870.7,
        basis: "t".into(),
    });
    let why =
        silent::why_other_metric(&s, &f, EffectMetric::RandReadIops, Some(1)).unwrap_or_default();
    assert!(why.contains("9.4 µs on the current link"), "{why}");
    assert!(why.contains("4.8 µs on the full one"), "{why}");
    let qd32 =
        silent::why_other_metric(&s, &f, EffectMetric::RandReadIops, Some(32)).unwrap_or_default();
    assert!(qd32.contains("not for 4 KiB random reads"), "{qd32}");
    assert!(silent::why_other_metric(&s, &f, EffectMetric::SeqReadMbps, None).is_none());
}

/// Fixes without arithmetic quote the measured ratios with their sources and say no source
/// gives a range: a scheduler finding lists both Domino runs (1.82x, 3.14x) with the blog's
/// address. Near miss: a check without rows in the table gets no "measured elsewhere".
#[test]
fn fixes_without_arithmetic_quote_measured_ratios_with_their_sources() {
    let mut s = SystemFacts::empty(Platform::Linux);
    s.disks.push(DiskFacts::new("sda", "/dev/sda"));
    let mut f = problem("io-scheduler", "sda");
    f.fixes.push(any_fix());
    let why = why_none(&s, &f).unwrap_or_default();
    assert!(why.starts_with("no source gives a range for this"), "{why}");
    assert!(why.contains("1.82x") && why.contains("3.14x"), "{why}");
    assert!(why.contains("blog.nashcom.de"), "{why}");
    let rows = measured_ratios();
    assert_eq!(rows.len(), 12);
    assert!(rows.iter().all(|r| r.source.starts_with("http")));
    let mut g = problem("smr-drive", "sda");
    g.fixes.push(any_fix());
    let why = why_none(&s, &g).unwrap_or_default();
    assert!(!why.contains("measured elsewhere"), "{why}");
}
