//! Safe command runner: allowlisted tools resolved in fixed system directories, argv only,
//! no shell, cleared environment with LC_ALL=C, stdin from /dev/null, output capped. Each tool
//! runs in a process group of its own (setpgid(2) via `process_group(0)`); stdout and stderr
//! are read with poll(2) under the same deadline as the wait, and at the deadline the whole
//! group is killed (killpg(2) SIGKILL): a wrapper script, a background grandchild holding the
//! pipe, or a tool that never exits cannot keep diskdoc waiting past the timeout. A timeout
//! is recorded as evidence (`Unavailable::Timeout`), never as a hang.
//!
//! A process group does not hold a descendant that calls setsid(2) (a daemonising
//! double-fork): it leaves the group, and once its parent exits it is re-parented away from
//! the tool. So each run also gets a token in its environment (`DISKDOC_RUN`, inherited
//! across fork, execve and setsid), and at the deadline, on Linux, everything found by
//! either of two walks is stopped and then killed: the live process tree below the tool
//! (/proc/PID/task/TID/children, proc(5)), which catches a descendant that cleared its
//! environment while its parent still runs, and every process whose /proc/PID/environ holds
//! the token, which catches orphans wherever they were re-parented. The walks repeat until
//! they find nothing new, with every process found frozen (SIGSTOP) first, so nothing can
//! fork faster than it is found; then all get SIGKILL.
//!
//! Why not the alternatives: PR_SET_CHILD_SUBREAPER would make diskdoc (a library in test
//! harnesses, the wizard) the parent of every orphan of every thread's children and leave
//! it to reap them, and the tree walk alone still cannot attribute an orphan to the run
//! that made it; a cgroup (cgroup.kill) needs a delegated cgroup v2 hierarchy that neither
//! a plain root shell nor a container reliably has; a PID namespace needs CAP_SYS_ADMIN.
//! The token needs nothing. Its limit: a process that both clears its environment and is
//! orphaned escapes, and so does one diskdoc may not inspect (another user's, not as root).
//!
//! Why fixed directories: diskdoc usually runs as root, so resolving through the caller's
//! PATH (or the working directory) would let anyone who can write there run code as root.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use diskdoc_core::evidence::{Capture, Unavailable};

/// Tools diskdoc may run. Anything else is refused before it is looked up.
pub const ALLOWED_TOOLS: &[&str] = &[
    // Linux
    "smartctl",
    "hdparm",
    "sdparm",
    "lsblk",
    "blkid",
    "dmsetup",
    "cryptsetup",
    "sfdisk",
    "dmesg",
    "journalctl",
    "mdadm",
    "lvs",
    "pvs",
    "nvme",
    "lspci",
    "uname",
    // systemctl is-enabled fstrim.timer (read-only: is-enabled changes nothing)
    "systemctl",
    // ZFS (both)
    "zpool",
    "zfs",
    // FreeBSD
    "camcontrol",
    "diskinfo",
    "gpart",
    "geli",
    "geom",
    "pciconf",
    "nvmecontrol",
    "gstat",
    "sysctl",
    "atacontrol",
    "kldstat",
    "mount",
    "zdb",
    // tunefs -p only (prints the UFS flags and exits)
    "tunefs",
];

/// Where tools are looked up, in order. Never the caller's PATH.
pub const TOOL_DIRS: &str = "/usr/sbin:/usr/bin:/sbin:/bin:/usr/local/sbin:/usr/local/bin";

/// Upper bound on what one command may print before it is cut (bytes, per stream).
pub const OUTPUT_CAP: usize = 8 * 1024 * 1024;

/// Resolve an allowlisted tool to an absolute path.
pub fn resolve(tool: &str) -> Result<PathBuf, Capture> {
    if !ALLOWED_TOOLS.contains(&tool) {
        return Err(Capture::unavailable(
            Unavailable::Unsupported,
            format!("{tool} is not on diskdoc's allowlist"),
        ));
    }
    let cwd = std::path::Path::new("/");
    which::which_in(tool, Some(TOOL_DIRS), cwd).map_err(|_| {
        Capture::unavailable(
            Unavailable::ToolMissing,
            format!("{tool} not found in {TOOL_DIRS}"),
        )
    })
}

/// One captured stream: bytes up to [`OUTPUT_CAP`], whether more came, whether it ended.
#[derive(Default)]
struct Stream {
    data: Vec<u8>,
    cut: bool,
    eof: bool,
}

