//! `kldstat -q -m zfs` (kldstat(8)): whether the zfs module is loaded, told by the exit
//! status alone (-q prints nothing; exit 0 when modfind(2) finds the module). The FreeBSD
//! probe asks it before any zpool/zfs command, since those kldload zfs.ko on first use.

use crate::sources::spec;

/// kldstat(8) -q -m zfs: no output to parse, only the exit status.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(&["kldstat", "-q", "-m", "zfs"])],
    ..spec::SourceSpec::named("kldstat", "kldstat -q -m zfs")
};
