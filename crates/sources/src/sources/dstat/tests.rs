use super::*;

#[test]
fn disk_columns_and_rows() {
    let t = "----system---- --dsk/sda-----dsk/sda1-- sda--sda1-\n\
                 \x20    time     | read  writ: read  writ|svct:svct\n\
                 14-10 18:44:24|  38k 3442k:  38k 3442k|0.15:0.16\n\
                 14-10 18:44:25|   0  5744k:   0  5744k|0.09:0.09\n";
    let v = parse(t).expect("table");
    assert_eq!(
        v.groups,
        vec!["system", "dsk/sda", "dsk/sda1", "sda", "sda1"]
    );
    assert_eq!(v.columns.first().map(String::as_str), Some("time"));
    assert_eq!(v.rows.len(), 2);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!((RECOGNISER.starts[0].1)(&lines), spec::Start::Yes);
    // Another plugin set, mail-quoted.
    let t = "> ----total-cpu-usage---- -dsk/total-\n> usr sys idl wai stl| read  writ\n\
                 >   2   1  96   1   0| 120k  2M\n";
    assert_eq!(parse(t).map(|v| v.rows.len()), Some(1));
    assert!(parse("a|b\n1|2\n").is_none());
}
