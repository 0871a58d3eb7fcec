use super::*;
use crate::checks::testutil::*;
use crate::facts::Fact;

fn run(sys: &SystemFacts) -> Finding {
    let fs = PartitionTableLimit.run(sys);
    assert_eq!(fs.len(), 1);
    fs.into_iter().next().unwrap_or_else(|| unreachable!())
}

#[test]
fn seed003_mbr_on_2_7_tib() {
    let f = run(&seed003(seed003_mbr_1008()));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert_eq!(
        f.title,
        "da0: MBR table can use only 2.0 TiB of this 2.7 TiB disk"
    );
    assert!(
        f.explanation.contains("the last 746.5 GiB (about 26%)"),
        "{}",
        f.explanation
    );
    assert!(f.evidence.iter().any(
        |e| e.source == crate::sources::diskinfo::SPEC.key_for("da0")
            && e.value == "size_bytes=3000592982016"
    ));
    assert!(
        f.fixes[0]
            .steps
            .iter()
            .any(|s| s.contains("gpart create -s gpt da0"))
    );
}

#[test]
fn gpt_passes() {
    assert_vs(&run(&linux(sata_hdd_ahci())), Verdict::Pass, Severity::Info);
}

#[test]
fn small_mbr_passes() {
    assert_vs(&run(&seed000_desktop()), Verdict::Pass, Severity::Info);
}

#[test]
fn mbr_on_4kn_reaches_16_tib() {
    let mut d = sata_hdd_ahci();
    d.logical_sector_bytes = Fact::known(4096, "ioctl:/dev/sda:BLKSSZGET");
    d.partition_table = Fact::known(
        table("dos", vec![part(1, "sda1", 256, 1000)]),
        "read:/dev/sda:0:17408",
    );
    assert_eq!(run(&linux(d)).verdict, Verdict::Pass);
}

#[test]
fn linux_fix_uses_sgdisk() {
    let mut d = sata_hdd_ahci();
    d.partition_table = Fact::known(
        table("mbr", vec![part(1, "sda1", 2048, 1000)]),
        "read:/dev/sda:0:17408",
    );
    let f = run(&linux(d));
    assert_eq!(f.verdict, Verdict::Problem);
    assert!(f.fixes[0].steps[1].contains("sgdisk --mbrtogpt /dev/sda"));
}

#[test]
fn scheme_unknown_is_unknown() {
    // Linux without root: partition starts from sysfs, scheme "unknown".
    let mut d = sata_hdd_ahci();
    d.partition_table = Fact::known(
        table("unknown", vec![part(1, "sda1", 2048, 1000)]),
        "dir:/sys/block/sda",
    );
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Unknown, Severity::Info);
    assert!(f.explanation.contains("sfdisk -d /dev/sda"));
}

#[test]
fn unknown_size() {
    let mut d = sata_hdd_ahci();
    d.size_bytes = Fact::unknown("not present");
    d.partition_table = Fact::known(table("mbr", vec![]), "read:/dev/sda:0:17408");
    assert_eq!(run(&linux(d)).verdict, Verdict::Unknown);
}
