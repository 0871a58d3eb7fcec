//! What `fstrim` and `blkdiscard` (util-linux) answer, and the kernel's own refusal at mount:
//! fstrim(8) sys-utils/fstrim.c prints "%s: %s (%ju bytes) trimmed" (with `-v`; "... trimmed
//! on %s" with `--all`) and, when the FITRIM ioctl fails with EOPNOTSUPP, "%s: the discard
//! operation is not supported" (older releases: "%s: FITRIM ioctl failed: Operation not
//! supported"); blkdiscard(8) "%s: BLKDISCARD ioctl failed: Operation not supported"; ext4
//! (fs/ext4/super.c) 'mounting with "discard" option, but the device does not support
//! discard'. The kernel answers EOPNOTSUPP to both ioctls exactly when the block device's
//! discard limit is 0 (block/ioctl.c blk_ioctl_discard and fs/ext4/ioctl.c ext4_trim_fs test
//! bdev_max_discard_sectors): a refusal proves discard_max_bytes = 0 on that device.

use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(
    pub EXT4_NO_DISCARD,
    r#"EXT4-fs \(([\w.-]+)\): mounting with "discard" option, but the device does not support discard"#
);
crate::rx!(
    pub FSTRIM_NO_DISCARD,
    r"fstrim: (\S+?):? (?:the discard operation is not supported|FITRIM ioctl failed: Operation not supported)"
);
// The same ioctls failing with EIO (fstrim.c prints "%s: FITRIM ioctl failed: %m"; blkdiscard
// "%s: BLKDISCARD ioctl failed: %m"): the kernel sent the discard and the device (or a layer
// between) answered it with an error. EREMOTEIO ("Remote I/O error") is the block layer's
// errno for a target that rejected the command, BLK_STS_TARGET, the "critical target error"
// of its log line (block/blk-core.c blk_errors): the same failure, named by the SCSI sense.
crate::rx!(
    pub DISCARD_IO_ERROR,
    r"(?:fstrim|blkdiscard): (\S+?):? (?:FITRIM|BLKDISCARD) ioctl failed: (?:Input/output|Remote I/O) error"
);
crate::rx!(
    pub BLKDISCARD_NO_DISCARD,
    r"blkdiscard: (/dev/\S+): BLKDISCARD ioctl failed: Operation not supported"
);
// fstrim -v: "/: 39.2 GiB (42088079360 bytes) trimmed" (also "... trimmed on /dev/sda2").
crate::rx!(
    TRIMMED,
    r"^(/\S*): [\d.,]+ ?[KMGTPE]?i?B \(\d+ bytes\) trimmed(?: on (/dev/\S+))?$"
);

/// The filesystems `fstrim --all -v` trimmed, as (mount point, device): fstrim.c names the
/// device ("trimmed on %s") only when it walks the mount table (--all, --fstab). That walk
/// skips in silence every filesystem whose device takes no discard (fstrim_all: `if
/// (!has_discard(src, &wholedisk)) continue;`, the device's discard_granularity), so a
/// mounted filesystem missing from the list was not trimmed.
pub fn trimmed_all(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| {
            let l = clean_line(l);
            let c = TRIMMED.captures(l.trim())?;
            Some((
                c.get(1)?.as_str().to_string(),
                c.get(2)?.as_str().to_string(),
            ))
        })
        .collect()
}

/// Whether a line is one of these tools' answers.
fn is_answer(t: &str) -> bool {
    let l = clean_line(t);
    let l = l.trim();
    FSTRIM_NO_DISCARD.is_match(l)
        || BLKDISCARD_NO_DISCARD.is_match(l)
        || DISCARD_IO_ERROR.is_match(l)
        || TRIMMED.is_match(l)
}

/// How many answers the text has (for the registry test).
pub fn count(text: &str) -> usize {
    text.lines().filter(|l| is_answer(l)).count()
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "fstrim",
    starts: &[(69, |l| spec::on_first(l, is_answer))],
    member: |t, _| spec::Member::from(is_answer(t)),
    classify: |_, _| "fstrim",
    ..spec::Recogniser::NONE
};

/// The device a blkdiscard refusal names (fstrim names a mount point, not a device).
fn text_device(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        BLKDISCARD_NO_DISCARD
            .captures(&clean_line(l))
            .and_then(|c| c.get(1))
            .map(|m| spec::strip_dev(m.as_str()))
    })
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(count),
    paste: Some(spec::Paste {
        device: Some(text_device),
        device_in_text_first: true,
        ..spec::Paste::new(&RECOGNISER, |p, _| p == "fstrim" || p == "blkdiscard")
    }),
    programs: &[
        spec::Program {
            names_device: false,
            ..spec::Program::new("fstrim", |a| {
                a.is_empty() || a.starts_with('-') || a.starts_with('/')
            })
        },
        spec::Program::new("blkdiscard", spec::flags_or_node),
    ],
    mention: Some(r"fstrim(?:\s+-\w+)*"),
    ..spec::SourceSpec::named("fstrim", "fstrim / blkdiscard answers")
};

#[cfg(test)]
mod tests;
