//! Redaction by structure and the final check (docs: crates/core/src/report/redact.rs):
//! - secrets that only their source's layout locates (ZFS pool names and GUIDs, the
//!   serial/WWN parts of /dev/disk/by-id and vdev names, hdparm's "Unique ID", lsusb's
//!   "iSerial") and values that begin like a token (`host-db01`) leave no output of
//!   `explain`, in any format, unless `--no-redact`;
//! - redaction changes no diagnosis: over the scored and the reviewed corpus and every tool
//!   fixture the findings (check, verdict, severity) of the redacted outputs are those of
//!   the unredacted explanation, and no rendering trips the final check (no false alarm);
//! - a live `check` on a host named `host-db01` (a UTS namespace, root only) carries no
//!   host name in its text, JSON, Prometheus output or evidence bundle.

use crate::support;
use std::path::{Path, PathBuf};
use std::process::Command;

use diskdoc_core::explain::{Input, explain, render};
use diskdoc_core::report::{self, Pasted, Report, redact};

/// A paste of each structural secret: two zpool status (by-id vdevs, then -g GUIDs), zpool
/// get guid and ashift, hdparm -I with its WWN split into "Unique ID", lsusb -v's iSerial,
/// prompts of a host and a user that begin like tokens, a blkid label, a by-id listing.
const PASTE: &str = "\
$ zpool status
  pool: hrpayroll
 state: ONLINE
  scan: scrub repaired 0B in 00:10:11 with 0 errors on Sun Nov 29 00:34:12 2026
config:

\tNAME                                          STATE     READ WRITE CKSUM
\thrpayroll                                     ONLINE       0     0     0
\t  mirror-0                                    ONLINE       0     0     0
\t    ata-WDC_WD40EFRX-68N32N0_WD-WCC7K1234567  ONLINE       0     0     0
\t    ata-WDC_WD40EFRX-68N32N0_WD-WCC7K7654321  ONLINE       0     0     0

errors: No known data errors
$ zpool get guid hrpayroll
NAME       PROPERTY  VALUE                 SOURCE
hrpayroll  guid      12345678901234567890  -
$ zpool status -g
  pool: hrpayroll
 state: ONLINE
config:

\tNAME                      STATE     READ WRITE CKSUM
\thrpayroll                 ONLINE       0     0     0
\t  4112233445566778899     ONLINE       0     0     0
\t    9988776655443322110   ONLINE       0     0     0
\t    1029384756102938475   ONLINE       0     0     0
$ zpool get ashift hrpayroll
NAME       PROPERTY  VALUE   SOURCE
hrpayroll  ashift    9       local
# hdparm -I /dev/sda

/dev/sda:

ATA device, with non-removable media
\tModel Number:       WDC WD40EFRX-68N32N0
\tSerial Number:      WD-WCC7K1234567
\tFirmware Revision:  82.00A82
\tTransport:          Serial, SATA 1.0a, SATA II Extensions, SATA Rev 2.5, SATA Rev 2.6, SATA Rev 3.0
Configuration:
\tLogical  Sector size:                   512 bytes
\tPhysical Sector size:                  4096 bytes
\tNominal Media Rotation Rate: 5400
Commands/features:
\tEnabled\tSupported:
\t   *\tWrite cache
Logical Unit WWN Device Identifier: 50014ee2b9e8a7c6
\tNAA\t\t: 5
\tIEEE OUI\t: 0014ee
\tUnique ID\t: 2b9e8a7c6
Checksum: correct
# lsusb -v -d 0781:5581 | grep -i serial
  iSerial                 3 4C530001234567891234
root@host-db01:~# hdparm -W /dev/sda

/dev/sda:
 write-caching =  0 (off)
root@host-db01:~# ls /home/user-ops
root@host-db01:~# blkid /dev/sdb1
/dev/sdb1: LABEL=\"label-finance\" TYPE=\"ext4\"
root@host-db01:~# ls -l /dev/disk/by-id/
lrwxrwxrwx 1 root root  9 Dec  1 09:00 ata-Samsung_SSD_860_EVO_1TB_S5VSNJ0R123456A -> ../../sda
lrwxrwxrwx 1 root root 13 Dec  1 09:00 nvme-eui.0025388b91b2c5a1 -> ../../nvme0n1
lrwxrwxrwx 1 root root  9 Dec  1 09:00 wwn-0x5000c500a1b2c3d4 -> ../../sdb
lrwxrwxrwx 1 root root  9 Dec  1 09:00 usb-SanDisk_Ultra_4C530001234567891234-0:0 -> ../../sdc
";

