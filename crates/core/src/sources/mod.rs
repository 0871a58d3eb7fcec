//! One axis, one file per thing diskdoc reads: a tool's output (smartctl, camcontrol,
//! diskinfo, gpart, geli, zpool, hdparm, lsblk, fdisk, dd, fio, ...), a kernel file
//! (mountinfo, dmesg) or a binary structure (ATA IDENTIFY, partition tables). Each file holds
//! that source's parser, pure and compiled on every platform, parsing from a `&str` or bytes.
//! Parsers never panic on bad input: an unparsable capture becomes an unknown upstream.
//!
//! Sources import only `evidence`, `model` and `units` (tests/layering.rs): deriving facts
//! from several sources is `facts`' job.

pub mod ata_identify;
pub mod camcontrol_devlist;
pub mod camcontrol_identify;
pub mod camcontrol_modepage;
pub mod camcontrol_tags;
pub mod confxml;
pub mod copy;
pub mod cryptsetup;
pub mod dd;
pub mod diskinfo;
pub mod diskstats;
pub mod dmesg;
pub mod dmsetup;
pub mod fdisk;
pub mod fio;
pub mod geli;
pub mod geom_disk;
pub mod geom_util;
pub mod gpart_list;
pub mod gpart_show;
pub mod gstat;
pub mod hdparm;
pub mod iostat;
pub mod kernel_log;
pub mod lsblk;
pub mod lspci;
pub mod mdstat;
pub mod mount_p;
pub mod mountinfo;
pub mod nvme_smart;
pub mod partition_table;
pub mod pciconf;
pub mod power_log;
pub mod sfdisk;
pub mod smartctl;
pub mod smartctl_attr;
pub mod sysctl;
pub mod util;
pub mod zfs_get;
pub mod zpool;
pub mod zpool_ashift;
