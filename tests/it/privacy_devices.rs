//! Issue 15 "Private by default", its done-when as a test: a loop device holding ext4 with a
//! chosen label and UUID, mounted under a home directory (/home/USER/mnt), probed by the
//! built binary in a UTS namespace with a chosen host name. Every command in every format,
//! the wizard's reports and the evidence bundles contain neither the label, the UUID, the
//! host name, the user name nor a serial of the machine, also not hex-encoded inside a
//! device read; with `--no-redact` the secrets are there (so the test can fail).
//!
//! Needs root, loop devices, mkfs.ext4, mount and unshare. Without them the test prints why
//! it skips, unless CI=true, where a missing capability is a failure.
//!
//! `DISKDOC_PRIVACY_BIN=/path/to/diskdoc DISKDOC_PRIVACY_MEASURE=1` runs the same commands
//! with another build and only prints the leak table (how issue 15's before/after was
//! measured).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::support;
use support::run;

const LABEL: &str = "alice-taxes-26";
const UUID: &str = "5f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f";
const HOST: &str = "pinecone-lab7";
const USER: &str = "alice-dd15";

fn bin() -> String {
    std::env::var("DISKDOC_PRIVACY_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_diskdoc").into())
}

fn measuring() -> bool {
    std::env::var("DISKDOC_PRIVACY_MEASURE").is_ok_and(|v| v == "1")
}

fn tool_missing(cmd: &str, arg: &str) -> bool {
    Command::new(cmd).arg(arg).output().is_err()
}

/// True when the test can run; otherwise prints why it skips (or fails under CI).
fn can_run(test: &str) -> bool {
    let why = if !nix::unistd::geteuid().is_root() {
        Some("not root")
    } else if !Path::new("/dev/loop-control").exists() {
        Some("no /dev/loop-control (loop module not loaded)")
    } else if tool_missing("losetup", "--version") {
        Some("losetup is not installed")
    } else if tool_missing("mkfs.ext4", "-V") {
        Some("mkfs.ext4 is not installed")
    } else if tool_missing("unshare", "--version") {
        Some("unshare is not installed")
    } else if Path::new(&format!("/home/{USER}")).exists() {
        Some("/home/alice-dd15 exists already (a previous run was killed?)")
    } else {
        None
    };
    support::capable(test, why)
}

/// ext4 labelled LABEL with UUID on a loop device, mounted at /home/USER/mnt; all undone on
/// drop, even on panic.
struct Secrets {
    dev: String,
    home: PathBuf,
    mnt: PathBuf,
    _dir: tempfile::TempDir,
}

impl Secrets {
    fn new() -> Secrets {
        let dir = tempfile::tempdir().unwrap();
        let img = dir.path().join("disk.img");
        std::fs::File::create_new(&img)
            .unwrap()
            .set_len(64 << 20)
            .unwrap();
        let dev = run("losetup", &["--find", "--show", img.to_str().unwrap()])
            .trim()
            .to_string();
        assert!(dev.starts_with("/dev/loop"), "{dev}");
        let home = PathBuf::from(format!("/home/{USER}"));
        let mnt = home.join("mnt");
        let s = Secrets {
            dev,
            home,
            mnt,
            _dir: dir,
        };
        run("mkfs.ext4", &["-q", "-F", "-L", LABEL, "-U", UUID, &s.dev]);
        std::fs::create_dir_all(&s.mnt).unwrap();
        run("mount", &[&s.dev, s.mnt.to_str().unwrap()]);
        std::fs::write(s.mnt.join("notes.txt"), "taxes").unwrap();
        s
    }
    fn name(&self) -> &str {
        self.dev.trim_start_matches("/dev/")
    }
}

impl Drop for Secrets {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.mnt).output();
        let _ = Command::new("losetup").args(["-d", &self.dev]).output();
        let _ = std::fs::remove_dir_all(&self.home);
    }
}

