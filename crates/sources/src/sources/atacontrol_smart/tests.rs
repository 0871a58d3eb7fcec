use super::*;

#[test]
fn raw_bytes_are_little_endian() {
    let t = "ID# Attribute Name Curr Worst Thrsh Bytes\n--- ------------------------- ----- ----- ----- -----------------\n\
                 5 Reallocated Sector Count 200 200 140 2c 01 00 00 00 00\n\
                 9 Power On Hours Count 95 95 0 9b 0f 00 00 00 00\n\
                 198 * Uncorrected Sector Count 200 200 0 03 00 00 00 00 00\n";
    let s = smart(t).expect("rows");
    assert_eq!(s.reallocated_sectors, Some(300));
    assert_eq!(s.power_on_hours, Some(3995));
    assert_eq!(s.offline_uncorrectable, Some(3));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!((RECOGNISER.starts[0].1)(&lines), spec::Start::Yes);
}
