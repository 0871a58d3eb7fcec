use super::*;

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-6)
}

#[test]
fn requests_and_summary_of_ioping_1x() {
    // ioping 1.x as people paste it: "4 KiB <<< PATH (FS DEVICE SIZE): request=N time=T".
    let t = "4 KiB <<< . (ext4 /dev/dm-0 107.8 GiB): request=1 time=282.6 us (warmup)\n\
                 4 KiB <<< . (ext4 /dev/dm-0 107.8 GiB): request=2 time=855.6 us\n\
                 4 KiB <<< . (ext4 /dev/dm-0 107.8 GiB): request=3 time=1.21 ms (slow)\n\
                 \n\
                 --- . (ext4 /dev/dm-0 107.8 GiB) ioping statistics ---\n\
                 2 requests completed in 2.07 ms, 8 KiB read, 967 iops, 3.78 MiB/s\n\
                 generated 3 requests in 2.00 s, 12 KiB, 1 iops, 6.00 KiB/s\n\
                 min/avg/max/mdev = 855.6 us / 1.03 ms / 1.21 ms / 177.2 us\n";
    let v = parse(t);
    assert_eq!(v.len(), 1, "{v:?}");
    let r = &v[0];
    assert_eq!(r.latencies_us.len(), 2);
    assert!(close(r.latencies_us.get(1).copied(), 1210.0));
    assert!(close(r.min_us, 855.6));
    assert!(close(r.avg_us, 1030.0));
    assert!(close(r.max_us, 1210.0));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert_eq!(SPEC.parse.map(|p| p(t)), Some(6));
}

#[test]
fn old_format_summary_only_and_writes() {
    // ioping 0.8: "4096 bytes from", one unit after min/avg/max/mdev.
    let t = "4096 bytes from . (ext4 /dev/sda3): request=1 time=0.2 ms\n\
                 ^C\n\
                 --- . (ext4 /dev/sda3) ioping statistics ---\n\
                 5 requests completed in 4794.0 ms, 364 iops, 1.4 MiB/s\n\
                 min/avg/max/mdev = 0.2/2.8/12.7/5.0 ms\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert!(close(v[0].avg_us, 2800.0));
    assert!(close(v[0].max_us, 12700.0));
    // `ioping -R`: the summary alone, twice (two runs), thousands as "k".
    let t = "--- /dev/sdf (block device 1.75 TiB) ioping statistics ---\n\
                 70.7 k requests completed in 2.97 s, 276.3 MiB read, 23.8 k iops, 93.1 MiB/s\n\
                 min/avg/max/mdev = 33.1 us / 41.9 us / 87.9 ms / 452.6 us\n\
                 --- /dev/sdf (block device 1.75 TiB) ioping statistics ---\n\
                 min/avg/max/mdev = 33.2 us / 36.8 us / 89.2 us / 2.00 us\n";
    let v = parse(t);
    assert_eq!(v.len(), 2, "{v:?}");
    assert!(close(v[0].max_us, 87900.0));
    assert!(close(v[1].avg_us, 36.8));
    // A write run: ">>>".
    let w = parse("512 B >>> /dev/nvme0n1 (block device 894.3 GiB): request=2 time=678.8 us\n");
    assert!(close(w[0].latencies_us.first().copied(), 678.8));
}

#[test]
fn ping_and_prose_are_not_ioping() {
    // ping(8)'s summary has the same min/avg/max/mdev words but "rtt" and one unit.
    let t = "--- 8.8.8.8 ping statistics ---\n\
                 4 packets transmitted, 4 received, 0% packet loss, time 3004ms\n\
                 rtt min/avg/max/mdev = 6.46/8.06/12.92/2.10 ms\n";
    assert!(parse(t).is_empty());
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::No);
    let p = ["I ran ioping and got request=1 time=0.2 ms, is that ok?"];
    assert_eq!(start(&p), spec::Start::No);
}
