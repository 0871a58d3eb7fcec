//! FreeBSD fdisk(8) output ("******* Working on device /dev/ada0 *******", the
//! "parameters extracted from in-core disklabel" lines and one "The data for partition N
//! is:" record per MBR slice). Only recognised in pastes: the partition facts come from the
//! raw MBR (`partition_table`) and `gpart show`, so no parser reads it.

use crate::sources::spec;

crate::rx!(BSDFDISK_START, r"^\*+.*Working on device (\S+) \*+");
crate::rx!(
    BSDFDISK_ROW,
    r"^(parameters (extracted|to be used)|cylinders=\d|Media sector size|Warning: BIOS sector|Information from DOS bootblock|The data for partition \d+ is:|sysid \d|start \d+, size|beg: cyl|end: cyl|<UNUSED>)"
);

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "fdisk",
    starts: &[(90, |l| spec::on_first(l, |t| BSDFDISK_START.is_match(t)))],
    member: |t, _| {
        spec::Member::from(BSDFDISK_START.is_match(t) || BSDFDISK_ROW.is_match(t.trim()))
    },
    tolerance: (1, 0),
    classify: |_, _| "fdisk",
    ..spec::Recogniser::NONE
};

/// FreeBSD fdisk(8).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    paste: Some(spec::Paste {
        device: Some(|text| spec::first_line_device(&BSDFDISK_START, text, 1)),

        ..spec::Paste::new(&RECOGNISER, |p, _| p == "fdisk" || p == "sfdisk")
    }),
    ..spec::SourceSpec::named("fdisk", "fdisk (FreeBSD)")
};
