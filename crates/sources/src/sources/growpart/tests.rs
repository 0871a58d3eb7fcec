use super::*;

#[test]
fn the_mbr_warning_is_a_refusal_and_a_plain_change_is_not() {
    let t = "WARNING: MBR/dos partitioned disk is larger than 2TB. Additional space will go unused.\nNOCHANGE: partition 1 could only be grown by 1 [fudge=2048]\n";
    let m = parse(t);
    assert_eq!(m.len(), 1);
    assert_eq!(
        m.first().map(|m| m.verdict),
        Some(PartitionToolVerdict::MbrTooSmall)
    );
    // A GPT disk grown in full: no warning.
    let ok = "CHANGED: partition=1 start=2048 old: size=4192223 end=4194271 new: size=12580831 end=12582879\n";
    assert!(parse(ok).is_empty());
    assert!(own(ok.trim()));
}
