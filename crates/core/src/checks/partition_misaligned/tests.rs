use super::*;
use crate::checks::testutil::*;
use crate::facts::Fact;
use crate::sources::ata_identify::AtaIdentify;

fn run(sys: &SystemFacts) -> Finding {
    let fs = PartitionMisaligned.run(sys);
    assert_eq!(fs.len(), 1);
    fs.into_iter().next().unwrap_or_else(|| unreachable!())
}

fn with_table(mut d: DiskFacts, t: PartitionTable) -> DiskFacts {
    d.partition_table = Fact::known(t, "read:/dev/sda:0:17408");
    d
}

#[test]
fn gpt_2048_on_512e_passes() {
    let f = run(&linux(sata_hdd_ahci()));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    assert_eq!(f.title, "partitions start on 1 MiB boundaries: aligned");
    assert_eq!(f.evidence[0].value, "gpt: sda1@1048576");
}

#[test]
fn seed003_mbr_slice_1008_is_4k_aligned_not_1mib() {
    let f = run(&seed003(seed003_mbr_1008()));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    assert_eq!(
        f.title,
        "partitions aligned to the 4096-byte physical sector"
    );
    assert!(
        f.explanation
            .contains("da0s1 at byte 516096 (504.0 KiB past a 1 MiB boundary)")
    );
    assert!(f.explanation.contains("da0s1a at byte 516096"));
    assert!(f.explanation.contains("\"=> 63\""));
    assert!(f.evidence.iter().any(
        |e| e.source == crate::sources::diskinfo::SPEC.key_for("da0")
            && e.value == "physical_sector_bytes=4096"
    ));
}

#[test]
fn seed003_gpt_at_40_is_clean() {
    let f = run(&seed003(table(
        "gpt",
        vec![part(1, "da0p1", 40, 5_860_533_088)],
    )));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    assert!(
        f.explanation
            .contains("da0p1 at byte 20480 (20.0 KiB past a 1 MiB boundary)")
    );
    assert!(!f.explanation.contains("=> 63"));
}

#[test]
fn slice_at_63_on_512e_is_misaligned_with_bsd_child() {
    let mut s1 = part(1, "da0s1", 63, 4_294_967_166);
    let mut a = part(1, "da0s1a", 0, 4_294_967_000);
    a.start_bytes = 63 * 512;
    s1.children = vec![a];
    let f = run(&seed003(table("mbr", vec![s1])));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert_eq!(
        f.title,
        "da0: 2 partitions not aligned to the 4096-byte physical sector"
    );
    assert!(f.explanation.contains("da0s1 at sector 63 (byte 32256)"));
    assert!(f.explanation.contains("da0s1a at sector 63"));
    assert!(f.explanation.contains("11.3"));
    assert!(f.explanation.contains("old DOS cylinder default"));
    let steps = &f.fixes[0].steps;
    assert!(
        steps
            .iter()
            .any(|s| s
                == "`gpart add -t freebsd-ufs -a 1m da0` (add -s SIZE for several partitions)")
    );
    assert!(f.fixes[0].risk.contains("destroys data"));
    assert_eq!(f.fixes[0].platform, Platform::Freebsd);
}

fn boot_steps(t: PartitionTable, zfs: bool, root_mount: bool) -> Vec<String> {
    let mut d = sata_hdd_ahci_freebsd();
    if zfs {
        d.layers.push(crate::facts::Layer {
            kind: Some(crate::facts::LayerKind::Zfs),
            name: "zroot".into(),
            ..Default::default()
        });
    }
    if root_mount {
        d.mounts.push(crate::facts::Mount {
            source: "/dev/ada0s1a".into(),
            mountpoint: "/".into(),
            fstype: "ufs".into(),
            ..Default::default()
        });
    }
    fixes(Platform::Freebsd, &d, &t)
        .into_iter()
        .flat_map(|f| f.steps)
        .collect()
}