/// Run the binary in a UTS namespace named HOST, in `cwd`; stdout (any exit status: check
/// exits 1 with findings).
fn diskdoc(cwd: &Path, args: &[&str]) -> String {
    let bin = bin();
    let mut cmd = support::in_uts(HOST, &bin, args);
    cmd.current_dir(cwd);
    support::stdout_of_0_or_1(&mut cmd)
}

/// What to look for: each secret as text, and the UUID as it sits in a superblock.
fn needles(serials: &[String]) -> Vec<(String, String)> {
    let bare: String = UUID.chars().filter(|c| *c != '-').collect();
    let hex = |s: &str| s.bytes().map(|b| format!("{b:02x}")).collect::<String>();
    let mut n = vec![
        ("label".to_string(), LABEL.to_string()),
        ("label".to_string(), hex(LABEL)),
        ("uuid".to_string(), UUID.to_string()),
        ("uuid".to_string(), bare),
        ("host".to_string(), HOST.to_string()),
        ("host".to_string(), hex(HOST)),
        ("user".to_string(), USER.to_string()),
        ("user".to_string(), hex(USER)),
    ];
    n.extend(serials.iter().map(|s| ("serial".to_string(), s.clone())));
    n
}

/// Leaks in one output: each needle counted case-insensitively, in the text and in every
/// hex payload of device reads (decoded, plain or sparse).
fn leaks(text: &str, needles: &[(String, String)]) -> Vec<String> {
    let mut hay = text.to_ascii_lowercase();
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        decoded_reads(&v, &mut hay);
    }
    let mut per_kind: Vec<(&str, usize)> = Vec::new();
    for (kind, n) in needles {
        let c = hay.matches(&n.to_ascii_lowercase()).count();
        match per_kind.iter_mut().find(|(k, _)| k == kind) {
            Some((_, t)) => *t += c,
            None => per_kind.push((kind, c)),
        }
    }
    per_kind
        .iter()
        .filter(|(_, c)| *c > 0)
        .map(|(k, c)| format!("{k} x{c}"))
        .collect()
}

fn decoded_reads(v: &Value, hay: &mut String) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k.starts_with("read:")
                    && let Some(d) = x.get("data").and_then(Value::as_str)
                    && let Some(bytes) = diskdoc_core::evidence::hex_decode(d)
                {
                    hay.push('\n');
                    hay.push_str(&String::from_utf8_lossy(&bytes).to_ascii_lowercase());
                    hay.push('\n');
                    hay.push_str(&diskdoc_core::evidence::hex_encode(&bytes));
                }
                decoded_reads(x, hay);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| decoded_reads(x, hay)),
        _ => {}
    }
}

