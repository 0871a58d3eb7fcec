use super::guard::{base64_cores, hex_lower};
use super::identify::{identify_string, identify_words};
use super::patterns::find_users;
use super::*;
use crate::evidence::SourceKey;

/// Redaction rewrites results through JSON: a NaN rate (JSON null) used to fail the way
/// back and every result of the bundle was dropped.
/// A scratch directory mounted at /mnt itself: the fio line's file is diskdoc's own,
/// not a user's name under /mnt/.
#[test]
fn diskdoc_files_under_mnt_are_nobodys_name() {
    assert!(find_users("--filename=/mnt/diskdoc-write.fio").is_empty());
    assert!(find_users("/mnt/diskdoc-loop0.txt").is_empty());
    // A benchmark directory named after its tool is nobody's name either.
    assert!(find_users("--filename=/mnt/fio --bs=32k").is_empty());
    assert!(find_users("/mnt/bench2/file").is_empty());
    assert_eq!(
        find_users("/mnt/erin/x"),
        vec![(Kind::User, "erin".to_string())]
    );
}

#[test]
fn redaction_keeps_a_result_with_a_nan_rate() {
    let mut b = EvidenceBundle::new(
        crate::evidence::Platform::Linux,
        crate::evidence::Origin::Live,
    );
    b.benchmarks.push(crate::evidence::BenchResult {
        target: "/dev/sdb".into(),
        bytes_per_sec: f64::NAN,
        ..Default::default()
    });
    let r = redact_bundle(&b);
    assert_eq!(r.benchmarks.len(), 1);
    let json = r.to_json();
    assert!(
        json.contains("bytes_per_sec was not a finite number"),
        "{json}"
    );
}
use crate::sources::ata_identify::{encode_string, format_sysfs_id};

/// Values that begin like a token are secrets; only the exact token form is not.
#[test]
fn tokens_are_recognised_only_in_their_exact_form() {
    for t in ["HOST-3", "SERIAL-1", "POOL-12", "GUID-7", "WWN-2"] {
        assert!(is_token(t), "{t}");
    }
    for v in [
        "host-db01",
        "HOST-db01",
        "user-ops",
        "label-finance",
        "HOST-03",
        "HOST-",
        "HOST-3a",
        "XHOST-3",
    ] {
        assert!(!is_token(v), "{v}");
    }
    let mut r = Redactor::new();
    assert_eq!(r.add(Kind::Host, "host-db01").as_deref(), Some("HOST-1"));
    assert_eq!(
        r.add_trusted(Kind::User, "user-ops").as_deref(),
        Some("USER-1")
    );
    assert_eq!(
        r.add_trusted(Kind::Label, "label-finance").as_deref(),
        Some("LABEL-1")
    );
    // A redacted report read again: its tokens are not collected as secrets.
    assert_eq!(r.add(Kind::Host, "HOST-1"), None);
    assert_eq!(
        r.apply("root@host-db01:~# ls /home/user-ops /media/x/label-finance"),
        "root@HOST-1:~# ls /home/USER-1 /media/x/LABEL-1"
    );
}

