//! The destructive raw-device write test against stacked loop devices and devices that are
//! not blank, on real loop devices (root; with CI=true every test must run, a missing tool
//! fails it; otherwise a test that cannot run says why and shows as ignored).
//!
//! The two overwrites this guards against, reproduced before the guard existed (both reached
//! the typed confirmation):
//! a) `L` over an image, `L2` over `L` at offset 4 MiB holding a mounted ext4: writing `L`
//!    corrupts the filesystem on `L2` (the kernel's O_EXCL on `L` does not see `L2`);
//! b) `LO` holding a mounted ext4, `LA` over `LO` at 48 MiB: writing `LA` changes the user's
//!    files on `LO`.
//!
//! In both, and in another mount namespace, the refusal comes before the prompt and the
//! filesystem is byte for byte what it was, fsck -n clean.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::support::{self, sh};

const BIN: &str = env!("CARGO_BIN_EXE_diskdoc");
const MIB: u64 = 1 << 20;

/// Root and `tools`, or the reason this test cannot run (a failure under CI=true).
fn ready(test: &str, tools: &[&str]) -> bool {
    let mut missing: Vec<&str> = tools
        .iter()
        .copied()
        .filter(|t| which::which(t).is_err())
        .collect();
    if !nix::unistd::geteuid().is_root() {
        missing.insert(0, "root");
    }
    let why = (!missing.is_empty()).then(|| format!("needs {}", missing.join(", ")));
    support::capable(test, why.as_deref())
}

/// Loop devices, mounts and a mount-namespace holder made by one test, undone in reverse
/// order on drop (namespace first, then mounts, then loops from the top of the stack down).
struct Lab {
    dir: Option<tempfile::TempDir>,
    loops: Vec<String>,
    mounts: Vec<PathBuf>,
    ns: Option<Child>,
}

impl Lab {
    fn new() -> Lab {
        Lab {
            dir: Some(tempfile::tempdir_in("/var/tmp").unwrap()),
            loops: Vec::new(),
            mounts: Vec::new(),
            ns: None,
        }
    }
    fn path(&self, name: &str) -> PathBuf {
        self.dir.as_ref().unwrap().path().join(name)
    }
    /// A file of `size` bytes: zeros (sparse), or `fill` repeated.
    fn image(&self, name: &str, size: u64, fill: Option<u8>) -> PathBuf {
        let p = self.path(name);
        match fill {
            None => std::fs::File::create(&p).unwrap().set_len(size).unwrap(),
            Some(b) => std::fs::write(&p, vec![b; size as usize]).unwrap(),
        }
        p
    }
    /// `losetup --find --show [args] backing`.
    fn attach(&mut self, backing: &str, args: &[&str]) -> String {
        let mut argv = vec!["losetup", "--find", "--show"];
        argv.extend_from_slice(args);
        argv.push(backing);
        let dev = sh(&argv);
        self.loops.push(dev.clone());
        dev
    }
    fn mount(&mut self, dev: &str, name: &str) -> PathBuf {
        let mnt = self.path(name);
        std::fs::create_dir_all(&mnt).unwrap();
        sh(&["mount", dev, mnt.to_str().unwrap()]);
        self.mounts.push(mnt.clone());
        mnt
    }
    fn umount_all(&mut self) {
        while let Some(m) = self.mounts.pop() {
            let _ = Command::new("umount").arg(&m).status();
        }
    }
    /// Mount `dev` in a new, private mount namespace (unshare(1) -m) held open by a shell
    /// until the namespace is ended; the mount does not exist in this namespace.
    fn mount_elsewhere(&mut self, dev: &str, name: &str) -> PathBuf {
        let mnt = self.path(name);
        std::fs::create_dir_all(&mnt).unwrap();
        let mut ns = Command::new("unshare")
            .args([
                "-m",
                "sh",
                "-c",
                &format!("mount {dev} {} && echo mounted && read x", mnt.display()),
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(ns.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line.trim(), "mounted", "unshare -m could not mount {dev}");
        let here = std::fs::read_to_string("/proc/self/mountinfo").unwrap();
        assert!(!here.contains(&mnt.display().to_string()), "not private");
        self.ns = Some(ns);
        mnt
    }
    fn end_namespace(&mut self) {
        if let Some(mut ns) = self.ns.take() {
            drop(ns.stdin.take());
            let _ = ns.wait();
        }
    }
}

impl Drop for Lab {
    fn drop(&mut self) {
        self.end_namespace();
        self.umount_all();
        while let Some(l) = self.loops.pop() {
            let _ = Command::new("losetup").args(["-d", &l]).status();
        }
    }
}

/// `diskdoc bench --destructive DEV` with no terminal: (exit code, stderr).
fn destructive(dev: &str) -> (i32, String) {
    let out = Command::new(BIN)
        .args(["bench", "--destructive", dev])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).replace('\n', " "),
    )
}