/// (what, the secret as the paste prints it).
const SECRETS: &[(&str, &str)] = &[
    ("pool name", "hrpayroll"),
    ("pool GUID", "12345678901234567890"),
    ("vdev GUID", "4112233445566778899"),
    ("vdev GUID", "9988776655443322110"),
    ("vdev GUID", "1029384756102938475"),
    ("vdev serial", "WD-WCC7K1234567"),
    ("vdev serial", "WD-WCC7K7654321"),
    ("by-id serial", "S5VSNJ0R123456A"),
    ("by-id EUI-64", "0025388b91b2c5a1"),
    ("by-id WWN", "5000c500a1b2c3d4"),
    ("by-id / iSerial USB serial", "4C530001234567891234"),
    ("hdparm WWN", "50014ee2b9e8a7c6"),
    ("hdparm Unique ID", "2b9e8a7c6"),
    ("host like a token", "host-db01"),
    ("user like a token", "user-ops"),
    ("label like a token", "label-finance"),
];

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_diskdoc")
}

/// `diskdoc explain --format FORMAT FILE [extra]`: stdout (exit 0 or 1 only).
fn explain_cli(file: &Path, format: &str, extra: &[&str]) -> String {
    let mut cmd = Command::new(bin());
    cmd.args(["explain", "--format", format])
        .args(extra)
        .arg(file);
    support::stdout_of_0_or_1(&mut cmd)
}

fn found(hay: &str, secret: &str) -> bool {
    hay.to_ascii_lowercase()
        .contains(&secret.to_ascii_lowercase())
}

#[test]
fn explain_in_every_format_carries_no_structural_secret() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("paste.txt");
    std::fs::write(&file, PASTE).unwrap();
    let mut leaks = Vec::new();
    let mut raw_all = String::new();
    for format in ["text", "markdown", "json", "prometheus"] {
        let red = explain_cli(&file, format, &[]);
        let raw = explain_cli(&file, format, &["--no-redact"]);
        assert!(!red.trim().is_empty(), "{format}: empty output");
        for (what, secret) in SECRETS {
            if found(&red, secret) {
                leaks.push(format!("{format}: {what} {secret}"));
            }
        }
        if format == "prometheus" {
            // The pool is the `device` label of its finding: a token, or the name itself.
            assert!(red.contains("device=\"POOL-1\""), "{red}");
            assert!(raw.contains("device=\"hrpayroll\""), "{raw}");
        }
        if format == "json" {
            // The useful part stays: model and link kind beside the serial's token.
            for kept in [
                "ata-Samsung_SSD_860_EVO_1TB_SERIAL-",
                "ata-WDC_WD40EFRX-68N32N0_SERIAL-",
                "nvme-eui.WWN-",
                "wwn-0xWWN-",
                "usb-SanDisk_Ultra_SERIAL-",
                "pool: POOL-1",
                "root@HOST-1",
                "/home/USER-1",
            ] {
                assert!(red.contains(kept), "json lacks {kept:?}");
            }
            // One secret, one token: the vdev's serial is hdparm's, the Unique ID is the
            // tail of the WWN, the usb by-id serial is lsusb's iSerial.
            let v: serde_json::Value = serde_json::from_str(&red).unwrap();
            let pasted = v["pasted"][0]["text"].as_str().unwrap();
            let token_after = |label: &str| {
                let i = pasted.find(label).unwrap() + label.len();
                pasted[i..]
                    .trim_start_matches([' ', '\t', ':'])
                    .split_whitespace()
                    .next()
                    .unwrap()
                    .to_string()
            };
            assert_eq!(
                token_after("Serial Number:"),
                token_after("ata-WDC_WD40EFRX-68N32N0_")
            );
            assert_eq!(
                token_after("Unique ID"),
                token_after("WWN Device Identifier:")
            );
            assert_eq!(
                token_after("iSerial                 3"),
                token_after("usb-SanDisk_Ultra_").trim_end_matches("-0:0")
            );
        }
        raw_all.push_str(&raw);
    }
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
    // With --no-redact every secret is there (so the test above can fail).
    for (what, secret) in SECRETS {
        assert!(found(&raw_all, secret), "--no-redact lost {what} {secret}");
    }
}

/// (name, text) of every scored corpus entry (explain's corpus test reads the same) and
/// every output of the reviewed corpus and the tool fixtures.
fn texts() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = crate::explain::corpus()
        .into_iter()
        .map(|e| (e.name, e.text))
        .collect();
    let root = PathBuf::from(support::manifest("tests/fixtures"));
    let dirs: Vec<PathBuf> = ["corpus-reviewed", "freebsd", "linux", "other"]
        .iter()
        .map(|d| root.join(d))
        .collect();
    let files = support::txt_files(&dirs);
    out.extend(files.into_iter().map(|p| {
        let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
        (p.strip_prefix(&root).unwrap().display().to_string(), text)
    }));
    out
}