/// The final check: a secret redaction did not replace fails the output, in each form.
#[test]
fn the_final_check_finds_a_planted_secret_in_every_form() {
    let mut r = Redactor::new();
    r.collect_text("root@host-db01:~# zpool get guid hrpayroll\n");
    r.add_trusted(Kind::Serial, "S5VS NJ0R123456A");
    r.add(Kind::Guid, "12345678901234567890");
    r.add(Kind::Pool, "hrpayroll");
    let clean =
        r.apply("serial S5VS NJ0R123456A on host-db01, pool hrpayroll guid 12345678901234567890");
    assert_eq!(clean, "serial SERIAL-1 on HOST-1, pool POOL-1 guid GUID-1");
    assert_eq!(r.verify(&clean), Ok(()));
    let hex = |s: &str| hex_lower(s.as_bytes());
    let planted = [
        ("host-db01 is up".to_string(), "HOST-1", "as text"),
        ("HOST-DB01".to_string(), "HOST-1", "as text"),
        (format!("read: {}", hex("host-db01")), "HOST-1", "as hex"),
        (
            hex("S5VS NJ0R123456A").to_ascii_uppercase(),
            "SERIAL-1",
            "as hex",
        ),
        (
            "ata-Samsung_SSD_S5VS_NJ0R123456A".to_string(),
            "SERIAL-1",
            "as a by-id name",
        ),
        // "xxhost-db01xx" in base64.
        ("eHhob3N0LWRiMDF4eA==".to_string(), "HOST-1", "as base64"),
        ("tank is hrpayroll/home".to_string(), "POOL-1", "as text"),
        ("guid ab54a98ceb1f0ad2".to_string(), "GUID-1", "as hex"),
        (
            "6800 6f00 7300 74002d00".to_string().replace(' ', "") + "6400620030003100",
            "HOST-1",
            "as UTF-16 hex",
        ),
    ];
    for (out, token, form) in planted {
        let leak = r.verify(&out).expect_err(&out);
        assert_eq!((leak.token.as_str(), leak.form), (token, form), "{out}");
        let msg = leak.to_string();
        assert!(msg.contains("nothing was written") && msg.contains("--no-redact"));
        assert!(!msg.contains("db01") && !msg.contains("NJ0R"), "{msg}");
    }
    // Whole words stay whole words; a token's own letters are no leak.
    assert_eq!(r.verify("host-db01x xhost-db01 POOL-12 GUID-1"), Ok(()));
    // Without a leak the unredacted text passes a redactor that collected nothing.
    assert_eq!(Redactor::new().verify("host-db01"), Ok(()));
}

#[test]
fn base64_cores_are_inside_every_encoding() {
    // RFC 4648 section 10: "foobar" is Zm9vYmFy.
    assert!(base64_cores(b"foobar").contains(&"Zm9vYmFy".to_string()));
    // Shifted by one and two bytes: "xfoobar" = eGZvb2Jhcg==, "xxfoobar" = eHhmb29iYXI=.
    let cores = base64_cores(b"foobar");
    assert!(cores.iter().all(|c| c.len() >= 6), "{cores:?}");
    assert!("eGZvb2Jhcg==".contains(&cores[1]), "{cores:?}");
    assert!("eHhmb29iYXI=".contains(&cores[2]), "{cores:?}");
}

#[test]
fn labelled_lines_yield_secrets() {
    let mut r = Redactor::new();
    r.collect_text(
        "Serial Number:    WD-WCAS87154115\n\
         serial number         5VH0322Y\n\
         WWN                   5000c50017f4f8d9\n\
         LU WWN Device Id: 5 000c50 017f4f8d9\n\
         Serial Number:    --\n\
         da0: Serial Number...\n\
         ada0: Serial Number E0D55EA5359C1750989B07F6\n\
         \t\"serial\": \"S3Z9NB0K123456\",\n\
         root@heckler:/home/dan # dd if=/dev/zero\n\
         ether 00:1b:21:3a:4f:9c\n",
    );
    let out = r.apply(
        "WD-WCAS87154115 5VH0322Y 5000c50017f4f8d9 0x5000C50017F4F8D9 5 000c50 017f4f8d9 \
         E0D55EA5359C1750989B07F6 S3Z9NB0K123456 heckler /home/dan/x 00:1B:21:3A:4F:9C",
    );
    assert_eq!(
        out,
        "SERIAL-1 SERIAL-2 WWN-1 0xWWN-1 WWN-1 SERIAL-3 SERIAL-4 HOST-1 /home/USER-1/x MAC-1"
    );
}

