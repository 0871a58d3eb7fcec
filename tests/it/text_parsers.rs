//! Every fixture under tests/fixtures/{linux,other} and the FreeBSD smartctl, dd, fio,
//! zpool-status, iostat and gstat fixtures through its parser, with exact asserts on the
//! INDEX.md labels. Plus a proptest feeding mutated/truncated fixture text to every parser.

use std::path::{Path, PathBuf};

use diskdoc_core::facts::{DiskFacts, KernelEventKind};
use diskdoc_core::sources::{
    copy, cryptsetup, dd, dmsetup, fdisk, fio, gstat, hdparm, iostat, kernel_log, lsblk, sfdisk,
    smartctl, zpool,
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn fx(rel: &str) -> String {
    let p = root().join(rel);
    match std::fs::read(&p) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => panic!("fixture {} unreadable: {e}", p.display()),
    }
}

fn smart(rel: &str) -> DiskFacts {
    let mut d = DiskFacts::new("sda", "/dev/sda");
    smartctl::apply(&mut d, "cmd:smartctl", &fx(rel));
    d
}

fn count(ev: &[diskdoc_core::facts::KernelEvent], k: KernelEventKind) -> usize {
    ev.iter().filter(|e| e.kind == k).count()
}

// ------------------------------------------------------------------ smartctl text

