//! Pastes read as the expert in a thread would, each a synthetic variant of a class the
//! first-sight corpus showed (other disks, other numbers, other prefixes than the posts):
//! what must be raised at notice or above, and what must stay quiet.

use super::{Explanation, Input, explain};
use crate::checks::{Severity, Verdict};
use std::collections::BTreeSet;

fn run(text: &str) -> Explanation {
    explain(&[Input {
        label: "t".into(),
        bytes: text.as_bytes().to_vec(),
    }])
    .unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

/// The checks with a problem at notice or above (the corpus's strict rule).
fn problems(text: &str) -> BTreeSet<String> {
    run(text)
        .findings
        .iter()
        .filter(|f| f.verdict == Verdict::Problem && f.severity >= Severity::Notice)
        .map(|f| f.check.to_string())
        .collect()
}

fn has(text: &str, id: &str) -> bool {
    problems(text).contains(id)
}

#[test]
fn a_sata3_drive_at_300_mbps_behind_a_port_of_unknown_generation_is_not_a_problem() {
    // Boot-log attach lines alone: the drive says SATA 3.x, the link runs SATA 2.x, and
    // nothing names the port's generation; two different drive families, one of them
    // behind a syslog prefix.
    let bare = "ada2 at ahcich4 bus 0 scbus4 target 0 lun 0\n\
                ada2: <TOSHIBA DT01ACA300 MX6OABB0> ATA8-ACS SATA 3.x device\n\
                ada2: Serial Number 12345ABCDE\n\
                ada2: 300.000MB/s transfers (SATA 2.x, UDMA6, PIO 8192bytes)\n\
                ada2: Command Queueing enabled\n\
                ada2: 2861588MB (5860533168 512 byte sectors)\n";
    assert!(!has(bare, "sata-link-below-max"), "{:?}", problems(bare));
    let syslog = "Mar  3 10:11:12 nas kernel: ada5: <WDC WD60EFAX-68SHWN0 82.00A82> ACS-3 ATA SATA 3.x device\n\
                  Mar  3 10:11:12 nas kernel: ada5: 300.000MB/s transfers (SATA 2.x, UDMA6, PIO 8192bytes)\n\
                  Mar  3 10:11:12 nas kernel: ada5: 5723166MB (11721045168 512 byte sectors)\n";
    assert!(
        !has(syslog, "sata-link-below-max"),
        "{:?}",
        problems(syslog)
    );
}

#[test]
fn a_sata3_port_or_a_sata1_link_still_proves_a_slow_link() {
    // The controller's line says its ports run 6 Gbps: the 3 Gb/s link is below both.
    let port = "ahci0: <Intel Cougar Point AHCI SATA controller> port 0xf070-0xf077 mem 0xf7d05000-0xf7d057ff irq 19 at device 31.2 on pci0\n\
                ahci0: AHCI v1.30 with 6 6Gbps ports, Port Multiplier not supported\n\
                ahcich3: <AHCI channel> at channel 3 on ahci0\n\
                ada2 at ahcich3 bus 0 scbus3 target 0 lun 0\n\
                ada2: <TOSHIBA DT01ACA300 MX6OABB0> ATA8-ACS SATA 3.x device\n\
                ada2: 300.000MB/s transfers (SATA 2.x, UDMA6, PIO 8192bytes)\n";
    assert!(has(port, "sata-link-below-max"), "{:?}", problems(port));
    // 1.5 Gb/s caps any disk of the last fifteen years, port known or not.
    let sata1 = "ada1: <ST2000DM008-2FR102 0001> ACS-3 ATA SATA 3.x device\n\
                 ada1: 150.000MB/s transfers (SATA 1.x, UDMA6, PIO 8192bytes)\n\
                 ada1: 1907729MB (3907029168 512 byte sectors)\n";
    assert!(has(sata1, "sata-link-below-max"), "{:?}", problems(sata1));
}

#[test]
fn a_geli_record_cut_before_its_consumers_still_sits_on_a_disk() {
    // Two records quoted without their Providers/Consumers sections, indented: the geom
    // name is the consumer's plus ".eli" (g_eli.c), so the layers are on disks.
    let software = "  Geom name: ada3p4.eli\n  State: ACTIVE\n  EncryptionAlgorithm: AES-CBC\n  \
                    KeyLength: 128\n  Crypto: software\n  Version: 6\n\n  \
                    Geom name: label/backup.eli\n  State: ACTIVE\n  EncryptionAlgorithm: AES-XTS\n  \
                    KeyLength: 256\n  Crypto: software\n  Version: 7\n";
    let ex = run(software);
    let enc: Vec<_> = ex
        .findings
        .iter()
        .filter(|f| f.check == "encryption-layer" && f.verdict == Verdict::Problem)
        .collect();
    assert!(
        enc.iter()
            .any(|f| f.device == "ada3" && f.severity >= Severity::Notice),
        "{enc:#?}"
    );
}

#[test]
fn a_timed_out_command_with_only_commwake_in_serror_is_link_power_management() {
    // The drive signalled COMWAKE (SError bit 18) on a frozen port with no damaged frame:
    // it was in a link power state; the port then cannot be reset.
    let log = "[  811.402113] ata3.00: exception Emask 0x0 SAct 0x0 SErr 0x40000 action 0x6 frozen\n\
               [  811.402118] ata3: SError: { CommWake }\n\
               [  811.402121] ata3.00: failed command: FLUSH CACHE EXT\n\
               [  811.402125] ata3.00: cmd ea/00:00:00:00:00/00:00:00:00:00/a0 tag 7\n\
               [  811.402125]          res 40/00:00:00:4f:c2/00:00:00:00:00/00 Emask 0x4 (timeout)\n\
               [  811.402128] ata3.00: status: { DRDY }\n\
               [  811.402131] ata3: hard resetting link\n\
               [  821.766540] ata3: COMRESET failed (errno=-16)\n";
    assert!(has(log, "power-management"), "{:?}", problems(log));
    // A CRC error beside it is damage on the wire, and an ATA bus error (Emask 0x10) a
    // transport fault the host flagged: neither is a power state.
    let crc = log.replace("SErr 0x40000", "SErr 0x240000");
    assert!(!has(&crc, "power-management"), "{:?}", problems(&crc));
    let bus = log.replace("Emask 0x0 SAct", "Emask 0x10 SAct");
    assert!(!has(&bus, "power-management"), "{:?}", problems(&bus));
}