/// The coverage list, one line each.
#[test]
fn coverage_list() {
    let mut r = Redactor::new();
    r.collect_text(
        "usb 2-1: SerialNumber: 4C530001230712101134\n\
         virtio_blk virtio2: [vdb] serial=QM00005ab\n\
         ada1: Serial Number WD-WX11A\n\
         eui64     : 0025388b71b1c8e1\n\
         nguid     : 36344630525055130025384500000001\n\
         SAS address = 0x5000c500a1b2c3d4\n\
         Dec  1 09:25:23 fileserver7 kernel: sd 0:0:0:0: [sda] 4096-byte physical blocks\n\
         [dan@workbox ~]$ sudo -u carol dd if=/dev/sda of=/mnt/erin/x\n\
         mounted at /media/frank/VacationPics and /Volumes/gwen-disk\n\
         /dev/sdb1: LABEL=\"alice-taxes-2026\" UUID=\"0d3c5c2e-1b7a-4f8e-9a4b-2c1d0e9f8a7b\"\n\
         EXT4-fs (sdb1): mounted filesystem 0d3c5c2e-1b7a-4f8e-9a4b-2c1d0e9f8a7b r/w\n\
         root=PARTUUID=11112222-3333-4444-5555-666677778888 ro\n\
         /dev/disk/by-label/My\\x20Stuff -> ../../sdc1\n\
         GPT type c12a7328-f81f-11d2-ba4b-00a0c93ec93b stays\n\
         root@nas4 /home/hank# ls\n\
         <ident>ZA1B2C3D</ident><lunid>5000c500deadbeef</lunid><label>ivy-backup</label>\n",
    );
    let mut t: Vec<String> = r
        .tokens()
        .iter()
        .map(|((k, v), tok)| format!("{k:?} {v} {tok}"))
        .collect();
    t.sort();
    let want = [
        "Host fileserver7",
        "Host nas4",
        "Label ivy-backup",
        "Serial ZA1B2C3D",
        "User hank",
        "Wwn 5000c500deadbeef",
        "Host workbox",
        "Label My Stuff",
        "Label VacationPics",
        "Label alice-taxes-2026",
        "Serial 4C530001230712101134",
        "Serial QM00005ab",
        "Serial WD-WX11A",
        "User carol",
        "User dan",
        "User erin",
        "User frank",
        "User gwen-disk",
        "Uuid 0d3c5c2e-1b7a-4f8e-9a4b-2c1d0e9f8a7b",
        "Uuid 11112222-3333-4444-5555-666677778888",
        "Wwn 0025388b71b1c8e1",
        "Wwn 36344630525055130025384500000001",
        "Wwn 5000c500a1b2c3d4",
    ];
    for w in want {
        assert!(
            t.iter().any(|x| x.starts_with(w)),
            "{w} missing from {t:#?}"
        );
    }
    let mut plain = Redactor::new();
    plain.collect_text("mounted /mnt/data2 /mnt/usb1 /mnt/sdb1 /media/cdrom /mnt/disk-3\n");
    assert!(plain.tokens().is_empty(), "{:?}", plain.tokens());
    assert!(
        !t.iter().any(|x| x.contains("c12a7328")),
        "a GPT type GUID is not a secret: {t:#?}"
    );
    let out = r.apply("cd /mnt/erin; ls /srv/carol; echo frank; /media/frank/VacationPics");
    let tok = |k: Kind, v: &str| r.tokens()[&(k, v.to_string())].clone();
    let (erin, carol, frank) = (
        tok(Kind::User, "erin"),
        tok(Kind::User, "carol"),
        tok(Kind::User, "frank"),
    );
    let pics = tok(Kind::Label, "VacationPics");
    assert_eq!(
        out,
        format!("cd /mnt/{erin}; ls /srv/{carol}; echo {frank}; /media/{frank}/{pics}")
    );
}

#[test]
fn serials_without_digits_count_where_only_a_serial_stands() {
    let mut b = EvidenceBundle::new(crate::evidence::Platform::Linux, Default::default());
    b.insert(
        &SourceKey::file("/sys/block/vda/serial"),
        Capture::ok("overlayblk\n"),
    );
    b.insert(
        &SourceKey::cmd(&["dmesg"]),
        Capture::ok("virtio_blk virtio1: [vda] 536870912 512-byte logical blocks (overlayblk)\n"),
    );
    let mut r = Redactor::new();
    r.collect_bundle(&b);
    let out = r.apply_bundle(&b);
    assert!(!out.to_json().contains("overlayblk"), "{}", out.to_json());
    // In prose, a word without digits after "serial number" stays a word.
    let mut r = Redactor::new();
    r.collect_text("the serial number is unknown\nSerial Number    blah\n");
    assert!(r.tokens().is_empty(), "{:?}", r.tokens());
}

