//! Values of a disk's sysfs attributes as scripts and people print them, one a line, with
//! the attribute's path: `grep . /sys/block/sd*/device/queue_depth` ("PATH:VALUE", grep(1)
//! with several files), a tuning script's "current value of PATH is VALUE", and "PATH =
//! VALUE" / "PATH is VALUE". The attributes read are the ones diskdoc's live probe reads
//! (Documentation/ABI/testing/sysfs-block, Documentation/block/queue-sysfs.rst,
//! Documentation/ABI/testing/sysfs-bus-scsi for device/queue_depth): queue/write_cache
//! ("write back" / "write through"), queue/scheduler, queue/rotational, queue/
//! physical_block_size, queue/logical_block_size and device/queue_depth.

use crate::sources::spec;
use crate::sources::util::clean_line;

/// One attribute's value on one disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SysfsValue {
    /// The kernel name of the disk ("sdb").
    pub disk: String,
    /// "queue/write_cache", "device/queue_depth".
    pub attr: String,
    pub value: String,
}

crate::rx!(
    VALUE_LINE,
    r"(?:^|\s)/sys/block/([a-z]+|nvme\d+n\d+|mmcblk\d+)/(queue|device)/([a-z_]+)(?::|\s*=\s*|\s+is\s+)\s*([^\s:=].*?)\s*$"
);

/// The value a line shows, if it names a disk attribute's path and a value after it. A
/// write ("echo 1 > /sys/block/sdb/device/queue_depth") has the path last: no value.
fn value_of(raw: &str) -> Option<SysfsValue> {
    let l = clean_line(raw);
    let c = VALUE_LINE.captures(l.trim())?;
    let value = c.get(4)?.as_str().trim_end_matches('.').trim().to_string();
    if value.is_empty() || value.starts_with('/') {
        return None;
    }
    Some(SysfsValue {
        disk: c.get(1)?.as_str().to_string(),
        attr: format!("{}/{}", c.get(2)?.as_str(), c.get(3)?.as_str()),
        value,
    })
}

/// Every attribute value in the text, in order.
pub fn parse(text: &str) -> Vec<SysfsValue> {
    text.lines().filter_map(value_of).collect()
}

/// A line that belongs to such a listing: a value line, or a script's write to one of the
/// same files between them.
fn member(t: &str) -> bool {
    value_of(t).is_some() || t.contains("/sys/block/")
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "sysfs-values",
    starts: &[(66, |l| spec::on_first(l, |t| value_of(t).is_some()))],
    member: |t, _| spec::Member::from(member(t)),
    classify: |_, _| "sysfs-values",
    ..spec::Recogniser::NONE
};

/// Disk attributes printed with their sysfs paths (the live probe reads the same files,
/// sources::sysfs::block).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        p == "grep" && a.contains("/sys/block/")
    })),
    ..spec::SourceSpec::named("sysfs-values", "sysfs attribute listing")
};

#[cfg(test)]
mod tests;
