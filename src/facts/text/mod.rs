//! Parsers for tools whose output looks the same on Linux and FreeBSD (smartctl text and
//! JSON, zpool status, fio, dd) and Linux tool outputs people paste (hdparm, lsblk, fdisk,
//! sfdisk, cryptsetup status, dmsetup table, dmesg). Each parses from a `&str`.

pub mod cryptsetup;
pub mod dd;
pub mod dmsetup;
pub mod fdisk;
pub mod fio;
pub mod gstat;
pub mod hdparm;
pub mod iostat;
pub mod kernel_log;
pub mod lsblk;
pub mod sfdisk;
pub mod smartctl;
pub mod util;
pub mod zpool;
