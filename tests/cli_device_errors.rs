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
