use super::*;

#[test]
fn the_results_table_shows_each_rates_interval_and_why_it_stopped() {
    let r = |label: &str, ci: Option<f64>, stop: StopReason| BenchResult {
        test: TestName::RandRead,
        disk: "zram1".into(),
        label: label.into(),
        block_size_bytes: 4096,
        queue_depth: 1,
        bytes_per_sec: 4e8,
        iops: 1e5,
        spread_pct: Some(9.0),
        ci95_pct: ci,
        stop_reason: stop,
        ..Default::default()
    };
    let table = |rs: &[BenchResult]| {
        let mut out = Vec::new();
        tests(rs, &mut out);
        out.into_iter()
            .find_map(|b| match b {
                Block::Table { headers, rows } => Some((headers, rows)),
                _ => None,
            })
            .unwrap()
    };
    let (h, rows) = table(&[
        r("qd1", Some(2.94), StopReason::Stable),
        r("qd32", Some(4.06), StopReason::Budget),
    ]);
    assert_eq!(h.last().map(String::as_str), Some("+-95%"));
    assert_eq!(rows[0].last().map(String::as_str), Some("2.9%"));
    assert_eq!(rows[1].last().map(String::as_str), Some("4.1% budget"));
    // A report written before the interval existed keeps its spread column.
    let (h, rows) = table(&[r("qd1", None, StopReason::Stable)]);
    assert_eq!(h.last().map(String::as_str), Some("spread"));
    assert_eq!(rows[0].last().map(String::as_str), Some("9%"));
}

#[test]
fn utc_dates() {
    assert_eq!(utc(0), "1970-01-01 00:00 UTC");
    // 2026-11-30 07:43 UTC
    assert_eq!(utc(1_796_024_580), "2026-11-30 07:43 UTC");
    assert_eq!(utc(951_782_400), "2000-02-29 00:00 UTC");
}

#[test]
fn pcie_and_nvme_lines() {
    let l = crate::facts::PcieLink {
        address: "0000:01:00.0".into(),
        current_gts: Some(2.5),
        current_width: Some(1),
        max_gts: Some(8.0),
        max_width: Some(4),
        ..Default::default()
    };
    assert_eq!(
        super::pcie_line(&l),
        "0000:01:00.0: 2.5 GT/s x1 now, 8 GT/s x4 max"
    );
    let h = crate::facts::NvmeHealth {
        critical_warning: Some(9),
        available_spare: Some(0),
        spare_threshold: Some(5),
        ..Default::default()
    };
    assert_eq!(
        super::nvme_health_line(&h),
        "critical warning 0x09, spare 0% (threshold 5%)"
    );
}

#[test]
fn nvme_temperature_against_thresholds() {
    let mut h = crate::facts::NvmeHealth::default();
    assert_eq!(super::nvme_temperature_line(&h), None);
    h.temperature_c = Some(50);
    assert_eq!(
        super::nvme_temperature_line(&h).as_deref(),
        Some("50 C (the drive states no thresholds)")
    );
    h.warning_temp_c = Some(70);
    h.critical_temp_c = Some(80);
    h.warning_temp_minutes = Some(7);
    h.critical_temp_minutes = Some(u64::MAX);
    assert_eq!(
        super::nvme_temperature_line(&h).as_deref(),
        Some(&*format!(
            "50 C (warning at 70 C, critical at 80 C), {} min above them so far",
            u64::MAX
        ))
    );
}
