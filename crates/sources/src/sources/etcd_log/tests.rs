use super::*;

#[test]
fn durations() {
    assert_eq!(duration_s("1s"), Some(1.0));
    assert!((duration_s("680.988822ms").unwrap_or(0.0) - 0.680988822).abs() < 1e-9);
    assert_eq!(duration_s("1m2.5s"), Some(62.5));
    assert!((duration_s("950µs").unwrap_or(0.0) - 0.00095).abs() < 1e-12);
    assert_eq!(duration_s("7.4x"), None);
    assert_eq!(duration_s(""), None);
}

#[test]
fn zap_and_capnslog_lines() {
    let zap = r#"Jan 25 06:42:36 dev-ln01 k3s[2189071]: {"level":"warn","ts":"2021-01-25T06:42:36.000+0100","caller":"wal/wal.go:806","msg":"slow fdatasync","took":"7.454439372s","expected-duration":"1s"}"#;
    let s = slow(zap).expect("zap fdatasync");
    assert_eq!(s.wait, Wait::Fsync);
    assert!((s.took_s - 7.454439372).abs() < 1e-9);
    assert_eq!(s.expected_s, 1.0);
    let apply = r#"{"level":"warn","caller":"etcdserver/util.go:163","msg":"apply request took too long","took":"680.988822ms","expected-duration":"100ms","prefix":""}"#;
    let a = slow(apply).expect("apply");
    assert_eq!(a.wait, Wait::Request);
    assert!((a.expected_s - 0.1).abs() < 1e-12);
    let old = "2019-03-01 10:00:00.123456 W | wal: sync duration of 2.381s, expected less than 1s";
    let o = slow(old).expect("capnslog");
    assert_eq!((o.wait, o.took_s, o.expected_s), (Wait::Fsync, 2.381, 1.0));
    let old_apply = "etcdserver: apply entries took too long [1.52s for 1 entries]";
    assert_eq!(slow(old_apply).map(|s| s.took_s), Some(1.52));
    assert_eq!(parse(&format!("{zap}\n{apply}\nnoise\n")).len(), 2);
}

#[test]
fn near_misses() {
    // The WAL metric's name, a heartbeat warning and an fdatasync without a duration.
    assert!(slow("etcd_disk_wal_fsync_duration_seconds_bucket{le=\"1\"} 5").is_none());
    assert!(slow(r#"{"msg":"leader failed to send out heartbeat on time; took too long, leader is overloaded likely from slow disk"}"#).is_none());
    assert!(slow(r#"{"msg":"slow fdatasync"}"#).is_none());
    assert!(slow("we saw slow fdatasync in the logs").is_none());
}
