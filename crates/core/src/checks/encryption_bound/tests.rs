use super::*;
use crate::checks::Verdict;
use crate::checks::measured_common::synth::*;
use crate::facts::Fact;

#[test]
fn slow_crypt_layer_without_aes_ni() {
    let mut s = sys(
        vec![],
        vec![
            result(TestName::LayerCost, "disk", "sda", 520.0, 1 << 20),
            result(TestName::LayerCost, "partition sda2", "sda", 515.0, 1 << 20),
            result(TestName::LayerCost, "luks dm-0", "sda", 130.0, 1 << 20),
        ],
    );
    s.aes_ni = Fact::known(false, crate::sources::sysfs::proc("cpuinfo"));
    let f = EncryptionBound.run(&s);
    assert_eq!(f[0].verdict, Verdict::Problem);
    assert_eq!(
        f[0].title,
        "sda: luks dm-0 reads at 130.0 MB/s vs 520.0 MB/s from the disk (75% lost to encryption)"
    );
    assert!(f[0].explanation.contains("AES-NI"));
}

fn hdparm(dev: &str, mb_s: f64, line: usize) -> crate::facts::UserBenchmark {
    crate::facts::UserBenchmark {
        tool: "hdparm -t".into(),
        input: Some(format!("/dev/{dev}")),
        bytes_per_sec: Some(mb_s * 1e6),
        from: format!("pasted:hdparm-t lines {line}-{}", line + 2),
        ..Default::default()
    }
}

#[test]
fn a_pasted_read_through_a_crypt_mapping_at_half_the_disks() {
    // hdparm -t of two disks and of a TrueCrypt mapping and an LVM volume (a forum post):
    // the mapping at half the slower disk; the LVM volume is no crypt name.
    for mapping in [
        "truecrypt1",
        "veracrypt2",
        "luks-3f1c2a9e-5b7d",
        "sdb5_crypt",
    ] {
        let mut s = sys(vec![], vec![]);
        s.user_benchmarks = vec![
            hdparm("sda", 87.2, 1),
            hdparm(&format!("mapper/{mapping}"), 41.8, 6),
            hdparm("sdb", 64.6, 11),
            hdparm("mapper/ubuntu--desktop-root", 31.4, 16),
        ];
        let f = EncryptionBound.run(&s);
        assert_eq!(f.len(), 1, "{mapping}: {f:?}");
        assert_eq!(f[0].verdict, Verdict::Problem);
        assert_eq!(f[0].device, mapping);
        assert!(
            f[0].title.contains("65 % of the slowest disk"),
            "{}",
            f[0].title
        );
        assert_eq!(f[0].evidence.len(), 2);
    }
    // Close to the disks' speed, or no whole disk read to compare with: nothing.
    let mut s = sys(vec![], vec![]);
    s.user_benchmarks = vec![hdparm("sda", 87.2, 1), hdparm("mapper/truecrypt1", 80.0, 6)];
    assert!(EncryptionBound.run(&s).is_empty());
    s.user_benchmarks = vec![
        hdparm("sda1", 87.2, 1),
        hdparm("mapper/truecrypt1", 20.0, 6),
    ];
    assert!(EncryptionBound.run(&s).is_empty());
}

#[test]
fn cheap_crypt_passes_and_no_layers_is_silent() {
    let s = sys(
        vec![],
        vec![
            result(TestName::LayerCost, "disk", "sda", 520.0, 1 << 20),
            result(
                TestName::LayerCost,
                "geli ada0p4.eli",
                "sda",
                500.0,
                1 << 20,
            ),
        ],
    );
    assert_eq!(EncryptionBound.run(&s)[0].verdict, Verdict::Pass);
    let s = sys(
        vec![],
        vec![
            result(TestName::LayerCost, "disk", "sda", 520.0, 1 << 20),
            result(TestName::LayerCost, "lvm dm-1", "sda", 100.0, 1 << 20),
        ],
    );
    assert!(EncryptionBound.run(&s).is_empty());
}
