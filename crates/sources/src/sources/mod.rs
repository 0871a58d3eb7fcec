//! One axis, one file per thing diskdoc reads: a tool's output (smartctl, camcontrol,
//! diskinfo, gpart, geli, zpool, hdparm, lsblk, fdisk, dd, fio, ...), a kernel file
//! (mountinfo, dmesg) or a binary structure (ATA IDENTIFY, partition tables). Each file holds
//! that source's parser, pure and compiled on every platform, parsing from a `&str` or bytes.
//! Parsers never panic on bad input: an unparsable capture becomes an unknown upstream.
//!
//! Sources import only `evidence`, `model` and `units` (tests/it/layering.rs): deriving facts
//! from several sources is `facts`' job.

pub mod agnostics;
pub mod app_file_error;
pub mod arcconf;
pub mod arcstats;
pub mod areca_cli;
pub mod ata_identify;
pub mod atacontrol_smart;
pub mod badblocks;
pub mod biolatency;
pub mod biosnoop;
pub mod block_recognisers;
pub mod blockdev;
pub mod bonnie;
pub mod bsd_fdisk;
pub mod btrfs_scrub;
pub mod btrfs_stats;
pub mod by_id;
pub mod camcontrol_devlist;
pub(crate) mod camcontrol_epc;
pub mod camcontrol_identify;
pub mod camcontrol_modepage;
pub mod camcontrol_tags;
pub mod check_raid;
pub mod check_smart;
pub mod checksum;
pub mod confxml;
pub mod copy;
pub mod cryptsetup;
pub mod cryptsetup_benchmark;
pub mod dd;
pub mod dd_bs_test;
pub mod ddrescue;
pub mod df;
pub(crate) mod disk_ioctl;
pub mod diskdoc_report;
pub mod diskinfo;
pub mod diskmark;
pub mod diskscan;
pub mod diskstats;
pub mod dmesg;
pub mod dmsetup;
pub(crate) mod dstat;
pub mod esos_health_chk;
pub mod esxi_vmkernel;
pub mod etcd_log;
pub mod etcd_metrics;
pub(crate) mod ezfio;
pub mod f3;
pub mod fdisk;
pub mod fio;
pub mod fio_mark;
pub(crate) mod fsck_ffs;
pub mod fstrim;
pub mod geli;
pub(crate) mod geli_ctl;
pub mod geom_disk;
pub mod geom_status;
pub mod geom_util;
pub mod gpart_list;
pub mod gpart_show;
pub mod growpart;
pub mod gstat;
pub(crate) mod hd_idle;
pub(crate) mod hddtemp;
pub mod hdparm;
pub(crate) mod hdparm_grep;
pub(crate) mod hwinfo;
pub mod inxi;
pub(crate) mod ioping;
pub mod iostat;
pub mod iotop;
pub mod iozone;
pub(crate) mod journal;
pub(crate) mod json_doc;
pub(crate) mod kbench;
pub mod kernel_log;
pub(crate) mod kldstat;
pub(crate) mod lm_sensors;
pub mod log_prefix;
pub mod lpm_policy;
pub mod lsblk;
pub(crate) mod lsds;
pub mod lspci;
pub mod lsscsi;
pub mod lsusb;
pub mod luks_dump;
pub mod markup;
pub mod mc_top_disk;
pub mod mdadm_assemble;
pub mod mdadm_detail;
pub mod mdstat;
pub mod megacli;
pub mod megaclisas_status;
pub mod mkfs_xfs;
pub mod mount_p;
pub mod mountinfo;
pub mod nmdctl;
pub mod nvme_error_log;
pub(crate) mod nvme_get_feature;
pub mod nvme_get_log;
pub(crate) mod nvme_id_ctrl;
pub(crate) mod nvme_list;
pub mod nvme_smart;
pub mod omreport;
pub mod omsa_alert_log;
pub mod openseachest;
pub mod partclone;
pub mod parted;
pub mod partition_table;
pub mod pata_mode;
pub mod pciconf;
pub(crate) mod pg_test_fsync;
pub mod pibenchmarks;
pub mod power_log;
pub mod proc_crypto;
pub mod proc_ide;
pub mod progress;
pub mod provisioning_mode;
pub mod ps;
pub mod pv;
pub mod raid_controller;
pub mod raid_log;
pub mod rpi_config;
pub mod rsync;
pub mod sar;
pub mod sbc_bench;
pub mod sdparm;
pub mod sfdisk;
pub mod sg_inq;
pub mod sg_readcap;
pub mod sg_vpd;
pub mod shell_time;
pub mod smartctl;
pub mod smartctl_attr;
pub mod smartd;
pub mod spec;
pub mod ssacli;
pub mod storcli;
pub(crate) mod synodisk;
pub(crate) mod sysbench;
pub mod sysctl;
pub mod sysfs;
pub mod sysfs_values;
pub(crate) mod system76_power;
pub(crate) mod tlp_stat;
pub mod tunefs;
pub mod tw_cli;
pub mod udevadm;
pub(crate) mod udisks;
pub mod usb_devices;
pub mod util;
pub mod yabs;
pub mod zed;
pub mod zfs_bench;
pub mod zfs_get;
pub mod zpool;
pub mod zpool_ashift;
pub mod zpool_autotrim;
pub(crate) mod zpool_import;
pub mod zpool_list;