impl Stream {
    fn take(&mut self, r: &mut impl Read) {
        let mut buf = [0u8; 16384];
        match r.read(&mut buf) {
            Ok(0) => self.eof = true,
            Ok(n) => {
                let room = OUTPUT_CAP.saturating_sub(self.data.len());
                // Past the cap keep draining, so the child never blocks on a full pipe.
                self.data.extend_from_slice(&buf[..n.min(room)]);
                self.cut |= n > room;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => self.eof = true,
        }
    }
}

/// What a child did before its deadline.
struct Outcome {
    out: Stream,
    err: Stream,
    status: Option<std::process::ExitStatus>,
    timed_out: bool,
}

/// Read both pipes and reap the child, all before `deadline`; at the deadline kill the
/// child's process group. Returns as soon as the child has exited and both pipes ended.
fn supervise(
    child: &mut std::process::Child,
    mut out: std::process::ChildStdout,
    mut err: std::process::ChildStderr,
    deadline: Instant,
    token: &str,
) -> Outcome {
    use nix::poll::{PollFd, PollFlags, poll};
    use std::os::fd::AsFd;
    let mut o = Outcome {
        out: Stream::default(),
        err: Stream::default(),
        status: None,
        timed_out: false,
    };
    loop {
        if o.status.is_none() {
            o.status = child.try_wait().ok().flatten();
        }
        if o.status.is_some() && o.out.eof && o.err.eof {
            break;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            o.timed_out = true;
            break;
        }
        // While the child runs, wake every 10 ms to reap it (its exit is no poll event).
        let wait = if o.status.is_none() {
            left.min(Duration::from_millis(10))
        } else {
            left.min(Duration::from_millis(1000))
        };
        let ms = u16::try_from(wait.as_millis()).unwrap_or(1000).max(1);
        let mut which = Vec::with_capacity(2);
        let mut pfds = Vec::with_capacity(2);
        if !o.out.eof {
            which.push(0);
            pfds.push(PollFd::new(out.as_fd(), PollFlags::POLLIN));
        }
        if !o.err.eof {
            which.push(1);
            pfds.push(PollFd::new(err.as_fd(), PollFlags::POLLIN));
        }
        if pfds.is_empty() {
            std::thread::sleep(wait);
            continue;
        }
        if poll(&mut pfds, ms).is_err() {
            continue; // EINTR
        }
        let ready: Vec<usize> = which
            .iter()
            .zip(&pfds)
            .filter(|(_, p)| p.revents().is_some_and(|r| !r.is_empty()))
            .map(|(i, _)| *i)
            .collect();
        drop(pfds);
        for i in ready {
            if i == 0 {
                o.out.take(&mut out);
            } else {
                o.err.take(&mut err);
            }
        }
    }
    if o.timed_out {
        kill_group(child, token);
    }
    o
}

/// SIGKILL the child's whole process group (its pgid is its pid: `process_group(0)`) and,
/// on Linux, every descendant that left it ([`marked_and_descendants`]), then reap the
/// child, waiting at most a moment (a process in uninterruptible sleep dies later).
fn kill_group(child: &mut std::process::Child, token: &str) {
    use nix::sys::signal::{Signal, kill, killpg};
    use nix::unistd::Pid;
    if let Ok(pid) = i32::try_from(child.id()) {
        let group = Pid::from_raw(pid);
        // Freeze first: a killed parent's children are re-parented before the tree below
        // it can be walked.
        let _ = killpg(group, Signal::SIGSTOP);
        let frozen = if cfg!(target_os = "linux") {
            marked_and_descendants(pid, token)
        } else {
            Vec::new()
        };
        let _ = killpg(group, Signal::SIGKILL);
        for p in frozen {
            let _ = kill(Pid::from_raw(p), Signal::SIGKILL);
        }
    }
    let _ = child.kill();
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(500) {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The environment variable that carries a run's token to every descendant.
const TOKEN_VAR: &str = "DISKDOC_RUN";

/// A token no other run (of this or another diskdoc) carries: pid, a counter, the time.
fn run_token() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!(
        "{}.{}.{nanos}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// Linux: find, SIGSTOP and return every process below `root` in the live tree and every
/// process whose initial environment holds `DISKDOC_RUN=<token>`, repeating until a round
/// finds nothing new (bounded: a fork bomb outpacing 64 rounds of freezing is not a tool).
fn marked_and_descendants(root: i32, token: &str) -> Vec<i32> {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let marker = format!("{TOKEN_VAR}={token}");
    let me = i32::try_from(std::process::id()).unwrap_or(0);
    let mut frozen: std::collections::BTreeSet<i32> = std::collections::BTreeSet::new();
    for _ in 0..64 {
        let mut found = descendants(root);
        found.extend(carrying(&marker));
        let new: Vec<i32> = found
            .into_iter()
            .filter(|p| *p > 1 && *p != me && *p != root && !frozen.contains(p))
            .collect();
        if new.is_empty() {
            break;
        }
        for p in new {
            let _ = kill(Pid::from_raw(p), Signal::SIGSTOP);
            frozen.insert(p);
        }
    }
    frozen.into_iter().collect()
}

/// The pids below `root` in the process tree: /proc/PID/task/TID/children lists each
/// thread's children (proc(5), CONFIG_PROC_CHILDREN; without it the list is empty and the
/// token walk remains).
fn descendants(root: i32) -> Vec<i32> {
    let mut out = Vec::new();
    let mut todo = vec![root];
    while let Some(p) = todo.pop() {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) else {
            continue;
        };
        for t in tasks.flatten() {
            let path = t.path().join("children");
            let Ok(list) = std::fs::read_to_string(path) else {
                continue;
            };
            for c in list
                .split_whitespace()
                .filter_map(|c| c.parse::<i32>().ok())
            {
                // A loop in a corrupt listing cannot recur forever: each pid is taken once.
                if c != root && !out.contains(&c) {
                    out.push(c);
                    todo.push(c);
                }
            }
        }
    }
    out
}

/// Every pid whose /proc/PID/environ (the environment it was exec'd with, NUL-separated,
/// proc(5)) has the entry `marker`. Processes diskdoc may not inspect are skipped.
fn carrying(marker: &str) -> Vec<i32> {
    let Ok(rd) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    rd.flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()))
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|b| *b == 0).any(|v| v == marker.as_bytes()))
        })
        .collect()
}