#[test]
fn freebsd_boot_disk_fix_keeps_the_boot_partitions() {
    let mut b = part(1, "ada0p1", 40, 1024);
    b.type_name = Some("freebsd-boot".into());
    let mut z = part(2, "ada0p2", 1064, 1_000_000);
    z.type_name = Some("freebsd-zfs".into());
    let steps = boot_steps(table("gpt", vec![b, z]), true, false);
    assert!(
        steps
            .iter()
            .any(|s| s == "`gpart add -t freebsd-boot -a 4k -s 512k ada0`")
    );
    assert!(
        steps
            .iter()
            .any(|s| s == "`gpart bootcode -b /boot/pmbr -p /boot/gptzfsboot -i 1 ada0`")
    );
    assert!(steps[0].contains("boot from FreeBSD install media"));
    // EFI + BIOS: the ESP first (p1, loader.efi), freebsd-boot second (-i 2).
    let mut e = part(1, "ada0p1", 40, 532_480);
    e.type_name = Some("efi".into());
    let mut b = part(2, "ada0p2", 532_520, 1024);
    b.type_name = Some("freebsd-boot".into());
    let steps = boot_steps(table("gpt", vec![e, b]), false, false);
    assert!(
        steps
            .iter()
            .any(|s| s.starts_with("`newfs_msdos -F 32 -c 1 /dev/ada0p1`")
                && s.contains("/boot/loader.efi /mnt/efi/boot/bootx64.efi"))
    );
    assert!(
        steps
            .iter()
            .any(|s| s == "`gpart bootcode -b /boot/pmbr -p /boot/gptboot -i 2 ada0`")
    );
    // MBR root disk: boot0 and the BSD label's boot2.
    let steps = boot_steps(
        table("mbr", vec![part(1, "ada0s1", 63, 1_000_000)]),
        false,
        true,
    );
    assert!(
        steps
            .iter()
            .any(|s| s == "`gpart bootcode -b /boot/boot0 ada0`")
    );
    assert!(
        steps
            .iter()
            .any(|s| s == "`gpart bootcode -b /boot/boot ada0s1`")
    );
    // A data disk keeps the plain fix.
    let steps = boot_steps(
        table("gpt", vec![part(1, "ada0p1", 34, 1000)]),
        false,
        false,
    );
    assert!(!steps.iter().any(|s| s.contains("bootcode")));
}

/// An MBR disk whose active slice holds a BSD label with an `a` partition boots from
/// it (boot0 -> boot1/boot2 -> /boot/loader on the `a` partition) even when no mount
/// list says `/` is there: the fix keeps boot0 and the label's boot code.
#[test]
fn active_slice_with_bsd_a_partition_is_a_boot_disk() {
    let mbr = |active: bool, kids: bool| {
        let mut s1 = part(1, "ada0s1", 63, 1_000_000);
        s1.type_name = Some("freebsd".into());
        s1.active = active;
        if kids {
            let mut a = part(1, "ada0s1a", 63, 500_000);
            a.type_name = Some("freebsd-ufs".into());
            s1.children = vec![a, part(2, "ada0s1b", 500_063, 100_000)];
        }
        table("mbr", vec![s1])
    };
    let steps = boot_steps(mbr(true, true), false, false);
    assert!(
        steps
            .iter()
            .any(|s| s == "`gpart bootcode -b /boot/boot0 ada0`"),
        "{steps:#?}"
    );
    assert!(
        steps
            .iter()
            .any(|s| s == "`gpart bootcode -b /boot/boot ada0s1`")
    );
    assert!(
        steps[0].starts_with(
            "ada0 is a boot disk (its active slice ada0s1 holds a BSD label with an `a` \
                 partition"
        ),
        "{}",
        steps[0]
    );
    // `/` from a pasted mount -p names its source.
    let steps = boot_steps(mbr(false, true), false, true);
    assert!(steps[0].contains("(`/` is mounted from /dev/ada0s1a (mount -p))"));
    assert!(steps.iter().any(|s| s.contains("/boot/boot0")));
    // Not active, or active without a BSD label: a data disk, the plain fix.
    for t in [mbr(false, true), mbr(true, false)] {
        let steps = boot_steps(t, false, false);
        assert!(!steps.iter().any(|s| s.contains("bootcode")), "{steps:#?}");
    }
}

