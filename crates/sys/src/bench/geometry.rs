//! Device geometry per OS, pure: which ioctls give the size and the sector sizes, and how
//! their answers become a [`Geometry`].
//!
//! Linux (linux/fs.h): BLKGETSIZE64 (bytes), BLKSSZGET (logical sector), BLKPBSZGET
//! (physical sector). FreeBSD (sys/disk.h, disk(9)): DIOCGMEDIASIZE (bytes),
//! DIOCGSECTORSIZE (the provider's sector: 4096 on a 4Kn disk or a 4K GELI provider, and
//! O_DIRECT-free raw I/O must be a multiple of it), DIOCGSTRIPESIZE (the physical sector of
//! a 512e disk, 4096, as ada(4) reports it; 0 when there is none; a RAID stripe on
//! gstripe/graid providers, which is not a sector).

use super::plan::Geometry;
use diskdoc_core::evidence::{IoctlRequest, Platform};

/// The (size, logical sector, physical sector) ioctls of `platform`.
pub fn requests(platform: Platform) -> (IoctlRequest, IoctlRequest, IoctlRequest) {
    match platform {
        Platform::Freebsd => (
            IoctlRequest::DiocgMediaSize,
            IoctlRequest::DiocgSectorSize,
            IoctlRequest::DiocgStripeSize,
        ),
        _ => (
            IoctlRequest::BlkGetSize64,
            IoctlRequest::BlkSszGet,
            IoctlRequest::BlkPbszGet,
        ),
    }
}

/// The largest stripe size taken as a physical sector (larger ones are RAID stripes).
const MAX_PHYSICAL: u64 = 64 * 1024;

/// A sector size worth believing: a power of two from 512 bytes.
fn sector(v: Option<u64>) -> Option<u64> {
    v.filter(|v| *v >= 512 && v.is_power_of_two())
}

/// Sizes from the ioctls' answers (None: the ioctl failed or is unknown here).
pub fn from_answers(
    platform: Platform,
    size: u64,
    logical: Option<u64>,
    physical: Option<u64>,
) -> Geometry {
    let logical = sector(logical).unwrap_or(512);
    let physical = match platform {
        // DIOCGSTRIPESIZE: 0 (no stripe), the physical sector, or a RAID stripe.
        Platform::Freebsd => sector(physical)
            .filter(|p| *p >= logical && *p <= MAX_PHYSICAL)
            .unwrap_or(logical),
        _ => sector(physical).unwrap_or(logical),
    };
    Geometry {
        size,
        logical,
        physical,
    }
}

/// Whether the buffered half of the block-size sweep means anything on `target`. FreeBSD
/// has no block-device buffer cache: its disk devices are character devices whose reads go
/// straight to the driver (physio(9)), so "buffered" reads of /dev/ada0 are direct reads
/// again (and fail below the sector size).
pub fn buffered_sweep_applies(platform: Platform, target: &str) -> bool {
    !(platform == Platform::Freebsd && target.starts_with("/dev/"))
}

/// The note on the sweep when its buffered half was skipped.
pub const NO_BUFFERED_SWEEP: &str = "the buffered half of the sweep was skipped: FreeBSD disk devices have no buffer cache (physio(9)), so buffered reads are direct reads";

#[cfg(test)]
mod tests {
    use super::*;

    /// Fixture answers of real FreeBSD providers (diskinfo -v output of each).
    #[test]
    fn freebsd_fixture_geometry() {
        let f = Platform::Freebsd;
        // ada0, a 512e SATA disk: sectorsize 512, stripesize 4096.
        let g = from_answers(f, 1 << 40, Some(512), Some(4096));
        assert_eq!((g.logical, g.physical), (512, 4096));
        // nda0, a 4Kn NVMe namespace: sectorsize 4096, stripesize 0.
        let g = from_answers(f, 1 << 40, Some(4096), Some(0));
        assert_eq!((g.logical, g.physical), (4096, 4096));
        // ada1p2.eli, GELI with -s 4096 on a 512n disk: sectorsize 4096, stripesize 0.
        let g = from_answers(f, 1 << 30, Some(4096), Some(0));
        assert_eq!(g.logical, 4096);
        assert_eq!(super::super::plan::sweep_sizes(g.logical)[0], 4096);
        // stripe/st0, gstripe with a 128 KiB stripe: a stripe, not a sector.
        let g = from_answers(f, 1 << 40, Some(512), Some(128 * 1024));
        assert_eq!(g.physical, 512);
        // A failed ioctl: 512.
        let g = from_answers(f, 1 << 20, None, None);
        assert_eq!((g.logical, g.physical), (512, 512));
    }

    #[test]
    fn linux_geometry_and_requests() {
        let g = from_answers(Platform::Linux, 1 << 30, Some(512), Some(4096));
        assert_eq!((g.logical, g.physical), (512, 4096));
        let g = from_answers(Platform::Linux, 1 << 30, Some(4096), None);
        assert_eq!(g.physical, 4096);
        assert_eq!(
            from_answers(Platform::Linux, 1, Some(1000), None).logical,
            512
        );
        assert_eq!(requests(Platform::Freebsd).1, IoctlRequest::DiocgSectorSize);
        assert_eq!(requests(Platform::Linux).1, IoctlRequest::BlkSszGet);
    }

    #[test]
    fn buffered_sweep_only_where_there_is_a_cache() {
        assert!(!buffered_sweep_applies(Platform::Freebsd, "/dev/ada0"));
        assert!(buffered_sweep_applies(Platform::Freebsd, "/tank/img"));
        assert!(buffered_sweep_applies(Platform::Linux, "/dev/sda"));
    }
}
