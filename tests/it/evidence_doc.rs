//! docs/evidence-format.md stays true: its JSON examples load as bundles, and the Linux one
//! (with its abbreviated device read filled in) yields the facts the page says it does.

use diskdoc_core::evidence::{EvidenceBundle, Platform};
use diskdoc_core::facts::{DeviceClass, Fact, Transport};

fn examples() -> Vec<String> {
    let doc = std::fs::read_to_string(format!(
        "{}/docs/evidence-format.md",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    doc.split("```json\n")
        .skip(1)
        .map(|s| s.split("\n```").next().unwrap().to_string())
        .collect()
}

#[test]
fn linux_example_derives_what_the_doc_says() {
    let ex = examples();
    assert_eq!(ex.len(), 2);
    let mut v: serde_json::Value = serde_json::from_str(&ex[0]).unwrap();
    // Fill the abbreviated read with a real MBR: partition type 0x83 at 63, 20000 sectors.
    let mut mbr = vec![0u8; 512];
    mbr[446 + 4] = 0x83;
    mbr[446 + 8..446 + 12].copy_from_slice(&63u32.to_le_bytes());
    mbr[446 + 12..446 + 16].copy_from_slice(&20000u32.to_le_bytes());
    mbr[510] = 0x55;
    mbr[511] = 0xAA;
    let doc_hex = v["captures"]["read:/dev/loop0:0:17408"]["data"]
        .as_str()
        .unwrap()
        .to_string();
    let hex = diskdoc_core::evidence::hex_encode(&mbr);
    assert!(
        hex.contains("00000000830000003f000000204e0000"),
        "the doc's byte walk-through matches"
    );
    assert!(doc_hex.contains("00000000830000003f000000204e0000"));
    v["captures"]["read:/dev/loop0:0:17408"]["data"] = serde_json::Value::from(hex);
    let b = EvidenceBundle::from_json("doc", &v.to_string()).unwrap();
    assert_eq!(b.platform, Platform::Linux);
    let sys = diskdoc_core::facts::derive(&b);
    let vda = sys.disk("vda").unwrap();
    assert_eq!(vda.size_bytes.get(), Some(274877906944));
    assert_eq!(vda.size_bytes.sources(), ["file:/sys/block/vda/size"]);
    assert_eq!(vda.class.get(), Some(DeviceClass::Virtual));
    assert_eq!(vda.transport.get(), Some(Transport::Virtio));
    assert!(
        vda.partition_table
            .why()
            .unwrap()
            .contains("permission denied")
    );
    assert_eq!(vda.mounts.len(), 1);
    let l = sys.disk("loop0").unwrap();
    assert_eq!(l.size_bytes.get(), Some(67108864));
    assert_eq!(l.size_bytes.sources(), ["ioctl:/dev/loop0:BLKGETSIZE64"]);
    let t = match &l.partition_table {
        Fact::Known { value, .. } => value,
        Fact::Unknown { why } => panic!("{why}"),
    };
    assert_eq!(t.scheme, "mbr");
    assert_eq!(t.partitions[0].name, "loop0p1");
    assert_eq!(t.partitions[0].start_sector, 63);
    assert_eq!(t.partitions[0].alignment_offset_bytes, Some(0));
    assert!(l.notes.iter().any(|n| n.contains("/tmp/disk.img")));
    assert!(l.smart.why().unwrap().contains("not applicable"));
    assert_eq!(sys.is_root.get(), Some(true));
}

#[test]
fn doc_example_as_printed_loads_and_its_abbreviated_read_is_unknown_not_a_panic() {
    let ex = examples();
    let b = EvidenceBundle::from_json("doc", &ex[0]).unwrap();
    let sys = diskdoc_core::facts::derive(&b);
    let l = sys.disk("loop0").unwrap();
    // "...": not hex, so the bytes are unreadable; the sysfs partition view remains.
    assert!(l.partition_table.is_known());
    let fb = EvidenceBundle::from_json("doc-freebsd", &ex[1]).unwrap();
    assert_eq!(fb.platform, Platform::Freebsd);
    assert_eq!(fb.captures.len(), 9);
    let _ = diskdoc_core::facts::derive(&fb);
}
