//! `diskdoc scan/check --device NAME` with a name that is not a block device on this
//! machine: exit 2 and one line naming the problem, the real block devices (/sys/block on
//! Linux) and what to do. Runs the real binary against the live machine, read-only.

use std::process::Command;

#[test]
fn unknown_device_lists_the_machines_block_devices() {
    let sys_block: Vec<String> = match std::fs::read_dir("/sys/block") {
        Ok(rd) => rd
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().to_string())
            .collect(),
        Err(e) => {
            eprintln!("skipping: /sys/block is not readable here ({e})");
            return;
        }
    };
    for sub in ["scan", "check"] {
        let out = Command::new(env!("CARGO_BIN_EXE_diskdoc"))
            .args([sub, "--device", "nosuch-disk-xyz"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{sub}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{sub}: {err}");
        assert!(
            err.contains("no block device named \"nosuch-disk-xyz\""),
            "{sub}: {err}"
        );
        assert!(!err.contains("known devices: none"), "{sub}: {err}");
        if sys_block.is_empty() {
            assert!(
                err.contains("no block devices could be listed"),
                "{sub}: {err}"
            );
        } else {
            for n in &sys_block {
                assert!(err.contains(n.as_str()), "{sub}: {n} missing from {err}");
            }
            assert!(err.contains("--device"), "{sub}: {err}");
        }
        assert!(
            out.stdout.is_empty(),
            "{sub}: printed facts/findings on error"
        );
    }
}

/// A reader that went away (`diskdoc ... | head`) ends the run quietly with 141 (128 +
/// SIGPIPE, what a shell shows for a tool killed by a closed pipe), never a panic. The pipe's
/// read end is closed before the child starts, so its first write must fail with EPIPE.
#[test]
fn closed_stdout_pipe_exits_141_without_a_panic() {
    let (read_end, write_end) = nix::unistd::pipe().expect("pipe(2)");
    drop(read_end);
    let bundle = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/bundles/linux-ahci-sata-ssd.json"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_diskdoc"))
        .args(["replay", bundle, "--format", "json"])
        .stdout(std::process::Stdio::from(write_end))
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
}
