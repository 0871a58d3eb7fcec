use super::*;

#[test]
fn counters_per_device() {
    let t = "[/dev/sdb3].write_io_errs    0\n[/dev/sdb3].read_io_errs     0\n\
                 [/dev/sdb3].flush_io_errs    0\n[/dev/sdb3].corruption_errs  0\n\
                 [/dev/sdb3].generation_errs  0\n> [/dev/mapper/luks-1].write_io_errs   12\n\
                 > [/dev/mapper/luks-1].read_io_errs    3\n";
    let v = parse(t);
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].device, "/dev/sdb3");
    assert_eq!(v[0].read_io_errs, Some(0));
    assert_eq!(v[0].generation_errs, Some(0));
    assert_eq!((v[1].write_io_errs, v[1].read_io_errs), (Some(12), Some(3)));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    assert!(parse("[x].y 1\n[/dev/sda].read_io_errs many\n").is_empty());
}

/// `btrfs device stats -T` (btrfs-progs 5.x-6.x): one row per device under the header.
#[test]
fn table_form() {
    let t = "Id Path      Write errors Read errors Flush errors Corruption errors Generation errors\n\
                 -- --------- ------------ ----------- ------------ ----------------- -----------------\n\
                 \x20 1 /dev/sdc1            0           0            0                 0                 0\n\
                 \x20 2 /dev/sdb1           25          24           23                22                21\n";
    let v = parse(t);
    assert_eq!(v.len(), 2, "{v:?}");
    assert_eq!(v[1].device, "/dev/sdb1");
    assert_eq!(
        (v[1].write_io_errs, v[1].read_io_errs, v[1].flush_io_errs),
        (Some(25), Some(24), Some(23))
    );
    assert_eq!(
        (v[1].corruption_errs, v[1].generation_errs),
        (Some(22), Some(21))
    );
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(start(&lines), spec::Start::Yes);
    // Near misses: a row with a column missing, a row whose path is no device, and
    // another tool's table header.
    assert!(parse(" 2 /dev/sdb1 25 24 23 22\n 3 sdb1 1 1 1 1 1\n").is_empty());
    assert!(!is_table_header("Id Path Size Used"));
}

#[test]
fn the_model_knows_btrfs_counters_by_this_spec_id() {
    // model::VdevErrors::is_btrfs spells the id (the model cannot import sources).
    let v = crate::model::VdevErrors {
        from: format!("pasted:{} lines 2-11", SPEC.id),
        ..Default::default()
    };
    assert!(v.is_btrfs());
    let z = crate::model::VdevErrors {
        from: "pasted:zpool-status lines 1-9".into(),
        ..Default::default()
    };
    assert!(!z.is_btrfs());
}

/// The kernel's print of the counters (fs/btrfs/volumes.c btrfs_dev_stat_print_on_error),
/// with and without the 6.x state word; the last print of a device holds its totals; a
/// clean print parses to zeros (the facts skip it), and other BTRFS lines are no counters.
#[test]
fn kernel_print_of_the_counters() {
    let log = "[  12.5] BTRFS error (device dm-3): bdev /dev/mapper/data errs: wr 4, rd 0, flush 1, corrupt 0, gen 0\n\
               [  12.6] BTRFS error (device dm-3): bdev /dev/mapper/data errs: wr 5, rd 0, flush 1, corrupt 0, gen 0\n\
               [  13.0] BTRFS warning (device nvme1n1p2 state EA): bdev /dev/nvme1n1p2 errs: wr 0, rd 7, flush 0, corrupt 2, gen 0\n\
               [  14.0] BTRFS info (device sdc): bdev /dev/sdc errs: wr 0, rd 0, flush 0, corrupt 0, gen 0\n\
               [  15.0] BTRFS info (device sdc): disk space caching is enabled\n";
    let v = printk_stats(log);
    assert_eq!(v.len(), 3, "{v:?}");
    assert_eq!(v[0].device, "/dev/mapper/data");
    assert_eq!((v[0].write_io_errs, v[0].flush_io_errs), (Some(5), Some(1)));
    assert_eq!(v[1].device, "/dev/nvme1n1p2");
    assert_eq!(
        (v[1].read_io_errs, v[1].corruption_errs),
        (Some(7), Some(2))
    );
    assert_eq!(v[2].read_io_errs, Some(0));
    assert!(printk_stats("BTRFS error (device sda): bdev /dev/sda errs: wr x, rd 0\n").is_empty());
}