/// Refused before the prompt, for a reason containing every one of `why`.
fn assert_refused(dev: &str, why: &[&str]) -> String {
    let (code, err) = destructive(dev);
    assert_eq!(code, 2, "{dev}: {err}");
    assert!(
        err.contains(&format!("refusing to write to {dev}")),
        "{dev}: {err}"
    );
    assert!(!err.contains("not a terminal"), "reached the prompt: {err}");
    for w in why {
        assert!(err.contains(w), "{dev}: expected {w:?} in: {err}");
    }
    err
}

/// Accepted by every guard: only the missing terminal stops it.
fn assert_reaches_the_prompt(dev: &str) {
    let (code, err) = destructive(dev);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("standard input is not a terminal"),
        "{dev}: {err}"
    );
}

/// FNV-1a over every byte of a device or file, with its length: any change shows.
fn digest(p: &str) -> (u64, usize) {
    let d = std::fs::read(p).unwrap();
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in &d {
        h = (h ^ *b as u64).wrapping_mul(0x100_0000_01b3);
    }
    (h, d.len())
}

/// A user's file on the mounted filesystem: 6 MiB of a counter pattern, synced.
fn user_file(mnt: &Path) -> (PathBuf, (u64, usize)) {
    let f = mnt.join("thesis.dat");
    let data: Vec<u8> = (0..6 * MIB as usize)
        .map(|i| (i / 4096) as u8 ^ i as u8)
        .collect();
    std::fs::write(&f, &data).unwrap();
    sh(&["sync"]);
    let d = digest(f.to_str().unwrap());
    (f, d)
}

/// fsck -n on an unmounted filesystem: clean (exit 0).
fn assert_fsck_clean(dev: &str) {
    let out = Command::new("fsck.ext4")
        .args(["-n", "-f", dev])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "fsck -n {dev}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn name(dev: &str) -> &str {
    dev.trim_start_matches("/dev/")
}

/// The filesystem on `fs_dev` is unmounted here (fsck -n clean), mounted again only in
/// another mount namespace, and each of `targets` is still refused for `why`, naming that
/// mount; then, back here, fsck -n is clean and the user's file is what it was.
fn the_same_in_another_namespace(
    lab: &mut Lab,
    fs_dev: &str,
    targets: &[&str],
    why: &str,
    file_before: (u64, usize),
) {
    lab.umount_all();
    assert_fsck_clean(fs_dev);
    let elsewhere = lab.mount_elsewhere(fs_dev, "elsewhere");
    let mounted = format!(
        "mounted on {} (in the mount namespace of pid",
        elsewhere.display()
    );
    for t in targets {
        assert_refused(t, &[why, &mounted]);
    }
    lab.end_namespace();
    assert_fsck_clean(fs_dev);
    let mnt = lab.mount(fs_dev, "after");
    assert_eq!(
        digest(mnt.join("thesis.dat").to_str().unwrap()),
        file_before
    );
}

/// Shape a): an ext4 image copied to 4 MiB into s.img, L over s.img, L2 over L at offset
/// 4 MiB, the ext4 mounted from L2 (here, then in another mount namespace).
fn shape_a(lab: &mut Lab) -> (String, String) {
    let s = lab.image("s.img", 64 * MIB, None);
    let inner = lab.image("in.img", 60 * MIB, None);
    sh(&["mkfs.ext4", "-q", "-F", inner.to_str().unwrap()]);
    sh(&[
        "dd",
        &format!("if={}", inner.display()),
        &format!("of={}", s.display()),
        "bs=1M",
        "seek=4",
        "conv=notrunc",
        "status=none",
    ]);
    let l = lab.attach(s.to_str().unwrap(), &[]);
    let l2 = lab.attach(&l, &["-o", "4M"]);
    (l, l2)
}