/// Every fix text is one sentence per step: no runs of spaces left by a line break
/// inside a string literal.
#[test]
fn fix_texts_hold_no_runs_of_spaces() {
    let mut e = part(1, "ada0p1", 40, 532_480);
    e.type_name = Some("efi".into());
    let mut b = part(2, "ada0p2", 532_520, 1024);
    b.type_name = Some("freebsd-boot".into());
    let mut s1 = part(1, "ada0s1", 63, 1_000_000);
    s1.active = true;
    s1.children = vec![part(1, "ada0s1a", 63, 500_000)];
    for (t, zfs, root) in [
        (table("gpt", vec![e, b]), true, false),
        (table("mbr", vec![s1]), false, false),
        (table("gpt", vec![part(1, "ada0p1", 34, 1000)]), false, true),
        (
            table("gpt", vec![part(1, "ada0p1", 34, 1000)]),
            false,
            false,
        ),
    ] {
        let mut d = sata_hdd_ahci_freebsd();
        if root {
            d.mounts.push(crate::facts::Mount {
                source: "/dev/ada0p1".into(),
                mountpoint: "/".into(),
                fstype: "ufs".into(),
                ..Default::default()
            });
        }
        if zfs {
            d.layers.push(crate::facts::Layer {
                kind: Some(crate::facts::LayerKind::Zfs),
                name: "zroot".into(),
                ..Default::default()
            });
        }
        for platform in [Platform::Freebsd, Platform::Linux] {
            for f in fixes(platform, &d, &t) {
                for text in std::iter::once(&f.summary)
                    .chain(f.steps.iter())
                    .chain(std::iter::once(&f.risk))
                {
                    assert!(!text.contains("  "), "{text}");
                }
            }
        }
    }
}

/// The reviewed corpus's handbook `gpart show`: one MBR slice at 63 over a whole
/// 1 TB disk, no sector size shown. Large disks are 4K drives nearly always: a notice
/// with low confidence; a 20 GB (virtual) disk with the same layout stays unknown.
#[test]
fn slice_at_63_on_a_1tb_disk_of_unknown_sector_size_is_likely_misaligned() {
    let disk = |size: u64| {
        let mut d = sata_hdd_ahci_freebsd();
        d.physical_sector_bytes = Fact::unknown("not shown");
        d.alignment_offset_bytes = Fact::unknown("not shown");
        d.size_bytes = Fact::unknown("not shown");
        let mut s1 = part(1, "ada0s1", 63, size);
        s1.active = true;
        with_table(d, table("mbr", vec![s1]))
    };
    let f = run(&freebsd(disk(1_953_525_105)));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert_eq!(f.confidence, Confidence::Low);
    assert!(
        f.title.contains("ada0s1 starts off the 4 KiB grid"),
        "{}",
        f.title
    );
    assert!(
        f.explanation.contains("ada0s1 at sector 63"),
        "{}",
        f.explanation
    );
    assert!(f.explanation.contains("`diskinfo -v ada0`"));
    assert!(!f.explanation.contains("  "), "{}", f.explanation);
    assert!(!f.fixes.is_empty());
    let f = run(&freebsd(disk(41_929_587)));
    assert_vs(&f, Verdict::Unknown, Severity::Info);
}

/// gpart(8) `show` of a small GPT disk (the old FreeBSD installer layout: freebsd-boot
/// at 34, the data partitions at 162 and after): no sector size shown, but a GPT data
/// partition off the 4 KiB grid is a notice at any size; the boot partition is not
/// named, and a GPT layout aligned to 4 KiB (40, 2048) stays unknown.
#[test]
fn gpt_data_partition_off_the_4k_grid_is_likely_misaligned_at_any_size() {
    let disk = |starts: &[(u64, &str)], dev: &str| {
        let mut d = sata_hdd_ahci_freebsd();
        d.name = dev.to_string();
        d.physical_sector_bytes = Fact::unknown("not shown");
        d.alignment_offset_bytes = Fact::unknown("not shown");
        d.size_bytes = Fact::unknown("not shown");
        let parts = starts
            .iter()
            .enumerate()
            .map(|(i, (start, ty))| {
                let mut p = part(i as u32 + 1, &format!("{dev}p{}", i + 1), *start, 4096);
                p.type_name = Some(ty.to_string());
                p
            })
            .collect();
        with_table(d, table("gpt", parts))
    };
    for (dev, starts) in [
        ("da0", vec![(34, "freebsd-boot"), (162, "freebsd-ufs")]),
        ("ada1", vec![(40, "efi"), (1062, "freebsd-zfs")]),
        (
            "ada2",
            vec![
                (34, "freebsd-boot"),
                (2048, "freebsd-swap"),
                (8194, "freebsd-ufs"),
            ],
        ),
    ] {
        let f = run(&freebsd(disk(&starts, dev)));
        assert_vs(&f, Verdict::Problem, Severity::Notice);
        assert_eq!(f.confidence, Confidence::Low);
        assert!(f.explanation.contains("GPT"), "{}", f.explanation);
        assert!(!f.explanation.contains("p1 at sector"), "{}", f.explanation);
    }
    for starts in [
        vec![(34, "freebsd-boot"), (40, "freebsd-ufs")],
        vec![
            (40, "freebsd-boot"),
            (2048, "freebsd-zfs"),
            (4196352, "freebsd-swap"),
        ],
    ] {
        let f = run(&freebsd(disk(&starts, "ada0")));
        assert_vs(&f, Verdict::Unknown, Severity::Info);
    }
    // The off-grid layout on an ata(4) adN disk (FreeBSD 8 or earlier): a small drive
    // of then has 512-byte sectors, so unknown.
    for dev in ["ad0", "ad4"] {
        let starts = [
            (34, "freebsd-boot"),
            (162, "freebsd-swap"),
            (2097314, "freebsd-ufs"),
        ];
        let f = run(&freebsd(disk(&starts, dev)));
        assert_vs(&f, Verdict::Unknown, Severity::Info);
    }
}

