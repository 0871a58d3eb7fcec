use super::parse;

#[test]
fn a_copy_and_a_read_with_their_rates() {
    // mborgerson/fatx#63: mv onto a FATX partition, cat of a game file from it.
    let t = "[671837] mv Xbox Game (USA)/Xbox Game (USA).cci\n\
             \t61.7% (734.8 MiB / 1.2 GiB) 4.1 MiB/s remaining 0:01:50 \n\n\
             [709219] cat /mnt/Xbox_F/Games/Xbox Game (GLO)/Xbox Game (GLO).1.cci\n\
             \t35.4% (1.4 GiB / 4.0 GiB) 127.9 MiB/s remaining 0:00:20  \n";
    let runs = parse(t);
    assert_eq!(runs.len(), 2);
    let rate = |i: usize| runs.get(i).and_then(|r| r.bytes_per_sec).unwrap_or(0.0);
    assert!((rate(0) - 4.1 * 1048576.0).abs() < 1.0);
    assert!((rate(1) - 127.9 * 1048576.0).abs() < 1.0);
    assert_eq!(
        runs.first().map(|r| r.flags.clone()),
        Some(vec!["rw=write".to_string()])
    );
    assert_eq!(
        runs.get(1).map(|r| r.flags.clone()),
        Some(vec!["rw=read".to_string()])
    );
}

#[test]
fn without_w_there_is_no_rate_and_unknown_programs_no_direction() {
    // progress without -w prints no throughput; gzip is neither a copy nor a plain read.
    let runs = parse("[ 4242] gzip /srv/dump.sql\n\t12.0% (1.2 GiB / 10.0 GiB)\n");
    let r = runs.first();
    assert!(r.is_some_and(|r| r.bytes_per_sec.is_none() && r.flags.is_empty()));
    // Near miss: a status line with no header above it is not progress's.
    assert!(parse("\t35.4% (1.4 GiB / 4.0 GiB) 127.9 MiB/s\n").is_empty());
}