#[test]
fn smartctl_hgst_pending_8_sata26_3g_512e() {
    let d = smart("freebsd/smartctl/x-hdd-5400rpm-hgst-apple-sata2.6-3gbps-512e-fbsd13.1.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(s.pending_sectors, Some(8));
    assert_eq!(s.reallocated_sectors, Some(0));
    assert_eq!(s.udma_crc_errors, Some(0));
    assert_eq!(s.power_on_hours, Some(4465));
    assert_eq!(s.health_passed, Some(true));
    assert_eq!(s.error_log_count, Some(1));
    assert_eq!(
        d.model.value().map(String::as_str),
        Some("APPLE HDD HTS541010A9E632")
    );
    assert!(
        !d.serial.is_known(),
        "anonymised serial '--' must stay unknown"
    );
    assert_eq!(d.firmware.value().map(String::as_str), Some("JA0AB5N0"));
    assert_eq!(d.rotation_rpm.get(), Some(5400));
    assert_eq!(d.rotational.get(), Some(true));
    assert_eq!(d.logical_sector_bytes.get(), Some(512));
    assert_eq!(d.physical_sector_bytes.get(), Some(4096));
    assert_eq!(d.link_drive_max_gbps.get(), Some(3.0));
    assert_eq!(d.link_current_gbps.get(), Some(3.0));
    assert_eq!(d.write_cache_enabled.get(), Some(true));
    assert_eq!(d.size_bytes.get(), Some(1_000_204_886_016));
    assert_eq!(d.smart.sources(), ["cmd:smartctl".to_string()]);
}

#[test]
fn smartctl_text_fixtures() {
    // Seagate 5900: "(offset 512 bytes)", Reported_Uncorrect 1006, Airflow "Past".
    let d = smart("freebsd/smartctl/x-hdd-seagate-5900-512e-sector0-offset-512.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(d.alignment_offset_bytes.get(), Some(512));
    assert_eq!(d.rotation_rpm.get(), Some(5900));
    assert_eq!(
        (d.link_drive_max_gbps.get(), d.link_current_gbps.get()),
        (Some(3.0), Some(3.0))
    );
    assert_eq!(s.reported_uncorrect, Some(1006));
    assert_eq!(s.power_on_hours, Some(31129));
    assert_eq!(s.error_log_count, Some(1004));
    assert_eq!(
        s.failing_attributes,
        vec!["190 Airflow_Temperature_Cel (Past)".to_string()]
    );
    // SMR family, POH "6813h+55m+51.637s", TRIM.
    let d = smart("freebsd/smartctl/x-hdd-seagate-barracuda-st2000dm008-smr-fbsd14.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(
        s.model_family.as_deref(),
        Some("Seagate BarraCuda 3.5 (SMR)")
    );
    assert_eq!(s.power_on_hours, Some(6813));
    assert_eq!(d.trim_supported.get(), Some(true));
    assert_eq!(
        (d.link_drive_max_gbps.get(), d.link_current_gbps.get()),
        (Some(6.0), Some(6.0))
    );
    assert_eq!(d.write_cache_enabled.get(), Some(true));
    // Current > max anomaly kept as printed.
    let d = smart("freebsd/smartctl/x-ssd-transcend-current-speed-exceeds-max-anomaly.txt");
    assert_eq!(
        (d.link_drive_max_gbps.get(), d.link_current_gbps.get()),
        (Some(3.0), Some(6.0))
    );
    assert_eq!(d.rotation_rpm.get(), Some(0));
    assert_eq!(d.rotational.get(), Some(false));
    assert_eq!(d.smart.value().and_then(|s| s.power_on_hours), Some(9134));
    // No current part.
    let d = smart("freebsd/smartctl/x-ssd-jmicron-605-sata2-no-current-speed.txt");
    assert_eq!(d.link_drive_max_gbps.get(), Some(3.0));
    assert!(!d.link_current_gbps.is_known());
    assert_eq!(
        (d.logical_sector_bytes.get(), d.physical_sector_bytes.get()),
        (Some(512), Some(512))
    );
    assert_eq!(d.trim_supported.get(), Some(true));
    // Intel DC S3700 -a: no write-cache line.
    let d = smart("freebsd/smartctl/fbsd10-smartctl-a-intel-dcs3700-ada0.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(
        d.model.value().map(String::as_str),
        Some("INTEL SSDSC2BA200G3")
    );
    assert_eq!(d.firmware.value().map(String::as_str), Some("5DV10270"));
    assert_eq!(
        (s.reallocated_sectors, s.pending_sectors, s.udma_crc_errors),
        (Some(0), Some(0), Some(0))
    );
    assert_eq!(s.power_on_hours, Some(614));
    assert_eq!(s.error_log_count, Some(0));
    assert!(!d.write_cache_enabled.is_known());
    assert_eq!(d.physical_sector_bytes.get(), Some(4096));
    // NVMe (FreeBSD -x).
    let d = smart("freebsd/smartctl/x-nvme-adata-fbsd14-current.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(
        (s.media_errors, s.percentage_used, s.power_on_hours),
        (Some(0), Some(0), Some(546))
    );
    assert_eq!(d.firmware.value().map(String::as_str), Some("T0214B0L"));
    // PATA: no SATA line, no rotation line.
    let d = smart("freebsd/smartctl/x-pata-seagate-st3120023a-fbsd10.4.txt");
    assert!(!d.link_drive_max_gbps.is_known() && !d.rotation_rpm.is_known());
    assert_eq!(d.write_cache_enabled.get(), Some(true));
    assert_eq!(d.smart.value().and_then(|s| s.power_on_hours), Some(125144));
    // smartctl 5.40: no sector/rotation/SATA lines; vendor-packed POH dropped.
    let d = smart("freebsd/smartctl/x-ssd-ocz-agility3-smartctl5.40-fbsd7.4-old-format.txt");
    assert_eq!(d.model.value().map(String::as_str), Some("OCZ-AGILITY3"));
    assert!(!d.logical_sector_bytes.is_known() && !d.link_drive_max_gbps.is_known());
    assert_eq!(d.smart.value().and_then(|s| s.health_passed), Some(true));
    assert_eq!(d.smart.value().and_then(|s| s.power_on_hours), None);

    // Linux text.
    let d = smart("linux/smartctl/a-megaraid-passthrough-sata-ssd-trailing-space-padded.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(
        d.model.value().map(String::as_str),
        Some("INTEL SSDSC2BB120G6")
    );
    assert_eq!(
        (d.logical_sector_bytes.get(), d.physical_sector_bytes.get()),
        (Some(512), Some(4096))
    );
    assert_eq!(
        (d.link_drive_max_gbps.get(), d.link_current_gbps.get()),
        (Some(6.0), Some(6.0))
    );
    assert_eq!(s.power_on_hours, Some(43583));
    assert_eq!(
        (s.reallocated_sectors, s.pending_sectors, s.udma_crc_errors),
        (Some(0), Some(0), Some(0))
    );
    let d = smart("linux/smartctl/a-nvme-behind-usb-asmedia-sntasmedia-aarch64.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(
        d.model.value().map(String::as_str),
        Some("Samsung Portable SSD T7")
    );
    assert_eq!(
        (s.media_errors, s.percentage_used, s.power_on_hours),
        (Some(0), Some(0), Some(9))
    );
    let d = smart("linux/smartctl/a-nvme-smartctl6.6-old-nvme-format.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(d.size_bytes.get(), Some(1_000_204_886_016)); // U+202F grouping
    assert_eq!(
        (s.media_errors, s.percentage_used, s.power_on_hours),
        (Some(0), Some(0), Some(31))
    );
    assert_eq!(d.logical_sector_bytes.get(), Some(512));
    let d = smart("linux/smartctl/a-sas-hdd-7200-scsi-format.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(d.vendor.value().map(String::as_str), Some("HGST"));
    assert_eq!(d.model.value().map(String::as_str), Some("HUH721212AL4204"));
    assert_eq!(d.size_bytes.get(), Some(12_000_138_625_024));
    assert_eq!(
        (d.logical_sector_bytes.get(), d.physical_sector_bytes.get()),
        (Some(4096), Some(4096))
    );
    assert_eq!(d.rotation_rpm.get(), Some(7200));
    assert_eq!(
        (s.health_passed, s.grown_defects, s.reported_uncorrect),
        (Some(true), Some(0), Some(0))
    );
    let d = smart("linux/smartctl/a-sat-hdd-smartctl6.4-sata-gt-3.2-unknown-version.txt");
    assert_eq!(
        (d.link_drive_max_gbps.get(), d.link_current_gbps.get()),
        (Some(6.0), Some(6.0))
    );
    assert_eq!(d.size_bytes.get(), Some(2_000_398_934_016)); // U+00A0 grouping
    assert_eq!(d.smart.value().and_then(|s| s.power_on_hours), Some(1380));
    let d = smart("linux/smartctl/a-sata-hdd-7200-ubuntu20.04-sdau.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(d.model.value().map(String::as_str), Some("OOS12000G"));
    assert_eq!(
        (
            s.reallocated_sectors,
            s.pending_sectors,
            s.offline_uncorrectable,
            s.udma_crc_errors
        ),
        (Some(0), Some(0), Some(0), Some(0))
    );
    assert_eq!(s.power_on_hours, Some(252));
    assert_eq!(d.physical_sector_bytes.get(), Some(4096));
    let d =
        smart("linux/smartctl/x-megaraid-virtual-disk-no-smart-writeback-disabled-cmd-echo.txt");
    assert_eq!(d.vendor.value().map(String::as_str), Some("AVAGO"));
    assert_eq!(d.model.value().map(String::as_str), Some("MR9361-16i"));
    assert_eq!(d.write_cache_enabled.get(), Some(false));
    assert_eq!(d.write_cache_supported.get(), Some(true));
    assert!(
        d.smart
            .why()
            .is_some_and(|w| w.contains("lacks SMART capability"))
    );
    assert_eq!(
        (d.logical_sector_bytes.get(), d.physical_sector_bytes.get()),
        (Some(512), Some(4096))
    );
    let d = smart("linux/smartctl/x-nvme-intel-optane-m10-16gb-truenas-scale.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(
        d.model.value().map(String::as_str),
        Some("INTEL MEMPEK1J016GAL")
    );
    assert_eq!(
        (s.media_errors, s.percentage_used, s.power_on_hours),
        (Some(0), Some(0), Some(3530))
    );
    let d = smart("linux/smartctl/x-sas-ssd-writeback-cache-enabled.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(d.size_bytes.get(), Some(7_681_501_126_656));
    assert_eq!(d.write_cache_enabled.get(), Some(true));
    assert_eq!(d.rotation_rpm.get(), Some(0));
    assert_eq!(
        (s.health_passed, s.grown_defects, s.reported_uncorrect),
        (Some(true), Some(0), Some(0))
    );
}

#[test]
fn smartctl_json_fixtures() {
    let d = smart("linux/smartctl-json/a-nvme-intel-660p.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(
        d.model.value().map(String::as_str),
        Some("INTEL SSDPEKNW010T8")
    );
    assert_eq!(
        (s.media_errors, s.percentage_used, s.power_on_hours),
        (Some(0), Some(0), Some(2401))
    );
    assert_eq!(d.logical_sector_bytes.get(), Some(512));
    let d = smart("linux/smartctl-json/a-sas-seagate-10500rpm-smartctl6.7.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(d.rotation_rpm.get(), Some(10500));
    assert_eq!(
        (
            s.health_passed,
            s.grown_defects,
            s.reported_uncorrect,
            s.power_on_hours
        ),
        (Some(true), Some(0), Some(0), Some(5675))
    );
    let d = smart("linux/smartctl-json/a-sat-megaraid0-wd4000fyyx-3gbps.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(d.model.value().map(String::as_str), Some("WD4000FYYX"));
    assert_eq!(
        (d.link_drive_max_gbps.get(), d.link_current_gbps.get()),
        (Some(3.0), Some(3.0))
    );
    assert_eq!(d.rotation_rpm.get(), Some(7200));
    assert_eq!(
        (
            s.reallocated_sectors,
            s.pending_sectors,
            s.udma_crc_errors,
            s.power_on_hours
        ),
        (Some(0), Some(0), Some(0), Some(37787))
    );
    assert!(!d.serial.is_known(), "serial XXXXXXXXXXXX is masked");
    let d = smart("linux/smartctl-json/a-wd140edfz-5400-512e-flatcar.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(
        (d.logical_sector_bytes.get(), d.physical_sector_bytes.get()),
        (Some(512), Some(4096))
    );
    assert_eq!(d.rotation_rpm.get(), Some(5400));
    assert_eq!(
        (d.link_drive_max_gbps.get(), d.link_current_gbps.get()),
        (Some(6.0), Some(6.0))
    );
    assert_eq!(s.power_on_hours, Some(1730));
    let d = smart("linux/smartctl-json/i-nvme-kioxia-talos-info-only.txt");
    assert_eq!(d.model.value().map(String::as_str), Some("KCD61LUL3T84"));
    assert!(d.smart.why().is_some_and(|w| w.contains("no health data")));
    let d = smart("linux/smartctl-json/i-sata-wd-red-sa500-trimmed-no-smartctl-header.txt");
    assert_eq!(d.link_current_gbps.get(), Some(6.0));
    assert!(!d.link_drive_max_gbps.is_known());
    assert_eq!(
        d.model.value().map(String::as_str),
        Some("WD Red SA500 2.5 4TB")
    );
    assert!(!d.smart.is_known());
    let d = smart("other/smartctl-json/windows-open-failed-exit-status-2.txt");
    assert!(!d.model.is_known());
    let why = d.smart.why().unwrap_or("");
    assert!(
        why.contains("exit status 2") && why.contains("Open failed, Error=5"),
        "{why}"
    );
}

#[test]
fn smartctl_keeps_known_values() {
    let mut d = DiskFacts::new("sda", "/dev/sda");
    d.model = diskdoc_core::facts::Fact::known(
        "FROM SYSFS".to_string(),
        "file:/sys/block/sda/device/model",
    );
    smartctl::apply(
        &mut d,
        "cmd:smartctl -a /dev/sda",
        &fx("linux/smartctl/a-sata-hdd-7200-ubuntu20.04-sdau.txt"),
    );
    assert_eq!(d.model.value().map(String::as_str), Some("FROM SYSFS"));
    assert_eq!(d.serial.sources(), ["cmd:smartctl -a /dev/sda".to_string()]);
}

// ------------------------------------------------------------------ kernel log

#[test]
fn kernel_log_fixtures() {
    use KernelEventKind::*;
    let t =
        fx("linux/dmesg/journalctl-intel-ssd-read-fpdma-timeouts-4MiB-io-syslog-prefix-elided.txt");
    assert_eq!(kernel_log::ata_port_for("sda", &t), Some(1));
    let ev = kernel_log::events_for("sda", &t, "cmd:dmesg");
    assert_eq!(count(&ev, IoTimeout), 15); // 14 READ + 1 WRITE FPDMA QUEUED timeouts
    assert_eq!(count(&ev, LinkReset), 1);
    assert_eq!(ev.first().map(|e| e.from.as_str()), Some("cmd:dmesg"));
    assert!(kernel_log::events_for("sdb", &t, "k").is_empty());

    let t = fx("linux/dmesg/egrep-opal-locked-range-io-errors-limit-1.5gbps-email-wrapped.txt");
    let ev = kernel_log::events_for("sda", &t, "k");
    assert_eq!(count(&ev, IoError), 14); // 10 print_req_error + 4 Buffer I/O error on sdaN
    let ev = kernel_log::events_for_port(1, &t, "k");
    assert_eq!(count(&ev, LinkSpeedLimited), 2);
    assert!(kernel_log::events_for("sdb", &t, "k").is_empty());

    let t = fx("linux/dmesg/gce-vm-virtio-scsi-sda-write-cache-4k-physical.txt");
    assert!(
        kernel_log::events_for("sda", &t, "k").is_empty(),
        "healthy boot log"
    );

    let t = fx("freebsd/dmesg/ghostbsd-fbsd13.0-cam-read-fpdma-error-storm-truncated-start.txt");
    let ev = kernel_log::events_for("ada2", &t, "file:/var/run/dmesg.boot");
    assert!(count(&ev, IoError) >= 237, "{}", count(&ev, IoError));
    assert!(kernel_log::events_for("ada0", &t, "k").is_empty());
}

// ------------------------------------------------------------------ dd

fn dd1(rel: &str) -> diskdoc_core::facts::UserBenchmark {
    let v = dd::parse(&fx(rel));
    assert_eq!(v.len(), 1, "{rel}: {v:?}");
    v.into_iter().next().unwrap_or_default()
}

#[test]
fn dd_linux_fixtures() {
    let b = dd1("linux/dd/gnu-dd-de-locale-decimal-comma-datensaetze-usb-9.2MBps.txt");
    assert_eq!(b.records_in.as_deref(), Some("6395+1"));
    assert_eq!(b.records_out.as_deref(), Some("6395+1"));
    assert_eq!(b.bytes, Some(3_353_227_264));
    assert_eq!(b.seconds, Some(365.951));
    let r = b.bytes_per_sec.unwrap_or(0.0);
    assert!((r - 9_200_000.0).abs() / 9_200_000.0 < 0.01, "{r}");
    assert_eq!(r.round(), (3_353_227_264.0f64 / 365.951).round());
    let b = dd1("linux/dd/gnu-dd-old-format-conv-fdatasync-9.0MBps-same-disk.txt");
    assert_eq!((b.bytes, b.seconds), (Some(100_000_000), Some(11.1252)));
    assert!((b.bytes_per_sec.unwrap_or(0.0) - 9.0e6).abs() < 0.05e6);
    let b = dd1("linux/dd/gnu-dd-read-dm-device-partial-record-30.8MBps.txt");
    assert_eq!(b.records_in.as_deref(), Some("20103331+1"));
    assert_eq!(b.block_size_bytes, Some(4096)); // derived from bytes / records
    assert!((b.bytes_per_sec.unwrap_or(0.0) - 30.8e6).abs() < 0.05e6);
    let b = dd1("linux/dd/gnu-dd-read-usb-stick-987kBps-old-format.txt");
    assert_eq!((b.bytes, b.seconds), (Some(1_013_972_992), Some(1027.84)));
    assert!((b.bytes_per_sec.unwrap_or(0.0) - 987e3).abs() < 1e3);
    let b = dd1("linux/dd/gnu-dd-status-progress-then-eio-read-error.txt");
    assert_eq!(b.seconds, Some(133.767)); // the final line, not the progress snapshot
    assert_eq!(b.bytes, Some(2_306_867_200));
    assert!(
        b.error
            .as_deref()
            .is_some_and(|e| e.starts_with("EIO:") && e.contains("/dev/sda1"))
    );
    assert_eq!(b.records_in.as_deref(), Some("22+0"));
    let b = dd1("linux/dd/gnu-dd-summary-line-only-impossible-265MBps.txt");
    assert_eq!(
        (b.bytes, b.seconds, b.records_in.clone()),
        (Some(6_482_409_472), Some(24.4486), None)
    );
    assert!((b.bytes_per_sec.unwrap_or(0.0) - 265e6).abs() < 0.5e6);
    let b = dd1("linux/dd/gnu-dd-write-usb-bs1M-305MBps-page-cache.txt");
    assert_eq!(b.block_size_bytes, Some(1 << 20));
    assert!((b.bytes_per_sec.unwrap_or(0.0) - 305e6).abs() < 0.5e6);
    assert!(b.flags.is_empty() && b.command.is_none());
}

#[test]
fn dd_freebsd_fixtures() {
    let b = dd1("freebsd/dd/bsd-dd-100MiB-usb-sdcard-31605338-bytes-sec.txt");
    assert_eq!(
        (b.bytes, b.seconds, b.bytes_per_sec),
        (Some(104_857_600), Some(3.317718), Some(31_605_338.0))
    );
    assert_eq!(b.block_size_bytes, Some(1 << 20));
    let b = dd1("freebsd/dd/bsd-dd-einval-raw-device-oseek-1.3MBps.txt");
    assert_eq!(b.bytes_per_sec, Some(1_355_497.0));
    assert_eq!(
        (b.records_in.as_deref(), b.records_out.as_deref()),
        (Some("57311+1"), Some("57311+0"))
    );
    assert!(b.error.as_deref().is_some_and(|e| e.starts_with("EINVAL:")));
    assert_eq!(b.block_size_bytes, Some(512));
    let b = dd1("freebsd/dd/bsd-dd-enospc-partial-record.txt");
    assert_eq!(b.bytes_per_sec, Some(25_726_662.0));
    assert_eq!(b.records_out.as_deref(), Some("3710+1"));
    assert!(b.error.as_deref().is_some_and(|e| e.starts_with("ENOSPC:")));
}

#[test]
fn dd_seeds() {
    // 000: write cache on 75816229 B/s vs off 12918632 B/s, all runs of the one command.
    let v = dd::parse(&fx("seeds/000_8e1bfe3e625b3ba9.txt"));
    let rates: Vec<f64> = v.iter().filter_map(|b| b.bytes_per_sec).collect();
    assert_eq!(
        rates,
        vec![
            75816229.0, 75369073.0, 77016305.0, 12918632.0, 12919404.0, 85510090.0, 83166741.0,
            83153105.0
        ]
    );
    assert!(
        v.iter()
            .all(|b| b.command.as_deref() == Some("dd if=/dev/zero of=/tmp/foo bs=10M count=1000"))
    );
    assert!(
        v.iter()
            .all(|b| b.block_size_bytes == Some(10 << 20) && b.bytes == Some(10_485_760_000))
    );
    // 001: interrupted bs=1024k read, and default-bs (512) reads with no result lines.
    let v = dd::parse(&fx("seeds/001_eac254f2f3e74ed5.txt"));
    let first = v.first().cloned().unwrap_or_default();
    assert_eq!(first.input.as_deref(), Some("/dev/ad4"));
    assert_eq!(
        (first.records_in.as_deref(), first.bytes_per_sec),
        (Some("410+0"), Some(70_601_659.0))
    );
    let bs: Vec<Option<u64>> = v.iter().map(|b| b.block_size_bytes).collect();
    assert_eq!(
        bs,
        vec![
            Some(1 << 20),
            Some(512),
            Some(131072),
            Some(512),
            Some(131072),
            Some(131072),
            Some(131072),
            Some(128)
        ]
    );
    // 002: /dev/zero into ZFS 5523418767 B/s; into GELI-backed pool 191682730 B/s.
    let v = dd::parse(&fx("seeds/002_64bb14f282a6dfcc.txt"));
    let r: Vec<(Option<String>, Option<f64>)> = v
        .iter()
        .map(|b| (b.output.clone(), b.bytes_per_sec))
        .collect();
    assert_eq!(
        r,
        vec![
            (Some("/tmp/foo".into()), Some(5_523_418_767.0)),
            (Some("/home/rsmith/tmp/foo".into()), Some(191_682_730.0))
        ]
    );
    // 003: outputs collapsed onto single lines; raw device 183-186 MB/s, MBR-at-63 fs
    // 146-164 MB/s, GPT-at-40 fs 175-189 MB/s.
    let v = dd::parse(&fx("seeds/003_4a1b8569ab81058e.txt"));
    assert_eq!(v.len(), 17);
    let raw: Vec<f64> = v
        .iter()
        .filter(|b| b.output.as_deref() == Some("/dev/da0"))
        .filter_map(|b| b.bytes_per_sec)
        .collect();
    assert_eq!(
        raw,
        vec![
            183029796.0,
            185072887.0,
            185273912.0,
            185694637.0,
            185499765.0
        ]
    );
    let gpt: Vec<f64> = v
        .iter()
        .filter(|b| b.flags.contains(&"count=10k".to_string()))
        .filter_map(|b| b.bytes_per_sec)
        .collect();
    assert_eq!(
        gpt,
        vec![
            185957793.0,
            188557878.0,
            176078906.0,
            178442011.0,
            175699531.0,
            175054585.0
        ]
    );
    // 004: raw /dev/rwd2 vs buffered /dev/wd2 at bs=1m and 2k.
    let v = dd::parse(&fx("seeds/004_bffffb9b63b580f5.txt"));
    let runs: Vec<(Option<String>, Option<u64>, Option<f64>)> = v
        .iter()
        .filter(|b| b.bytes.is_some())
        .map(|b| (b.input.clone(), b.block_size_bytes, b.bytes_per_sec))
        .collect();
    assert_eq!(
        runs,
        vec![
            (Some("/dev/rwd2".into()), Some(1 << 20), Some(9_827_465.0)),
            (Some("/dev/wd2".into()), Some(1 << 20), Some(9_859_716.0)),
            (Some("/dev/wd2".into()), Some(2048), Some(9_801_789.0)),
        ]
    );
}

// ------------------------------------------------------------------ iostat / gstat

#[test]
fn iostat_fixtures() {
    let v = iostat::parse(&fx(
        "freebsd/iostat/x-d-1-2-fbsd14.4-gmirror-ada-pass-idle.txt",
    ));
    assert_eq!(
        v.len(),
        4,
        "pass0/pass1 rows ignored, two reports of ada0/ada1"
    );
    let a0 = v
        .iter()
        .find(|s| s.device == "ada0" && s.report == 0)
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (
            a0.reads_per_sec,
            a0.writes_per_sec,
            a0.write_kb_per_sec,
            a0.busy_pct
        ),
        (Some(0.0), Some(1.0), Some(20.7), Some(0.0))
    );
    assert!(
        v.iter()
            .filter(|s| s.report == 1)
            .all(|s| s.write_kb_per_sec == Some(0.0))
    );

    let v = iostat::parse(&fx(
        "linux/iostat/x-ubuntu18.04-vmware-sda-loops-sysstat-since-boot.txt",
    ));
    let sda = v
        .iter()
        .find(|s| s.device == "sda")
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (sda.reads_per_sec, sda.writes_per_sec),
        (Some(127.92), Some(67.15))
    );
    assert_eq!(
        (sda.read_kb_per_sec, sda.write_kb_per_sec, sda.busy_pct),
        (Some(8595.16), Some(12457.33), Some(15.14))
    );
    // The average wait is weighted by each direction's request rate, as sysstat computes
    // await (iostat.c compute_ext_disk_stats), not the plain mean of r_await and w_await.
    let a = sda.await_ms.unwrap_or(0.0);
    let want = (127.92 * 2.57 + 67.15 * 6.93) / (127.92 + 67.15);
    assert!((a - want).abs() < 1e-9, "{a} vs {want}");

    let v = iostat::parse(&fx("linux/iostat/mx-centos7.7-vmware-lvm-dm-devices.txt"));
    let names: Vec<&str> = v.iter().map(|s| s.device.as_str()).collect();
    assert_eq!(names, vec!["sda", "dm-0", "dm-1"]);
    let sda = v.first().cloned().unwrap_or_default();
    assert_eq!((sda.await_ms, sda.busy_pct), (Some(0.88), Some(0.01)));

    // Seed 001: dd with the default 512-byte bs shows 0.50 KB/t at ~7500 tps = 3.65 MB/s on
    // ad8; bs=128k reads show 64.00 KB/t at ~57 MB/s; systat shows ar0 at 64 KB/t 135 MB/s.
    let v = iostat::parse(&fx("seeds/001_eac254f2f3e74ed5.txt"));
    let ad8_small: Vec<&iostat::IostatSample> = v
        .iter()
        .filter(|s| s.device == "ad8" && s.kb_per_transfer == Some(0.5))
        .collect();
    assert_eq!(ad8_small.len(), 19);
    assert!(
        ad8_small
            .iter()
            .all(|s| s.mb_per_sec.is_some_and(|m| (3.64..=3.68).contains(&m)))
    );
    assert!(
        ad8_small
            .iter()
            .all(|s| s.transfers_per_sec.is_some_and(|t| t > 7400.0))
    );
    assert!(v.iter().any(|s| s.device == "ad8"
        && s.kb_per_transfer == Some(64.0)
        && s.mb_per_sec == Some(57.14)));
    let ad4_first = v
        .iter()
        .find(|s| s.device == "ad4" && s.kb_per_transfer == Some(128.0))
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (ad4_first.transfers_per_sec, ad4_first.mb_per_sec),
        (Some(47.0), Some(5.82))
    );
    let ar0 = v
        .iter()
        .find(|s| s.device == "ar0" && s.layout == "systat")
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (
            ar0.kb_per_transfer,
            ar0.transfers_per_sec,
            ar0.mb_per_sec,
            ar0.busy_pct
        ),
        (Some(64.0), Some(2152.0), Some(135.0), Some(97.0))
    );
}

#[test]
fn gstat_fixture() {
    let v = gstat::parse(&fx(
        "freebsd/gstat/xigmanas-resilver-ada-busy-over-100pct.txt",
    ));
    let disks: Vec<&gstat::GstatRow> = v.iter().filter(|r| r.is_whole_disk()).collect();
    let ada0 = disks
        .iter()
        .find(|r| r.name == "ada0")
        .copied()
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (
            ada0.queue_len,
            ada0.reads_per_sec,
            ada0.read_kbps,
            ada0.ms_per_read,
            ada0.busy_pct
        ),
        (
            Some(10.0),
            Some(316.0),
            Some(36079.0),
            Some(18.6),
            Some(111.8)
        )
    );
    assert_eq!(ada0.interval_secs, Some(0.057));
    let ada1 = disks
        .iter()
        .find(|r| r.name == "ada1")
        .copied()
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (
            ada1.writes_per_sec,
            ada1.write_kbps,
            ada1.busy_pct,
            ada1.read_kbps
        ),
        (Some(246.0), Some(1474.0), Some(22.6), Some(0.0))
    );
    let ada6 = disks
        .iter()
        .find(|r| r.name == "ada6")
        .copied()
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (ada6.ms_per_read, ada6.busy_pct, ada6.read_kbps),
        (Some(25.2), Some(101.2), Some(20356.0))
    );
    let over: Vec<&str> = disks
        .iter()
        .filter(|r| r.busy_pct.is_some_and(|b| b > 100.0))
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(over, vec!["ada0", "ada3", "ada6", "ada7"]);
    assert!(
        v.iter()
            .any(|r| r.name == "gpt/raidz2disk2" && !r.is_whole_disk())
    );
    let kbt = ada0.kb_per_transfer().unwrap_or(0.0);
    assert!((kbt - 36079.0 / 316.0).abs() < 1e-9);
}

// ------------------------------------------------------------------ hdparm

#[test]
fn hdparm_identify_fixtures() {
    let r = hdparm::parse_identify(&fx(
        "linux/hdparm-I/truenas-scale-tesla-2tb-sata-ssd-dram-less.txt",
    ))
    .unwrap_or_default();
    assert_eq!(r.device.as_deref(), Some("/dev/sdl"));
    assert_eq!(
        (
            r.model.as_deref(),
            r.serial.as_deref(),
            r.firmware.as_deref()
        ),
        (Some("TESLA"), Some("2022092T0075"), Some("V0609B0"))
    );
    assert_eq!(r.lba48_sectors, Some(3_907_029_168));
    assert_eq!(
        (
            r.logical_sector_bytes,
            r.physical_sector_bytes,
            r.sector0_offset_bytes
        ),
        (Some(512), Some(512), Some(0))
    );
    assert_eq!(r.rotation_rpm, Some(0));
    assert_eq!(
        (r.sata_gens.clone(), r.sata_max_gbps),
        (vec![1, 2, 3], Some(6.0))
    );
    assert_eq!((r.ncq_supported, r.queue_depth), (Some(true), Some(32)));
    assert_eq!(
        (
            r.write_cache_supported,
            r.write_cache_enabled,
            r.look_ahead_enabled
        ),
        (Some(true), Some(true), Some(true))
    );
    assert_eq!(r.trim_supported, Some(true));
    assert_eq!(r.udma_active.as_deref(), Some("udma6"));
    assert_eq!(r.security_frozen, Some(true));
    let r = hdparm::parse_identify(&fx(
        "linux/hdparm-I/truenas-scale-noname-a400-2tb-sata-ssd.txt",
    ))
    .unwrap_or_default();
    assert_eq!(
        (r.model.as_deref(), r.lba48_sectors),
        (Some("A400"), Some(4_000_797_360))
    );
    assert_eq!(
        (
            r.queue_depth,
            r.write_cache_enabled,
            r.trim_supported,
            r.sata_max_gbps
        ),
        (Some(32), Some(true), Some(true), Some(6.0))
    );
    // U+00A0 indentation, user annotation "<=== !!!", serial redacted with X.
    let r = hdparm::parse_identify(&fx(
        "linux/hdparm-I/samsung-840evo-openwrt-user-annotated-serial-redacted.txt",
    ))
    .unwrap_or_default();
    assert_eq!(r.model.as_deref(), Some("Samsung SSD 840 EVO 120GB"));
    assert_eq!(r.serial, None);
    assert_eq!(
        (
            r.logical_sector_bytes,
            r.physical_sector_bytes,
            r.rotation_rpm
        ),
        (Some(512), Some(512), Some(0))
    );
    assert_eq!(
        (
            r.queue_depth,
            r.ncq_supported,
            r.write_cache_enabled,
            r.trim_supported
        ),
        (Some(32), Some(true), Some(true), Some(true))
    );
    assert_eq!(r.sata_gens, vec![1, 2, 3]);
    assert_eq!(r.security_frozen, Some(false));
}

#[test]
fn hdparm_write_cache_fixtures() {
    use hdparm::HdparmWriteCache as W;
    let w = |dev: &str, set_to, enabled| W {
        device: dev.to_string(),
        set_to,
        enabled,
    };
    assert_eq!(
        hdparm::parse_write_cache(&fx("linux/hdparm-W/W-query-only-on-no-leading-blank.txt")),
        vec![w("/dev/sda", None, Some(true))]
    );
    assert_eq!(
        hdparm::parse_write_cache(&fx("linux/hdparm-W/W0-disable-single-disk.txt")),
        vec![w("/dev/sda", Some(false), Some(false))]
    );
    assert_eq!(
        hdparm::parse_write_cache(&fx("linux/hdparm-W/W1-enable-single-disk.txt")),
        vec![w("/dev/sda", Some(true), Some(true))]
    );
    assert_eq!(
        hdparm::parse_write_cache(&fx("linux/hdparm-W/W0-two-sata-hdds-disable.txt")),
        vec![
            w("/dev/sdb", Some(false), Some(false)),
            w("/dev/sdc", Some(false), Some(false))
        ]
    );
    assert_eq!(
        hdparm::parse_write_cache(&fx(
            "linux/hdparm-W/laptop-mode-apm-acoustic-wcache-off-mixed-with-other-messages.txt"
        )),
        vec![w("/dev/sda", Some(false), Some(false))]
    );
}

// ------------------------------------------------------------------ lsblk

fn find(v: &[lsblk::LsblkDevice], n: &str) -> lsblk::LsblkDevice {
    v.iter().find(|d| d.name == n).cloned().unwrap_or_default()
}

#[test]
fn lsblk_fixtures() {
    let v = lsblk::parse(&fx(
        "linux/lsblk/plain-lsblk-openeuler-lvm-mountpoints-col.txt",
    ));
    let tree: Vec<(&str, usize, Option<&str>)> = v
        .iter()
        .map(|d| (d.name.as_str(), d.depth, d.parent.as_deref()))
        .collect();
    assert_eq!(
        tree,
        vec![
            ("sda", 0, None),
            ("sda1", 1, Some("sda")),
            ("sda2", 1, Some("sda")),
            ("sda3", 1, Some("sda")),
            ("openeuler-root", 2, Some("sda3")),
            ("openeuler-swap", 2, Some("sda3")),
            ("openeuler-home", 2, Some("sda3"))
        ]
    );
    assert_eq!(find(&v, "sda").size_text.as_deref(), Some("447.1G"));
    assert_eq!(find(&v, "sda1").mountpoints, vec!["/boot/efi".to_string()]);
    assert_eq!(
        find(&v, "openeuler-swap").mountpoints,
        vec!["[SWAP]".to_string()]
    );
    assert_eq!(find(&v, "openeuler-home").dev_type.as_deref(), Some("lvm"));

    let v = lsblk::parse(&fx(
        "linux/lsblk-o/centos7.7-vmware-allcols-lvm-utf8-tree.txt",
    ));
    let sda = find(&v, "sda");
    assert_eq!(
        (
            sda.model.as_deref(),
            sda.transport.as_deref(),
            sda.rotational
        ),
        (Some("VMware Virtual S"), Some("spi"), Some(true))
    );
    assert_eq!(
        (
            sda.scheduler.as_deref(),
            sda.physical_sector_bytes,
            sda.logical_sector_bytes,
            sda.rq_size
        ),
        (Some("deadline"), Some(512), Some(512), Some(128))
    );
    assert_eq!(sda.size_bytes, Some(20 << 30));
    let root = find(&v, "centos-root");
    assert_eq!(
        (
            root.depth,
            root.parent.as_deref(),
            root.kname.as_deref(),
            root.fstype.as_deref()
        ),
        (2, Some("sda2"), Some("dm-0"), Some("xfs"))
    );
    assert_eq!(root.mountpoints, vec!["/".to_string()]);
    assert_eq!(find(&v, "sr0").transport.as_deref(), Some("ata"));

    let v = lsblk::parse(&fx(
        "linux/lsblk-o/ubuntu18.04-vmware-allcols-loops-sata-cdrom.txt",
    ));
    assert_eq!(
        v.iter()
            .filter(|d| d.dev_type.as_deref() == Some("loop"))
            .count(),
        11
    );
    let sda = find(&v, "sda");
    assert_eq!(
        (
            sda.transport.as_deref(),
            sda.rotational,
            sda.scheduler.as_deref()
        ),
        (Some("spi"), Some(true), Some("cfq"))
    );
    assert_eq!(find(&v, "sda2").mountpoints, vec!["/".to_string()]);
    let sr0 = find(&v, "sr0");
    assert_eq!(
        (sr0.transport.as_deref(), sr0.physical_sector_bytes),
        (Some("sata"), Some(2048))
    );
    assert_eq!(find(&v, "loop0").read_only, Some(true));

    let v = lsblk::parse(&fx(
        "linux/lsblk-J/O-regenerated-sata-ssd-ide-hdd-nvme-util-linux-dump.txt",
    ));
    let sda = find(&v, "sda");
    assert_eq!(
        (
            sda.model.as_deref(),
            sda.rotational,
            sda.scheduler.as_deref(),
            sda.discard_max.as_deref()
        ),
        (
            Some("KINGSTON SH103S3"),
            Some(false),
            Some("cfq"),
            Some("2G")
        )
    );
    assert_eq!(sda.hctl.as_deref(), Some("0:0:0:0"));
    let sdb = find(&v, "sdb");
    assert_eq!(
        (
            sdb.rotational,
            sdb.discard_max.as_deref(),
            sdb.size_text.as_deref()
        ),
        (Some(true), Some("0B"), Some("74.5G"))
    );
    let nvme = find(&v, "nvme0n1");
    assert_eq!(
        (
            nvme.rotational,
            nvme.scheduler.as_deref(),
            nvme.rq_size,
            nvme.transport.as_deref()
        ),
        (Some(false), Some("none"), Some(1023), Some("nvme"))
    );
    assert!(
        v.iter()
            .filter(|d| d.name.starts_with("sda") && d.depth == 1)
            .count()
            == 6
    );
    assert!(v.iter().all(|d| d.alignment.unwrap_or(0) == 0));

    let v = lsblk::parse(&fx(
        "linux/lsblk-J/o-cols-regenerated-bcachefs-multidev-box.txt",
    ));
    assert_eq!(
        (
            find(&v, "sda").model.as_deref(),
            find(&v, "sda").scheduler.as_deref()
        ),
        (Some("KINGSTON_SH103S3240G"), Some("bfq"))
    );
    assert_eq!(find(&v, "sdb").rotational, Some(true));
    assert_eq!(
        (
            find(&v, "sr0").dev_type.as_deref(),
            find(&v, "sr0").rotational
        ),
        (Some("rom"), Some(false))
    );
    assert_eq!(find(&v, "nvme0n1").size_text.as_deref(), Some("953.9G"));
    assert_eq!(find(&v, "sdc").size_text.as_deref(), Some("500M"));

    let v = lsblk::parse(&fx(
        "linux/lsblk-J/o-cols-regenerated-sata-ssd-ide-hdd-nvme.txt",
    ));
    assert_eq!(find(&v, "sdb").model.as_deref(), Some("WDC WD800JD-00MS"));
    assert_eq!(
        find(&v, "nvme0n1").model.as_deref(),
        Some("KINGSTON SKC1000240G"),
        "padding trimmed"
    );
    assert_eq!(find(&v, "sda").transport, None);
}

// ------------------------------------------------------------------ fdisk / sfdisk

fn starts(d: &fdisk::FdiskDisk) -> Vec<(u32, Option<u64>, bool)> {
    d.partitions
        .iter()
        .map(|p| (p.number.unwrap_or(0), p.start, p.boundary_warning))
        .collect()
}

#[test]
fn fdisk_fixtures() {
    let v = fdisk::parse(&fx(
        "linux/fdisk-l/interactive-p-md0-8tb-raid6-dos-label-too-large-io-size-chunk.txt",
    ));
    assert_eq!(v.len(), 1);
    let d = v.first().cloned().unwrap_or_default();
    assert_eq!(
        (d.device.as_deref(), d.size_bytes),
        (Some("/dev/md0"), Some(8_001_594_851_328))
    );
    assert_eq!(
        (
            d.logical_sector_bytes,
            d.physical_sector_bytes,
            d.min_io_bytes,
            d.opt_io_bytes
        ),
        (Some(512), Some(512), Some(131072), Some(524288))
    );
    assert_eq!(starts(&d), vec![(1, Some(128), true)]);
    assert_eq!(
        d.partitions
            .first()
            .and_then(|p| p.type_id.clone())
            .as_deref(),
        Some("fd")
    );
    assert_eq!(d.warnings.len(), 2);

    let v = fdisk::parse(&fx(
        "linux/fdisk-l/l-gpt-protective-mbr-warning-false-positive-physical-boundary.txt",
    ));
    let sda = v.first().cloned().unwrap_or_default();
    assert!(
        sda.gpt_detected,
        "protective MBR: the warning on sda1 is a false positive"
    );
    assert_eq!(
        (sda.logical_sector_bytes, sda.physical_sector_bytes),
        (Some(512), Some(4096))
    );
    assert_eq!(starts(&sda), vec![(1, Some(1), true)]);
    assert_eq!(
        sda.partitions
            .first()
            .and_then(|p| p.type_id.clone())
            .as_deref(),
        Some("ee")
    );
    let sdb = v.get(1).cloned().unwrap_or_default();
    assert_eq!(
        (sdb.device.as_deref(), sdb.size_bytes, sdb.gpt_detected),
        (Some("/dev/sdb"), Some(1_998_585_344), false)
    );
    assert_eq!(starts(&sdb), vec![(1, Some(16), false)]);
    assert!(sdb.partitions.first().is_some_and(|p| p.boot));

    let v = fdisk::parse(&fx(
        "linux/fdisk-l/l-two-disks-xp-era-partitions-at-63-truncated.txt",
    ));
    assert_eq!(v.len(), 2);
    let sda = v.first().cloned().unwrap_or_default();
    assert_eq!(
        starts(&sda),
        vec![
            (1, Some(2048), false),
            (2, Some(206848), false),
            (3, Some(512000000), false),
            (4, Some(528003070), true),
            (5, Some(528003072), false),
            (6, Some(820971520), false)
        ]
    );
    assert!(sda.partitions.get(3).is_some_and(|p| p.extended));
    let sdb = v.get(1).cloned().unwrap_or_default();
    assert_eq!(sdb.physical_sector_bytes, Some(512));
    assert_eq!(
        starts(&sdb),
        vec![
            (1, Some(63), false),
            (2, Some(52436221), false),
            (5, Some(52436223), false),
            (6, Some(115346763), false),
            (7, Some(167782923), false),
            (8, Some(220219392), false)
        ]
    );
    assert_eq!(
        sdb.partitions.first().and_then(|p| p.sectors),
        Some(52436097)
    ); // "26218048+" blocks

    let v = fdisk::parse(&fx(
        "linux/fdisk-l/l-whitespace-collapsed-by-forum-extended-misaligned.txt",
    ));
    let d = v.first().cloned().unwrap_or_default();
    assert_eq!(d.device, None);
    assert_eq!(
        starts(&d),
        vec![
            (1, Some(2048), false),
            (2, Some(800002046), true),
            (5, Some(800002048), false),
            (6, Some(812001280), false),
            (7, Some(1312002048), false)
        ]
    );
    assert_eq!(
        d.partitions
            .get(4)
            .and_then(|p| p.type_name.clone())
            .as_deref(),
        Some("HPFS/NTFS/exFAT")
    );

    let v = fdisk::parse(&fx(
        "linux/fdisk-l/lu-1tb-4k-physical-extended-misaligned-warning-utl2.20.txt",
    ));
    let d = v.first().cloned().unwrap_or_default();
    assert_eq!(d.identifier.as_deref(), Some("0x7ee618ea"));
    assert_eq!(
        (d.logical_sector_bytes, d.physical_sector_bytes),
        (Some(512), Some(4096))
    );
    assert_eq!(
        starts(&d),
        vec![
            (1, Some(2048), false),
            (2, Some(206848), false),
            (3, Some(981161984), false),
            (4, Some(1660159998), true),
            (5, Some(1660160000), false),
            (6, Some(1937309696), false)
        ]
    );
}

#[test]
fn sfdisk_fixtures() {
    let v = sfdisk::parse_list(&fx("linux/sfdisk-l/centos7.7-old-cylinder-units.txt"));
    let d = v.first().cloned().unwrap_or_default();
    assert_eq!(d.units.as_deref(), Some("cylinders"));
    assert_eq!(d.partitions.len(), 2, "empty slots dropped");
    assert!(
        d.partitions.iter().all(|p| p.start.is_none()),
        "cylinder units: sector starts unknown"
    );
    assert_eq!(
        d.partitions
            .iter()
            .map(|p| p.start_cylinder)
            .collect::<Vec<_>>(),
        vec![Some(0), Some(130)]
    );
    assert_eq!(
        d.partitions
            .get(1)
            .and_then(|p| p.type_id.clone())
            .as_deref(),
        Some("8e")
    );
    assert_eq!(v.len(), 3); // sda + two dm devices with geometry only

    let v = sfdisk::parse_list(&fx(
        "linux/sfdisk-l/debian10-gpt-partitions-out-of-order.txt",
    ));
    let d = v.first().cloned().unwrap_or_default();
    assert_eq!(
        (d.label.as_deref(), d.model.as_deref(), d.size_bytes),
        (Some("gpt"), Some("NT-256"), Some(256_060_514_304))
    );
    assert_eq!(
        starts(&d),
        vec![
            (1, Some(2048), false),
            (2, Some(526336), false),
            (3, Some(483684352), false),
            (4, Some(138545152), false)
        ]
    );
    assert!(
        d.partitions
            .iter()
            .all(|p| p.start.is_some_and(|s| s % 8 == 0))
    );
    assert_eq!(
        d.partitions
            .get(2)
            .and_then(|p| p.type_name.clone())
            .as_deref(),
        Some("Linux swap")
    );

    let v = sfdisk::parse_dump(&fx(
        "linux/sfdisk-d/centos7.7-old-util-linux-2.23-format-mbr.txt",
    ));
    let d = v.first().cloned().unwrap_or_default();
    assert_eq!(
        (d.device.as_deref(), d.units.as_deref()),
        (Some("/dev/sda"), Some("sectors"))
    );
    type Row = (Option<u64>, Option<u64>, Option<String>, bool);
    let p: Vec<Row> = d
        .partitions
        .iter()
        .map(|p| (p.start, p.sectors, p.type_id.clone(), p.boot))
        .collect();
    assert_eq!(
        p,
        vec![
            (Some(2048), Some(2097152), Some("83".into()), true),
            (Some(2099200), Some(39843840), Some("8e".into()), false)
        ]
    );
}

// ------------------------------------------------------------------ cryptsetup / dmsetup

#[test]
fn cryptsetup_fixtures() {
    let v = cryptsetup::parse(&fx(
        "linux/cryptsetup-status/luks2-kata-vm-sector-4096-in-use.txt",
    ));
    assert_eq!(v.len(), 1);
    let s = v.first().cloned().unwrap_or_default();
    assert_eq!(
        (s.mapping.as_str(), s.active, s.in_use),
        ("/dev/mapper/encrypted_disk_GsLDt", true, true)
    );
    assert_eq!(
        (s.crypt_type.as_deref(), s.cipher.as_deref(), s.key_bits),
        (Some("LUKS2"), Some("aes-xts-plain64"), Some(512))
    );
    assert_eq!(
        (
            s.device.as_deref(),
            s.sector_bytes,
            s.offset_sectors,
            s.size_sectors
        ),
        (Some("/dev/sda"), Some(4096), Some(32768), Some(5_087_232))
    );
    let l = s.to_layer("cmd:cryptsetup status x");
    assert_eq!(
        (l.kind, l.on.clone(), l.key_bits),
        (
            Some(diskdoc_core::facts::LayerKind::Luks),
            vec!["/dev/sda".to_string()],
            Some(512)
        )
    );

    let s = cryptsetup::parse(&fx(
        "linux/cryptsetup-status/luks2-new-units-format-loop-backed-fcos.txt",
    ))
    .into_iter()
    .next()
    .unwrap_or_default();
    assert_eq!(
        (s.key_bits, s.sector_bytes, s.offset_sectors, s.size_sectors),
        (Some(512), Some(512), Some(32768), Some(1_015_808))
    );
    assert_eq!(
        (s.device.as_deref(), s.loop_file.as_deref()),
        (Some("/dev/loop0"), Some("/var/tmp/capture-0.img (deleted)"))
    );

    let s = cryptsetup::parse(&fx(
        "linux/cryptsetup-status/v-luks2-usb-backup-drive-command-successful.txt",
    ))
    .into_iter()
    .next()
    .unwrap_or_default();
    assert_eq!(
        (s.mapping.as_str(), s.active, s.in_use),
        ("/dev/mapper/backupDrive", true, false)
    );
    assert_eq!(
        (s.size_sectors, s.offset_sectors, s.mode.as_deref()),
        (Some(11_721_012_400), Some(32768), Some("read/write"))
    );
}

#[test]
fn dmsetup_fixtures() {
    let v = dmsetup::parse(&fx(
        "linux/dmsetup-table/dm-cache-writethrough-over-md127.txt",
    ));
    let c = v.first().cloned().unwrap_or_default();
    assert_eq!(
        (
            c.target.as_str(),
            c.devices.clone(),
            c.cache_block_sectors,
            c.cache_mode.as_deref()
        ),
        (
            "cache",
            vec!["252:3".to_string(), "252:2".into(), "252:4".into()],
            Some(128),
            Some("writethrough")
        )
    );
    assert_eq!(
        c.features,
        vec!["metadata2".to_string(), "writethrough".into()]
    );
    let o = v.get(1).cloned().unwrap_or_default();
    assert_eq!(
        (o.name.as_str(), o.target.as_str(), o.offsets.clone()),
        ("gtcache-gtcache--vol_corig", "linear", vec![2048])
    );
    assert_eq!(o.to_layer("k").on, vec!["md127".to_string()]);

    let v = dmsetup::parse(&fx(
        "linux/dmsetup-table/legacy-ide-hda2-volgroup00-linear.txt",
    ));
    let r: Vec<(String, Vec<u64>)> = v
        .iter()
        .map(|t| (t.name.clone(), t.offsets.clone()))
        .collect();
    assert_eq!(
        r,
        vec![
            ("VolGroup00-Home".into(), vec![42008960]),
            ("VolGroup00-Swap".into(), vec![40960384]),
            ("VolGroup00-Root".into(), vec![384])
        ]
    );
    assert_eq!(dmsetup::guess_dev_name("3:2").as_deref(), Some("hda2"));

    let v = dmsetup::parse(&fx(
        "linux/dmsetup-table/linear-with-error-target-sector-209.txt",
    ));
    let segs: Vec<(u64, u64, &str)> = v
        .iter()
        .map(|t| (t.start, t.length, t.target.as_str()))
        .collect();
    assert_eq!(
        segs,
        vec![
            (0, 209, "linear"),
            (209, 1, "error"),
            (210, 6446894, "linear")
        ]
    );

    let c = dmsetup::parse(&fx(
        "linux/dmsetup-table/luks2-keyring-allow-discards-uuid-redacted.txt",
    ))
    .into_iter()
    .next()
    .unwrap_or_default();
    assert_eq!(
        (
            c.cipher.as_deref(),
            c.key_bits,
            c.devices.clone(),
            c.offsets.clone()
        ),
        (
            Some("aes-xts-plain64"),
            Some(512),
            vec!["8:19".to_string()],
            vec![32768]
        )
    );
    assert_eq!(c.features, vec!["allow_discards".to_string()]);
    assert_eq!(c.to_layer("k").on, vec!["sdb3".to_string()]);

    let s = dmsetup::parse(&fx("linux/dmsetup-table/lvm-striped-4x-nvme-128k.txt"))
        .into_iter()
        .next()
        .unwrap_or_default();
    assert_eq!(
        (s.stripes, s.chunk_sectors, s.length),
        (Some(4), Some(128), 25_004_900_352)
    );
    assert_eq!(
        s.devices,
        vec![
            "259:3".to_string(),
            "259:2".into(),
            "259:5".into(),
            "259:8".into()
        ]
    );
    assert_eq!(s.offsets, vec![2048; 4]);

    let v = dmsetup::parse(&fx(
        "linux/dmsetup-table/rhel-lvm-linear-on-sdb3-plus-test-lvs.txt",
    ));
    assert_eq!(v.len(), 5);
    let home = v.first().cloned().unwrap_or_default();
    assert_eq!(
        (home.devices.clone(), home.offsets.clone()),
        (vec!["8:19".to_string()], vec![16345088])
    );
    assert_eq!(
        v.get(4).map(|t| t.to_layer("k").on),
        Some(vec!["ram0".to_string()])
    );
}

// ------------------------------------------------------------------ zpool status

fn pools(rel: &str) -> Vec<zpool::ZpoolStatus> {
    zpool::parse(&fx(rel))
}

#[test]
fn zpool_fixtures() {
    let p = pools("linux/zpool-status/4x-mirror-spare-scan-snipped.txt");
    let t = p.first().cloned().unwrap_or_default();
    assert_eq!(
        (t.pool.as_str(), t.state.as_deref()),
        ("tank", Some("ONLINE"))
    );
    let mirrors: Vec<&str> = t
        .vdevs
        .iter()
        .filter(|v| v.depth == 1)
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(
        mirrors,
        vec!["mirror-0", "mirror-1", "mirror-2", "mirror-3"]
    );
    let m0: Vec<&str> = t
        .vdevs
        .iter()
        .filter(|v| v.parent.as_deref() == Some("mirror-0"))
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(m0, vec!["sdh", "sdk"]);
    let spares: Vec<(&str, Option<&str>)> = t
        .vdevs
        .iter()
        .filter(|v| v.section == "spares")
        .map(|v| (v.name.as_str(), v.state.as_deref()))
        .collect();
    assert_eq!(spares, vec![("sdf", Some("AVAIL"))]);
    assert_eq!(t.scan.as_ref().map(|s| s.kind.as_str()), Some("scrub"));

    let t = pools("linux/zpool-status/mirror-wwn-features-not-enabled.txt")
        .into_iter()
        .next()
        .unwrap_or_default();
    assert!(t.status.as_deref().is_some_and(|s| {
        s.starts_with("Some supported and requested features are not enabled")
            && s.contains("some features are unavailable")
    }));
    assert_eq!(t.scan.as_ref().and_then(|s| s.errors), Some(0));
    assert_eq!(t.leaves().len(), 4);
    assert!(
        t.leaves()
            .iter()
            .all(|v| v.name.starts_with("wwn-0x5000c500"))
    );

    let t = pools("other/zpool-status/solaris-unavail-permanent-errors-old-scrub-keyword.txt")
        .into_iter()
        .next()
        .unwrap_or_default();
    assert_eq!(t.state.as_deref(), Some("UNAVAIL"));
    assert_eq!(t.see.as_deref(), Some("http://www.sun.com/msg/ZFS-8000-HC"));
    assert_eq!(t.scan.as_ref().map(|s| s.kind.as_str()), Some("scrub"));
    let bad = t
        .vdevs
        .iter()
        .find(|v| v.name == "c1t1d0")
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (
            bad.state.as_deref(),
            bad.read_errors,
            bad.write_errors,
            bad.cksum_errors,
            bad.note.as_deref()
        ),
        (
            Some("UNAVAIL"),
            Some(4),
            Some(1),
            Some(0),
            Some("cannot open")
        )
    );
    assert_eq!(
        t.vdevs.first().and_then(|v| v.note.clone()).as_deref(),
        Some("insufficient replicas")
    );
    assert_eq!(
        t.error_files,
        vec![
            "/tank/data/aaa".to_string(),
            "/tank/data/bbb".into(),
            "/tank/data/ccc".into()
        ]
    );

    let p = pools("other/zpool-status/three-pools-blank-lines-stripped.txt");
    let names: Vec<&str> = p.iter().map(|z| z.pool.as_str()).collect();
    assert_eq!(names, vec!["zhgstera6", "zint500", "zsam53"]);
    assert!(p.iter().all(|z| z.state.as_deref() == Some("ONLINE")));
    assert!(
        p.first()
            .and_then(|z| z.scan.as_ref())
            .is_some_and(|s| s.canceled)
    );
    let leaves: Vec<String> = p
        .iter()
        .flat_map(|z| z.leaves().into_iter().map(|v| v.name.clone()))
        .collect();
    assert_eq!(
        leaves,
        vec![
            "726060ALE614-K8JAPRGN:10".to_string(),
            "ST3500418AS-5VMSTSSX:5".into(),
            "Portable_SSD_T5-S49WNP0N120517B:8".into()
        ]
    );

    let t = pools("freebsd/zpool-status/7x-raidz2-12wide-90disks-6-spares.txt")
        .into_iter()
        .next()
        .unwrap_or_default();
    assert_eq!(t.pool, "nas02");
    assert_eq!(
        t.vdevs
            .iter()
            .filter(|v| v.name.starts_with("raidz2-"))
            .count(),
        7
    );
    assert_eq!(
        t.vdevs
            .iter()
            .filter(|v| v.parent.as_deref() == Some("raidz2-3"))
            .count(),
        12
    );
    let spares: Vec<&str> = t
        .vdevs
        .iter()
        .filter(|v| v.section == "spares")
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(
        spares,
        vec!["da85p1", "da86p1", "da87p1", "da88p1", "da89p1", "da90p1"]
    );
    assert_eq!(t.scan.as_ref().and_then(|s| s.errors), Some(0));

    let t = pools("freebsd/zpool-status/degraded-unavail-was-dev-gpt-missing-disk.txt")
        .into_iter()
        .next()
        .unwrap_or_default();
    assert_eq!(t.state.as_deref(), Some("DEGRADED"));
    let u = t
        .vdevs
        .iter()
        .find(|v| v.state.as_deref() == Some("UNAVAIL"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (u.name.as_str(), u.note.as_deref(), u.parent.as_deref()),
        (
            "12897545936258916783",
            Some("was /dev/gpt/ndisk2"),
            Some("mirror-0")
        )
    );

    let t = pools("freebsd/zpool-status/fbsd12-raidz2-sas-nvd0-slog-spares-user-trimmed.txt")
        .into_iter()
        .next()
        .unwrap_or_default();
    assert_eq!(t.scan.as_ref().map(|s| s.kind.as_str()), Some("none"));
    let logs: Vec<&str> = t
        .vdevs
        .iter()
        .filter(|v| v.section == "logs")
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(logs, vec!["nvd0"]);
    let spares: Vec<&str> = t
        .vdevs
        .iter()
        .filter(|v| v.section == "spares")
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(spares, vec!["da27", "da117"]);

    let t = pools("freebsd/zpool-status/mirror-gpt-labels-online-scrub-ok.txt")
        .into_iter()
        .next()
        .unwrap_or_default();
    assert_eq!(
        t.leaves()
            .iter()
            .map(|v| v.name.as_str())
            .collect::<Vec<_>>(),
        vec!["gpt/ndisk2", "gpt/ndisk1"]
    );

    let t = pools("freebsd/zpool-status/nda0p4-features-not-enabled-with-inline-user-comments.txt")
        .into_iter()
        .next()
        .unwrap_or_default();
    assert_eq!(t.scan, None);
    let nda = t.vdevs.get(1).cloned().unwrap_or_default();
    assert_eq!(
        (nda.name.as_str(), nda.note.clone(), nda.cksum_errors),
        ("nda0p4", None, Some(0)),
        "user comment cut"
    );

    let t = pools("freebsd/zpool-status/resilver-in-progress-replacing-slow-issued-no-eta.txt")
        .into_iter()
        .next()
        .unwrap_or_default();
    let s = t.scan.clone().unwrap_or_default();
    assert_eq!(
        (
            s.kind.as_str(),
            s.in_progress,
            s.percent_done,
            s.remaining.as_deref()
        ),
        (
            "resilver",
            true,
            Some(0.0),
            Some("no estimated completion time")
        )
    );
    assert_eq!(s.issued_bytes_per_sec, Some(27955)); // 27.3K/s
    assert_eq!(
        t.vdevs
            .iter()
            .filter(|v| v.parent.as_deref() == Some("replacing-0"))
            .count(),
        2
    );

    let t = pools("freebsd/zpool-status/resilver-partial-with-cjk-elision-markers.txt")
        .into_iter()
        .next()
        .unwrap_or_default();
    let s = t.scan.clone().unwrap_or_default();
    assert_eq!(
        (t.pool.as_str(), s.percent_done, s.remaining.as_deref()),
        ("", Some(0.43), Some("1 days 02:27:43 to go"))
    );

    let t = pools("freebsd/zpool-status/v-cksum-errors-permanent-errors-file-list.txt")
        .into_iter()
        .next()
        .unwrap_or_default();
    assert_eq!(t.scan.as_ref().and_then(|s| s.errors), Some(1));
    assert_eq!(
        t.vdevs
            .iter()
            .find(|v| v.name == "gpt/ttt")
            .and_then(|v| v.cksum_errors),
        Some(2)
    );
    assert_eq!(t.error_files, vec!["/ztest/dummy".to_string()]);

    let t = pools("freebsd/zpool-status/xigmanas-raidz2-resilver-replacing-offline-2days-eta-truncated-end.txt").into_iter().next().unwrap_or_default();
    let s = t.scan.clone().unwrap_or_default();
    assert_eq!(
        (
            t.pool.as_str(),
            t.state.as_deref(),
            s.percent_done,
            s.remaining.as_deref()
        ),
        (
            "storage",
            Some("DEGRADED"),
            Some(6.33),
            Some("2 days 10:54:20 to go")
        )
    );
    assert_eq!(t.errors, None, "truncated before errors:");
    let off: Vec<(&str, Option<&str>)> = t
        .vdevs
        .iter()
        .filter(|v| v.state.as_deref() == Some("OFFLINE"))
        .map(|v| (v.name.as_str(), v.note.as_deref()))
        .collect();
    assert!(off.contains(&("16730900509885275321", Some("was /dev/gpt/raidz2disk3"))));
    assert_eq!(
        t.vdevs
            .iter()
            .filter(|v| v.parent.as_deref() == Some("raidz2-0"))
            .count(),
        8
    );
}

// ------------------------------------------------------------------ fio

fn fio_rep(rel: &str) -> fio::FioReport {
    fio::parse(&fx(rel)).unwrap_or_default()
}

#[test]
fn fio_text_fixtures() {
    let r = fio_rep("freebsd/fio/fio2.1.9-posixaio-randread-4k-qd32-nvd7-p3700.txt");
    assert_eq!(
        (r.version.as_deref(), r.format),
        (Some("fio-2.1.9"), "text")
    );
    let j = r.jobs.first().cloned().unwrap_or_default();
    assert_eq!(
        (
            j.rw.as_deref(),
            j.block_size_bytes,
            j.ioengine.as_deref(),
            j.iodepth,
            j.numjobs
        ),
        (
            Some("randread"),
            Some(4096),
            Some("posixaio"),
            Some(32),
            Some(4)
        )
    );
    let d = j.direction("read").cloned().unwrap_or_default();
    assert_eq!(
        (d.iops, d.bytes_per_sec, d.clat_mean_us, d.slat_mean_us),
        (
            Some(111855.0),
            Some(447424.0 * 1024.0),
            Some(1043.01),
            Some(10.68)
        )
    );
    assert_eq!(d.runtime_ms, Some(30001));
    assert!(
        d.clat_percentiles_us.contains(&(99.0, 1848.0))
            && d.clat_percentiles_us.contains(&(99.99, 2832.0))
    );
    assert!(r.disk_stats.is_empty());

    let r = fio_rep("freebsd/fio/truenas-core-fio3.28-fdatasync-4k-sata-ssd-zfs-no-disk-stats.txt");
    let j = r.jobs.first().cloned().unwrap_or_default();
    assert_eq!(
        (j.rw.as_deref(), j.block_size_bytes, j.ioengine.as_deref()),
        (Some("write"), Some(4096), Some("sync"))
    );
    let d = j.direction("write").cloned().unwrap_or_default();
    assert_eq!(
        (d.iops, d.bytes_per_sec),
        (Some(2352.0), Some(9410.0 * 1024.0))
    );
    assert!(d.clat_mean_us.is_some_and(|c| (c - 9.08843).abs() < 1e-9)); // 9088.43 nsec
    assert_eq!(j.sync_mean_us, Some(413.80));
    assert!(
        j.sync_percentiles_us.contains(&(99.0, 465.0))
            && j.sync_percentiles_us.contains(&(99.99, 4686.0))
    );
    assert!(r.disk_stats.is_empty());

    let r = fio_rep("linux/fio/truenas-scale-fio3.25-fdatasync-4k-raw-sdl-disk-stats.txt");
    let j = r.jobs.first().cloned().unwrap_or_default();
    let d = j.direction("write").cloned().unwrap_or_default();
    assert_eq!(
        (d.iops, d.bytes_per_sec, d.clat_mean_us),
        (Some(2820.0), Some(11.0 * 1024.0 * 1024.0), Some(5.92))
    );
    assert_eq!(
        (j.sync_mean_us, j.sync_percentiles_us.last().copied()),
        (Some(346.60), Some((99.99, 51643.0)))
    );
    let ds = r.disk_stats.first().cloned().unwrap_or_default();
    assert_eq!(
        (ds.name.as_str(), ds.read_ios, ds.write_ios, ds.util_pct),
        ("sdl", Some(51), Some(10649), Some(95.98))
    );

    let r = fio_rep("linux/fio/fio2.1.11-3groups-16nvme-disk-stats-progress-line.txt");
    let names: Vec<&str> = r.jobs.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, vec!["randread", "randwrite", "randreadwrite7030"]);
    let rr = r
        .jobs
        .first()
        .and_then(|j| j.direction("read"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (rr.iops, rr.bytes_per_sec, rr.clat_mean_us),
        (Some(3_509_500.0), Some(27418.0 * 1048576.0), Some(216.06))
    );
    let rw = r
        .jobs
        .get(1)
        .and_then(|j| j.direction("write"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (rw.iops, rw.bytes_per_sec, rw.clat_mean_us),
        (Some(1_168_100.0), Some(9132.5 * 1048576.0), Some(26.50))
    );
    let mixed = r.jobs.get(2).cloned().unwrap_or_default();
    assert_eq!(
        (
            mixed.direction("read").and_then(|d| d.iops),
            mixed.direction("write").and_then(|d| d.iops)
        ),
        (Some(904009.0), Some(387450.0))
    );
    assert_eq!(r.disk_stats.len(), 16);
    let utils: Vec<f64> = r.disk_stats.iter().filter_map(|d| d.util_pct).collect();
    assert_eq!(utils.len(), 16);
    assert_eq!(utils.iter().copied().fold(f64::MAX, f64::min), 90.61);
    assert_eq!(utils.iter().copied().fold(f64::MIN, f64::max), 91.23);
}

#[test]
fn fio_json_fixtures() {
    let r = fio_rep("linux/fio-json/fio2.1.4-4jobs-duplicate-percentile-keys.txt");
    assert_eq!(
        (r.version.as_deref(), r.format),
        (Some("fio-2.1.4"), "json")
    );
    let got: Vec<(String, String, Option<f64>, Option<f64>)> = r
        .jobs
        .iter()
        .flat_map(|j| {
            j.results.iter().map(move |d| {
                (
                    j.name.clone(),
                    d.dir.clone(),
                    d.iops,
                    d.bytes_per_sec.map(|b| b / 1024.0),
                )
            })
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "sequential_write".into(),
                "write".into(),
                Some(133.0),
                Some(68118.0)
            ),
            (
                "sequential_read".into(),
                "read".into(),
                Some(253.0),
                Some(129836.0)
            ),
            (
                "random_write_test".into(),
                "write".into(),
                Some(1610.0),
                Some(6443.0)
            ),
            (
                "random_read_test".into(),
                "read".into(),
                Some(317.0),
                Some(1269.0)
            ),
            (
                "random_read_test_parallel".into(),
                "read".into(),
                Some(323.0),
                Some(1292.0)
            ),
        ]
    );
    assert!(
        r.jobs
            .iter()
            .flat_map(|j| j.results.iter())
            .all(|d| d.clat_percentiles_us.iter().all(|p| p.0 > 0.0)),
        "duplicate 0.00 keys dropped"
    );
    let du = r.disk_stats.first().cloned().unwrap_or_default();
    assert_eq!((du.name.as_str(), du.util_pct), ("sdb", Some(97.54)));

    let r = fio_rep("linux/fio-json/fio2.17-gce-pd-libaio-hist-log.txt");
    let j = r.jobs.first().cloned().unwrap_or_default();
    assert_eq!(
        (
            j.rw.as_deref(),
            j.block_size_bytes,
            j.ioengine.as_deref(),
            j.iodepth,
            j.numjobs,
            j.direct
        ),
        (
            Some("randread"),
            Some(16384),
            Some("libaio"),
            Some(1),
            Some(2),
            Some(true)
        )
    );
    assert_eq!(
        j.filename.as_deref(),
        Some("/dev/disk/by-id/google-pkb-7fb0c9d8-0-data-0-0")
    );
    let d = j.direction("read").cloned().unwrap_or_default();
    assert_eq!(
        (d.iops, d.bytes_per_sec, d.clat_mean_us),
        (Some(8086.673998), Some(129386.0 * 1024.0), Some(238.357679))
    );
    assert_eq!(d.io_bytes, Some(1_294_256 * 1024));
    let w = r
        .jobs
        .get(1)
        .and_then(|j| j.direction("write"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (w.iops, w.bytes_per_sec, w.clat_mean_us),
        (Some(2457.017193), Some(39312.0 * 1024.0), Some(800.193694))
    );
    assert!(r.disk_stats.is_empty());
}

// ------------------------------------------------------------------ robustness

/// Every fixture in the corpus (all platforms and tools: foreign input is garbage for a
/// parser too).
fn corpus() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        if let Ok(rd) = std::fs::read_dir(dir) {
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|x| x == "txt") {
                    out.push(p);
                }
            }
        }
    }
    let mut paths = Vec::new();
    walk(&root(), &mut paths);
    paths.sort();
    paths
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect()
}

