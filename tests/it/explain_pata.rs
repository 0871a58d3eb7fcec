//! `diskdoc explain` on parallel-ATA disks held below their Ultra DMA mode by the cable or
//! its detection (sources::pata_mode): libata's "limited to UDMA/33 due to 40-wire cable"
//! (drivers/ata/libata-core.c ata_dev_xfermask), reported under sata-link-below-max, the
//! check of the fault class (a link below what drive and host support).

use diskdoc_core::checks::{Severity, Verdict};
use diskdoc_core::explain::{Explanation, Input, explain};

fn run(text: &str) -> Option<Explanation> {
    explain(&[Input {
        label: "paste".into(),
        bytes: text.as_bytes().to_vec(),
    }])
    .ok()
}

/// The problem finding of sata-link-below-max; None also when the paste is not recognised.
fn link_finding(text: &str) -> Option<(Severity, String)> {
    run(text)?
        .findings
        .iter()
        .find(|f| f.check == "sata-link-below-max" && f.verdict == Verdict::Problem)
        .map(|f| (f.severity, format!("{} {}", f.title, f.explanation)))
}

/// https://lore.kernel.org/linux-ide/20190126184351.GE2792@darkstar.musicnaut.iki.fi/
/// (Aaro Koskinen, Loongson 2F: pata_amd sees a 40-wire cable, the old amd74xx driver ran the
/// same disk at UDMA/100; "libata.force=1:80c" fixed it).
#[test]
fn forty_wire_detection_contradicted_by_the_old_driver_is_a_warning() {
    let text = include_str!(
        "../fixtures/corpus-reviewed/batch-12/fixtures/linux/dmesg/linuxmips2019jan-loongson2f-pata-amd-wd1600bevs-limited-udma33-40-wire-vs-ide-udma100-libata-force-80c-quoted.txt"
    );
    let (sev, words) = link_finding(text).expect("a sata-link-below-max finding");
    assert_eq!(sev, Severity::Warning, "{words}");
    assert!(words.contains("UDMA/33"), "{words}");
    assert!(words.contains("detection is wrong"), "{words}");
}

/// The same kind of lines without another driver's faster mode: the cable may be a real
/// 40-wire one, so the cap is said as information, below notice.
#[test]
fn a_plain_forty_wire_cap_is_information_and_optical_drives_are_not_capped() {
    let text = "[    0.26] ata1: PATA max UDMA/100 cmd 0x1f0 ctl 0x3f6 bmdma 0xffa0 irq 14\n\
                [    0.46] ata1.01: ATA-7: ST3200822A, 3.01, max UDMA/100\n\
                [    0.46] ata1.01: limited to UDMA/33 due to 40-wire cable\n\
                [    0.47] ata2.00: ATAPI: HL-DT-ST DVDRAM GSA-H10N, JL12, max UDMA/33\n\
                [    0.48] ata1.01: configured for UDMA/33\n";
    let (sev, words) = link_finding(text).expect("a sata-link-below-max finding");
    assert_eq!(sev, Severity::Info, "{words}");
    assert!(words.contains("ST3200822A"), "{words}");
    let optical = "[    0.47] ata2.00: ATAPI: HL-DT-ST DVDRAM GSA-H10N, JL12, max UDMA/33\n\
                   [    0.49] ata2.00: configured for UDMA/33\n";
    assert_eq!(link_finding(optical), None);
}

/// The old IDE driver's chipset page (`cat /proc/ide/amd74xx`, lkml 2003-03, an AMD-768 with
/// the cables detected 40w/80w and three drives at 33.3 MB/s on a UDMA100 chipset): the
/// drives' mode is below what the host does, sata-link-below-max; the same page of a VIA
/// chipset, mail-quoted, with every drive at the chipset's rate is silent.
#[test]
fn a_proc_ide_chipset_page_gives_each_drive_its_mode() {
    let text = include_str!(
        "../fixtures/linux/proc-ide/lkml2003mar-amd768-proc-ide-amd74xx-cable-40w-80w-udma-33.txt"
    );
    let (_, words) = link_finding(text).expect("a sata-link-below-max finding");
    assert!(words.contains("UDMA/33"), "{words}");
    let via = "> ----------VIA BusMastering IDE Configuration----------------\n\
               > Driver Version:                     3.37\n\
               > Highest DMA rate:                   UDMA133\n\
               > -----------------------Primary IDE-------Secondary IDE------\n\
               > Cable Type:                   80w                 80w\n\
               > -------------------drive0----drive1----drive2----drive3-----\n\
               > Transfer Mode:       UDMA       PIO       PIO       PIO\n\
               > Transfer Rate:  133.3MB/s   3.3MB/s   3.3MB/s   3.3MB/s\n";
    let ex = run(via).expect("the VIA page is recognised");
    assert!(ex.recognised.iter().any(|r| r.tool == "proc-ide"));
    assert_eq!(link_finding(via), None);
    // A 40-wire primary on the VIA page: its UDMA drive is capped.
    let capped = via
        .replace("80w                 80w", "40w                 80w")
        .replace("133.3MB/s   3.3MB/s", " 33.3MB/s   3.3MB/s");
    assert!(link_finding(&capped).is_some(), "{capped}");
}