/// The serial numbers the machine's disks report (none on most VMs).
fn machine_serials(scan_json: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(scan_json).unwrap_or(Value::Null);
    let disks = v
        .get("disks")
        .or_else(|| v.pointer("/facts/disks"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    disks
        .iter()
        .filter_map(|d| d.pointer("/serial/value").and_then(Value::as_str))
        .filter(|s| s.len() >= 4)
        .map(str::to_string)
        .collect()
}

#[test]
#[cfg_attr(
    not(any(diskdoc_ci, diskdoc_root)),
    ignore = "needs root and real devices (loop, zram, tmux): runs as root or with CI=true"
)]
fn no_output_carries_label_uuid_host_user_or_serial() {
    if !can_run("no_output_carries_label_uuid_host_user_or_serial") {
        return;
    }
    let s = Secrets::new();
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let f = |n: &str| w.join(n).to_str().unwrap().to_string();
    let dev = s.name().to_string();
    let serials = machine_serials(&diskdoc(w, &["scan", "--json", "--no-redact"]));
    let needles = needles(&serials);

    // One raw (unredacted) report and bundle for replay and compare, made first.
    let raw_report = f("raw-report.json");
    let raw = diskdoc(
        w,
        &[
            "--device",
            &dev,
            "--yes",
            "--no-bench",
            "--json",
            "--no-redact",
        ],
    );
    std::fs::write(&raw_report, &raw).unwrap();
    let raw_bundle = f("raw-bundle.json");
    diskdoc(
        w,
        &[
            "scan",
            "--device",
            &dev,
            "--no-redact",
            "--evidence-out",
            &raw_bundle,
        ],
    );
    let paste = f("paste.txt");
    std::fs::write(&paste, paste_text(&s)).unwrap();

    // (name, args, files the command writes)
    let mut cases: Vec<(String, Vec<String>, Vec<String>)> = Vec::new();
    let mut case = |name: &str, args: &[&str], files: &[&str]| {
        cases.push((
            name.to_string(),
            args.iter().map(|a| a.to_string()).collect(),
            files.iter().map(|a| a.to_string()).collect(),
        ));
    };
    let ev = f("ev.json");
    let rep = f("report.txt");
    let rep_json = f("report.json");
    case("scan text", &["scan", "--device", &dev], &[]);
    case("scan json", &["scan", "--device", &dev, "--json"], &[]);
    case("scan json (all disks)", &["scan", "--json"], &[]);
    case(
        "scan --evidence-out",
        &["scan", "--device", &dev, "--evidence-out", &ev],
        &[&ev],
    );
    case("check text", &["check", "--device", &dev], &[]);
    case("check json", &["check", "--device", &dev, "--json"], &[]);
    case(
        "check markdown",
        &["check", "--device", &dev, "--format", "markdown"],
        &[],
    );
    case(
        "check prometheus",
        &["check", "--device", &dev, "--format", "prometheus"],
        &[],
    );
    case(
        "check html",
        &["check", "--device", &dev, "--format", "html"],
        &[],
    );
    case(
        "check --evidence-out",
        &["check", "--device", &dev, "--evidence-out", &ev],
        &[&ev],
    );
    let bench = [
        "bench", "--device", &dev, "--tests", "seq", "--quick", "--budget", "0.3",
    ];
    case("bench text", &bench, &[]);
    let mut bench_json = bench.to_vec();
    bench_json.push("--json");
    case("bench json", &bench_json, &[]);
    let mut bench_ev = bench.to_vec();
    bench_ev.extend(["--evidence-out", &ev]);
    case("bench --evidence-out", &bench_ev, &[&ev]);
    let mnt = s.mnt.to_str().unwrap().to_string();
    let write = [
        "bench", "--device", &dev, "--tests", "write", "--quick", "--budget", "0.3",
    ];
    let mut write = write.to_vec();
    write.extend(["--scratch-dir", &mnt]);
    case("bench write text", &write, &[]);
    let mut write_json = write.clone();
    write_json.push("--json");
    case("bench write json", &write_json, &[]);
    case(
        "wizard --yes --json",
        &["--device", &dev, "--yes", "--no-bench", "--json"],
        &[],
    );
    case(
        "wizard --yes --report",
        &["--device", &dev, "--yes", "--no-bench", "--report", &rep],
        &[&rep, &rep_json],
    );
    case(
        "wizard --yes --report (all disks)",
        &["--yes", "--no-bench", "--report", &rep],
        &[&rep, &rep_json],
    );
    // The one command surface: every command takes text, markdown, json, prometheus and html.
    for fmt in ["text", "markdown", "json", "prometheus", "html"] {
        case(
            &format!("replay report {fmt}"),
            &["replay", &raw_report, "--format", fmt],
            &[],
        );
        case(
            &format!("replay bundle {fmt}"),
            &["replay", &raw_bundle, "--format", fmt],
            &[],
        );
    }
    case(
        "replay report --json",
        &["replay", &raw_report, "--json"],
        &[],
    );
    for fmt in ["text", "markdown", "json", "prometheus", "html"] {
        case(
            &format!("explain {fmt}"),
            &["explain", &paste, "--format", fmt],
            &[],
        );
    }
    case("compare text", &["compare", &raw_report, &raw_report], &[]);
    case(
        "compare json",
        &["compare", &raw_report, &raw_report, "--json"],
        &[],
    );

    let mut table = Vec::new();
    let mut failures = Vec::new();
    let mut shown_unredacted = std::collections::BTreeSet::new();
    let mut bytes_report = (0, 0);
    for (name, args, files) in &cases {
        let mut counts = Vec::new();
        for no_redact in [false, true] {
            for p in files {
                let _ = std::fs::remove_file(p);
            }
            let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
            if no_redact {
                a.push("--no-redact");
            }
            let mut out = diskdoc(w, &a);
            for p in files {
                out.push('\n');
                out.push_str(&std::fs::read_to_string(p).unwrap_or_default());
            }
            if name == "wizard --yes --json" {
                if no_redact {
                    bytes_report.1 = out.len();
                } else {
                    bytes_report.0 = out.len();
                }
            }
            let l = leaks(&out, &needles);
            if no_redact {
                for x in &l {
                    shown_unredacted.insert(x.split(' ').next().unwrap_or("").to_string());
                }
            } else if !l.is_empty() {
                failures.push(format!("{name}: {}", l.join(", ")));
            }
            counts.push(if l.is_empty() {
                "0".to_string()
            } else {
                l.join(" ")
            });
        }
        table.push(format!(
            "{name:<32} redacted: {:<40} --no-redact: {}",
            counts[0], counts[1]
        ));
    }
    eprintln!("leaks per command and format (label/uuid/host/user/serial occurrences):");
    for t in &table {
        eprintln!("  {t}");
    }
    eprintln!(
        "wizard --json report size: {} bytes redacted, {} bytes --no-redact",
        bytes_report.0, bytes_report.1
    );
    if measuring() {
        return;
    }
    assert!(
        failures.is_empty(),
        "secrets left the machine:\n{}",
        failures.join("\n")
    );
    // The converse: the secrets are really there when asked for.
    for kind in ["label", "uuid", "host", "user"] {
        assert!(
            shown_unredacted.contains(kind),
            "--no-redact never showed the {kind}: the redacted runs prove nothing"
        );
    }
}

