use super::*;

// linux-scsi 2026-04 (StarTech USB312SAT3CB with a Kingston KC600): `sg_readcap -16`, the
// exponent row wrapped by the mail client.
const STARTECH: &str = "Read Capacity results:\n    Protection: prot_en=0, p_type=0, p_i_exponent=0\n    Logical block provisioning: lbpme=0, lbprz=0\n    Last LBA=4000797359 (0xee7752af), Number of logical blocks=4000797360\n    Logical block length=512 bytes\n    Logical blocks per physical block exponent=3 [so physical block \nlength=4096 bytes]\n    Lowest aligned LBA=0\nHence:\n    Device size: 2048408248320 bytes, 1953514.3 MiB, 2048.41 GB, 2.05 TB\n";

// linux-scsi 2020-03: `sg_readcap` without -l on an 8 TB disk, quoted in a reply.
const QUOTED_10: &str = ">>      # sg_readcap /dev/sdc\n> READ CAPACITY (10) indicates device capacity too large\n>    now trying 16 byte cdb variant\n> Read Capacity results:\n>     Protection: prot_en=0, p_type=0, p_i_exponent=0\n>     Logical block provisioning: lbpme=1, lbprz=0\n>     Last LBA=15628053166 (0x3a3812aae), Number of logical blocks=15628053167\n>     Logical block length=512 bytes\n";

#[test]
fn readcap_16_fields() {
    let r = parse(STARTECH);
    assert_eq!(r.lbpme, Some(false));
    assert_eq!(r.logical_bytes, Some(512));
    assert_eq!(r.physical_bytes, Some(4096));
    assert_eq!(r.lowest_aligned, Some(0));
    assert_eq!(r.size_bytes, Some(2_048_408_248_320));
    let lines: Vec<&str> = STARTECH.lines().collect();
    assert_eq!((RECOGNISER.starts[0].1)(&lines), spec::Start::Yes);
}

#[test]
fn readcap_quoted_and_without_exponent() {
    let r = parse(QUOTED_10);
    assert_eq!(r.lbpme, Some(true));
    assert_eq!(
        r.physical_bytes, None,
        "no exponent row: physical size unknown"
    );
    assert_eq!(r.size_bytes, Some(15_628_053_167 * 512));
    // READ CAPACITY (10) alone: no provisioning row, so nothing said of LBPME.
    let ten = "Read Capacity results:\n   Last LBA=976773167 (0x3a38602f), Number of logical blocks=976773168\n   Logical block length=512 bytes\nHence:\n   Device size: 500107862016 bytes, 476940.0 MiB, 500.11 GB\n";
    assert_eq!(parse(ten).lbpme, None);
    assert_eq!(parse(ten).size_bytes, Some(500_107_862_016));
}

#[test]
fn readcap_near_misses() {
    // An exponent beyond the 4-bit field, and prose naming the fields, give nothing.
    let odd = "Read Capacity results:\n   Logical block length=512 bytes\n   Logical blocks per physical block exponent=40\n";
    assert_eq!(parse(odd).physical_bytes, None);
    let prose = "The cause turned out to be that lbpme is not set, so the other VPD information is not considered.";
    assert_eq!(parse(prose), SgReadcap::default());
    let lines = vec![prose];
    assert_eq!((RECOGNISER.starts[0].1)(&lines), spec::Start::No);
}
