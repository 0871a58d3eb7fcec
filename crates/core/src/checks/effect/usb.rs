//! USB transfer arithmetic for a disk behind a USB bridge: the bulk-data ceiling of the link
//! and what the mass-storage protocol leaves of it.
//! - USB 2.0 high speed signals at 480 Mb/s; a bulk endpoint moves at most 13 packets of 512
//!   bytes per 125 µs microframe (USB 2.0 specification, section 5.8.4, table 5-10): 53.2 MB/s.
//! - USB 3.x SuperSpeed (Gen 1) signals at 5 Gb/s with 8b/10b coding (USB 3.2 specification,
//!   section 6.3): 500 MB/s of data; SuperSpeed+ (Gen 2) at 10 Gb/s with 128b/132b: 1212 MB/s.
//! - Bulk-Only Transport (usb-storage, umass) sends a 31-byte command block wrapper before and
//!   waits for a 13-byte status wrapper after every command (USB Mass Storage Class Bulk-Only
//!   Transport 1.0, sections 5.1-5.2), one command at a time; on USB 2 that leaves about 34 MB/s
//!   (a Raspberry Pi engineer's figure for USB 2 disks: "you get a maximum of ~34MB/s",
//!   https://github.com/raspberrypi/linux/issues/4498). USB Attached SCSI (uas) queues commands
//!   on separate pipes with streams, which matters for queued and small I/O more than for one
//!   large sequential stream.
//! - On a USB 3 Gen 1 link, the UASP standard's estimate (as Electronic Design reports it,
//!   "What's the Difference Between USB UASP and BOT", page 2,
//!   http://electronicdesign.com/embedded/whats-difference-between-usb-uasp-and-bot?page=2) is
//!   "an actual sustained data throughput of 400 MB/sec may be attainable using UASP, compared
//!   to an estimated limit of only 250 MB/sec for BOT operation"; its measurement (Renesas
//!   µPD720230 USB3-to-SATA3 bridge, a Crucial RealSSD, CrystalDiskMark 3) read "up to 369.2
//!   MB/sec with UASP", "up to 30% performance improvement over BOT", and writes gained 2.7 %
//!   (sequential) and 1.9 % (512K random).

/// A USB 3 link's signalling generation (USB 2's bulk ceiling is [`USB2_BULK_MBPS`]). No
/// fact carries a disk's USB link speed yet, so only the reason's arithmetic uses these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UsbSpeed {
    /// USB 3.x Gen 1, 5 Gb/s (`lsusb -t` "5000M").
    Super,
    /// USB 3.x Gen 2, 10 Gb/s ("10000M").
    SuperPlus,
}

/// Bulk data a USB 2 high-speed link can carry, MB/s: 13 x 512 bytes per 125 µs microframe.
pub(crate) const USB2_BULK_MBPS: f64 = 13.0 * 512.0 / 125e-6 / 1e6;
/// What Bulk-Only Transport leaves of a USB 2 link for one sequential stream, MB/s (module
/// docs: about 34 MB/s measured, 30-40 MB/s as posted).
pub(crate) const USB2_BOT_MBPS: (f64, f64) = (30.0, 40.0);

/// Bulk-Only Transport's estimated limit on a USB 3 Gen 1 link, MB/s (module docs: the UASP
/// standard's estimate as Electronic Design reports it).
pub(crate) const USB3_BOT_LIMIT_MBPS: f64 = 250.0;
/// UAS's estimated sustained throughput on a USB 3 Gen 1 link, MB/s (same source).
pub(crate) const USB3_UAS_LIMIT_MBPS: f64 = 400.0;
/// The largest sequential-read gain of UAS over Bulk-Only Transport on the same bridge and
/// drive in the same source's measurement ("up to 30% performance improvement over BOT").
pub(crate) const UAS_READ_GAIN_MAX: f64 = 1.30;
/// A large-block read at this share of [`USB3_BOT_LIMIT_MBPS`] or more is taken as held by
/// Bulk-Only Transport (the share the link models use for a link-bound figure).
pub(crate) const BOT_BOUND_SHARE: f64 = 0.80;

/// Whether `mbps` is a USB 3 Gen 1 (SuperSpeed, 5 Gb/s) link, the link the estimates above
/// are for.
pub(crate) fn is_gen1(mbps: f64) -> bool {
    (5000.0..10000.0).contains(&mbps)
}

/// Bulk data a USB link below high speed can carry, MB/s: a full-speed (12 Mb/s) frame of
/// 1 ms holds at most 19 bulk packets of 64 bytes (USB 2.0 section 5.8.4, table 5-9); a
/// low-speed (1.5 Mb/s) device has no bulk endpoints at all (section 5.8.3), so it moves
/// control transfers only: 8 bytes per frame at best. From high speed up, the USB 2 ceiling.
pub(crate) fn bulk_mbps(link_mbps: f64) -> f64 {
    if link_mbps <= 1.5 {
        8.0 * 1000.0 / 1e6
    } else if link_mbps <= 12.0 {
        19.0 * 64.0 * 1000.0 / 1e6
    } else {
        USB2_BULK_MBPS
    }
}

/// The data rate of a USB link after line coding, MB/s.
fn link_data_mbps(speed: UsbSpeed) -> f64 {
    match speed {
        // 5 Gb/s, 8 of every 10 bits carry data.
        UsbSpeed::Super => 5000.0 * 8.0 / 10.0 / 8.0,
        // 10 Gb/s, 128 of every 132 bits carry data.
        UsbSpeed::SuperPlus => 10000.0 * 128.0 / 132.0 / 8.0,
    }
}

/// One sentence with the arithmetic, for the reason a bridged disk gets no range.
pub(crate) fn arithmetic_words() -> String {
    format!(
        "a USB 2 link carries at most {:.0} MB/s of bulk data and Bulk-Only Transport leaves \
         {:.0}-{:.0} MB/s of it, a USB 3 Gen 1 link {:.0} MB/s and Gen 2 {:.0} MB/s after line \
         coding",
        USB2_BULK_MBPS,
        USB2_BOT_MBPS.0,
        USB2_BOT_MBPS.1,
        link_data_mbps(UsbSpeed::Super),
        link_data_mbps(UsbSpeed::SuperPlus)
    )
}

#[cfg(test)]
mod tests;
