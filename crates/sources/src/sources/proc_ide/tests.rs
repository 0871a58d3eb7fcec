use super::*;

#[test]
fn amd_page_with_a_40_wire_primary() {
    let t = "----------AMD BusMastering IDE Configuration----------------\n\
                 Driver Version:                     2.9\n\
                 Highest DMA rate:                   UDMA100\n\
                 -----------------------Primary IDE-------Secondary IDE------\n\
                 Cable Type:                   40w                 80w\n\
                 -------------------drive0----drive1----drive2----drive3-----\n\
                 Transfer Mode:       UDMA      UDMA      UDMA       PIO\n\
                 Transfer Rate:   33.3MB/s  33.3MB/s 100.0MB/s   3.3MB/s\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].chipset, "AMD");
    assert_eq!(v[0].host_max_udma_mb_s, Some(100));
    assert_eq!(v[0].drives.len(), 4);
    assert_eq!(v[0].drives[0].name, "hda");
    assert_eq!(v[0].drives[0].udma_mb_s, Some(33));
    assert_eq!(v[0].drives[0].cable_80w, Some(false));
    assert_eq!(v[0].drives[2].udma_mb_s, Some(100));
    assert_eq!(v[0].drives[2].cable_80w, Some(true));
    assert_eq!(v[0].drives[3].udma_mb_s, None);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!((RECOGNISER.starts[0].1)(&lines), spec::Start::Yes);
    assert!(is_member("Transfer Rate:   33.3MB/s"));
    assert!(parse("---- IDE Configuration ----\n").is_empty());
}
