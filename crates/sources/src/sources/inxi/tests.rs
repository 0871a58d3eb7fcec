use super::*;

/// smxi/inxi#223, `inxi -Dxxxz` (3.1.x, wide layout), the first four records.
const WIDE: &str = "Drives:    Local Storage: total: 2.89 TiB used: 2.52 TiB (87.0%) \n\
        \x20          ID-1: /dev/nvme0n1 vendor: TeamGroup model: TM8FP4001T size: 953.87 GiB speed: 31.6 Gb/s lanes: 4 \n\
        \x20          serial: <filter> rev: ECFM22.6 scheme: GPT \n\
        \x20          ID-4: /dev/sda vendor: Toshiba model: MK6475GSX size: 596.17 GiB speed: 3.0 Gb/s rotation: 5400 rpm \n\
        \x20          serial: <filter> rev: 1M scheme: GPT \n";

#[test]
fn wide_layout_records() {
    let v = parse(WIDE);
    assert_eq!(v.len(), 2, "{v:?}");
    assert_eq!(v[0].device, "nvme0n1");
    assert_eq!(v[0].model.as_deref(), Some("TM8FP4001T"));
    assert_eq!(v[0].speed_gbps, Some(31.6));
    assert_eq!(v[0].lanes, Some(4));
    assert_eq!(v[0].serial, None);
    assert_eq!(v[0].firmware.as_deref(), Some("ECFM22.6"));
    assert_eq!(nvme_max_gts(31.6, 4), Some(8.0));
    assert_eq!(nvme_max_gts(63.2, 4), Some(16.0));
    assert_eq!(nvme_max_gts(8.0, 2), Some(5.0));
    assert_eq!(nvme_max_gts(7.0, 4), None);
    assert_eq!(v[1].device, "sda");
    assert_eq!(v[1].speed_gbps, Some(3.0));
    assert_eq!(v[1].rpm, Some(5400));
    assert_eq!(v[1].tech.as_deref(), Some("HDD"));
    let lines: Vec<&str> = WIDE.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
}

#[test]
fn narrow_layout_usb_smart_and_wrapped_keys() {
    // inxi 3.3 narrow layout, a USB record with its link (-xx), a key wrapped away from
    // its value and a line that lost its indentation, the SMART fields of -a.
    let t = "Drives:\n  Local Storage: total: 3.22 TiB used: 398.96 GiB (12.1%)\n\
                 \x20 ID-1: /dev/nvme0n1 maj-min: 259:0 vendor: Samsung model: MZVL21T0HCLR-00B00\n\
                 \x20   size: 953.87 GiB speed: 63.2 Gb/s lanes: 4 tech: SSD serial: S64ANS0T123456\n\
                 \x20   fw-rev: GXA7801Q temp: 53.9 C\n\
                 \x20 SMART: yes health: PASSED on: 1y 52d 20h cycles: 20\n\
                 \x20 ID-2: /dev/sda maj-min: 8:0 vendor: SanDisk model:\n\
                 Extreme 55AE size: 1.82 TiB type: USB rev: 3.2 spd: 480 Mb/s lanes: 1\n\
                 \x20   mode: 2.0 tech: SSD serial: <filter> fw-rev: 1033\n\
                 \x20 SMART: yes state: enabled health: FAILED! on: 2y 3d 4h\n\
                 \x20 Message: No optical or floppy data found.\n\
                 Partition:\n  ID-1: / size: 937.34 GiB used: 15.14 GiB (1.6%) fs: ext4\n";
    let v = parse(t);
    assert_eq!(v.len(), 2, "{v:?}");
    assert_eq!(v[0].speed_gbps, Some(63.2));
    assert_eq!(v[0].serial.as_deref(), Some("S64ANS0T123456"));
    assert_eq!(v[0].firmware.as_deref(), Some("GXA7801Q"));
    assert_eq!(v[0].health.as_deref(), Some("PASSED"));
    assert_eq!(v[0].tech.as_deref(), Some("SSD"));
    assert!(v[1].usb);
    assert_eq!(v[1].model.as_deref(), Some("Extreme 55AE"));
    assert_eq!(v[1].usb_speed_mbps, Some(480.0));
    assert_eq!(v[1].lanes, None);
    assert_eq!(v[1].firmware.as_deref(), Some("1033"));
    assert_eq!(v[1].health.as_deref(), Some("FAILED!"));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    let st = spec::BlockState::default();
    assert_eq!(
        member("Extreme 55AE size: 1.82 TiB", &st),
        spec::Member::Yes
    );
    assert_eq!(member("Partition:", &st), spec::Member::Yes);
}

#[test]
fn truncated_paste_and_near_misses() {
    // A paste cut inside a record keeps the records before it and what the cut one had.
    let t = "Drives:    Local Storage: total: 2.89 TiB\n\
                 \x20          ID-1: /dev/sda vendor: Toshiba model: MK6475GSX size: 596.17 GiB speed: 3.0 Gb/s\n\
                 \x20          ID-2: /dev/sdb vendor:";
    let v = parse(t);
    assert_eq!(v.len(), 2);
    assert_eq!(v[1].vendor, None);
    // A "Drives:" line of prose, and dmesg's "CPU:" are not inxi.
    let p = ["Drives: two WD Reds in a mirror, both fine"];
    assert_eq!(start(&p), spec::Start::No);
    assert!(parse("Drives: two WD Reds in a mirror\n").is_empty());
    let p = ["Drives:", "  - a 2 TB WD Red"];
    assert_eq!(start(&p), spec::Start::No);
}
