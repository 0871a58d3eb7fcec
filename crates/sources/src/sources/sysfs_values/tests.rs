use super::*;

#[test]
fn every_printed_form() {
    // Forms of grep(1) and of scripts, NOT A CAPTURE; tests/it reads a real post.
    let t = "/sys/block/sda/device/queue_depth:31\n\
                 current value of /sys/block/sdc/device/queue_depth is 1\n\
                 /sys/block/nvme0n1/queue/scheduler = [none] mq-deadline\n\
                 /sys/block/sdd/queue/write_cache is write through.\n\
                 RUN echo 1 > /sys/block/sde/device/queue_depth\n\
                 your current value for readahead is 256\n";
    let v = parse(t);
    let got: Vec<(&str, &str, &str)> = v
        .iter()
        .map(|s| (s.disk.as_str(), s.attr.as_str(), s.value.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("sda", "device/queue_depth", "31"),
            ("sdc", "device/queue_depth", "1"),
            ("nvme0n1", "queue/scheduler", "[none] mq-deadline"),
            ("sdd", "queue/write_cache", "write through"),
        ]
    );
    assert!(member("RUN echo 1 > /sys/block/sde/device/queue_depth"));
    assert!(parse("echo 64 > /sys/block/sdb/queue/max_sectors_kb\n").is_empty());
}
