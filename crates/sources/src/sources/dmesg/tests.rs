//! Unit tests of sources::dmesg, kept in their own file so that the published crate
//! (crates/core/Cargo.toml `include`) carries the code without its test data.

#[test]
fn freebsd4_slash_kernel_syslog_tag() {
    // freebsd-mobile 2003 (FreeBSD 4, a USB card reader on umass(4)).
    // (Its "da0 at umass-sim0 bus 0 target 0 lun 0" has no "scbus" and starts no block.)
    assert!(super::in_syslog(
        "Feb 21 22:11:22 tuatara /kernel: da0: <DMI MultiFlash 3.00> Removable Direct Access SCSI-0 device"
    ));
    // Near miss: another program's path tag.
    assert!(!super::in_syslog(
        "Feb 21 22:11:22 tuatara /usr/sbin/cron: da0: <DMI MultiFlash 3.00> Removable Direct Access SCSI-0 device"
    ));
}

#[test]
fn ataraid_volume_attach_line_names_a_disk() {
    // FreeBSD 7.1 with an NVIDIA MediaShield RAID0+1 set (ata-raid.c ata_raid_attach).
    let d = super::parse(
        "ar0: 238475MB <NVIDIA MediaShield ATA RAID0+1 array> status: READY\n\
             ar0: disk0 READY using ad4 at ata2-master\n",
    );
    let ar = d.disks.get("ar0");
    assert_eq!(ar.and_then(|x| x.size_mb), Some(238_475));
    assert!(super::is_ataraid_volume(
        "ar1",
        "953877MB <nVidia MediaShield RAID0+1 (stripe 64 KB)> status: READY"
    ));
    // Near misses: ar(4)'s old sync serial cards, and another driver's size line.
    let d = super::parse("ar0: <Arnet SYNC/570i-PCI> port 0xe000-0xe0ff irq 11\n");
    assert!(d.disks.is_empty());
    assert!(!super::is_ataraid_volume("arc0", "100MB <x> status: READY"));
}

#[test]
fn sata_detail_without_a_revision() {
    use super::sata_without_revision;
    // sys/cam/ata/ata_xpt.c ata_announce_periph: "SATA, " only without a revision.
    assert!(sata_without_revision("SATA, UDMA5, PIO 8192bytes"));
    assert!(!sata_without_revision("SATA 2.x, UDMA6, PIO 8192bytes"));
    assert!(!sata_without_revision(
        "SATA 1.x, UDMA5, ATAPI 12bytes, PIO 8192bytes"
    ));
    assert!(!sata_without_revision("UDMA5, PIO 8192bytes"));
}

#[test]
fn fabrics_controller_description() {
    use super::is_fabrics;
    assert!(is_fabrics("Fabrics: nvme-test-target"));
    assert!(!is_fabrics("Samsung SSD 970 EVO Plus 1TB"));
    assert!(!is_fabrics("Generic NVMe Device"));
}

#[test]
fn no_sync_cache_quirk_from_names_or_bits() {
    use super::no_sync_cache;
    assert!(no_sync_cache("0x3<NO_SYNC_CACHE,NO_6_BYTE>"));
    assert!(no_sync_cache("0x1<NO_SYNC_CACHE>"));
    assert!(!no_sync_cache("0x5"));
    assert!(!no_sync_cache("0x2<NO_6_BYTE>"));
    assert!(!no_sync_cache("0x1<4K>"));
    assert!(!no_sync_cache("0x2"));
    assert!(!no_sync_cache("garbage"));
}

#[test]
fn umass_rates_name_the_usb_link() {
    use super::umass_link_mbps;
    assert_eq!(umass_link_mbps(40.0), Some(480.0));
    assert_eq!(umass_link_mbps(400.0), Some(5000.0));
    assert_eq!(umass_link_mbps(1.0), Some(12.0));
    // The floppy quirk's 0.020 and SATA rates behind a SAS HBA say nothing about USB.
    for other in [0.02, 150.0, 300.0, 600.0, 41.0] {
        assert_eq!(umass_link_mbps(other), None, "{other}");
    }
    // As da(4) prints it, through the attach parser.
    let d =
        super::parse("da3 at umass-sim2 bus 2 scbus9 target 0 lun 0\nda3: 40.000MB/s transfers\n");
    let rate = d.disks.get("da3").and_then(|x| x.transfer_mbps);
    assert_eq!(rate.and_then(umass_link_mbps), Some(480.0));
}

