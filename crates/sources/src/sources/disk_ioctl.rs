//! The DIOCG* disk ioctls (sys/sys/disk.h: DIOCGMEDIASIZE, DIOCGSECTORSIZE,
//! DIOCGSTRIPESIZE, DIOCGSTRIPEOFFSET), captured by the FreeBSD probe as one decimal
//! number each.

use crate::sources::spec;

/// Read one ioctl capture: a plain decimal number.
pub fn parse(text: &str) -> Option<u64> {
    text.trim().parse().ok()
}

/// The disk geometry ioctls.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[
        spec::Live::Ioctl("DIOCGMEDIASIZE"),
        spec::Live::Ioctl("DIOCGSECTORSIZE"),
        spec::Live::Ioctl("DIOCGSTRIPESIZE"),
        spec::Live::Ioctl("DIOCGSTRIPEOFFSET"),
    ],
    parse: Some(|t| usize::from(parse(t).is_some())),
    ..spec::SourceSpec::named("disk-ioctl", "DIOCG* ioctls")
};