#[test]
fn device_reads_are_cut_and_their_names_redacted() {
    use crate::sources::partition_table::{gpt_names, parse};
    let mut img = crate::sources::partition_table::testimg::gpt(
        512,
        &[(
            "0fc63daf-8483-4772-8e79-3d69d8477de4",
            2048,
            4095,
            "alice-taxes",
        )],
    );
    img[..440].fill(0xCC); // boot code
    let key = SourceKey::DeviceRead {
        device: "/dev/sda".into(),
        offset: 0,
        len: img.len() as u64,
    };
    let mut r = Redactor::new();
    let data = redact_one(&mut r, &key, &crate::evidence::hex_encode(&img));
    let bytes = hex_decode(&data).unwrap();
    assert_eq!(bytes.len(), img.len());
    assert_eq!(gpt_names(&bytes), vec!["LABEL-1".to_string()]);
    assert!(bytes[..446].iter().all(|&b| b == 0));
    let (a, b) = (parse(&img, 512).unwrap(), parse(&bytes, 512).unwrap());
    assert_eq!(a.partitions, b.partitions);
    assert_eq!(b.notes, vec!["partition 1 label \"LABEL-1\"".to_string()]);
    assert!(data.len() < 1200, "sparse: {} chars", data.len());
}

#[test]
fn placeholders_and_prose_are_not_secrets() {
    let mut r = Redactor::new();
    r.collect_text(
        "serial number         ********\nWWN                   ****************\n\
         the serial number is unknown\nSerial Number:    --\n\
         NetLabel:  domain hash size = 128\n\
         re-joined 1 line(s) that a mail client had wrapped at ~72 columns\n\
         mounted /mnt/ext and /mnt/zfs0\n",
    );
    assert!(r.tokens().is_empty(), "{:?}", r.tokens());
}

#[test]
fn short_host_names_only_where_a_host_name_stands() {
    let mut r = Redactor::new();
    r.add(Kind::Host, "vm");
    assert_eq!(r.apply("vm\n"), "HOST-1\n");
    assert_eq!(
        r.apply("root@vm:~# cat /proc/sys/vm/dirty_ratio"),
        "root@HOST-1:~# cat /proc/sys/vm/dirty_ratio"
    );
    assert_eq!(
        r.apply("Linux vm 6.1.0 #1 SMP x86_64 GNU/Linux"),
        "Linux HOST-1 6.1.0 #1 SMP x86_64 GNU/Linux"
    );
    assert_eq!(r.apply("vm.swappiness: 60"), "vm.swappiness: 60");
}

#[test]
fn host_names_match_whole_words_only() {
    let mut r = Redactor::new();
    r.add(Kind::Host, "nas.example.org");
    assert_eq!(
        r.apply("nas nasty nas.example.org (nas)"),
        "HOST-1 nasty HOST-1 (HOST-1)"
    );
}

/// Redact a one-capture bundle with `r` and return the rewritten capture's text.
fn redact_one(r: &mut Redactor, key: &crate::evidence::SourceKey, text: &str) -> String {
    let mut b = EvidenceBundle::new(crate::evidence::Platform::Linux, Default::default());
    b.insert(key, Capture::ok(text));
    r.collect_bundle(&b);
    let out = r.apply_bundle(&b);
    out.captures
        .values()
        .next()
        .and_then(Capture::data)
        .unwrap()
        .to_string()
}

#[test]
fn identify_words_are_rewritten_and_checksummed() {
    let mut words = vec![0u16; 256];
    words[10..20].copy_from_slice(&encode_string(&format!("{:>20}", "WD-WCAS87154115"), 10));
    words[108] = 0x5000;
    words[109] = 0xc500;
    words[110] = 0x17f4;
    words[111] = 0xf8d9;
    words[255] = 0x00a5;
    let text = format_sysfs_id(&words);
    let mut r = Redactor::new();
    let data = redact_one(
        &mut r,
        &crate::evidence::SourceKey::file("/sys/class/ata_device/dev1.0/id"),
        &text,
    );
    let w = identify_words(&data).unwrap();
    assert_eq!(identify_string(&w, 10, 20).as_deref(), Some("SERIAL-1"));
    assert_eq!(&w[108..112], &[0, 0, 0, 0]);
    let sum: u32 = w.iter().map(|x| (x & 0xff) as u32 + (x >> 8) as u32).sum();
    assert_eq!(sum % 256, 0);
}