#[test]
fn child_with_relative_start_is_made_absolute() {
    let mut s1 = part(1, "da0s1", 63, 1000);
    s1.children = vec![part(1, "da0s1a", 16, 900)]; // start_bytes left relative
    let t = table("mbr", vec![s1]);
    let p = placed(&t);
    assert_eq!(p[1].start_bytes, 63 * 512 + 16 * 512);
}

#[test]
fn start_without_bytes_or_unit_uses_512() {
    let mut p = part(1, "sda1", 63, 1000);
    p.start_bytes = 0;
    p.sector_bytes = 0;
    let t = table("unknown", vec![p]);
    assert_eq!(placed(&t)[0].start_bytes, 32256);
    let f = run(&linux(with_table(sata_hdd_ahci(), t)));
    assert_eq!(f.verdict, Verdict::Problem);
}

/// Loop and zram devices have partition tables and sector sizes too: judged like a
/// drive; an empty (size 0) loop device is not.
#[test]
fn loop_devices_are_judged_too() {
    let mut d = with_table(
        sata_hdd_ahci(),
        table("gpt", vec![part(1, "loop0p1", 34, 1_000_000)]),
    );
    d.name = "loop0".into();
    d.class = Fact::known(crate::facts::DeviceClass::Loop, "x");
    let f = run(&linux(d.clone()));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    d.size_bytes = Fact::known(0, "x");
    assert!(PartitionMisaligned.run(&linux(d)).is_empty());
}

#[test]
fn gpt_at_34_is_misaligned_linux_fix() {
    let d = with_table(
        sata_hdd_ahci(),
        table("gpt", vec![part(1, "sda1", 34, 1_000_000)]),
    );
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    let all: Vec<&String> = f.fixes[0].steps.iter().collect();
    assert!(
        all.iter()
            .any(|s| s.contains("sgdisk -o -n 1:2048:0 -t 1:8300 /dev/sda"))
    );
    assert!(all.iter().any(|s| s.contains("align-check optimal 1")));
    assert!(all.iter().any(|s| s.contains("sgdisk --zap-all /dev/sda")));
    assert!(
        f.explanation
            .contains("Sector 34 is the first sector after a GPT")
    );
}

#[test]
fn lba0_offset_512_makes_63_aligned_and_2048_misaligned() {
    let mut d = sata_hdd_ahci();
    d.ata_identify = Some(AtaIdentify {
        lba0_offset_bytes: Some(512),
        ..Default::default()
    });
    d.alignment_offset_bytes = Fact::known(
        3584,
        crate::sources::sysfs::block("sda", "alignment_offset"),
    );
    let f = run(&linux(with_table(
        d.clone(),
        table("mbr", vec![part(1, "sda1", 63, 1000)]),
    )));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    let f = run(&linux(with_table(
        d.clone(),
        table("gpt", vec![part(1, "sda1", 2048, 1000)]),
    )));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.explanation.contains("first boundary is 3584 bytes in"));
    // The kernel's alignment_offset alone gives the same answer.
    d.ata_identify = None;
    let f = run(&linux(with_table(
        d.clone(),
        table("mbr", vec![part(1, "sda1", 63, 1000)]),
    )));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    let f = run(&linux(with_table(
        d,
        table("gpt", vec![part(1, "sda1", 2048, 1000)]),
    )));
    assert_eq!(f.verdict, Verdict::Problem);
}

