use super::*;

#[test]
fn progress_and_final_counts() {
    let t = "Checking for bad blocks in read-write mode\nFrom block 0 to 1465130645\n\
                 Testing with pattern 0xaa: set_o_direct: Inappropriate ioctl for device\n\
                 `  6.86% done, 31:09 elapsed. (0/0/0 errors)\n";
    let v = parse(t);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].mode.as_deref(), Some("read-write"));
    assert_eq!(v[0].errors, Some((0, 0, 0)));
    assert_eq!(v[0].percent_done, Some(6.86));
    let t = "> Checking for bad blocks (read-only test): done\n\
                 > Pass completed, 24 bad blocks found. (24/0/0 errors)\n";
    let v = parse(t);
    assert_eq!(v[0].bad_blocks, Some(24));
    assert_eq!(v[0].errors, Some((24, 0, 0)));
    assert!(parse("(x/y errors)\n").is_empty());
}

#[test]
fn bad_block_numbers_over_the_progress_line() {
    // badblocks -nsv: each bad block's number printed over the progress line.
    let t = "Checking for bad blocks in non-destructive read-write mode\n\
                 From block 0 to 31266647\n\
                 Checking for bad blocks (non-destructive read-write test)\n\
                 Testing with random pattern: 0.05% done, 0:04 elapsed. (0/0/0 errors)\n\
                 \n...\n\n\
                 19075872done, 1:34:03 elapsed. (32/0/0 errors)\n\
                 19075873\n\
                 \x20 84.64% done, 2:09:08 elapsed. (64/0/0 errors)\n\
                 \n...\n\n\
                 Pass completed, 64 bad blocks found. (64/0/0 errors)\n";
    let lines: Vec<&str> = t.lines().collect();
    let non_members: Vec<&&str> = lines
        .iter()
        .filter(|l| !l.trim().is_empty() && !is_member(l))
        .collect();
    assert!(non_members.is_empty(), "{non_members:?}");
    let runs = parse(t);
    let s = runs.iter().filter_map(scan).next_back().expect("a scan");
    assert_eq!(
        (s.bad_blocks, s.read_errors, s.completed),
        (64, Some(64), true)
    );
    let clean = parse(
        "Checking for bad blocks (read-only test): done\n\
                           Pass completed, 0 bad blocks found. (0/0/0 errors)\n",
    );
    assert_eq!(
        clean
            .iter()
            .filter_map(scan)
            .next_back()
            .map(|s| s.bad_blocks),
        Some(0)
    );
    // Numbers in other text are no bad blocks; a run without counts is no scan.
    assert!(!is_block_number("19075872 sectors"));
    assert!(!is_block_number("done, 1:34:03 elapsed."));
    assert!(scan(&BadblocksRun::default()).is_none());
}