use spec::{Ask, SourceSpec};

/// The sources that show a drive's SMART report, text or JSON: a paste that has one needs
/// no command asked for it.
pub static SMART_REPORTS: &[&SourceSpec] = &[&smartctl::SPEC, &smartctl::JSON_SPEC];

/// The command line that answers `a` about `dev` (written as the asker writes it: /dev/sda,
/// ada0, passN; ignored by a machine-wide ask), from the one spec that holds it.
pub fn ask(a: Ask, dev: &str) -> String {
    SPECS
        .iter()
        .flat_map(|s| s.asks.iter())
        .find(|(k, _)| *k == a)
        .map(|(_, t)| spec::fill_ask(t, dev))
        .unwrap_or_default()
}

/// The command line that answers `a` as prose names it, with no device ("smartctl -x",
/// "camcontrol identify"; a machine-wide ask in full).
pub fn ask_bare(a: Ask) -> String {
    SPECS
        .iter()
        .flat_map(|s| s.asks.iter())
        .find(|(k, _)| *k == a)
        .map(|(_, t)| spec::bare_ask(t))
        .unwrap_or_default()
}

/// The registry: every source diskdoc reads, pasted or live.
pub static SPECS: &[&SourceSpec] = &[
    &diskdoc_report::SPEC,
    &camcontrol_identify::SPEC,
    &camcontrol_identify::ATACONTROL_SPEC,
    &atacontrol_smart::SPEC,
    &camcontrol_devlist::SPEC,
    &diskinfo::SPEC,
    &gpart_show::SPEC,
    &gpart_list::SPEC,
    &geom_disk::SPEC,
    &geli::SPEC,
    &pciconf::SPEC,
    &bsd_fdisk::SPEC,
    &dmesg::SPEC,
    &kernel_log::LINUX_SPEC,
    &sysctl::SPEC,
    &zpool::SPEC,
    &iostat::SPEC,
    &sar::SPEC,
    &iotop::SPEC,
    &fsck_ffs::SPEC,
    &gstat::SPEC,
    &smartctl::SPEC,
    &smartctl::JSON_SPEC,
    &smartd::SPEC,
    &check_smart::SPEC,
    &hdparm::IDENTIFY_SPEC,
    &hdparm::WRITE_CACHE_SPEC,
    &hdparm::TIMING_SPEC,
    &hdparm_grep::SPEC,
    &lsblk::SPEC,
    &lsblk::JSON_SPEC,
    &fdisk::SPEC,
    &sfdisk::SPEC,
    &cryptsetup::SPEC,
    &cryptsetup_benchmark::SPEC,
    &luks_dump::SPEC,
    &nmdctl::SPEC,
    &proc_crypto::SPEC,
    &dmsetup::SPEC,
    &fio::SPEC,
    &fio::JSON_SPEC,
    &dd::SPEC,
    &f3::SPEC,
    &dd_bs_test::SPEC,
    &df::SPEC,
    &udevadm::SPEC,
    &usb_devices::SPEC,
    &lsusb::TREE_SPEC,
    &lsusb::LIST_SPEC,
    &lsusb::DESC_SPEC,
    &lpm_policy::SPEC,
    &sysfs_values::SPEC,
    &provisioning_mode::SPEC,
    &sg_inq::SPEC,
    &sg_readcap::SPEC,
    &sg_vpd::SPEC,
    &blockdev::SPEC,
    // The table-like sources in pastes (sources/block_recognisers.rs and the files named there).
    &block_recognisers::LSPCI_VV_SPEC,
    &block_recognisers::MDSTAT_SPEC,
    &mdadm_detail::SPEC,
    &mc_top_disk::SPEC,
    &mdadm_assemble::SPEC,
    &nvme_smart::NVME_CLI_SPEC,
    &nvme_get_log::SPEC,
    &block_recognisers::NVME_ID_NS_SPEC,
    &nvme_smart::SPEC,
    &block_recognisers::NVMECONTROL_IDENTIFY_SPEC,
    &block_recognisers::LSBLK_D_SPEC,
    &block_recognisers::DISKSTATS_SPEC,
    &pciconf::LVC_SPEC,
    &hdparm::APM_SPEC,
    &block_recognisers::ZPOOL_GET_ASHIFT_SPEC,
    &block_recognisers::ZDB_C_SPEC,
    &zpool_autotrim::SPEC,
    &zpool_list::SPEC,
    &zpool_import::SPEC,
    &block_recognisers::CRYSTALDISKMARK_SPEC,
    &block_recognisers::KDISKMARK_SPEC,
    &fio_mark::SPEC,
    &yabs::SPEC,
    &iozone::SPEC,
    &pibenchmarks::SPEC,
    &agnostics::SPEC,
    &rsync::SPEC,
    &rpi_config::SPEC,
    // RAID controller tools (sources/raid_controller.rs holds their common value).
    &ssacli::SPEC,
    &areca_cli::SPEC,
    &arcconf::SPEC,
    &megacli::SPEC,
    &megaclisas_status::SPEC,
    &tw_cli::SPEC,
    &check_raid::SPEC,
    &storcli::SPEC,
    &omreport::SPEC,
    &omsa_alert_log::SPEC,
    &esos_health_chk::SPEC,
    &bonnie::SPEC,
    // Drive settings and logs of the vendors' and mode-page tools.
    &nvme_error_log::SPEC,
    &sdparm::SPEC,
    &openseachest::SPEC,
    &tunefs::SPEC,
    &fstrim::SPEC,
    &geom_status::SPEC,
    &camcontrol_epc::SPEC,
    &geli_ctl::SPEC,
    &nvme_get_feature::SPEC,
    &btrfs_scrub::SPEC,
    &btrfs_stats::SPEC,
    &badblocks::SPEC,
    &diskscan::SPEC,
    &pv::SPEC,
    &shell_time::SPEC,
    &progress::SPEC,
    &kbench::SPEC,
    &ps::SPEC,
    &ddrescue::SPEC,
    &esxi_vmkernel::SPEC,
    &partclone::SPEC,
    &app_file_error::SPEC,
    &biolatency::SPEC,
    &biosnoop::SPEC,
    &zed::SPEC,
    &proc_ide::SPEC,
    // Inventories and monitors pasted beside a question: they name drives and show
    // counters; read so that a healthy one is answered as such.
    &nvme_list::SPEC,
    &nvme_id_ctrl::SPEC,
    &hwinfo::SPEC,
    &tlp_stat::SPEC,
    &lm_sensors::SPEC,
    &hddtemp::SPEC,
    &dstat::SPEC,
    &ezfio::SPEC,
    &ioping::SPEC,
    &inxi::SPEC,
    &lsscsi::SPEC,
    &sbc_bench::SPEC,
    &lsds::SPEC,
    // Benchmarks of a filesystem's sync writes and file I/O: read so that a healthy
    // run is answered as such.
    &pg_test_fsync::SPEC,
    &sysbench::SPEC,
    &etcd_metrics::SPEC,
    &etcd_log::SPEC,
    // Daemons' log lines about drives that are not the kernel's: what the daemon could
    // not do, read so that a healthy system's noise is answered as such.
    &udisks::SPEC,
    &journal::SPEC,
    &hd_idle::SPEC,
    &system76_power::SPEC,
    &synodisk::SPEC,
    &synodisk::LOG_SPEC,
    // The partitioning and mkfs tools' own verdicts.
    &parted::SPEC,
    &growpart::SPEC,
    &mkfs_xfs::SPEC,
    // Captured live only (plan.rs), never recognised in a paste.
    &confxml::SPEC,
    &mount_p::SPEC,
    &pciconf::CAPS_SPEC,
    &camcontrol_tags::SPEC,
    &camcontrol_modepage::SPEC,
    &zpool_ashift::SPEC,
    &zfs_get::SPEC,
    &zfs_bench::SPEC,
    &arcstats::SPEC,
    &kldstat::SPEC,
    &disk_ioctl::SPEC,
    // Neither captured nor parsed: pasted beside a question, read for its secrets only.
    &lsusb::SPEC,
];

#[cfg(test)]
mod tests;
