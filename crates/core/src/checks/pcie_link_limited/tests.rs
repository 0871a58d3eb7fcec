use super::*;
use crate::checks::testutil::*;
use crate::checks::testutil_nvme::*;
use crate::evidence::TestName;
use crate::facts::Fact;
use crate::sources::lspci;

fn run(sys: &SystemFacts) -> Finding {
    let fs = PcieLinkLimited.run(sys);
    assert_eq!(fs.len(), 1, "{fs:#?}");
    fs.into_iter().next().unwrap_or_else(|| unreachable!())
}

fn from_lspci(rel: &str) -> SystemFacts {
    let devs = lspci::parse(&fixture(rel));
    let d0 = devs
        .iter()
        .find(|d| d.has_link())
        .cloned()
        .unwrap_or_default();
    let mut d = nvme_ssd();
    d.pcie = Fact::known(vec![lspci::link(&d0)], format!("pasted:{rel}"));
    linux(d)
}

#[test]
fn healthy_x4_passes() {
    assert_vs(&run(&linux(nvme_ssd())), Verdict::Pass, Severity::Info);
}

#[test]
fn lspci_fixtures_downgraded_fire() {
    // The VisionFive 2's drive sits in PCI domain 0001 (an SBC's own controller, the
    // port not in the paste): a notice; the Pi 5 HAT paste has no domain: a warning.
    for (rel, sev) in [
        (
            "lspci-vv/nvme-kioxia-xg6-cap-8gt-x4-sta-5gt-x1-downgraded-visionfive2.txt",
            Severity::Notice,
        ),
        (
            "lspci-vv/nvme-sn550-rpi5-hat-cap-8gt-x4-sta-5gt-x1-downgraded-quoted-no-header.txt",
            Severity::Warning,
        ),
    ] {
        let f = run(&from_lspci(rel));
        assert_vs(&f, Verdict::Problem, sev);
        // 5 GT/s x1 = 500 MB/s: below a SATA SSD, the drive-class rule too.
        assert!(f.explanation.contains("500.0 MB/s"), "{}", f.explanation);
        assert!(
            f.evidence
                .iter()
                .any(|e| e.value.contains("current 5 GT/s x1"))
        );
        assert!(f.fixes[0].steps[0].contains("LnkSta"));
    }
    let f = run(&from_lspci(
        "lspci-vv/grep-speed-cap-16gt-x4-sta-8gt-x2-downgraded.txt",
    ));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.title.contains("trained below"));
}

#[test]
fn lspci_fixture_healthy_passes() {
    let f = run(&from_lspci(
        "lspci-vv/nvme-phison-e21-cap-16gt-x4-sta-16gt-x4-healthy.txt",
    ));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    assert!(f.title.contains("PCIe 4.0"));
}

#[test]
fn qemu_root_port_2_5_x1_fires_on_class_rule() {
    let f = run(&linux(slow_nvme()));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.explanation.contains("250.0 MB/s"), "{}", f.explanation);
    assert!(!f.explanation.contains("trained down"));
}

#[test]
fn one_lane_at_full_speed_is_the_slot_not_a_fault() {
    // Batch 24's Raspberry Pi 5 at Gen 3: "LnkSta: Speed 8GT/s, Width x1 (downgraded)",
    // no LnkCap and no port in the paste.
    let pi = lspci::parse(
        "0000:01:00.0 Non-Volatile memory controller: Micron Technology Inc Device 5416\n\
             \t\tLnkSta:\tSpeed 8GT/s, Width x1 (downgraded)\n",
    );
    let mut d = nvme_ssd();
    d.pcie = Fact::known(vec![lspci::link(&pi[0])], "pasted:lspci-vv lines 1-2");
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    assert!(f.title.contains("one lane"), "{}", f.title);
    // Near miss: the speed is marked too (a Pi 5 left at Gen 2, batch 1): trained down.
    let gen2 = lspci::parse("\t\tLnkSta:\tSpeed 5GT/s (downgraded), Width x1 (downgraded)\n");
    let mut d = nvme_ssd();
    d.pcie = Fact::known(vec![lspci::link(&gen2[0])], "pasted:lspci-vv lines 1");
    assert_vs(&run(&linux(d)), Verdict::Problem, Severity::Warning);
    // Near miss: two lanes of four at full speed stay a downgrade.
    let x2 = lspci::parse("\t\tLnkSta:\tSpeed 16GT/s, Width x2 (downgraded)\n");
    let mut d = nvme_ssd();
    d.pcie = Fact::known(vec![lspci::link(&x2[0])], "pasted:lspci-vv lines 1");
    assert_vs(&run(&linux(d)), Verdict::Problem, Severity::Warning);
}