/// Run every parser in this module on `text`; returns how many things they found so the
/// work cannot be optimised away.
fn run_all(text: &str) -> usize {
    let mut n = 0;
    let mut d = DiskFacts::new("sda", "/dev/sda");
    smartctl::apply(&mut d, "k", text);
    n += usize::from(d.smart.is_known());
    n += smartctl::parse(text).map_or(0, |r| r.smart.failing_attributes.len() + 1);
    n += kernel_log::events_for("sda", text, "k").len();
    n += kernel_log::events_for("ada2", text, "k").len();
    n += kernel_log::events_for_port(1, text, "k").len();
    n += kernel_log::all_events(text, "k").len();
    n += dd::parse(text).len();
    n += copy::parse(text).len();
    n += gstat::parse(text).len();
    n += iostat::parse(text).len();
    n += hdparm::parse_identify(text).map_or(0, |r| r.sata_gens.len() + 1);
    n += hdparm::parse_write_cache(text).len();
    n += hdparm::parse_timing(text).len();
    n += lsblk::parse(text).len();
    n += fdisk::parse(text)
        .iter()
        .map(|d| d.partitions.len() + 1)
        .sum::<usize>();
    n += sfdisk::parse_dump(text).len();
    n += cryptsetup::parse(text).len();
    n += dmsetup::parse(text).len();
    n += zpool::parse(text)
        .iter()
        .map(|p| p.vdevs.len() + 1)
        .sum::<usize>();
    n += fio::parse(text).map_or(0, |r| r.jobs.len() + 1);
    n
}