#[test]
#[cfg_attr(
    not(any(diskdoc_ci, diskdoc_root)),
    ignore = "needs root and real loop devices: runs as root or with CI=true"
)]
fn the_device_under_a_mounted_offset_loop_is_refused_here_and_in_another_namespace() {
    let tools = [
        "losetup",
        "mkfs.ext4",
        "fsck.ext4",
        "dd",
        "mount",
        "unshare",
    ];
    if !ready("device under a mounted offset loop", &tools) {
        return;
    }
    let mut lab = Lab::new();
    let (l, l2) = shape_a(&mut lab);
    let mnt = lab.mount(&l2, "x");
    let (file, before) = user_file(&mnt);
    let stacked = format!("{} is stacked on {} at offset 4 MiB", name(&l2), name(&l));
    let err = assert_refused(&l, &["another loop device uses its bytes", &stacked]);
    assert!(
        err.contains(&format!("mounted on {}", mnt.display())),
        "{err}"
    );
    assert!(err.contains(&format!("losetup -d {l2}")), "{err}");
    // A third loop on top (L3 over L2): still found, through L2.
    let l3 = lab.attach(&l2, &["-o", "1M"]);
    assert_refused(
        &l,
        &[&format!(
            "{} is stacked on {} at offset 1 MiB",
            name(&l3),
            name(&l2)
        )],
    );
    assert_eq!(digest(file.to_str().unwrap()), before);
    the_same_in_another_namespace(&mut lab, &l2, &[&l], &stacked, before);
}

#[test]
#[cfg_attr(
    not(any(diskdoc_ci, diskdoc_root)),
    ignore = "needs root and real loop devices: runs as root or with CI=true"
)]
fn a_loop_inside_a_mounted_devices_data_area_is_refused_here_and_in_another_namespace() {
    let tools = ["losetup", "mkfs.ext4", "fsck.ext4", "mount", "unshare"];
    if !ready("loop inside a mounted device", &tools) {
        return;
    }
    let mut lab = Lab::new();
    let o = lab.image("o.img", 64 * MIB, None);
    sh(&["mkfs.ext4", "-q", "-F", o.to_str().unwrap()]);
    let lo = lab.attach(o.to_str().unwrap(), &[]);
    let mnt = lab.mount(&lo, "y");
    let (file, before) = user_file(&mnt);
    let la = lab.attach(&lo, &["-o", "48M", "--sizelimit", "8M"]);
    let lands = format!(
        "its writes land on {} at offset 48 MiB (through loop device {}), which is in use",
        name(&lo),
        name(&la)
    );
    let err = assert_refused(&la, &[&lands]);
    assert!(
        err.contains(&format!("mounted on {}", mnt.display())),
        "{err}"
    );
    // Down a longer chain: LB over LA over the mounted LO.
    let lb = lab.attach(&la, &[]);
    assert_refused(
        &lb,
        &[&format!(
            "its writes land on {} at offset 48 MiB (through loop device {})",
            name(&lo),
            name(&la)
        )],
    );
    // And the mounted device itself names the loops on it.
    assert_refused(
        &lo,
        &[&format!(
            "{} is stacked on {} at offset 48 MiB (size limit 8 MiB)",
            name(&la),
            name(&lo)
        )],
    );
    assert_eq!(digest(file.to_str().unwrap()), before);
    the_same_in_another_namespace(&mut lab, &lo, &[&la, &lb], &lands, before);
}

#[test]
#[cfg_attr(
    not(any(diskdoc_ci, diskdoc_root)),
    ignore = "needs root and real loop devices: runs as root or with CI=true"
)]
fn random_bytes_are_refused_as_what_encrypted_data_looks_like() {
    if !ready("random bytes", &["losetup"]) {
        return;
    }
    let mut lab = Lab::new();
    let img = lab.path("random.img");
    let mut data = vec![0u8; 64 * MIB as usize];
    let mut seed = 27u64;
    diskdoc_sys::bench::random::fill_random(&mut data, &mut seed);
    std::fs::write(&img, &data).unwrap();
    let l = lab.attach(img.to_str().unwrap(), &[]);
    let before = digest(&l);
    assert_refused(
        &l,
        &[
            "it is not blank: non-zero bytes at byte 0: looks like random bytes",
            "random bytes, as encrypted data looks",
            &format!("blkdiscard {l}"),
            &format!("wipefs -a {l}"),
        ],
    );
    assert_eq!(digest(&l), before);
}

#[test]
#[cfg_attr(
    not(any(diskdoc_ci, diskdoc_root)),
    ignore = "needs root and real loop devices: runs as root or with CI=true"
)]
fn an_ext4_at_one_mib_without_a_partition_table_is_refused() {
    if !ready("ext4 at 1 MiB", &["losetup", "mkfs.ext4", "dd"]) {
        return;
    }
    let mut lab = Lab::new();
    let img = lab.image("disk.img", 64 * MIB, None);
    let fs = lab.image("fs.img", 63 * MIB, None);
    sh(&["mkfs.ext4", "-q", "-F", fs.to_str().unwrap()]);
    sh(&[
        "dd",
        &format!("if={}", fs.display()),
        &format!("of={}", img.display()),
        "bs=1M",
        "seek=1",
        "conv=notrunc",
        "status=none",
    ]);
    let l = lab.attach(img.to_str().unwrap(), &[]);
    let before = digest(&l);
    let err = assert_refused(
        &l,
        &[
            "it is not blank: non-zero bytes at 1 MiB + ",
            "ext2/3/4 superblock magic 0xEF53 at byte 1049656",
        ],
    );
    // The signature table alone reads the first and last MiB only: the sample found it.
    assert!(!err.contains("it holds data: ext2/3/4"), "{err}");
    assert_eq!(digest(&l), before);
}

