//! The fix summaries of virtual-or-bridged-device findings that checks::effect recognises.

/// The fix of disks that share a bridge and a serial number (checks/effect says it changes
/// no rate).
pub(crate) const SAME_SERIAL_FIX: &str = "name the disks by partition labels, not by serial";

/// The fix that moves a Bulk-Only disk to UAS (checks::effect predicts its read).
pub(crate) const UAS_FIX: &str = "use a UAS-capable enclosure on a USB 3 port";

/// The fix of a virtual disk's errors (checks/effect says it gives no rate by itself).
pub(crate) const HOST_FIX: &str = "look for the cause on the host, not in the guest";

/// The fix of a virtual disk grown under its partition table (checks/effect says it gains
/// capacity, not speed).
pub(crate) const GROWN_DISK_FIX: &str = "move the backup GPT header to the new end of the disk";