#[test]
fn one_lane_gen2_in_a_domain_of_its_own_is_a_notice() {
    // An RK3588 board's M.2 connector: the drive at 0004:41:00.0, LnkCap 8GT/s x4,
    // LnkSta 5GT/s x1, no port in the paste.
    let sbc = lspci::parse(
        "0004:41:00.0 Non-Volatile memory controller: Phison Electronics Corporation PS5013 E13 NVMe Controller (rev 01)\n\
             \t\tLnkCap:\tPort #1, Speed 8GT/s, Width x4, ASPM L1, Exit Latency L1 unlimited\n\
             \t\tLnkSta:\tSpeed 5GT/s (downgraded), Width x1 (downgraded)\n",
    );
    let mut d = nvme_ssd();
    d.pcie = Fact::known(vec![lspci::link(&sbc[0])], "pasted:lspci-vv lines 1-3");
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.explanation.contains("domain 0004"), "{}", f.explanation);
    // Near misses: the same link in a PC's domain 0000, or behind VMD's 10000, or two
    // lanes: the warning stays.
    for text in [
        "0000:41:00.0 Non-Volatile memory controller: x\n\t\tLnkCap:\tPort #1, Speed 8GT/s, Width x4\n\t\tLnkSta:\tSpeed 5GT/s (downgraded), Width x1 (downgraded)\n",
        "10000:e1:00.0 Non-Volatile memory controller: x\n\t\tLnkCap:\tPort #1, Speed 8GT/s, Width x4\n\t\tLnkSta:\tSpeed 5GT/s (downgraded), Width x1 (downgraded)\n",
        "0004:41:00.0 Non-Volatile memory controller: x\n\t\tLnkCap:\tPort #1, Speed 8GT/s, Width x4\n\t\tLnkSta:\tSpeed 5GT/s (downgraded), Width x2 (downgraded)\n",
    ] {
        let l = lspci::parse(text);
        let mut d = nvme_ssd();
        d.pcie = Fact::known(vec![lspci::link(&l[0])], "pasted:lspci-vv lines 1-3");
        assert_vs(&run(&linux(d)), Verdict::Problem, Severity::Warning);
    }
    assert_eq!(soc_domain("0001:01:00.0"), Some("0001"));
    assert_eq!(soc_domain("0000:01:00.0"), None);
    assert_eq!(soc_domain("10000:e1:00.0"), None);
}

#[test]
fn one_lane_port_at_its_capability_is_the_slot_notice_not_class_warning() {
    // A PCIe switch port of one lane at its own 5 GT/s, an x4 drive below it.
    let d = nvme_on(vec![
        link("0000:03:00.0", 0, 5.0, 8.0, 1, 4),
        link("0000:02:01.0", 1, 5.0, 5.0, 1, 1),
    ]);
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.title.contains("slot limits"), "{}", f.title);
}

#[test]
fn slot_limits_gen4_drive_in_gen3_x4_is_notice() {
    let d = nvme_on(vec![
        link("0000:03:00.0", 0, 8.0, 16.0, 4, 4),
        link("0000:00:1c.0", 1, 8.0, 8.0, 4, 4),
    ]);
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(f.title.contains("slot limits"));
}

fn with_read(d: DiskFacts, bytes_per_sec: f64) -> SystemFacts {
    let mut s = linux(d);
    s.benchmarks.push(crate::evidence::BenchResult {
        bytes_per_sec,
        ..serde_json::from_str(BENCH).unwrap_or_else(|e| panic!("{e}"))
    });
    s
}

fn nvme_on(links: Vec<PcieLink>) -> DiskFacts {
    let mut d = nvme_ssd();
    d.pcie = Fact::known(
        links,
        crate::sources::sysfs::pci_device("0000:03:00.0", "current_link_speed"),
    );
    d
}

fn slow_nvme() -> DiskFacts {
    // The QEMU lab's pcie-root-port x-speed=2_5,x-width=1: port and device at 2.5 GT/s x1.
    nvme_on(vec![
        link("0000:01:00.0", 0, 2.5, 2.5, 1, 1),
        link("0000:00:01.0", 1, 2.5, 2.5, 1, 1),
    ])
}

#[test]
fn link_hit_threshold_edges() {
    // 2.5 GT/s x1: 250 MB/s coded; 82 % is 205 MB/s, 105 % is 262.5 MB/s.
    assert_eq!(measured(204.9e6, 250.0), Measured::Below);
    assert_eq!(measured(205.0e6, 250.0), Measured::AtLink);
    assert_eq!(measured(262.5e6, 250.0), Measured::AtLink);
    assert_eq!(measured(262.6e6, 250.0), Measured::PastLink);
    assert_eq!(measured(f64::NAN, 250.0), Measured::Below);
}

