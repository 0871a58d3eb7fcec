//! Safe command runner: allowlisted tools resolved in fixed system directories, argv only,
//! no shell, cleared environment with LC_ALL=C, stdin from /dev/null, stdout and stderr read
//! on separate threads, killed at a timeout, output capped.
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

fn read_capped(mut r: impl Read + Send + 'static) -> std::thread::JoinHandle<(Vec<u8>, bool)> {
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let mut buf = [0u8; 16384];
        let mut truncated = false;
        loop {
            match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if out.len() + n > OUTPUT_CAP {
                        out.extend_from_slice(&buf[..OUTPUT_CAP - out.len()]);
                        truncated = true;
                        // keep draining so the child does not block on a full pipe
                    } else if !truncated {
                        out.extend_from_slice(&buf[..n]);
                    }
                }
            }
        }
        (out, truncated)
    })
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
    let path = match resolve(tool) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let start = Instant::now();
    let mut child = match Command::new(&path)
        .args(args)
        .env_clear()
        .env("LC_ALL", "C")
        .env("PATH", TOOL_DIRS)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .current_dir("/")
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
        let _ = child.kill();
        return Capture::unavailable(Unavailable::Failed, "no pipes to the child");
    };
    let out_t = read_capped(out);
    let err_t = read_capped(err);
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                timed_out = true;
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(_) => break None,
        }
    };
    let (stdout, cut) = out_t.join().unwrap_or_default();
    let (stderr, _) = err_t.join().unwrap_or_default();
    let elapsed_ms = start.elapsed().as_millis() as u64;
    let stderr = String::from_utf8_lossy(&stderr).into_owned();
    if timed_out {
        return Capture::unavailable(
            Unavailable::Timeout,
            format!("{tool} killed after {} s", timeout.as_secs()),
        );
    }
    let mut data = String::from_utf8_lossy(&stdout).into_owned();
    if cut {
        data.push_str("\n[diskdoc: output cut at the size cap]\n");
    }
    let exit_code = status.and_then(|s| s.code());
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

    #[test]
    fn newline_arguments_are_refused() {
        let c = run(&["uname", "-s\n"], Duration::from_secs(1));
        assert!(c.data().is_none());
    }
}
