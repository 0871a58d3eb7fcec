use super::*;

fn fixture(name: &str) -> String {
    let p = format!(
        "{}/../../tests/fixtures/freebsd/gstat/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn row<'a>(rows: &'a [GstatRow], name: &str) -> &'a GstatRow {
    rows.iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no row {name} in {rows:?}"))
}

#[test]
fn screen_rows_with_bar() {
    let rows = parse(&fixture("xigmanas-resilver-ada-busy-over-100pct.txt"));
    let a = row(&rows, "ada0");
    assert_eq!(a.busy_pct, Some(111.8));
    assert_eq!(a.queue_len, Some(10.0));
    assert_eq!(a.read_kbps, Some(36079.0));
    assert_eq!(a.interval_secs, Some(0.057));
    assert_eq!(row(&rows, "gpt/raidz2disk2").busy_pct, Some(111.8));
}

#[test]
fn batch_rows_without_bar() {
    // gstat -b -p: "%6.1lf" busy, then " " instead of "|", then " %s" (gstat.c).
    let rows = parse(&fixture("printf-fbsd14-b-p-batch-ada0-busy.txt"));
    assert_eq!(rows.len(), 4, "{rows:?}");
    let a = row(&rows, "ada0");
    assert_eq!(a.busy_pct, Some(99.6));
    assert_eq!(a.queue_len, Some(12.0));
    assert_eq!(a.reads_per_sec, Some(402.0));
    assert_eq!(a.ms_per_read, Some(28.4));
    assert_eq!(a.write_kbps, Some(208.0));
    assert_eq!(row(&rows, "ada1").ms_per_write, Some(0.412));
    assert!(a.is_whole_disk());
}

#[test]
fn indented_quoted_and_extra_columns() {
    // -s adds "kB" after r/s and w/s, -d the delete columns, -o the other ones; a mail
    // quote and indentation are dropped.
    let t = "> dT: 1.001s  w: 1.000s\n>  L(q)  ops/s    r/s     kB   kBps   ms/r    w/s     kB   kBps   ms/w    d/s   kBps   ms/d    o/s   ms/o   %busy Name\n>     3    120    100    128  12800    9.5     20     16    320    1.2      0      0  0.000      0  0.000   88.0  da3\n";
    let rows = parse(t);
    let r = row(&rows, "da3");
    assert_eq!(r.read_kbps, Some(12800.0));
    assert_eq!(r.write_kbps, Some(320.0));
    assert_eq!(r.busy_pct, Some(88.0));
    assert_eq!(r.interval_secs, Some(1.001));
}

#[test]
fn csv_rows() {
    let rows = parse(&fixture("printf-fbsd14-C-csv-ada0-busy.txt"));
    assert_eq!(rows.len(), 3);
    let a = row(&rows, "ada0");
    assert_eq!(a.busy_pct, Some(97.1));
    assert_eq!(a.queue_len, Some(9.0));
    assert_eq!(a.read_kbps, Some(47402.0));
}

#[test]
fn rows_that_do_not_fit_the_header_are_skipped() {
    // gstat-rs -pdos names columns "kB/s r": 20 header words for 19 numbers.
    let t = "L(q)  ops/s    r/s kB/r kB/s r   ms/r    w/s kB/w kB/s w   ms/w   d/s kB/d kB/s d   ms/d    o/s   ms/o  %busy Name\n   0    174     52  500   7946    0.5    122  215  18148    0.5     0    0      0    0.0      0    0.7    2.1 nda0\n";
    assert!(parse(t).is_empty());
    // "*" rows and junk.
    assert!(parse("dT: 1.000s  w: 1.000s\n L(q)  ops/s   %busy Name\n*\nx y z\n").is_empty());
}

#[test]
fn recogniser_takes_batch_and_csv_rows() {
    for l in [
        "   12    415    402  51322   28.4     13    208   12.1   99.6  ada0",
        "    0      0      0      0    0.0      0      0    0.0    0.0| gpt/raidz2disk2",
        "2024-03-03 10:00:01.004217653,ada0,9,388,371,47402,24.9,17,272,8.3,97.1",
        "*",
    ] {
        assert!(GSTAT_ROW.is_match(l), "{l}");
    }
    assert!(GSTAT_START.is_match("timestamp,name,q-depth,total_ops/s,read/s"));
}