/// A forum post about the disk: prompts with user and host, blkid, lsblk -f, the kernel
/// log of the mount, mount and df lines.
fn paste_text(s: &Secrets) -> String {
    let d = &s.dev;
    let m = s.mnt.display();
    format!(
        "Hi, my disk is slow. Here is what I ran:\n\n\
         {USER}@{HOST}:~$ sudo blkid {d}\n\
         {d}: LABEL=\"{LABEL}\" UUID=\"{UUID}\" BLOCK_SIZE=\"4096\" TYPE=\"ext4\"\n\
         {USER}@{HOST}:~$ lsblk -f {d}\n\
         NAME  FSTYPE FSVER LABEL          UUID                                 FSAVAIL FSUSE% MOUNTPOINTS\n\
         {n}  ext4   1.0   {LABEL} {UUID}   52.3M     0% {m}\n\
         {USER}@{HOST}:~$ sudo dmesg | tail -2\n\
         Dec  1 09:25:23 {HOST} kernel: EXT4-fs ({n}): mounted filesystem {UUID} r/w with ordered data mode.\n\
         [ 1234.567890] EXT4-fs ({n}): mounted filesystem {UUID} r/w with ordered data mode.\n\
         {USER}@{HOST}:~$ mount | grep {n}\n\
         {d} on {m} type ext4 (rw,relatime)\n\
         {USER}@{HOST}:~$ df -h {m}\n\
         Filesystem      Size  Used Avail Use% Mounted on\n\
         {d}        55M   24K   51M   1% {m}\n\
         [{USER}@{HOST} mnt]$ dd if=/dev/zero of={m}/test bs=1M count=50 oflag=direct\n\
         50+0 records in\n50+0 records out\n\
         52428800 bytes (52 MB, 50 MiB) copied, 2.5 s, 21.0 MB/s\n",
        n = s.name(),
    )
}
