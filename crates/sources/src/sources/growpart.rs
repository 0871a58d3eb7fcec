//! growpart (cloud-utils, bin/growpart): grows a partition to fill its disk, the step every
//! cloud image runs after a volume was enlarged. Its status lines: "CHANGED: partition=N
//! start=S old: size=... end=... new: size=... end=...", "NOCHANGE: partition N could only
//! be grown by K [fudge=F]" / "NOCHANGE: partition N is size S. it cannot be grown",
//! "FAILED: ...". On a dos (MBR) table it caps the end at mbr_max_512 = 2^32 - 1 sectors and
//! warns "WARNING: MBR/dos partitioned disk is larger than 2TB. Additional space will go
//! unused." (resize_sfdisk, `debug 0`): the tool's own word that MBR cannot address the disk.

use crate::model::{PartitionToolMessage, PartitionToolVerdict};
use crate::sources::{spec, util};

crate::rx!(
    MBR_WARN,
    r"^(?:WARNING: )?MBR/dos partitioned disk is larger than 2TB\.?"
);
crate::rx!(
    STATUS,
    r"^(?:CHANGED: partition=\d+ |NOCHANGE: partition \d+ |FAILED: |WARN: |Additional space will go unused)"
);

/// The MBR warnings of the text (`from` left empty for the caller).
pub fn parse(text: &str) -> Vec<PartitionToolMessage> {
    text.lines()
        .map(util::clean_line)
        .filter(|l| MBR_WARN.is_match(l.trim()))
        .map(|l| PartitionToolMessage {
            tool: "growpart".to_string(),
            verdict: PartitionToolVerdict::MbrTooSmall,
            partition: None,
            disk_bytes: None,
            line: l.trim().to_string(),
            from: String::new(),
        })
        .collect()
}

// ---- the source spec (see sources::spec) ----

fn own(t: &str) -> bool {
    let t = util::clean_line(t);
    let t = t.trim();
    MBR_WARN.is_match(t) || STATUS.is_match(t)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "growpart",
    starts: &[(67, |l| spec::on_first(l, own))],
    member: |t, _| spec::Member::from(own(t)),
    tolerance: (0, 0),
    classify: |_, _| "growpart",
    ..spec::Recogniser::NONE
};

/// `growpart DISK PARTITION`: the disk is the device its output is about.
fn args(a: &str) -> bool {
    a.starts_with('-') || a.starts_with("/dev/")
}

/// growpart's status lines: pasted only.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "growpart")),
    programs: &[spec::Program::new("growpart", args)],
    ..spec::SourceSpec::named("growpart", "growpart (cloud-utils)")
};

#[cfg(test)]
mod tests;
