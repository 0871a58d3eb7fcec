use super::*;
use crate::explain::{Input, explain};

fn ceilings(text: &str) -> Vec<(String, Severity)> {
    explain(&[Input {
        label: "t".into(),
        bytes: text.as_bytes().to_vec(),
    }])
    .expect("recognised")
    .findings
    .iter()
    .filter(|f| f.check == "link-ceiling-reached" && f.is_problem())
    .map(|f| (f.device.clone(), f.severity))
    .collect()
}

const LINKS: &str = "$ dmesg | grep SATA\n[    1.177247] ahci 0000:00:1f.2: AHCI 0001.0300 32 slots 6 ports 6 Gbps 0xf impl SATA mode\n[    1.202732] ata1: SATA max UDMA/133 abar m2048@0xf1618000 port 0xf1618100 irq 27\n[    1.202735] ata2: SATA max UDMA/133 abar m2048@0xf1618000 port 0xf1618180 irq 27\n[    1.521294] ata1: SATA link up 6.0 Gbps (SStatus 133 SControl 300)\n[    1.521337] ata2: SATA link up 3.0 Gbps (SStatus 123 SControl 300)\n";

fn hdparm(dev: &str, mb: &str, secs: &str, rate: &str) -> String {
    format!(
        "$ sudo hdparm -tT /dev/{dev}\n\n/dev/{dev}:\n Timing cached reads:   20494 MB in  2.00 seconds = 10255.92 MB/sec\n Timing buffered disk reads: {mb} MB in  {secs} seconds = {rate} MB/sec\n\n"
    )
}

#[test]
fn a_read_at_a_slow_links_ceiling_beside_a_faster_port() {
    // hdparm's MB is MiB: 270.63 MiB/s is 283.8 MB/s, just under 3.0 Gb/s's 300 MB/s.
    let text = format!(
        "{}{}{LINKS}",
        hdparm("sdc", "812", "3.00", "270.63"),
        hdparm("sda", "1566", "3.00", "521.44")
    );
    // sda at 546.8 MB/s is at the 6.0 Gb/s ceiling, but no port links faster.
    assert_eq!(ceilings(&text), vec![("sdc".to_string(), Severity::Notice)]);
}

#[test]
fn a_read_well_under_the_ceiling_or_with_no_faster_port_is_not_at_it() {
    // A hard disk at 180 MB/s is under a 3.0 Gb/s link's ceiling by far.
    let text = format!("{}{LINKS}", hdparm("sdb", "540", "3.00", "171.66"));
    assert!(ceilings(&text).is_empty());
    // Every port at 3.0 Gb/s: the adapter's own speed, nothing faster to move to.
    let slow = LINKS.replace("6.0 Gbps (SStatus 133", "3.0 Gbps (SStatus 123");
    let text = format!("{}{slow}", hdparm("sdc", "812", "3.00", "270.63"));
    assert!(ceilings(&text).is_empty());
    // The log lines alone: no read to judge.
    assert!(pasted_links(LINKS).contains(&(2, 3.0)));
    assert!(pasted_links("ata2: SATA link down (SStatus 0 SControl 300)\n").is_empty());
}
