//! FreeBSD facts: camcontrol, atacontrol, diskinfo, gpart, geli, sysctl, pciconf, dmesg,
//! kern.geom.confxml. One parser per tool, each `parse(&str)`; `derive` (derive.rs) is a
//! pure function of the bundle. Compiled and tested on every platform.
//!
//! Keys are looked up through `probe::plan::freebsd`, the same table the probe runs, so a
//! hand-written bundle (docs/evidence-format.md) and a live one read identically.

pub mod camcontrol_devlist;
pub mod camcontrol_identify;
pub mod confxml;
mod derive;
pub mod diskinfo;
pub mod dmesg;
pub mod geli;
pub mod geom_disk;
pub mod gpart_list;
pub mod gpart_show;
pub mod pciconf;
pub mod sysctl;
pub mod util;
pub mod zpool;

pub use derive::derive;