/// A command line [`read_only`] refuses: it would change the drive, the system or a setting.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("refusing `{command}`: {why}")]
pub struct NotReadOnly {
    /// The tool and its arguments, space-separated.
    pub command: String,
    /// Which form changes what, from the tool's man page.
    pub why: String,
}

/// Whether `tool args` only reads. The allowlist names programs; several of them also
/// change state with other arguments (hdparm -W0 turns a drive's cache off, camcontrol apm
/// without -l disables APM, tunefs without -p rewrites a superblock, sysctl a=b sets a
/// tunable, mount with operands mounts, nvmecontrol format erases a namespace). Every
/// probe only reads, so anything but the reading forms is refused here, whoever calls:
/// the second line of defence behind the plan's fixed command lines. Forms from each tool's
/// man page: hdparm(8), camcontrol(8), smartctl(8), nvme(1), nvmecontrol(8), sysctl(8),
/// mount(8), tunefs(8), pciconf(8), diskinfo(8), dmesg(1), zpool(8), zfs(8), mdadm(8).
pub fn read_only(tool: &str, args: &[&str]) -> Result<(), NotReadOnly> {
    let first = args.first().copied().unwrap_or("");
    let any = |f: &dyn Fn(&str) -> bool| args.iter().any(|a| f(a));
    // Whether an argument starts with one of these flags (a flag's value may be attached).
    let flag = |flags: &[&str]| any(&|a| flags.iter().any(|f| a.starts_with(f)));
    let refuse = |why: &str| {
        Err(NotReadOnly {
            command: format!("{tool} {}", args.join(" ")),
            why: why.to_string(),
        })
    };
    let sub = |ok: &[&str]| {
        if ok.contains(&first) {
            Ok(())
        } else {
            refuse(&format!("only {} are read-only", ok.join(", ")))
        }
    };
    match tool {
        // A flag with a value attached (-W0, -B254, -S12) or a bare number sets something.
        "hdparm" => {
            if any(&|a| {
                a.chars().all(|c| c.is_ascii_digit())
                    || (a.starts_with('-')
                        && !a.starts_with("--")
                        && a.chars().skip(2).any(|c| c.is_ascii_digit()))
            }) || flag(&[
                "--security",
                "--write",
                "--trim",
                "--fwdownload",
                "--make-bad",
            ]) {
                refuse("a value after a flag sets the drive")
            } else {
                Ok(())
            }
        }
        "smartctl"
            if flag(&[
                "-s",
                "-t",
                "-X",
                "-o",
                "-S",
                "--smart",
                "--test",
                "--abort",
                "--offlineauto",
                "--saveauto",
                "--set",
            ]) =>
        {
            refuse("it would change a SMART setting or start a test")
        }
        "sdparm"
            if flag(&[
                "-s",
                "-c",
                "-C",
                "-D",
                "--set",
                "--clear",
                "--command",
                "--defaults",
            ]) =>
        {
            refuse("it would change a mode page or send a command")
        }
        "camcontrol" => {
            sub(&[
                "devlist", "identify", "tags", "modepage", "inquiry", "readcap",
            ])?;
            if any(&|a| a == "-e" || a == "-N" || a == "-S") {
                refuse("-e edits a mode page, -N and -S set values")
            } else {
                Ok(())
            }
        }
        "nvme" => sub(&["smart-log", "id-ctrl", "id-ns", "list", "error-log"]),
        "nvmecontrol" => sub(&["logpage", "identify", "devlist"]),
        "atacontrol" => {
            if first == "mode" && args.len() > 2 {
                refuse("a mode argument sets the transfer mode")
            } else {
                sub(&["cap", "list", "mode"])
            }
        }
        "sysctl" if any(&|a| a.contains('=')) => refuse("name=value sets a tunable"),
        "tunefs" if args.len() == 2 && first == "-p" => Ok(()),
        "tunefs" => refuse("only `tunefs -p DEV` prints without changing the filesystem"),
        "systemctl" => sub(&["is-enabled"]),
        "mount" if args == ["-p"] => Ok(()),
        "mount" => refuse("only `mount -p` lists; operands would mount"),
        "diskinfo" if any(&|a| a.starts_with('-') && a.contains('w')) => {
            refuse("-w allows disruptive write tests")
        }
        "dmesg"
            if flag(&[
                "-c",
                "-C",
                "-D",
                "-E",
                "-n",
                "--clear",
                "--read-clear",
                "--console",
            ]) =>
        {
            refuse("it would clear the buffer or change the console level")
        }
        "journalctl"
            if flag(&[
                "--vacuum",
                "--rotate",
                "--flush",
                "--sync",
                "--relinquish",
                "--setup-keys",
            ]) =>
        {
            refuse("it would change the journal")
        }
        "pciconf" if flag(&["-w"]) => refuse("-w writes a register"),
        "zpool" => sub(&["status", "list", "get", "iostat"]),
        "zfs" => sub(&["get", "list"]),
        "geli" => sub(&["list", "status"]),
        "gpart" => sub(&["show", "list", "status"]),
        "geom" if args.get(1).is_some_and(|a| *a != "list" && *a != "status") => {
            refuse("only `geom CLASS list|status` are read-only")
        }
        "cryptsetup" => sub(&["status", "luksDump", "isLuks"]),
        "dmsetup" => sub(&["table", "ls", "status", "info", "deps"]),
        "mdadm"
            if !any(&|a| ["--detail", "-D", "--examine", "-E", "--query", "-Q"].contains(&a)) =>
        {
            refuse("only --detail, --examine and --query are read-only")
        }
        "sfdisk" if !any(&|a| ["-d", "--dump", "-l", "--list", "-J", "--json"].contains(&a)) => {
            refuse("without --dump, --list or --json sfdisk writes a partition table")
        }
        _ => Ok(()),
    }
}

