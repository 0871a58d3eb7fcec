use super::*;

#[test]
fn keys_are_the_probes_spelling() {
    assert_eq!(
        block("sda", "queue/rotational"),
        "file:/sys/block/sda/queue/rotational"
    );
    assert_eq!(block("zram1", ""), "file:/sys/block/zram1");
    assert_eq!(
        ata_link("link1", "sata_spd"),
        "file:/sys/class/ata_link/link1/sata_spd"
    );
    assert_eq!(proc("self/mountinfo"), "file:/proc/self/mountinfo");
    assert_eq!(dev_block("8:0", "stat"), "file:/sys/dev/block/8:0/stat");
    assert_eq!(
        lpm_policy("host0"),
        "file:/sys/class/scsi_host/host0/link_power_management_policy"
    );
}
