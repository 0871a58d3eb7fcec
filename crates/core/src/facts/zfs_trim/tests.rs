use super::*;
use crate::evidence::{Capture, Origin, Platform};

fn bundle(autotrim: Option<&str>) -> EvidenceBundle {
    let mut b = EvidenceBundle::new(Platform::Linux, Origin::Hand);
    b.insert(
            &SourceKey::cmd(&["zpool", "status"]),
            Capture::ok(
                "  pool: tank\n state: ONLINE\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\ttank        ONLINE       0     0     0\n\t  mirror-0  ONLINE       0     0     0\n\t    sdb1    ONLINE       0     0     0\n\t    nvme0n1p3  ONLINE    0     0     0\n\nerrors: No known data errors\n",
            ),
        );
    if let Some(t) = autotrim {
        b.insert(
            &SourceKey::cmd(crate::plan::ZPOOL_GET_AUTOTRIM),
            Capture::ok(t),
        );
    }
    b
}

#[test]
fn pools_by_kernel_name_and_their_autotrim() {
    let b = bundle(Some("tank\tautotrim\toff\nbackup\tautotrim\ton\n"));
    assert_eq!(linux_pools(&b, "sdb"), ["tank"]);
    assert_eq!(linux_pools(&b, "nvme0n1"), ["tank"]);
    // sd"b" is no partition of sd"a"; nvme0n1p3 is none of nvme0n11.
    assert!(linux_pools(&b, "sda").is_empty());
    assert!(linux_pools(&b, "nvme0n11").is_empty());
    assert!(linux_pools(&b, "sd").is_empty());
    // FreeBSD's GPT providers the same way (ada0p3 of ada0, not of ada00).
    let fb = "  pool: zroot\n state: ONLINE\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\tzroot       ONLINE       0     0     0\n\t  ada0p3    ONLINE       0     0     0\n";
    let naming = zpool::DeviceNaming::FreeBsd;
    assert_eq!(pools_on_disk(fb, naming, "ada0"), ["zroot"]);
    assert!(pools_on_disk(fb, naming, "ada00").is_empty());
    let f = autotrim(&b, &linux_pools(&b, "sdb"));
    let v = f.value().expect("known");
    assert_eq!(v.len(), 1);
    assert_eq!((v[0].pool.as_str(), v[0].value.as_str()), ("tank", "off"));
    assert_eq!(
        f.sources(),
        [crate::sources::zpool_autotrim::LIVE.key_for("")]
    );
}

#[test]
fn an_enabled_trim_timer_is_the_pools_periodic_trim() {
    let mut b = bundle(Some("tank\tautotrim\toff\n"));
    let link = "/etc/systemd/system/timers.target.wants/zfs-trim-monthly@tank.timer";
    // What the link points to: OpenZFS's timer unit (its text matters not).
    b.insert(&SourceKey::File(link.into()), Capture::ok("[Timer]\n"));
    let f = autotrim(&b, &["tank".to_string()]);
    let v = f.value().expect("known");
    assert_eq!(
        v[0].periodic.as_deref(),
        Some("zfs-trim-monthly@tank.timer enabled (timers.target wants it)")
    );
    assert!(f.sources().contains(&format!("file:{link}")));
    // No link (NotFound, as the probe records a missing file): nothing periodic.
    let b = bundle(Some("tank\tautotrim\toff\n"));
    assert_eq!(
        autotrim(&b, &["tank".to_string()]).value().expect("known")[0].periodic,
        None
    );
}

#[test]
fn unknown_without_pool_or_capture() {
    let b = bundle(None);
    assert!(!autotrim(&b, &["tank".to_string()]).is_known());
    assert!(!autotrim(&bundle(Some("tank\tautotrim\ton\n")), &[]).is_known());
    let other = autotrim(
        &bundle(Some("backup\tautotrim\ton\n")),
        &["tank".to_string()],
    );
    assert!(other.why().is_some_and(|w| w.contains("none of tank")));
}

#[test]
fn a_by_id_partition_is_on_its_disk() {
    let t = "  pool: rpool\n state: ONLINE\nconfig:\n\n\tNAME                                  STATE     READ WRITE CKSUM\n\trpool                                 ONLINE       0     0     0\n\t  nvme-Samsung_SSD_980_1TB_S64A-part4  ONLINE       0     0     0\n";
    let naming = zpool::DeviceNaming::Linux;
    assert_eq!(
        pools_on_disk(t, naming, "nvme-Samsung_SSD_980_1TB_S64A"),
        ["rpool"]
    );
    // Near misses: another serial's prefix, a "-part" without its number.
    assert!(pools_on_disk(t, naming, "nvme-Samsung_SSD_980_1TB_S6").is_empty());
    assert!(!on_disk("ata-X_Y-part", "ata-X_Y"));
}
