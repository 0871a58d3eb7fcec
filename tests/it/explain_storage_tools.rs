//! Drive-settings, drive-log and controller tools through `diskdoc explain`: every real
//! output under tests/fixtures/{linux/storcli, linux/sdparm, linux/openseachest,
//! linux/nvme-error-log, freebsd/tunefs} (sources in tests/fixtures/INDEX.md, "Storage tools:
//! storcli, sdparm, openSeaChest, nvme error-log, tunefs") answered as the expert would: a
//! degraded or rebuilding virtual drive is array-rebuilding, a failed member media-errors, a
//! drive that spins itself down power-management, SATA Phy events link-errors, an NVMe error
//! log's unrecovered reads media-errors (its refused admin commands nothing), a UFS
//! filesystem with TRIM off trim-unavailable, and a healthy output nothing. Each output is also
//! read quoted ("> ") as a mail reply carries it.

use crate::support::{explain_text as run, manifest, problem_ids, wrong_expert_answers};

/// (fixture under tests/fixtures, the problem ids at notice or above, exactly).
const CASES: &[(&str, &[&str])] = &[
    (
        "linux/storcli/blogzh-storcli-c0-v0-show-raid5-dgrd-rwbd.txt",
        &["array-rebuilding"],
    ),
    (
        "linux/storcli/blogzh-storcli-c0-eall-sall-show-twelve-hus726040-one-failed.txt",
        &["media-errors"],
    ),
    (
        "linux/storcli/noteru-storcli64-c0-show-all-topology-raid1-dgrd-drive-rbld.txt",
        &["array-rebuilding"],
    ),
    (
        "linux/storcli/checklsiraid41-perccli2-c0-vall-show-all-raid10-optl-nr-wb-truncated.txt",
        &[],
    ),
    (
        "linux/sdparm/hdidle138-sas-seagate-st2000nx0463-sdparm-power-condition-standby-z-1-luks-zfs-spinup.txt",
        &["power-management"],
    ),
    (
        "linux/sdparm/blog-sdparm-get-wce-seagate-st4000nm0025-on.txt",
        &[],
    ),
    (
        "linux/sdparm/vagrant-sdparm-vbox-harddisk-common-pages-wce-on.txt",
        &[],
    ),
    (
        "linux/openseachest/tuned676-seagate-exos-st18000nm000j-epc-standby-z-10s-heads-unload-io-stalls.txt",
        &["power-management"],
    ),
    (
        "linux/openseachest/blogzh-seachest-powercontrol-st16000nm000j-epc-standby-z-off.txt",
        &[],
    ),
    (
        "linux/openseachest/openseachest162-exos-x24-st16000nm001g-sata-phy-event-counters-icrc-comreset-sas3008.txt",
        &["link-errors"],
    ),
    (
        "linux/nvme-error-log/nvmecli800-error-log-entry63-status-0xc502-read-error-unrecovered-count-9290042.txt",
        &["media-errors"],
    ),
    (
        "linux/nvme-error-log/nvmecli2540-corsair-p3-plus-new-ssd-error-log-0x2002-invalid-field-in-command-truncated.txt",
        &[],
    ),
    (
        "freebsd/tunefs/freebsdcloudimages8-fbsd14.0-vm-da0p4-tunefs-p-trim-disabled-thin-storage-grows.txt",
        &["trim-unavailable"],
    ),
    (
        "freebsd/tunefs/blog-rescue-tunefs-p-mirror-boot-trim-disabled.txt",
        &["trim-unavailable"],
    ),
];

fn read(rel: &str) -> String {
    std::fs::read_to_string(manifest(&format!("tests/fixtures/{rel}")))
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn every_output_gets_the_experts_answer_plain_and_quoted() {
    let wrong = wrong_expert_answers("", CASES);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn spin_down_timer_is_named_with_its_seconds() {
    let ex = run(&read(
        "linux/openseachest/tuned676-seagate-exos-st18000nm000j-epc-standby-z-10s-heads-unload-io-stalls.txt",
    ));
    let f = ex
        .findings
        .iter()
        .find(|f| f.check == "power-management")
        .expect("power-management finding");
    assert!(f.title.contains("10 s"), "{}", f.title);
    assert!(f.title.contains("Standby Z"), "{}", f.title);
    assert_eq!(f.severity, diskdoc_core::checks::Severity::Warning);
    assert!(
        f.fixes
            .iter()
            .any(|x| x.steps.iter().any(|s| s.contains("--standby_z")))
    );
}

#[test]
fn storcli_write_through_volume_is_write_cache_disabled() {
    // The VD LIST row of the Japanese storcli blog (Cache RaAWBD) with the write policy the
    // controller falls back to without a working BBU: the same row with WT.
    let text = read("linux/storcli/blogzh-storcli-c0-v0-show-raid5-dgrd-rwbd.txt")
        .replace("RWBD ", "RWTD ")
        .replace("Dgrd  RW", "Optl  RW");
    let ids = problem_ids(&run(&text));
    assert!(ids.contains("write-cache-disabled"), "{ids:?}");
    assert!(!ids.contains("array-rebuilding"), "{ids:?}");
}

#[test]
fn serials_of_the_vendor_tools_are_redacted() {
    for (rel, secret) in [
        (
            "linux/openseachest/tuned676-seagate-exos-st18000nm000j-epc-standby-z-10s-heads-unload-io-stalls.txt",
            "ZR5ER3PJ",
        ),
        (
            "linux/openseachest/openseachest162-exos-x24-st16000nm001g-sata-phy-event-counters-icrc-comreset-sas3008.txt",
            "ZL21LGDW",
        ),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_diskdoc"))
            .args([
                "explain",
                "--format",
                "json",
                &manifest(&format!("tests/fixtures/{rel}")),
            ])
            .output()
            .expect("run diskdoc");
        let s = String::from_utf8_lossy(&out.stdout);
        assert!(s.contains("\"findings\""), "{rel}: no report");
        assert!(!s.contains(secret), "{rel}: serial {secret} not redacted");
    }
}
