use super::*;

#[test]
fn a_boot_fsck_after_an_unclean_shutdown() {
    let t = "WARNING: / was not properly dismounted\n\
             WARNING: /: mount pending error: blocks 24 files 1\n\
             <118>Mounting filesystems...\n\
             <118>tunefs: / is not clean - run fsck.\n\
             <118>** /dev/ufs/OPNsense\n\
             <118>** Last Mounted on /tmp/hdrescue\n\
             <118>** Root file system\n\
             <118>** Phase 1 - Check Blocks and Sizes\n\
             <118>INCORRECT BLOCK COUNT I=802571 (8 should be 0)\n\
             <118>CORRECT? yes\n";
    let r = parse(t);
    assert_eq!(r.lines, 9, "{r:?}");
    assert_eq!(r.repairs, 1);
    assert!(r.unreadable.is_empty());
    assert!(t.lines().next().is_some_and(is_line));
}

#[test]
fn blocks_it_could_not_read_are_the_disk_s() {
    let t = "** /dev/ada0p2\n** Phase 1 - Check Blocks and Sizes\nCANNOT READ BLK: 1234567\nCONTINUE? yes\n\
             THE FOLLOWING DISK SECTORS COULD NOT BE READ: 1234567, 1234568,\n";
    let r = parse(t);
    assert_eq!(r.unreadable.len(), 2, "{r:?}");
    // Near misses: e2fsck's passes and a sentence about fsck are not fsck_ffs's lines.
    assert!(!is_line("Pass 1: Checking inodes, blocks, and sizes"));
    assert!(!is_line("I ran fsck and it said the file system was clean"));
    assert_eq!(
        parse("Pass 1: Checking inodes, blocks, and sizes\n").lines,
        0
    );
}