/// `diskdoc bench --destructive DEV --budget 1` in a pseudo-terminal (script(1)); the path
/// is typed once the prompt has appeared. Returns (exit code, everything it printed).
fn run_typed(dev: &str) -> (Option<i32>, String) {
    let mut pty = support::pty::Pty::spawn(&format!("{BIN} bench --destructive {dev} --budget 1"));
    assert!(
        pty.wait_for("to cancel: ", Duration::from_secs(120)),
        "no question: {}",
        pty.text()
    );
    pty.type_line(dev);
    pty.finish(Duration::from_secs(300))
}

#[test]
#[cfg_attr(
    not(any(diskdoc_ci, diskdoc_root)),
    ignore = "needs root and real loop devices: runs as root or with CI=true"
)]
fn blank_devices_and_a_loop_over_a_plain_file_are_still_written() {
    if !ready("blank devices", &["losetup", "script"]) {
        return;
    }
    let mut lab = Lab::new();
    // Zeros, and erased flash's 0xff: blank.
    let zero = lab.image("zero.img", 32 * MIB, None);
    let lz = lab.attach(zero.to_str().unwrap(), &[]);
    assert_reaches_the_prompt(&lz);
    let ff = lab.image("ff.img", 16 * MIB, Some(0xff));
    let lf = lab.attach(ff.to_str().unwrap(), &[]);
    assert_reaches_the_prompt(&lf);
    // A loop over a blank loop over a file (nothing else on either): the chain only writes
    // that file.
    let top = lab.attach(&lf, &["-o", "1M"]);
    assert_reaches_the_prompt(&top);
    // The loop over the plain file, typed on a terminal: written, and the file holds it.
    let (code, text) = run_typed(&lz);
    // 1 only for latency-outliers: write stalls behind a loaded machine's page cache are real.
    assert!(
        code == Some(0) || (code == Some(1) && text.contains("latency-outliers")),
        "{code:?} {text}"
    );
    assert!(text.contains("raw-write   seq 1 MiB"), "{text}");
    let head = std::fs::read(&zero).unwrap();
    assert!(head[..4096].iter().filter(|b| **b != 0).count() > 4000);
    // Written once, it is not blank any more: a second run is refused and says how to
    // blank it again.
    assert_refused(&lz, &["it is not blank", &format!("blkdiscard {lz}")]);
}

/// Partitions in the chain: a GPT image on loop P with partitions p1 and p2 (partx(8) adds
/// them where the kernel has no partition parsers). A loop over the whole of P is refused
/// while p2 is mounted (its writes land on P, which the mount holds); p1 is refused while a
/// mounted loop sits on it. The mounted filesystem's user file is unchanged.
#[test]
#[cfg_attr(
    not(any(diskdoc_ci, diskdoc_root)),
    ignore = "needs root and real loop devices: runs as root or with CI=true"
)]
fn partitions_in_a_loop_chain_are_followed() {
    let tools = ["losetup", "sfdisk", "partx", "mkfs.ext4", "mount"];
    if !ready("partitions in a loop chain", &tools) {
        return;
    }
    let mut lab = Lab::new();
    let img = lab.image("gpt.img", 64 * MIB, None);
    support::write_gpt_two_partitions(&img);
    let p = lab.attach(img.to_str().unwrap(), &["-P"]);
    let (p1, p2) = (format!("{p}p1"), format!("{p}p2"));
    support::partitions_of(&p, &p2);
    sh(&["mkfs.ext4", "-q", "-F", &p2]);
    let mnt = lab.mount(&p2, "p2");
    let (file, before) = user_file(&mnt);
    let over_p = lab.attach(&p, &[]);
    assert_refused(
        &over_p,
        &[
            &format!("its writes land on {}", name(&p)),
            "which is in use",
        ],
    );
    // A loop over p1, mounted: p1 is refused for it.
    let over_p1 = lab.attach(&p1, &[]);
    sh(&["mkfs.ext4", "-q", "-F", &over_p1]);
    let mnt1 = lab.mount(&over_p1, "over-p1");
    assert_refused(
        &p1,
        &[&format!("{} is stacked on {}", name(&over_p1), name(&p1))],
    );
    assert!(mnt1.exists());
    assert_eq!(digest(file.to_str().unwrap()), before);
}