fn quote(text: &str, prefix: &str) -> String {
    text.lines().map(|l| format!("{prefix}{l}\n")).collect()
}

/// Re-wrap at `width` columns the way mail clients do (break at the last space).
fn rewrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    for l in text.lines() {
        let mut cur = String::new();
        for w in l.split(' ') {
            if cur.chars().count() + w.chars().count() + 1 > width && !cur.is_empty() {
                out.push_str(&cur);
                out.push('\n');
                cur.clear();
            }
            if !cur.is_empty() {
                cur.push(' ');
            }
            cur.push_str(w);
        }
        out.push_str(&cur);
        out.push('\n');
    }
    out
}

#[test]
fn every_fixture_quoted_rewrapped_truncated_no_panic() {
    let all = corpus();
    assert!(all.len() >= 135, "corpus has {} files", all.len());
    let mut found = 0;
    for t in &all {
        found += run_all(t);
        if t.len() > 16_384 {
            // Large dmesg/sysctl dumps: whole and quoted only, to keep debug runs short.
            run_all(&quote(t, "> "));
            continue;
        }
        run_all(&quote(t, "> "));
        run_all(&quote(t, ">> "));
        run_all(&rewrap(t, 72));
        run_all(&t.split_whitespace().collect::<Vec<_>>().join(" "));
        let chars: Vec<char> = t.chars().collect();
        for frac in [1, 3, 5, 7, 9] {
            let cut: String = chars.iter().take(chars.len() * frac / 10).collect();
            run_all(&cut);
        }
    }
    assert!(
        found > 1000,
        "parsers found only {found} items in the whole corpus"
    );
    // Quoting keeps results: the HGST smartctl output quoted with "> " still says 8 pending.
    let hgst = fx("freebsd/smartctl/x-hdd-5400rpm-hgst-apple-sata2.6-3gbps-512e-fbsd13.1.txt");
    let mut d = DiskFacts::new("ada0", "/dev/ada0");
    smartctl::apply(&mut d, "k", &quote(&hgst, "> "));
    assert_eq!(d.smart.value().and_then(|s| s.pending_sectors), Some(8));
    let zp = zpool::parse(&quote(
        &fx("linux/zpool-status/4x-mirror-spare-scan-snipped.txt"),
        "> ",
    ));
    assert_eq!(zp.first().map(|p| p.leaves().len()), Some(9));
    let dd_q = dd::parse(&quote(
        &fx("linux/dd/gnu-dd-de-locale-decimal-comma-datensaetze-usb-9.2MBps.txt"),
        ">> ",
    ));
    assert_eq!(dd_q.first().and_then(|b| b.bytes), Some(3_353_227_264));
}