#[test]
fn reads_at_the_link_name_it_in_the_title() {
    let f = run(&with_read(slow_nvme(), 237.3e6));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert_eq!(
        f.title,
        "nvme0n1: reads stop at 237.3 MB/s, the 2.5 GT/s x1 link's ceiling (250.0 MB/s)"
    );
    assert!(
        f.explanation.contains("the measurement hit the link"),
        "{}",
        f.explanation
    );
    assert_eq!(f.confidence, Confidence::High);
    assert!(f.evidence.iter().any(|e| e.source == "benchmark:seq-read"));
}

#[test]
fn reads_past_the_link_are_not_blamed_on_it() {
    let f = run(&with_read(slow_nvme(), 381.4e6));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.title.contains("far below an NVMe drive"), "{}", f.title);
    assert!(
        f.explanation.contains("more than the 250.0 MB/s"),
        "{}",
        f.explanation
    );
    assert!(!f.explanation.contains("hit the link"));
    assert_eq!(f.confidence, Confidence::Medium);
}

#[test]
fn reads_below_the_link_point_elsewhere() {
    let f = run(&with_read(slow_nvme(), 120.0e6));
    assert!(f.explanation.contains("something else limits it first"));
    assert!(!f.evidence.iter().any(|e| e.source == "benchmark:seq-read"));
}

#[test]
fn a_healthy_link_at_its_ceiling_still_passes_and_says_so() {
    let mut d = nvme_ssd();
    d.pcie = Fact::known(
        vec![link("0000:03:00.0", 0, 8.0, 8.0, 4, 4)],
        crate::sources::sysfs::pci_device("0000:03:00.0", "current_link_speed"),
    );
    // 8 GT/s x4 = 3938.5 MB/s coded; 3500 MB/s is 89 % of it.
    let f = run(&with_read(d, 3500e6));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    assert!(
        f.explanation.contains("the measurement hit the link"),
        "{}",
        f.explanation
    );
}

#[test]
fn bench_at_ceiling_raises_confidence() {
    let mut d = nvme_ssd();
    d.pcie = Fact::known(
        vec![link("0000:03:00.0", 0, 2.5, 8.0, 1, 4)],
        crate::sources::sysfs::pci_device("0000:03:00.0", "current_link_speed"),
    );
    let mut s = linux(d);
    s.benchmarks.push(crate::evidence::BenchResult {
        test: TestName::SeqRead,
        disk: "nvme0n1".into(),
        direct: true,
        bytes: 1 << 30,
        queue_depth: 1,
        bytes_per_sec: 231e6,
        ..serde_json::from_str(BENCH).unwrap_or_else(|e| panic!("{e}"))
    });
    let f = run(&s);
    assert_eq!(f.confidence, Confidence::High);
    assert!(f.explanation.contains("231.0 MB/s"));
}

#[test]
fn pasted_diskmark_read_at_the_ceiling_counts_as_the_measurement() {
    // A pasted KDiskMark SEQ1M Q8T1 read (explain/nvme_diskmark.rs) beside the lspci of the one
    // NVMe: 5 GT/s x1 carries 500 MB/s (8b/10b); 480 MB/s is that ceiling.
    let mut d = nvme_ssd();
    d.pcie = Fact::known(
        vec![link("0000:01:00.0", 0, 5.0, 8.0, 1, 4)],
        crate::sources::sysfs::pci_device("0000:03:00.0", "current_link_speed"),
    );
    let mut s = linux(d);
    s.user_benchmarks.push(crate::facts::UserBenchmark {
        tool: "KDiskMark".into(),
        bytes_per_sec: Some(480e6),
        from: "pasted:kdiskmark lines 1-9".into(),
        ..serde_json::from_str(USER_BENCH).unwrap_or_else(|e| panic!("{e}"))
    });
    let f = run(&s);
    assert_eq!(f.confidence, Confidence::High);
    assert!(f.explanation.contains("480.0 MB/s"), "{}", f.explanation);
    assert!(
        f.evidence
            .iter()
            .any(|e| e.source.starts_with("pasted:kdiskmark"))
    );
    // Another tool's pasted number (a dd of unknown target) is not taken for it.
    s.user_benchmarks[0].tool = "dd".into();
    assert_eq!(run(&s).confidence, Confidence::Medium);
}

const USER_BENCH: &str = r#"{"tool":"x","command":null,"input":null,"output":null,
        "block_size_bytes":null,"bytes":null,"seconds":null,"bytes_per_sec":null,
        "records_in":null,"records_out":null,"error":null,"from":""}"#;

