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

    /// The DIOCGSECTORSIZE/DIOCGSTRIPESIZE decisions on real providers: diskinfo(8) prints
    /// exactly those two ioctls' answers as "# sectorsize" and "# stripesize" (usr.sbin/
    /// diskinfo/diskinfo.c), so its captured output (tests/fixtures/INDEX.md, with their
    /// sources) stands for what the bench's ioctls return on those providers.
    #[test]
    fn freebsd_geometry_of_captured_providers() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/freebsd/diskinfo/"
        );
        let answers = |file: &str| {
            let text = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
            let d = diskdoc_core::sources::diskinfo::parse(&text);
            let g = from_answers(
                Platform::Freebsd,
                d.media_bytes.unwrap_or(0),
                d.sector_size.map(u64::from),
                d.stripe_size,
            );
            (g.size, g.logical, g.physical)
        };
        // A 4K GELI provider on a 512-byte disk: every raw I/O must be a multiple of 4096,
        // so the small-block sweep starts there (it failed with EINVAL at 512 before).
        let geli = answers("v-ada0p4-eli-geli-4k-sector.txt");
        assert_eq!(geli, (229_318_324_224, 4096, 4096));
        assert_eq!(super::super::plan::sweep_sizes(geli.1)[0], 4096);
        // A 512e SAS disk (HGST He12): sectorsize 512, stripesize 4096 = physical sector.
        assert_eq!(
            answers("ctv-fbsd12-sas-hgst-he12-12tb-da1-enclosure-physpath.txt"),
            (12_000_138_625_024, 512, 4096)
        );
        // A 512-byte SSD with no stripe hint: stripesize 0 means "none", not a 0 sector.
        assert_eq!(
            answers("v-corsair-ssd-ada0-whole-disk.txt"),
            (240_057_409_536, 512, 512)
        );
        // An MBR slice's BSD partition: stripesize 0 (its stripeoffset 40448 is an offset,
        // never a size).
        assert_eq!(answers("t-pfsense2.3-usb-sdcard-da0s1a-34MBps.txt").1, 512);
        assert_eq!(answers("t-pfsense2.3-usb-sdcard-da0s1a-34MBps.txt").2, 512);
    }

    /// Answers as diskinfo would print them for providers there is no capture of here
    /// (NOT captures: the values follow disk(9) and the GEOM classes' documented behaviour).
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