#[test]
fn smartctl_json_numeric_wwn_is_zeroed() {
    let json =
        r#"{"serial_number": "WD-WMC1F0D1234", "wwn": {"naa": 5, "oui": 5358, "id": 11111111111}}"#;
    let mut r = Redactor::new();
    let data = redact_one(
        &mut r,
        &crate::evidence::SourceKey::cmd(&["smartctl", "-j", "-a", "/dev/sda"]),
        json,
    );
    assert!(
        !data.contains("WD-WMC1F0D1234") && !data.contains("11111111111"),
        "{data}"
    );
    assert!(data.contains("SERIAL-1"), "{data}");
    assert_eq!(r.tokens().len(), 2);
}

/// Redaction is linear in the text, not in text x secrets: 32k distinct serials
/// over 32k captured lines took 5.6 s in a release build before (every string searched
/// for every needle); one Aho-Corasick scan per string makes it well under a second.
#[test]
fn many_distinct_serials_redact_in_linear_time() {
    let n = 32_768;
    let mut red = Redactor::new();
    let serials: Vec<String> = (0..n).map(|i| format!("ZX{i:08}Q")).collect();
    for s in &serials {
        assert!(red.add(Kind::Serial, s).is_some());
    }
    let lines: Vec<String> = serials
        .iter()
        .map(|s| format!("Serial Number:    {s}  (disk on port 3)"))
        .collect();
    let t = std::time::Instant::now();
    let out: Vec<String> = lines.iter().map(|l| red.apply(l)).collect();
    let took = t.elapsed();
    for (o, s) in out.iter().zip(&serials) {
        assert!(!o.contains(s.as_str()), "{o}");
        assert!(o.contains("SERIAL-"), "{o}");
    }
    // Same tokens as one sequential pass would give: the first serial is SERIAL-1.
    assert_eq!(out[0], "Serial Number:    SERIAL-1  (disk on port 3)");
    assert!(took < std::time::Duration::from_secs(5), "{took:?}");
    eprintln!("redacted {n} lines against {n} serials in {took:?}");
    // Registering 32k distinct WWNs was quadratic too (each searched every token for a
    // WWN containing it): 153 s in a debug build. A fragment still finds its WWN.
    let t = std::time::Instant::now();
    for i in 0..n as u64 {
        assert!(red.add(Kind::Wwn, &format!("0x5000c500{i:08x}")).is_some());
    }
    let took = t.elapsed();
    assert!(took < std::time::Duration::from_secs(5), "{took:?}");
    let whole = red.add(Kind::Wwn, "0x5000c5000000002a").unwrap();
    assert_eq!(red.add(Kind::Wwn, "c5000000002a"), Some(whole));
}

/// udisks' /media/USER/LABEL: the label is the component right after the user's, never a
/// word further on (a prompt "/media/usb_2TB# dd of=/dev/x" made "dev" a label, and the final
/// check then refused every output that says /dev).
#[test]
fn media_label_only_directly_after_the_user() {
    let found = super::patterns::find_users("root@h:/media/usb_2TB# dd if=/dev/urandom of=x");
    assert!(found.iter().all(|(k, _)| *k != Kind::Label), "{found:?}");
    let found = super::patterns::find_users("mounted at /media/frank/VacationPics now");
    assert!(
        found
            .iter()
            .any(|(k, n)| *k == Kind::Label && n == "VacationPics"),
        "{found:?}"
    );
}

/// "host" typed over a host name in a prompt is a placeholder, not a secret: the word is
/// diskdoc's own, and the final check refused the HTML answer over it.
#[test]
fn host_as_a_prompt_placeholder_is_no_secret() {
    assert!(super::placeholders::is_placeholder("host"));
    assert!(!super::placeholders::is_placeholder("host-db01"));
}