#[test]
fn garbage_and_large_input_bounded() {
    for g in [
        "",
        "\0\0\0",
        "{",
        "[",
        "{\"jobs\": 7}",
        "{\"blockdevices\": [{\"children\": 5}]}",
        "Disk /dev/",
        "/dev/sda1 * 9999999999999999999999 1 1 5",
        "dd if= of= bs=99999999999999999999999G",
        "NAME\n├─",
        "  pool: \nconfig:\n NAME STATE\n x ONLINE 1e999 1 1",
        "x: 0 18446744073709551615 crypt a :99999999999:x 0 8:1 0 9999 a",
        "18446744073709551615 bytes transferred in 0 secs (1 bytes/sec)",
    ] {
        run_all(g);
    }
    // A few MB of mixed fixtures: linear-time parsers finish quickly even in debug builds.
    let big: String = corpus().join("\n");
    let t0 = std::time::Instant::now();
    let n = run_all(&big);
    assert!(n > 0);
    assert!(
        t0.elapsed() < std::time::Duration::from_secs(60),
        "took {:?}",
        t0.elapsed()
    );
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    fn mutate(text: &str, ops: &[(usize, u8, char)], cut: usize) -> String {
        let mut chars: Vec<char> = text.chars().collect();
        for &(pos, kind, c) in ops {
            if chars.is_empty() {
                chars.push(c);
                continue;
            }
            let p = pos % chars.len();
            match kind % 8 {
                0 => {
                    if let Some(x) = chars.get_mut(p) {
                        *x = c;
                    }
                }
                1 => chars.insert(p, c),
                2 => {
                    let end = (p + 40).min(chars.len());
                    chars.drain(p..end);
                }
                3 => {
                    // duplicate a chunk (interleaving)
                    let end = (p + 200).min(chars.len());
                    let chunk: Vec<char> =
                        chars.get(p..end).map(|s| s.to_vec()).unwrap_or_default();
                    let at = (p * 7) % chars.len();
                    for (k, ch) in chunk.into_iter().enumerate() {
                        chars.insert(at + k, ch);
                    }
                }
                4 => chars.insert(p, '\n'),
                // Numbers at the type boundaries a parser might multiply or narrow (issue 14):
                // u32::MAX + 1 and u64::MAX, each replacing the digit run at `p`.
                5 | 6 => {
                    let n = if kind % 8 == 5 {
                        "4294967296"
                    } else {
                        "18446744073709551615"
                    };
                    let mut a = p;
                    while a > 0 && chars.get(a - 1).is_some_and(|c| c.is_ascii_digit()) {
                        a -= 1;
                    }
                    let mut b = p;
                    while chars.get(b).is_some_and(|c| c.is_ascii_digit()) {
                        b += 1;
                    }
                    chars.splice(a..b, n.chars());
                }
                _ => {
                    for d in "999999999999999999999".chars().rev() {
                        chars.insert(p, d);
                    }
                }
            }
        }
        let keep = if chars.is_empty() {
            0
        } else {
            cut % (chars.len() + 1)
        };
        chars.into_iter().take(keep.max(1)).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]
        #[test]
        fn mutated_fixtures_do_not_panic(
            a in 0usize..1000,
            b in 0usize..1000,
            ops in proptest::collection::vec((0usize..200_000, 0u8..8, proptest::char::any()), 0..24),
            cut in 0usize..200_000,
            interleave in proptest::bool::ANY,
        ) {
            static SMALL: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
            // Fixtures up to 16 KB keep each case fast in debug builds; the large ones run
            // whole in the deterministic tests above.
            let all = SMALL.get_or_init(|| corpus().into_iter().filter(|t| t.len() <= 16_384).collect());
            prop_assume!(!all.is_empty());
            let ta = all.get(a % all.len()).cloned().unwrap_or_default();
            let text = if interleave {
                let tb = all.get(b % all.len()).cloned().unwrap_or_default();
                ta.lines().zip(tb.lines()).flat_map(|(x, y)| [x, y]).collect::<Vec<_>>().join("\n")
            } else {
                ta
            };
            let m = mutate(&text, &ops, cut);
            run_all(&m);
            run_all(&quote(&m, "> "));
        }
    }
}

