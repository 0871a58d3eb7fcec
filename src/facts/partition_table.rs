//! Native MBR / GPT / BSD-label parsing from raw device bytes (read-only captures).
//! References: UEFI 2.10 section 5.3 (GPT), the classic MBR layout, FreeBSD bsdlabel(8).

use crate::facts::PartitionTable;

/// Parse a partition table from the first bytes of a device (at least LBA 0-33 for GPT).
/// `logical_sector` is the device's logical sector size. None when no table is recognised.
pub fn parse(_bytes: &[u8], _logical_sector: u32) -> Option<PartitionTable> {
    None
}