use super::*;

#[test]
fn cam_report_lines_with_an_elided_path_stay_in_the_block() {
    for l in [
        ".....READ_DMA. ACB: c8 00 00 00 00 40 00 00 00 00 08 00",
        "...CAM status: ATA status error",
        "  ....ATA status: 51 (DRDY SERV ERR), error: 84 (ICRC ABRT )",
        "\u{2026}READ(10). CDB: 28 00 01 02 03 04 00 00 80 00",
        "...SCSI sense: MEDIUM ERROR asc:11,0 (Unrecovered read error)",
        "...Retrying command, 2 more tries remain",
        ".....Error 5, Retries exhausted",
    ] {
        assert!(CAM_ELIDED.is_match(l.trim_start()), "{l}");
    }
    // Dots before anything else, or a CAM word without the elision, are not this.
    for l in ["...and then it hung", "..CAM status: x", "READ_DMA is slow"] {
        assert!(!CAM_ELIDED.is_match(l), "{l}");
    }
}

#[test]
fn virtio_blk_attach_lines_start_a_freebsd_log() {
    // smartos-discuss 2018 (a FreeBSD guest on SmartOS bhyve): virtio_blk.c's capacity line
    // of the adapter vtblk0, whose disk is vtbd0.
    for l in [
        "vtblk0: 25600MB (52428800 512 byte sectors)",
        "vtblk0: <VirtIO Block Adapter> on virtio_pci0",
    ] {
        assert!(super::BSD_DMESG_START.is_match(l), "{l}");
    }
    assert_eq!(super::vtblk_disk("vtblk0").as_deref(), Some("vtbd0"));
    // Near misses: another virtio device's line, a name with no unit.
    assert!(!super::BSD_DMESG_START.is_match("vtnet0: <VirtIO Networking Adapter> on virtio_pci1"));
    assert!(!super::BSD_DMESG_START.is_match("vtblk: 25600MB (52428800 512 byte sectors)"));
    assert_eq!(super::vtblk_disk("vtblkx"), None);
}

#[test]
fn the_root_file_system_a_boot_mounts() {
    use super::{parse, root_on_disk, root_spec};
    assert_eq!(
        root_spec("Trying to mount root from ufs:/dev/ufs/BSDRPs1a [ro]...").as_deref(),
        Some("ufs:/dev/ufs/BSDRPs1a")
    );
    assert_eq!(
        root_spec("mountroot: waiting for device /dev/ufs/BSDRPs1a...").as_deref(),
        Some("/dev/ufs/BSDRPs1a")
    );
    assert!(root_on_disk("zfs:zroot/ROOT/default"));
    // Near misses: the installer's CD image is no disk, "Root mount waiting for: usbus0"
    // names a bus being waited for, not the root.
    assert!(!root_on_disk("cd9660:/dev/iso9660/13_2_RELEASE_AMD64_BO"));
    assert!(!root_on_disk("/dev/iso9660/13_2_RELEASE_AMD64_BO"));
    assert_eq!(root_spec("Root mount waiting for: usbus0"), None);
    let log = "Trying to mount root from ufs:/dev/ufs/BSDRPs1a [ro]...\n\
               da0 at umass-sim0 bus 0 scbus0 target 0 lun 0\n\
               da0: 40.000MB/s transfers\n";
    assert_eq!(
        parse(log).root_from.as_deref(),
        Some("ufs:/dev/ufs/BSDRPs1a")
    );
    // vfs_mountroot.c's wait for the root device belongs to the boot log it ends.
    assert!(super::BSD_DMESG_MEMBER.is_match("mountroot: waiting for device /dev/ufs/BSDRPs1a..."));
    assert!(!super::BSD_DMESG_MEMBER.is_match("mountroot waiting"));
}

#[test]
fn a_capacity_line_quoted_in_a_sentence() {
    // FreeBSD PR 144416: ataraid(4)'s attach line after the poster's words.
    let t = "Our case was raid 0+1, ar0: 953877MB <nVidia MediaShield RAID0+1 (stripe 64 KB)> status: READY";
    let c = BSD_DMESG_PREFIXED.captures(t).and_then(|c| c.get(2));
    assert_eq!(
        c.map(|m| m.as_str()),
        Some("ar0: 953877MB <nVidia MediaShield RAID0+1 (stripe 64 KB)> status: READY")
    );
    // Near misses: prose naming a device without its capacity line, a syslog header.
    assert!(!BSD_DMESG_PREFIXED.is_match("Our case was raid 0+1, ar0 is the volume"));
    assert!(!BSD_DMESG_PREFIXED.is_match("I ran it on ada0: it was slow, 100MB per second"));
    assert!(
        !BSD_DMESG_PREFIXED
            .is_match("Nov 10 12:00:00 host kernel: ada0: 238475MB (488397168 512 byte sectors)")
    );
}