#[test]
fn iostat_rewrapped_rows_seed_001_cp() {
    // Seed 001's cp run: rows wrapped after the "sy" column; ad4 and ad6 at ~128 KB/t,
    // ~40 MB/s each (the cp-vs-dd gap: dd bs=128k reached ~70 MB/s).
    let v = iostat::parse(&fx("seeds/001_eac254f2f3e74ed5.txt"));
    let cp: Vec<&iostat::IostatSample> = v
        .iter()
        .filter(|s| {
            s.device == "ad6" && s.kb_per_transfer == Some(127.66) && s.mb_per_sec == Some(40.99)
        })
        .collect();
    assert_eq!(cp.len(), 1);
    let report = cp.first().map(|s| s.report).unwrap_or(0);
    let ad4 = v
        .iter()
        .find(|s| s.device == "ad4" && s.report == report && s.mb_per_sec == Some(40.99));
    assert!(ad4.is_some());
    let later = v
        .iter()
        .filter(|s| s.device == "ad6" && s.mb_per_sec == Some(38.85))
        .count();
    assert_eq!(later, 1, "the last wrapped row is parsed too");
}

#[test]
fn copy_commands_seeds() {
    // Seed 001: the cp of a 6.1 GB qemu image from ad4 to ad6 (compared with dd bs=128k).
    let v = copy::parse(&fx("seeds/001_eac254f2f3e74ed5.txt"));
    let cp: Vec<&diskdoc_core::facts::UserBenchmark> =
        v.iter().filter(|b| b.tool == "cp").collect();
    assert_eq!(cp.len(), 1);
    let b = cp.first().copied().cloned().unwrap_or_default();
    assert_eq!(
        (b.input.as_deref(), b.output.as_deref()),
        (Some("qemu/c.img"), Some("/mnt/ext/s1/qemu/c.img.test"))
    );
    assert_eq!(b.from, "line 504");
    // Prose mentioning cp is not a command.
    assert!(copy::parse(&fx("seeds/003_4a1b8569ab81058e.txt")).is_empty());
}

