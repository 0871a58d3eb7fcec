use super::*;
use crate::evidence::{Capture, Origin, Platform};

fn bundle() -> EvidenceBundle {
    let mut b = EvidenceBundle::new(Platform::Freebsd, Origin::Hand);
    let mut put = |k: &str, v: &str| {
        b.insert(
            &SourceKey::parse(k).unwrap_or_else(|| unreachable!()),
            Capture::ok(v),
        )
    };
    put(
        &crate::sources::sysctl::KERN_DISKS.key_for(""),
        "ada1 ada0 ada10 da0",
    );
    put(
        &crate::sources::gpart_list::SPEC.key_for(""),
        "Geom name: da0\nProviders:\n1. Name: da0p1\n   label: backup\n   type: freebsd-ufs\nConsumers:\n1. Name: da0\n",
    );
    put(
        &crate::sources::geli::SPEC.key_for(""),
        "Geom name: ada1p3.eli\nProviders:\n1. Name: ada1p3.eli\nConsumers:\n1. Name: ada1p3\n",
    );
    put(
        &crate::sources::zpool::SPEC.key_for(""),
        "  pool: zroot\n state: ONLINE\nconfig:\n\n\tNAME            STATE     READ WRITE CKSUM\n\tzroot           ONLINE       0     0     0\n\t  mirror-0      ONLINE       0     0     0\n\t    ada1p3.eli  ONLINE       0     0     0\n\t    ada10p3     ONLINE       0     0     0\n\nerrors: No known data errors\n",
    );
    put(
        &crate::sources::mount_p::SPEC.key_for(""),
        "zroot/ROOT/default\t/\tzfs\trw\t0 0\nzroot/usr/home\t/usr/home\tzfs\trw\t0 0\n/dev/ada0p2\t/var/db\tufs\trw\t2 2\n/dev/gpt/backup\t/backup\tufs\trw\t2 2\n",
    );
    put(
        &crate::sources::confxml::SPEC.key_for(""),
        "<mesh><class><name>DISK</name><geom id=\"0x1\"><name>ada0</name><provider id=\"0x2\"><name>ada0</name></provider></geom></class><class><name>PART</name><geom id=\"0x3\"><name>ada0</name><consumer id=\"0x4\"><provider ref=\"0x2\"/></consumer><provider id=\"0x5\"><name>ada0p2</name></provider></geom></class><class><name>LABEL</name><geom id=\"0x6\"><name>ada0</name><consumer id=\"0x7\"><provider ref=\"0x2\"/></consumer><provider id=\"0x8\"><name>diskid/DISK-S3Z9NB0K</name></provider></geom></class></mesh>",
    );
    b
}

#[test]
fn names_paths_labels_and_datasets() {
    let b = bundle();
    let r = |s: &str| resolve_target(&b, s);
    assert_eq!(r("ada0"), "ada0");
    assert_eq!(r("/dev/ada0p2"), "ada0");
    assert_eq!(r("ada10p3"), "ada10", "longest disk-name prefix wins");
    assert_eq!(r("ada0s1a"), "ada0");
    assert_eq!(r("/dev/ada1p3.eli"), "ada1");
    assert_eq!(r("/dev/gpt/backup"), "da0");
    assert_eq!(r("/dev/diskid/DISK-S3Z9NB0K"), "ada0");
    assert_eq!(r("/var/db/pkg"), "ada0", "a path on UFS");
    assert_eq!(r("/backup"), "da0", "UFS on a GPT label");
    assert_eq!(r("/usr/home/alice"), "ada1", "ZFS: first disk of the pool");
    assert_eq!(r("zroot/usr/home"), "ada1");
    assert_eq!(r("/dev/nosuch"), "nosuch", "unknown names come back bare");
    assert_eq!(r("ada0x"), "ada0x");
}