/// Run `argv` (argv[0] is an allowlisted tool name) and capture the result.
pub fn run(argv: &[&str], timeout: Duration) -> Capture {
    let Some((tool, args)) = argv.split_first() else {
        return Capture::unavailable(Unavailable::Failed, "empty command");
    };
    if let Some(bad) = args.iter().find(|a| a.contains(['\n', '\0'])) {
        return Capture::unavailable(
            Unavailable::Failed,
            format!("refusing argument with control characters: {bad:?}"),
        );
    }
    if let Err(why) = read_only(tool, args) {
        return Capture::unavailable(Unavailable::Unsupported, why.to_string());
    }
    let path = match resolve(tool) {
        Ok(p) => p,
        Err(c) => return c,
    };
    run_resolved(&path, tool, args, timeout)
}

/// Run the program at the absolute `path` (already resolved from the allowlist; tests pass
/// their own scripts here, production code only through [`run`]).
fn run_resolved(path: &std::path::Path, tool: &str, args: &[&str], timeout: Duration) -> Capture {
    use std::os::unix::process::CommandExt;
    let start = Instant::now();
    let token = run_token();
    let mut child = match Command::new(path)
        .args(args)
        .env_clear()
        .env("LC_ALL", "C")
        .env("PATH", TOOL_DIRS)
        .env(TOKEN_VAR, &token)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .current_dir("/")
        .process_group(0)
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            let reason = if e.kind() == std::io::ErrorKind::PermissionDenied {
                Unavailable::PermissionDenied
            } else {
                Unavailable::Failed
            };
            return Capture::unavailable(reason, format!("cannot start {}: {e}", path.display()));
        }
    };
    let (Some(out), Some(err)) = (child.stdout.take(), child.stderr.take()) else {
        kill_group(&mut child, &token);
        return Capture::unavailable(Unavailable::Failed, "no pipes to the child");
    };
    let o = supervise(&mut child, out, err, start + timeout, &token);
    let elapsed_ms = start.elapsed().as_millis() as u64;
    let stderr = String::from_utf8_lossy(&o.err.data).into_owned();
    if o.timed_out {
        let what = if o.status.is_some() {
            "exited, but a process it started still held its output open"
        } else {
            "did not finish"
        };
        return Capture::unavailable(
            Unavailable::Timeout,
            format!(
                "{tool} {what} after {:.1} s; it and every process it started were killed",
                timeout.as_secs_f64()
            ),
        );
    }
    let mut data = String::from_utf8_lossy(&o.out.data).into_owned();
    if o.out.cut {
        data.push_str("\n[diskdoc: output cut at the size cap]\n");
    }
    let exit_code = o.status.and_then(|s| s.code());
    if data.trim().is_empty() && exit_code != Some(0) {
        let reason =
            if stderr.contains("Permission denied") || stderr.contains("Operation not permitted") {
                Unavailable::PermissionDenied
            } else {
                Unavailable::Failed
            };
        return Capture::unavailable(
            reason,
            format!(
                "{tool} exited {}: {}",
                exit_code.map_or("by signal".to_string(), |c| c.to_string()),
                stderr.trim()
            ),
        );
    }
    Capture::Ok {
        data,
        stderr,
        exit_code,
        elapsed_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command line the probes and the plan run passes; the setting forms of the same
    /// tools are refused (and `run` refuses them before anything is looked up).
    #[test]
    fn the_reading_forms_pass_and_the_setting_forms_are_refused() {
        let reads: &[&[&str]] = &[
            &["smartctl", "-j", "-a", "/dev/sda"],
            &["hdparm", "-B", "/dev/sda"],
            &["hdparm", "-I", "/dev/sda"],
            &["camcontrol", "devlist", "-v"],
            &["camcontrol", "identify", "ada0"],
            &["camcontrol", "tags", "ada0", "-v"],
            &["camcontrol", "modepage", "da0", "-m", "8"],
            &["nvme", "smart-log", "/dev/nvme0"],
            &["nvmecontrol", "logpage", "-p", "2", "nvme0"],
            &["sysctl", "dev.ahci"],
            &["sysctl", "-n", "kern.geom.confxml"],
            &["tunefs", "-p", "/dev/ada0p2"],
            &["systemctl", "is-enabled", "fstrim.timer"],
            &["mount", "-p"],
            &["pciconf", "-lv"],
            &["pciconf", "-lc"],
            &["diskinfo", "-v", "/dev/ada0"],
            &["dmesg"],
            &["journalctl", "-k", "-b", "--no-pager"],
            &["zpool", "status"],
            &["zpool", "get", "ashift", "tank", "all-vdevs"],
            diskdoc_core::plan::ZPOOL_GET_AUTOTRIM,
            &["zfs", "get", "-H", "compression", "zroot/home"],
            &["zdb", "-C", "tank"],
            &["geli", "list"],
            &["gpart", "show", "-p"],
            &["cryptsetup", "status", "cryptroot"],
            &["dmsetup", "table"],
            &["blkid", "-p", "-o", "export", "/proc/self/fd/3"],
            &["atacontrol", "cap", "ad4"],
            &["kldstat", "-q", "-m", "zfs"],
            &["gstat", "-b", "-I", "1s"],
            &["uname", "-s"],
        ];
        for argv in reads {
            assert_eq!(read_only(argv[0], &argv[1..]), Ok(()), "{argv:?}");
        }
        let writes: &[&[&str]] = &[
            &["hdparm", "-W0", "/dev/sda"],
            &["hdparm", "-B254", "/dev/sda"],
            &["hdparm", "-B", "254", "/dev/sda"],
            &["hdparm", "--security-erase", "x", "/dev/sda"],
            &["smartctl", "-s", "off", "/dev/sda"],
            &["smartctl", "-t", "long", "/dev/sda"],
            &["camcontrol", "apm", "ada0"],
            &["camcontrol", "modepage", "da0", "-m", "8", "-e"],
            &["camcontrol", "tags", "ada0", "-N", "1"],
            &["nvme", "format", "/dev/nvme0n1"],
            &["nvmecontrol", "format", "nvme0"],
            &["sysctl", "kern.cam.ada.0.write_cache=0"],
            &["tunefs", "-t", "enable", "/dev/ada0p2"],
            &["systemctl", "enable", "fstrim.timer"],
            &["mount", "/dev/ada0p2", "/mnt"],
            &["pciconf", "-w", "pci0:0:31:2", "0x40", "0"],
            &["diskinfo", "-wi", "/dev/ada0"],
            &["dmesg", "-c"],
            &["journalctl", "--vacuum-size=1M"],
            &["zpool", "set", "autotrim=on", "tank"],
            // zpool trim starts I/O on every vdev: a fix the user runs, never the probe.
            &["zpool", "trim", "tank"],
            &["zfs", "set", "compression=lz4", "tank"],
            &["geli", "detach", "ada0p2"],
            &["gpart", "destroy", "-F", "ada0"],
            &["cryptsetup", "close", "cryptroot"],
            &["dmsetup", "remove", "x"],
            &["mdadm", "--stop", "/dev/md0"],
            &["sfdisk", "/dev/sda"],
            &["atacontrol", "mode", "ad4", "UDMA5"],
        ];
        for argv in writes {
            assert!(read_only(argv[0], &argv[1..]).is_err(), "{argv:?}");
        }
        match run(&["hdparm", "-W0", "/dev/sda"], Duration::from_secs(1)) {
            Capture::Unavailable { detail, .. } => assert!(detail.contains("refusing"), "{detail}"),
            other => panic!("ran: {other:?}"),
        }
    }

    #[test]
    fn tools_off_the_allowlist_are_refused() {
        let c = run(&["sh", "-c", "echo hi"], Duration::from_secs(1));
        assert!(matches!(
            c,
            Capture::Unavailable {
                reason: Unavailable::Unsupported,
                ..
            }
        ));
    }

    #[test]
    fn runs_with_lc_all_c_and_captures_stdout() {
        // uname is in coreutils on every Debian machine.
        let c = run(&["uname", "-s"], Duration::from_secs(5));
        assert_eq!(
            c.data().map(str::trim),
            Some(std::env::consts::OS).map(|_| "Linux")
        );
    }

    /// A script of our own (never through `run`: the allowlist stays strict).
    fn script(body: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("wrapper.sh");
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        (dir, p)
    }

    fn gone(pid: i32) -> bool {
        // Gone, or a zombie waiting for init to reap it: either way it holds nothing.
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            Ok(s) => s
                .rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z')),
        }
    }

    #[test]
    fn a_grandchild_holding_the_pipe_cannot_outlast_the_timeout() {
        // The wrapper exits at once; its background child keeps stdout open for 60 s.
        let pids = tempfile::tempdir().unwrap();
        let pidfile = pids.path().join("grandchild");
        let (_d, p) = script(&format!(
            "sleep 60 &\necho $! > {}\necho started",
            pidfile.display()
        ));
        let t = Instant::now();
        let c = run_resolved(&p, "wrapper", &[], Duration::from_millis(800));
        let took = t.elapsed();
        assert!(took < Duration::from_millis(2000), "{took:?}");
        match &c {
            Capture::Unavailable { reason, detail } => {
                assert_eq!(*reason, Unavailable::Timeout, "{detail}");
                assert!(detail.contains("still held its output open"), "{detail}");
            }
            other => panic!("{other:?}"),
        }
        let pid: i32 = std::fs::read_to_string(&pidfile)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let t = Instant::now();
        while !gone(pid) && t.elapsed() < Duration::from_secs(2) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(gone(pid), "the grandchild {pid} survived the group kill");
    }

    fn pid_in(file: &std::path::Path) -> i32 {
        let t = Instant::now();
        loop {
            if let Some(p) = std::fs::read_to_string(file)
                .ok()
                .and_then(|s| s.trim().parse().ok())
            {
                return p;
            }
            assert!(
                t.elapsed() < Duration::from_secs(5),
                "{file:?} never written"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn session_of(pid: i32) -> Option<i32> {
        // proc(5) /proc/PID/stat: field 6 is the session id, counted after the ")".
        let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        s.rsplit(')')
            .next()?
            .split_whitespace()
            .nth(3)?
            .parse()
            .ok()
    }

    #[test]
    fn descendants_that_call_setsid_die_at_the_deadline() {
        if !std::path::Path::new("/usr/bin/setsid").exists() {
            eprintln!("SKIP: setsid(1) (util-linux) is not installed");
            return;
        }
        let pids = tempfile::tempdir().unwrap();
        let orphan = pids.path().join("orphan");
        let attached = pids.path().join("attached");
        // 1: a daemonising double fork: the subshell exits at once, so its setsid'd child is
        // orphaned (re-parented to init), in a session of its own, holding stdout.
        // 2: a child that cleared its environment (no token) and left the session, while
        // the wrapper waits for it: only the live tree still links it to the tool.
        let (_d, p) = script(&format!(
            "( /usr/bin/setsid /bin/sh -c 'echo $$ > {o}; exec sleep 60' & )\n\
             /usr/bin/env -i /usr/bin/setsid /bin/sh -c 'echo $$ > {a}; exec sleep 60' &\n\
             echo started\n\
             wait",
            o = orphan.display(),
            a = attached.display()
        ));
        let t = Instant::now();
        let c = run_resolved(&p, "wrapper", &[], Duration::from_millis(1500));
        let took = t.elapsed();
        assert!(took < Duration::from_millis(3000), "{took:?}");
        match &c {
            Capture::Unavailable { reason, detail } => {
                assert_eq!(*reason, Unavailable::Timeout, "{detail}");
                assert!(detail.contains("every process it started"), "{detail}");
            }
            other => panic!("{other:?}"),
        }
        let (o, a) = (pid_in(&orphan), pid_in(&attached));
        let t = Instant::now();
        while !(gone(o) && gone(a)) && t.elapsed() < Duration::from_secs(3) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let me = session_of(i32::try_from(std::process::id()).unwrap());
        for (what, pid) in [("orphaned", o), ("env-cleared", a)] {
            if !gone(pid) {
                let sid = session_of(pid);
                // Leave no sleeper behind even when the assertion fails.
                let _ = nix::sys::signal::kill(
                    nix::unistd::Pid::from_raw(pid),
                    nix::sys::signal::Signal::SIGKILL,
                );
                panic!(
                    "the {what} setsid descendant {pid} (session {sid:?}, ours {me:?}) survived"
                );
            }
        }
    }

    #[test]
    fn a_tool_that_never_exits_is_killed_at_the_deadline() {
        let (_d, p) = script("trap '' TERM HUP INT\nwhile :; do sleep 1; done");
        let t = Instant::now();
        let c = run_resolved(&p, "wrapper", &[], Duration::from_millis(500));
        assert!(
            t.elapsed() < Duration::from_millis(1500),
            "{:?}",
            t.elapsed()
        );
        assert!(matches!(
            c,
            Capture::Unavailable {
                reason: Unavailable::Timeout,
                ..
            }
        ));
        // A quick tool is not slowed down by the deadline machinery.
        let (_d, p) = script("echo out; echo err >&2; exit 3");
        let t = Instant::now();
        let c = run_resolved(&p, "wrapper", &[], Duration::from_secs(20));
        assert!(t.elapsed() < Duration::from_secs(2));
        match c {
            Capture::Ok {
                data,
                stderr,
                exit_code,
                ..
            } => {
                assert_eq!(data, "out\n");
                assert_eq!(stderr, "err\n");
                assert_eq!(exit_code, Some(3));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn newline_arguments_are_refused() {
        let c = run(&["uname", "-s\n"], Duration::from_secs(1));
        assert!(c.data().is_none());
    }
}