#[test]
fn smartctl_sata_phy_event_counters() {
    let s = smart("freebsd/smartctl/x-hdd-5400rpm-hgst-apple-sata2.6-3gbps-512e-fbsd13.1.txt")
        .smart
        .value()
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (s.sata_phy_crc_errors, s.sata_phy_r_errors),
        (Some(0), Some(0))
    );
    // -a output has no Phy log.
    let s = smart("linux/smartctl/a-sata-hdd-7200-ubuntu20.04-sdau.txt")
        .smart
        .value()
        .cloned()
        .unwrap_or_default();
    assert_eq!(s.sata_phy_crc_errors, None);
    let mut d = DiskFacts::new("sda", "/dev/sda");
    smartctl::apply(
        &mut d,
        "k",
        "smartctl 7.3\nSMART overall-health self-assessment test result: PASSED\nSATA Phy Event Counters (GP Log 0x11)\nID      Size     Value  Description\n0x0001  2           12  Command failed due to ICRC error\n0x0002  2            3  R_ERR response for data FIS\n0x000b  2            4  CRC errors within host-to-device FIS\n\n",
    );
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(
        (s.sata_phy_crc_errors, s.sata_phy_r_errors),
        (Some(16), Some(3))
    );
}

#[test]
fn hdparm_apply_identify_fills_unknowns() {
    let mut d = DiskFacts::new("sdl", "/dev/sdl");
    assert!(hdparm::apply_identify(
        &mut d,
        "cmd:hdparm -I /dev/sdl",
        &fx("linux/hdparm-I/truenas-scale-tesla-2tb-sata-ssd-dram-less.txt")
    ));
    assert_eq!(d.model.value().map(String::as_str), Some("TESLA"));
    assert_eq!(
        (d.ncq_supported.get(), d.ncq_drive_depth.get()),
        (Some(true), Some(32))
    );
    assert_eq!(
        (
            d.write_cache_enabled.get(),
            d.trim_supported.get(),
            d.link_drive_max_gbps.get()
        ),
        (Some(true), Some(true), Some(6.0))
    );
    assert_eq!(d.size_bytes.get(), Some(3_907_029_168 * 512));
    assert_eq!(d.rotational.get(), Some(false));
    assert_eq!(
        d.write_cache_enabled.sources(),
        ["cmd:hdparm -I /dev/sdl".to_string()]
    );
    assert!(!hdparm::apply_identify(&mut d, "k", "nothing here"));
}