const BENCH: &str = r#"{"test":"seq-read","target":"/dev/nvme0n1","disk":"nvme0n1",
        "label":"outer","block_size_bytes":1048576,"queue_depth":1,"direct":true,
        "offset_bytes":0,"bytes":1,"ios":1,"elapsed_ns":1,"bytes_per_sec":1.0,"iops":1.0,
        "latency":null,"spread_pct":null,"stop_reason":"stable","error":null}"#;

#[test]
fn unknown_for_nvme_silent_without_pcie() {
    let mut d = nvme_ssd();
    d.pcie = Fact::unknown("not captured");
    assert_vs(&run(&linux(d)), Verdict::Unknown, Severity::Info);
    let mut h = sata_hdd_ahci();
    h.pcie = Fact::unknown("not on PCI");
    assert!(PcieLinkLimited.run(&linux(h)).is_empty());
}

#[test]
fn lane_rates() {
    assert_eq!(lane_mb_s(2.5), 250.0);
    assert_eq!(lane_mb_s(5.0), 500.0);
    assert!((lane_mb_s(8.0) - 984.6).abs() < 0.1);
    assert!((lane_mb_s(16.0) * 4.0 - 7876.9).abs() < 0.1);
}

#[test]
fn x4_drive_at_a_raspberry_pi_cm4_port_ceiling_is_information() {
    // lspci -vvv -s 01:00.0 of an SK hynix BC711 on a Compute Module 4: LnkCap 8GT/s x4,
    // LnkSta 5GT/s x1 (downgraded), the BCM2711's one Gen 2 lane; no root port in the paste.
    let text = "01:00.0 Non-Volatile memory controller: SK hynix Device 174a (prog-if 02 [NVM Express])\n\
                \t\tLnkCap:\tPort #0, Speed 8GT/s, Width x4, ASPM L1, Exit Latency L1 <64us\n\
                \t\tLnkSta:\tSpeed 5GT/s (downgraded), Width x1 (downgraded)\n";
    let on = |model: &str| {
        let l = lspci::parse(text);
        let mut d = nvme_ssd();
        d.pcie = Fact::known(vec![lspci::link(&l[0])], "pasted:lspci-vv lines 1-3");
        let mut s = linux(d);
        s.cpu_model = Fact::known(model.to_string(), "pasted:line 73");
        s
    };
    let pis = [
        "Raspberry Pi Compute Module 4 Rev 1.0",
        "Raspberry Pi (named by the disk-benchmark script's banner)",
    ];
    for f in pis.map(|m| run(&on(m))) {
        assert_vs(&f, Verdict::Problem, Severity::Info);
        assert!(
            f.title.contains("BCM2711") && f.fixes.is_empty(),
            "{}",
            f.title
        );
    }
    // Near misses: a PC, an unnamed ARM machine, a Raspberry Pi 5: the warning stays.
    for model in [
        "Intel(R) Core(TM) i7-8700 CPU",
        "aarch64",
        "Raspberry Pi 5 Model B Rev 1.0",
    ] {
        assert_vs(&run(&on(model)), Verdict::Problem, Severity::Warning);
    }
    // Below the CM4's own Gen 2: still a training fault.
    let slow = text.replace("Speed 5GT/s", "Speed 2.5GT/s");
    let l = lspci::parse(&slow);
    let mut d = nvme_ssd();
    d.pcie = Fact::known(vec![lspci::link(&l[0])], "pasted:lspci-vv lines 1-3");
    let mut s = linux(d);
    s.cpu_model = Fact::known("Raspberry Pi Compute Module 4 Rev 1.0".to_string(), "x");
    assert_vs(&run(&s), Verdict::Problem, Severity::Warning);
}

#[test]
fn captured_bcm2711_root_port_at_its_ceiling_is_information() {
    // A whole lspci -vv of a CM4: the root port "BCM2711 PCIe Bridge" (LnkCap 5GT/s x1)
    // above an x4 drive at 5GT/s x1; the root port's name gave the machine.
    let d = || {
        nvme_on(vec![
            link("0000:01:00.0", 0, 5.0, 8.0, 1, 4),
            link("0000:00:00.0", 1, 5.0, 5.0, 1, 1),
        ])
    };
    let mut s = linux(d());
    s.cpu_model = Fact::known(
        "Broadcom BCM2711 (named by its PCIe root port)".to_string(),
        "pasted:lspci-vv lines 1-40",
    );
    assert_vs(&run(&s), Verdict::Problem, Severity::Info);
    // Near miss: a port of another capability under the same machine (a switch) is judged
    // as any port.
    let mut sw = linux(nvme_on(vec![
        link("0000:03:00.0", 0, 5.0, 8.0, 1, 4),
        link("0000:02:01.0", 1, 5.0, 8.0, 1, 1),
    ]));
    sw.cpu_model = s.cpu_model.clone();
    assert_vs(&run(&sw), Verdict::Problem, Severity::Warning);
}
