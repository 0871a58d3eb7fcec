#[test]
fn verbose_and_short() {
    let t = super::parse(
        "  (pass0:ahcich0:0:0:0): dev_openings  30\n(pass0:ahcich0:0:0:0): dev_active    2\n(pass0:ahcich0:0:0:0): devq_openings 30\n(pass0:ahcich0:0:0:0): devq_queued   0\n(pass0:ahcich0:0:0:0): held          0\n(pass0:ahcich0:0:0:0): mintags       2\n(pass0:ahcich0:0:0:0): maxtags       255\n",
    );
    assert_eq!(t.depth(), Some(32));
    assert_eq!(t.maxtags, Some(255));
    let s = super::parse("(pass3:ata0:0:0:0): device openings: 1\n");
    assert_eq!(s.depth(), Some(1));
    assert_eq!(super::parse("junk").depth(), None);
}

#[test]
fn newer_counter_names_and_the_recogniser() {
    // FreeBSD 13.0 on Hyper-V (fixture INDEX): "allocated"/"queued" rows.
    let t = "(pass0:storvsc0:0:0:0): dev_openings  255\n(pass0:storvsc0:0:0:0): dev_active    0\n(pass0:storvsc0:0:0:0): allocated     0\n(pass0:storvsc0:0:0:0): queued        0\n(pass0:storvsc0:0:0:0): held          0\n(pass0:storvsc0:0:0:0): mintags       2\n(pass0:storvsc0:0:0:0): maxtags       255\n";
    assert_eq!(super::parse(t).depth(), Some(255));
    for l in t.lines() {
        assert!(super::TAGS_LINE.is_match(l), "{l}");
    }
    assert!(super::TAGS_LINE.is_match("\t(pass3:ata0:0:0:0): device openings: 1"));
    // A CAM error line is the kernel's, not camcontrol's.
    assert!(!super::TAGS_LINE.is_match(
        "(ada0:ahcich0:0:0:0): READ_FPDMA_QUEUED. ACB: 60 08 00 00 00 40 00 00 00 00 08 00"
    ));
    assert_eq!(super::path_disk(t), None);
    assert_eq!(
        super::path_disk("(ada1:ahcich1:0:0:0): dev_openings  0\n").as_deref(),
        Some("ada1")
    );
}
