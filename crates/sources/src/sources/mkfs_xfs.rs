//! `mkfs.xfs` output: the geometry table it prints (also `xfs_info`'s: "meta-data=/dev/sdc1
//! isize=512 agcount=4, ...", "data = bsize=4096 blocks=N, imaxpct=5", "= sunit=0 swidth=0
//! blks", "naming", "log", "realtime") and its alignment refusal, xfsprogs mkfs/xfs_mkfs.c:
//! "warning: device is not properly aligned %s" then "Use -f to force usage of a misaligned
//! device", printed when libblkid reports a non-zero alignment offset for the device (the
//! kernel's alignment_offset: the device's start is not on a physical-sector boundary).

use crate::model::{PartitionToolMessage, PartitionToolVerdict};
use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(NOT_ALIGNED, r"device is not properly aligned\s+(/dev/\S+)?");
crate::rx!(META, r"^meta-data=(\S*)\s+isize=");
crate::rx!(ROW, r"^(?:data|naming|log|realtime|meta-data)?\s*=");

/// The alignment warnings of the text (`from` left empty for the caller).
pub fn parse(text: &str) -> Vec<PartitionToolMessage> {
    text.lines()
        .map(clean_line)
        .filter_map(|l| {
            let c = NOT_ALIGNED.captures(&l)?;
            Some(PartitionToolMessage {
                tool: "mkfs.xfs".to_string(),
                verdict: PartitionToolVerdict::Misaligned,
                partition: c.get(1).map(|m| spec::strip_dev(m.as_str())),
                disk_bytes: None,
                line: l.trim().to_string(),
                from: String::new(),
            })
        })
        .collect()
}

/// Geometry rows and warnings read (for the registry test).
fn count(text: &str) -> usize {
    text.lines()
        .map(clean_line)
        .filter(|l| is_member(l))
        .count()
}

fn is_member(t: &str) -> bool {
    let t = t.trim_end();
    META.is_match(t)
        || (ROW.is_match(t) && t.contains('='))
        || NOT_ALIGNED.is_match(t)
        || t.starts_with("Use -f to force")
}

fn start(lines: &[&str]) -> spec::Start {
    spec::on_first(lines, |t| {
        let l = clean_line(t);
        META.is_match(&l) || NOT_ALIGNED.is_match(&l)
    })
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "mkfs-xfs",
    starts: &[(68, start)],
    member: |t, _| spec::Member::from(is_member(&clean_line(t))),
    classify: |_, _| "mkfs-xfs",
    ..spec::Recogniser::NONE
};

/// The device: the warning's, else the geometry's "meta-data=/dev/sdc1".
fn text_device(text: &str) -> Option<String> {
    text.lines().map(clean_line).find_map(|l| {
        NOT_ALIGNED
            .captures(&l)
            .and_then(|c| c.get(1))
            .or_else(|| META.captures(&l).and_then(|c| c.get(1)))
            .map(|m| spec::strip_dev(m.as_str()))
            .filter(|d| !d.is_empty())
    })
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(count),
    paste: Some(spec::Paste {
        device: Some(text_device),
        device_in_text_first: true,
        ..spec::Paste::new(&RECOGNISER, |p, _| p == "mkfs.xfs" || p == "xfs_info")
    }),
    programs: &[
        spec::Program::new("mkfs.xfs", spec::flags_or_node),
        spec::Program::new("xfs_info", |_| true),
    ],
    ..spec::SourceSpec::named("mkfs-xfs", "mkfs.xfs / xfs_info")
};

#[cfg(test)]
mod tests;