#[test]
fn json_outputs_quoted_or_with_echoed_command() {
    let j = fx("linux/smartctl-json/a-wd140edfz-5400-512e-flatcar.txt");
    let mut d = DiskFacts::new("sdb", "/dev/sdb");
    smartctl::apply(
        &mut d,
        "k",
        &format!("# smartctl -j -a /dev/sdb\n{}\n$ ", quote(&j, "> ")),
    );
    assert_eq!(d.rotation_rpm.get(), Some(5400));
    assert_eq!(d.smart.value().and_then(|s| s.power_on_hours), Some(1730));
    let l = lsblk::parse(&quote(
        &fx("linux/lsblk-J/o-cols-regenerated-sata-ssd-ide-hdd-nvme.txt"),
        "> ",
    ));
    assert_eq!(find(&l, "sdb").rotational, Some(true));
    let f = fio::parse(&format!(
        "$ fio --output-format=json job.fio\n{}",
        fx("linux/fio-json/fio2.17-gce-pd-libaio-hist-log.txt")
    ))
    .unwrap_or_default();
    assert_eq!((f.format, f.jobs.len()), ("json", 2));
}

#[test]
fn lsblk_apply_and_smr_family() {
    let v = lsblk::parse(&fx(
        "linux/lsblk-J/O-regenerated-sata-ssd-ide-hdd-nvme-util-linux-dump.txt",
    ));
    let mut d = DiskFacts::new("sdb", "/dev/sdb");
    assert!(lsblk::apply(&mut d, "cmd:lsblk -J -O", &v));
    assert_eq!(
        (d.rotational.get(), d.scheduler.value().map(String::as_str)),
        (Some(true), Some("cfq"))
    );
    assert!(
        !d.size_bytes.is_known(),
        "74.5G is rounded: not used as an exact size"
    );
    let mut n = DiskFacts::new("nvme0n1", "/dev/nvme0n1");
    assert!(lsblk::apply(&mut n, "k", &v));
    assert_eq!(
        n.transport.get(),
        Some(diskdoc_core::facts::Transport::Nvme)
    );
    assert!(!lsblk::apply(
        &mut DiskFacts::new("sdz", "/dev/sdz"),
        "k",
        &v
    ));
    let s = smart("freebsd/smartctl/x-hdd-seagate-barracuda-st2000dm008-smr-fbsd14.txt")
        .smart
        .value()
        .cloned()
        .unwrap_or_default();
    assert!(
        s.model_family
            .as_deref()
            .is_some_and(smartctl::family_is_smr)
    );
}

/// Issue 17: `hdparm -B` as captured in the QEMU lab (tests/fixtures/INDEX.md): QEMU's IDE
/// drive has no APM, and the real hdparm says so in the line diskdoc parses.
#[test]
fn hdparm_b_from_the_lab_guest() {
    use diskdoc_core::sources::hdparm::{Apm, apm};
    let t = fx("lab-captures/hdparm-B-qemu-ide-hd-on-ahci-not-supported.txt");
    assert_eq!(apm(&t), Some(Apm::NotSupported));
}