#[test]
fn drive_reported_offset_512_is_converted() {
    // smartctl "512 bytes logical, 4096 bytes physical (offset 512 bytes)" (fixture
    // freebsd/smartctl/x-hdd-seagate-5900-512e-sector0-offset-512.txt) and camcontrol's
    // "offset 512" use the drive's convention.
    for key in [
        crate::sources::smartctl::EXTENDED.key_for("ada0"),
        crate::sources::camcontrol_identify::SPEC.key_for("ada0"),
        crate::sources::sysfs::ata_device("dev1.0", "id"),
    ] {
        let mut d = sata_hdd_ahci();
        d.alignment_offset_bytes = Fact::known(512, &key);
        let t63 = table("mbr", vec![part(1, "sda1", 63, 1000)]);
        let f = run(&linux(with_table(d.clone(), t63)));
        assert_vs(&f, Verdict::Pass, Severity::Info);
        let t2048 = table("gpt", vec![part(1, "sda1", 2048, 1000)]);
        let f = run(&linux(with_table(d, t2048)));
        assert_eq!(f.verdict, Verdict::Problem, "{key}");
        assert!(
            f.explanation
                .contains("the drive reports LBA 0 at offset 512")
        );
    }
    // The same number from the kernel means the first boundary is 512 bytes in.
    let mut d = sata_hdd_ahci();
    d.alignment_offset_bytes =
        Fact::known(512, crate::sources::sysfs::block("sda", "alignment_offset"));
    let f = run(&linux(with_table(
        d,
        table("mbr", vec![part(1, "sda1", 1, 1000)]),
    )));
    assert_vs(&f, Verdict::Pass, Severity::Info);
}

#[test]
fn protective_mbr_entry_is_not_flagged() {
    let mut p = part(1, "sda1", 1, 7_814_037_167);
    p.type_name = Some("0xee".to_string());
    let d = with_table(sata_hdd_ahci(), table("mbr", vec![p]));
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Pass, Severity::Info);
}

#[test]
fn reserved_and_boot_partitions_off_the_grid_slow_nothing() {
    // ips99.com: an MSR at LBA 34 and the data partition at 32768 on a 512e disk.
    let mut d = sata_hdd_ahci();
    d.physical_sector_bytes = Fact::known(4096, crate::sources::fdisk::LIST.key_for(""));
    d.alignment_offset_bytes = Fact::known(0, crate::sources::fdisk::LIST.key_for(""));
    let part = |n: u32, start: u64, size: u64, t: &str| Partition {
        number: n,
        name: format!("sdb{n}"),
        start_sector: start,
        size_sectors: size,
        sector_bytes: 512,
        start_bytes: start * 512,
        type_name: Some(t.to_string()),
        ..Default::default()
    };
    d.partition_table = Fact::known(
        PartitionTable {
            scheme: "gpt".to_string(),
            partitions: vec![
                part(1, 34, 32734, "Microsoft reserved"),
                part(2, 32768, 15628017664, "Microsoft basic data"),
            ],
            notes: Vec::new(),
        },
        crate::sources::fdisk::LIST.key_for(""),
    );
    let f = check_disk(&linux(d.clone()), &d);
    assert_eq!(f.verdict, Verdict::Pass, "{f:#?}");
    assert!(
        f.explanation.contains("reserved or boot-code"),
        "{}",
        f.explanation
    );
}

#[test]
fn extended_container_skipped_logical_checked() {
    let mut ext = part(2, "sda2", 2048, 100_000);
    ext.type_name = Some("05".to_string());
    let logical = part(5, "sda5", 2049, 90_000);
    let d = with_table(sata_hdd_ahci(), table("mbr", vec![ext, logical]));
    let f = run(&linux(d));
    assert_eq!(f.verdict, Verdict::Problem);
    assert!(f.title.contains("sda5"));
}