#[test]
fn qemus_ich9_ahci_is_known_by_its_version_and_port_speed() {
    // QEMU 8.1's q35 machine (hw/ide/ich.c, hw/ide/ahci.c): AHCI 1.0, Gen 1 ports.
    let d = super::parse(
        "ahci0: <Intel ICH9 AHCI SATA controller> port 0xc040-0xc05f mem 0xfea1a000-0xfea1afff irq 18 at device 31.2 on pci0\n\
         ahci0: AHCI v1.00 with 6 1.5Gbps ports, Port Multiplier not supported\n\
         ahcich1: <AHCI channel> at channel 1 on ahci0\n",
    );
    let a = d.controller_of("ahcich1");
    assert_eq!(a.and_then(|a| a.ahci_version.as_deref()), Some("1.00"));
    assert!(a.and_then(|a| a.emulator()).is_some(), "{a:?}");
    // Near misses: a real ICH9M (AHCI 1.2, 3 Gb/s), and another chip at AHCI 1.0 / 1.5 Gb/s.
    let real = super::parse(
        "ahci0: <Intel ICH9M AHCI SATA controller> port 0x8f58-0x8f5f mem 0xff9fd800-0xff9fdfff irq 19 at device 31.2 on pci0\n\
         ahci0: AHCI v1.20 with 4 3Gbps ports, Port Multiplier not supported\n\
         ahcich0: <AHCI channel> at channel 0 on ahci0\n",
    );
    assert!(
        real.controller_of("ahcich0")
            .and_then(|a| a.emulator())
            .is_none()
    );
    let ich6 = super::parse(
        "ahci0: <Intel ICH6 AHCI SATA controller> port 0xc000-0xc01f irq 19 at device 31.2 on pci0\n\
         ahci0: AHCI v1.00 with 4 1.5Gbps ports, Port Multiplier not supported\n",
    );
    assert!(
        ich6.controllers
            .get("ahci0")
            .and_then(|a| a.emulator())
            .is_none()
    );
}

#[test]
fn geom_class_lines_start_a_freebsd_log() {
    // HardenedBSD/hardenedBSD-stable#1 (2015): g_eli.c's lines after a GELI attach.
    for l in [
        "GEOM_ELI: Device ada0p4.eli created.",
        "GEOM_ELI: Encryption: AES-XTS 256",
        "GEOM_ELI[1]: Crypto: hardware",
        "GEOM_MIRROR: Device mirror/gm0 launched (2/2).",
        "GEOM: ada0: the secondary GPT header is not in the last LBA.",
    ] {
        assert!(super::BSD_DMESG_START.is_match(l), "{l}");
    }
    // Near misses: the word in prose, a `geom` tool's field.
    for l in ["GEOM_ELI is slow here", "Geom name: ada0", "GEOM:"] {
        assert!(!super::BSD_DMESG_START.is_match(l), "{l}");
    }
}

#[test]
fn disk_error_report_starts_a_block() {
    use crate::sources::kernel_log::{DISK_ERR_HEAD, DISK_ERR_TAIL};
    // FreeBSD 4 diskerr() head on a partition, and the wrapped tails of its report.
    assert!(DISK_ERR_HEAD.is_match(
        "ad1s1d: hard error reading fsbn 3 of 0-15 (ad1s1 bn 3; cn 0 tn 0 sn 3) status=59 error=40"
    ));
    assert!(DISK_ERR_TAIL.is_match("3; cn 0 tn 0 sn 3) status=59 error=40"));
    assert!(DISK_ERR_TAIL.is_match("bn 3; cn 0 tn 0 sn 3) trying PIO mode"));
    assert!(DISK_ERR_TAIL.is_match("12 sn 5) status=51 error=10"));
    // Near misses: prose and a capacity line.
    assert!(!DISK_ERR_HEAD.is_match("ad1s1d: 1024MB <x>"));
    assert!(!DISK_ERR_TAIL.is_match("3 disks were read"));
}
