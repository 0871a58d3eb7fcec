use super::*;

#[test]
fn a_wal_fsync_histogram_and_its_tail() {
    let t = "# HELP etcd_disk_wal_fsync_duration_seconds The latency distributions of fsync called by WAL.\n\
             # TYPE etcd_disk_wal_fsync_duration_seconds histogram\n\
             etcd_disk_wal_fsync_duration_seconds_bucket{le=\"0.001\"} 0\n\
             etcd_disk_wal_fsync_duration_seconds_bucket{le=\"0.008\"} 10\n\
             etcd_disk_wal_fsync_duration_seconds_bucket{le=\"0.016\"} 529\n\
             etcd_disk_wal_fsync_duration_seconds_bucket{le=\"0.064\"} 2.7211701e+07\n\
             etcd_disk_wal_fsync_duration_seconds_bucket{le=\"0.256\"} 3.541656e+07\n\
             etcd_disk_wal_fsync_duration_seconds_bucket{le=\"1.024\"} 3.5748624e+07\n\
             etcd_disk_wal_fsync_duration_seconds_bucket{le=\"+Inf\"} 3.5752512e+07\n\
             etcd_disk_wal_fsync_duration_seconds_sum 1.5e+06\n\
             etcd_disk_wal_fsync_duration_seconds_count 3.5752512e+07\n";
    let h = parse(t);
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].buckets.len(), 7);
    assert_eq!(h[0].quantile_bound(0.99), Some(0.256));
    assert_eq!(p99_limit(&h[0].name), Some(0.010));
    assert!((h[0].above(1.024) - 3888.0).abs() < 0.5);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert_eq!(start(&lines[2..]), spec::Start::Yes);
    // A healthy disk: 99 % within 4 ms.
    let ok = "etcd_disk_backend_commit_duration_seconds_bucket{le=\"0.002\"} 900\n\
              etcd_disk_backend_commit_duration_seconds_bucket{le=\"0.004\"} 995\n\
              etcd_disk_backend_commit_duration_seconds_bucket{le=\"+Inf\"} 1000\n";
    let h = parse(ok);
    assert_eq!(h[0].quantile_bound(0.99), Some(0.004));
}

#[test]
fn near_misses_are_not_etcd_histograms() {
    // Another exporter's histogram, and one etcd bucket line alone in prose.
    let other = "node_disk_io_time_seconds_bucket{le=\"0.001\"} 3\n\
                 node_disk_io_time_seconds_bucket{le=\"0.002\"} 5\n";
    assert!(parse(other).is_empty());
    let lines: Vec<&str> = other.lines().collect();
    assert_eq!(start(&lines), spec::Start::No);
    assert_eq!(
        start(&[
            "etcd_disk_wal_fsync_duration_seconds_bucket{le=\"0.001\"} 0",
            "was all I saw"
        ]),
        spec::Start::No
    );
}
