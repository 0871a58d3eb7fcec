//! Build script: the git commit of this build for `diskdoc --version` (ripgrep's build.rs
//! does the same). Without git (a crates.io tarball) the hash is "unknown".

use std::process::Command;

fn main() {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git").args(args).output().ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let hash = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=DISKDOC_GIT_HASH={hash}");
    // Rebuild when HEAD moves (a worktree's git dir is elsewhere: ask git where).
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/refs");
    }
    println!("cargo:rerun-if-changed=crates/diskdoc/build.rs");
}