type Diagnosis = Vec<(String, String, String)>;

fn diagnosis(findings: &[diskdoc_core::checks::Finding]) -> Diagnosis {
    let mut v: Diagnosis = findings
        .iter()
        .map(|f| {
            (
                f.check.clone(),
                format!("{:?}", f.verdict),
                format!("{:?}", f.severity),
            )
        })
        .collect();
    v.sort();
    v
}

/// Redaction changes no finding, and the final check raises no false alarm, over every
/// real output diskdoc is scored on.
#[test]
fn redaction_changes_no_diagnosis_and_the_final_check_passes_real_outputs() {
    let texts = texts();
    assert!(texts.len() > 300, "only {} texts", texts.len());
    let (mut n, mut with_findings) = (0, 0);
    let mut failures = Vec::new();
    for (name, text) in &texts {
        let Ok(ex) = explain(&[Input {
            label: "paste".into(),
            bytes: text.as_bytes().to_vec(),
        }]) else {
            continue;
        };
        n += 1;
        let want = diagnosis(&ex.findings);
        if want.iter().any(|(_, v, _)| v == "Problem") {
            with_findings += 1;
        }
        let (shared_ex, red) = redact::share_explanation(&ex);
        if diagnosis(&shared_ex.findings) != want {
            failures.push(format!("{name}: redacted explanation's findings differ"));
        }
        for (form, out) in [
            ("text", render::render_text(&shared_ex)),
            ("markdown", render::render_markdown(&shared_ex)),
        ] {
            if let Err(e) = red.verify(&out) {
                failures.push(format!("{name} {form}: {e}"));
            }
        }
        let pasted = vec![Pasted {
            label: "paste".into(),
            text: text.clone(),
        }];
        let shared = Report::from_explanation(ex, pasted, vec!["diskdoc".into()]).share(true);
        if diagnosis(&shared.report.findings) != want {
            failures.push(format!("{name}: redacted report's findings differ"));
        }
        for (form, r) in [
            ("json", shared.render(report::json::render)),
            ("prometheus", shared.render(report::prometheus::render)),
            ("html", report::html::render_shared(&shared)),
        ] {
            if let Err(e) = r {
                failures.push(format!("{name} {form}: {e}"));
            }
        }
    }
    eprintln!(
        "{n} real outputs explained ({with_findings} with a problem found): redacted findings \
         identical, final check passed, {} failures",
        failures.len()
    );
    assert!(n > 300, "only {n} outputs explained");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

const HOST: &str = "host-db01";

fn can_run_live(test: &str) -> bool {
    let why = if !nix::unistd::geteuid().is_root() {
        Some("not root (a UTS namespace needs CAP_SYS_ADMIN)")
    } else if Command::new("unshare").arg("--version").output().is_err() {
        Some("unshare is not installed")
    } else {
        None
    };
    support::capable(test, why)
}

/// The binary in a UTS namespace named HOST: (exit code, stdout, stderr).
fn in_namespace(args: &[&str]) -> (i32, String, String) {
    let out = support::in_uts(HOST, bin(), args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A host named like a token (`host-db01` starts as `HOST-1` does) was kept by redaction:
/// now `check` in every format and its evidence bundle carry no host name.
#[test]
fn live_check_on_a_host_named_like_a_token_carries_no_host_name() {
    if !can_run_live("live_check_on_a_host_named_like_a_token_carries_no_host_name") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("evidence.json");
    let ev_s = ev.to_str().unwrap();
    let mut seen_raw = false;
    for (format, redact) in [
        ("json", true),
        ("text", true),
        ("markdown", true),
        ("prometheus", true),
        ("json", false),
    ] {
        let mut args = vec!["check", "--format", format, "--evidence-out", ev_s];
        if !redact {
            args.push("--no-redact");
        }
        let (code, out, err) = in_namespace(&args);
        assert!(
            code == 0 || code == 1,
            "check {args:?} exited {code}: {err}"
        );
        assert!(!out.trim().is_empty(), "check {args:?} printed nothing");
        let bundle = std::fs::read_to_string(&ev).unwrap();
        std::fs::remove_file(&ev).unwrap();
        if redact {
            assert!(
                !out.contains(HOST),
                "check --format {format} carries {HOST}"
            );
            assert!(!bundle.contains(HOST), "the evidence bundle carries {HOST}");
            if format == "json" {
                assert!(out.contains("HOST-1"), "no host token in check --json");
            }
        } else {
            // The converse: the host name was there to leak.
            seen_raw = out.contains(HOST) && bundle.contains(HOST);
        }
    }
    assert!(seen_raw, "check --no-redact does not show {HOST}");
}
