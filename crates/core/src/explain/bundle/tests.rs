use super::*;

#[test]
fn sysctl_pairs_split_names_and_multiline_values() {
    let p = sysctl_pairs(
        "kern.disks: da0 cd0\nkern.geom.confxml: <mesh>\n  <class/>\nhw.ata.wc=\"0\"\n",
    );
    assert_eq!(p[0], ("kern.disks".to_string(), "da0 cd0".to_string()));
    assert_eq!(p[1].1, "<mesh>\n  <class/>");
    assert_eq!(p[2], ("hw.ata.wc".to_string(), "0".to_string()));
}

fn guess(text: &str) -> Platform {
    let p = super::super::segment::prepare(0, "t", text.as_bytes()).expect("text");
    let rec = super::super::recognize::recognize(&p.lines);
    guess_platform(&rec, &p.lines)
}

#[test]
fn names_prompts_and_tools_of_one_os_decide_the_guess() {
    // A bare zpool status: the vdev names alone tell the OS.
    let pool = |vdevs: &[&str]| {
        let mut s = String::from(
            "  pool: tank\n state: DEGRADED\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\ttank        DEGRADED     0     0     0\n\t  raidz2-0  DEGRADED     0     0     0\n",
        );
        for v in vdevs {
            s.push_str(&format!("\t    {v}  ONLINE       0     0     0\n"));
        }
        s
    };
    for linux in [
        pool(&[
            "ata-WDC_WD30EFRX-68AX9N0_WD-WCC1T1489518",
            "ata-ST4000DM004-2CV104_ZFN0AB12",
        ]),
        pool(&["wwn-0x5000cca25ec7b1c4", "wwn-0x5000cca25ec7b1c5"]),
        pool(&["sdb", "sdc"]),
        pool(&["nvme0n1p2", "nvme1n1p2"]),
        "user@nas:~$ sudo mdadm --detail /dev/md0\n".to_string(),
        "Mar  5 10:00:01 host kernel: something about /dev/disk/by-id/foo\n".to_string(),
    ] {
        assert_eq!(guess(&linux), Platform::Linux, "{linux}");
    }
    for bsd in [
        pool(&[
            "gptid/4a1b2c3d-1111-2222-3333-444455556666",
            "gptid/5a1b2c3d-1111-2222-3333-444455556666",
        ]),
        pool(&["gpt/disk0 ", "gpt/disk1 "]),
        pool(&["ada0p3", "ada1p3"]),
        pool(&["da0", "da1"]),
        pool(&["nvd0p2", "nda1p2"]),
    ] {
        assert_eq!(guess(&bsd), Platform::Freebsd, "{bsd}");
    }
    // Nothing of either OS: unknown, not FreeBSD by default.
    assert_eq!(guess(&pool(&["disk1", "disk2"])), Platform::Unknown);
    // "data-" is not a by-id name, "sdio" prose is a weak word.
    assert_eq!(guess("the data-set on ata is fine\n"), Platform::Unknown);
}

#[test]
fn the_programs_that_tell_the_os_are_the_specs_marked_so() {
    let mut marked: Vec<(&str, Option<Platform>)> = sources::SPECS
        .iter()
        .flat_map(|s| {
            s.programs
                .iter()
                .filter(|p| p.decides_platform)
                .map(|p| (p.name, s.platform))
        })
        .collect();
    marked.sort_by_key(|(n, _)| *n);
    let bsd = Some(Platform::Freebsd);
    let linux = Some(Platform::Linux);
    assert_eq!(
        marked,
        [
            ("atacontrol", bsd),
            ("camcontrol", bsd),
            ("cryptsetup", linux),
            ("diskinfo", bsd),
            ("dmsetup", linux),
            ("geli", bsd),
            ("gpart", bsd),
            ("gstat", bsd),
            ("hdparm", linux),
            ("lsblk", linux),
            ("pciconf", bsd),
            ("sfdisk", linux),
        ]
    );
    assert_eq!(program_platform("journalctl"), linux);
    assert_eq!(program_platform("gpart"), bsd);
    // Declared with a platform, not marked: not counted.
    assert_eq!(program_platform("nvmecontrol"), None);
    assert_eq!(program_platform("dd"), None);
}

#[test]
fn live_keys_match_the_probe_plans() {
    assert_eq!(
        live_key(
            Tool::of(&sources::camcontrol_identify::SPEC),
            Some("ada0"),
            Platform::Freebsd
        )
        .map(|k| k.to_string()),
        Some(crate::sources::camcontrol_identify::SPEC.key_for("ada0"))
    );
    assert_eq!(
        live_key(
            Tool::of(&sources::diskinfo::SPEC),
            Some("/dev/da0"),
            Platform::Freebsd
        )
        .map(|k| k.to_string()),
        Some(crate::sources::diskinfo::SPEC.key_for("da0"))
    );
    assert_eq!(
        live_key(
            Tool::of(&sources::smartctl::JSON_SPEC),
            Some("sda"),
            Platform::Linux
        )
        .map(|k| k.to_string()),
        Some(crate::sources::smartctl::SPEC.key_for("sda"))
    );
    assert_eq!(
        live_key(
            Tool::of(&sources::camcontrol_identify::SPEC),
            None,
            Platform::Freebsd
        ),
        None
    );
}
