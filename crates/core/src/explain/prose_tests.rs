//! End-to-end readings of typed hdparm commands (facts::pasted::prose) through explain:
//! at explain's rank, because they run the whole pipeline.

fn disk_dma(text: &str, disk: &str) -> Option<bool> {
    let e = crate::explain::explain(&[crate::explain::Input {
        label: "t".into(),
        bytes: text.as_bytes().to_vec(),
    }])
    .ok()?;
    e.facts
        .disks
        .iter()
        .find(|d| d.name == disk)
        .and_then(|d| d.ide_dma.value().map(|x| x.on))
}

/// A tip's typed `hdparm -d 0` before its `hdparm -t` (linuxmafia's hdparm tip) leaves the
/// IDE disk in PIO; the last typed setting counts, a libata sdX is no IDE disk, and the
/// driver's own read-back wins over a command.
#[test]
fn a_typed_hdparm_d0_leaves_an_ide_disk_in_pio() {
    let tip = "hdparm -d 0 -u 0 /dev/hda\nhdparm -d 0 -u 0 /dev/hdc\ncat /dev/hdc > /dev/null &\nhdparm -t /dev/hda\n";
    assert_eq!(disk_dma(tip, "hda"), Some(false));
    assert_eq!(
        disk_dma(
            "hdparm -d0 /dev/hda\nhdparm -d1 /dev/hda\nhdparm -t /dev/hda\n",
            "hda"
        ),
        Some(true)
    );
    assert_eq!(
        disk_dma("hdparm -d0 /dev/sda\nhdparm -t /dev/sda\n", "sda"),
        None
    );
    let refused = "# hdparm -d0 /dev/hda\n\n/dev/hda:\n setting using_dma to 0 (off)\n HDIO_SET_DMA failed: Operation not permitted\n using_dma     =  1 (on)\n";
    assert_eq!(disk_dma(refused, "hda"), Some(true));
}