#[test]
fn fdisk_fixture_extended_container_off_boundary_is_harmless() {
    // linux/fdisk-l/lu-1tb-4k-physical-extended-misaligned-warning-utl2.20.txt: 512e,
    // sda1 2048, sda2 206848, sda3 981161984, sda4 Extended 1660159998 ("does not start
    // on physical sector boundary"), sda5 1660160000, sda6 1937309696.
    let mut ext = part(4, "sda4", 1_660_159_998, 293_365_170);
    ext.type_name = Some("5".to_string());
    let t = table(
        "dos",
        vec![
            part(1, "sda1", 2048, 204_800),
            part(2, "sda2", 206_848, 980_955_136),
            part(3, "sda3", 981_161_984, 678_998_014),
            ext,
            part(5, "sda5", 1_660_160_000, 277_149_696),
            part(6, "sda6", 1_937_309_696, 16_213_968),
        ],
    );
    let f = run(&linux(with_table(sata_hdd_ahci(), t)));
    assert_vs(&f, Verdict::Pass, Severity::Info);
    assert!(f.explanation.contains("container sda4 (sector 1660159998)"));
}

#[test]
fn native_512_drive_passes_at_63() {
    let f = run(&seed000_desktop());
    assert_vs(&f, Verdict::Pass, Severity::Info);
}

#[test]
fn unknown_physical_with_kernel_offsets() {
    let mut d = sata_hdd_ahci();
    d.physical_sector_bytes = Fact::unknown("not present");
    // Below 1 TB: a start at 63 says nothing without the sector size (a larger disk
    // gets the likely-4K notice, tested above).
    d.size_bytes = Fact::known(500_107_862_016, "x");
    let mut p = part(1, "sda1", 63, 1000);
    p.alignment_offset_bytes = Some(512);
    let f = run(&linux(with_table(d.clone(), table("mbr", vec![p]))));
    assert_vs(&f, Verdict::Problem, Severity::Warning);
    assert!(f.evidence.iter().any(|e| e.source
        == crate::sources::sysfs::block("sda", "sda1/alignment_offset")
        && e.value == "512"));
    let f = run(&linux(with_table(
        d,
        table("mbr", vec![part(1, "sda1", 63, 1000)]),
    )));
    assert_vs(&f, Verdict::Unknown, Severity::Info);
    assert!(f.explanation.contains("physical_block_size"));
}

#[test]
fn unknown_alignment_offset_on_512e() {
    let mut d = sata_hdd_ahci();
    d.alignment_offset_bytes = Fact::unknown("permission denied (run as root)");
    let f = run(&linux(d));
    assert_vs(&f, Verdict::Unknown, Severity::Info);
    assert!(f.explanation.contains("permission denied"));
}

#[test]
fn unknown_table() {
    let mut d = sata_hdd_ahci_freebsd();
    d.partition_table = Fact::unknown("permission denied (run as root)");
    let f = run(&freebsd(d));
    assert_vs(&f, Verdict::Unknown, Severity::Info);
    assert!(f.explanation.contains("gpart show ada0"));
}

/// An old fdisk's listing of a disk of exactly 80 GiB (85,899,345,920 bytes: a VM's image,
/// Hetzner's CentOS 5.6 VNC install) with partitions at 63 and 208845 and no sector size:
/// likely misaligned on the storage under the image. The same layout on an 80 GB drive
/// (IDEMA's 156,301,488 sectors) stays unknown.
#[test]
fn slice_at_63_on_a_whole_gib_disk_is_likely_misaligned() {
    let parts = vec![
        part(1, "sda1", 63, 208_782),
        part(2, "sda2", 208_845, 1_000_000),
    ];
    let disk = |bytes: u64| {
        let mut d = with_table(sata_hdd_ahci(), table("mbr", parts.clone()));
        d.size_bytes = Fact::known(bytes, "x");
        (d.physical_sector_bytes, d.alignment_offset_bytes) =
            (Fact::unknown("not shown"), Fact::unknown("not shown"));
        d
    };
    let f = run(&linux(disk(85_899_345_920)));
    assert_vs(&f, Verdict::Problem, Severity::Notice);
    assert!(
        f.explanation.contains("exactly 80 GiB"),
        "{}",
        f.explanation
    );
    assert!(!f.explanation.contains("  "), "{}", f.explanation);
    let f = run(&linux(disk(156_301_488 * 512)));
    assert_vs(&f, Verdict::Unknown, Severity::Info);
}
