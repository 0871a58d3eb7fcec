use super::{line, parse};

#[test]
fn both_unit_spellings_are_read() {
    // hypriot/flash#190: pv before and after 1.8's space between number and unit.
    let b = line("1.27GiB 0:00:00 [2.28GiB/s] [=====================>] 100%            ");
    let b = b.as_ref();
    assert_eq!(
        b.and_then(|b| b.bytes),
        Some((1.27 * 1024f64.powi(3)) as u64)
    );
    assert_eq!(b.and_then(|b| b.seconds), Some(0.0));
    assert!(
        b.and_then(|b| b.bytes_per_sec)
            .is_some_and(|r| (r - 2.28 * 1024f64.powi(3)).abs() < 1.0)
    );
    assert_eq!(b.map(|b| b.flags.clone()), Some(vec!["100%".to_string()]));
    let b = line("152 MiB 0:00:12 [12.3 MiB/s] [=>     ] 11% ETA 0:01:33");
    assert_eq!(b.as_ref().and_then(|b| b.seconds), Some(12.0));
    assert_eq!(
        b.and_then(|b| b.flags.first().cloned()).as_deref(),
        Some("11%")
    );
    // Only the rate and the size, no bar (pv -btr).
    assert_eq!(parse("1.00GiB 0:00:10 [ 100MiB/s]\n").len(), 1);
}

#[test]
fn other_lines_with_sizes_are_not_pv() {
    // Near misses: rsync's progress, a du line, a timestamped log line.
    assert!(line("  1,234,567  45%  12.34MB/s    0:00:10").is_none());
    assert!(line("1.2G\t/var/lib").is_none());
    assert!(line("12:00:01 [kernel] sda: 3.2 GiB").is_none());
}
