//! The fact model: what diskdoc knows about a machine, per disk, each value with the capture
//! keys it came from or the reason it is unknown ("permission denied (run as root)",
//! "smartctl is not installed", "not applicable to virtio"). Plain data shared by the source
//! parsers (which fill parts of it), `facts::derive`, the checks and the reports.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::evidence::{BenchResult, Platform};

mod fact_de;

// Its Deserialize is written out in `fact_de` (the derive's, without a second copy of each
// `T`'s reader: the web module's size); a plain comment, so the schema's text stays the same.
/// A value with its provenance, or the reason it is not known.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "state", rename_all = "snake_case")]
#[schemars(rename = "Fact_of_{T}")]
pub enum Fact<T> {
    Known {
        value: T,
        /// Capture keys (see docs/evidence-format.md) this value was read from.
        from: Vec<String>,
    },
    Unknown {
        why: String,
    },
}

impl<T> Default for Fact<T> {
    fn default() -> Self {
        Fact::Unknown {
            why: "not probed".to_string(),
        }
    }
}

impl<T> Fact<T> {
    pub fn known(value: T, from: impl Into<String>) -> Fact<T> {
        Fact::Known {
            value,
            from: vec![from.into()],
        }
    }
    pub fn known_from(value: T, from: Vec<String>) -> Fact<T> {
        Fact::Known { value, from }
    }
    pub fn unknown(why: impl Into<String>) -> Fact<T> {
        Fact::Unknown { why: why.into() }
    }
    pub fn value(&self) -> Option<&T> {
        match self {
            Fact::Known { value, .. } => Some(value),
            Fact::Unknown { .. } => None,
        }
    }
    pub fn is_known(&self) -> bool {
        matches!(self, Fact::Known { .. })
    }
    /// For serde's skip_serializing_if on facts only some inputs ever carry.
    pub(crate) fn is_unknown(&self) -> bool {
        !self.is_known()
    }
    pub fn sources(&self) -> &[String] {
        match self {
            Fact::Known { from, .. } => from,
            Fact::Unknown { .. } => &[],
        }
    }
    /// The reason, if unknown.
    pub fn why(&self) -> Option<&str> {
        match self {
            Fact::Unknown { why } => Some(why),
            Fact::Known { .. } => None,
        }
    }
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Fact<U> {
        match self {
            Fact::Known { value, from } => Fact::Known {
                value: f(value),
                from,
            },
            Fact::Unknown { why } => Fact::Unknown { why },
        }
    }
    /// Keep `self` if known, else take `other` (first source wins).
    pub fn or(self, other: Fact<T>) -> Fact<T> {
        if self.is_known() { self } else { other }
    }
}

impl<T: Copy> Fact<T> {
    pub fn get(&self) -> Option<T> {
        self.value().copied()
    }
}

/// What kind of device this is, for the user's table and for which checks apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeviceClass {
    Hdd,
    Ssd,
    Nvme,
    /// A virtual disk (virtio, VMware, Hyper-V, cloud persistent disk).
    Virtual,
    Usb,
    Loop,
    /// RAM-backed (zram, md malloc, null_blk).
    Ram,
    /// A device-mapper device (crypt, LVM, multipath).
    DeviceMapper,
    /// Software RAID (Linux md, FreeBSD gmirror/graid).
    Raid,
    /// A RAID controller's logical volume hiding the drives.
    RaidVolume,
    Mmc,
    Optical,
    Unknown,
}

impl DeviceClass {
    pub fn label(self) -> &'static str {
        match self {
            DeviceClass::Hdd => "HDD",
            DeviceClass::Ssd => "SSD",
            DeviceClass::Nvme => "NVMe",
            DeviceClass::Virtual => "virtual",
            DeviceClass::Usb => "USB",
            DeviceClass::Loop => "loop",
            DeviceClass::Ram => "RAM",
            DeviceClass::DeviceMapper => "dm",
            DeviceClass::Raid => "md RAID",
            DeviceClass::RaidVolume => "RAID volume",
            DeviceClass::Mmc => "MMC/SD",
            DeviceClass::Optical => "optical",
            DeviceClass::Unknown => "unknown",
        }
    }
}

/// The bus between the host and the drive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    Sata,
    Pata,
    Sas,
    /// Parallel SCSI or an unspecified SCSI HBA.
    Scsi,
    Nvme,
    Virtio,
    Usb,
    Mmc,
    /// No bus: loop, zram, dm, md.
    None,
    Unknown,
}

/// How the controller drives the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ControllerMode {
    /// Native AHCI (PCI class 0x010601; Linux ahci; FreeBSD ahci(4)).
    Ahci,
    /// Legacy/compatibility IDE (PCI class 0x0101xx; Linux ata_piix/pata_*; FreeBSD atapci/ata).
    LegacyIde,
    /// A RAID HBA (PCI class 0x0104xx) or a SAS HBA passing SATA drives through.
    Raid,
    SasHba,
    Nvme,
    Usb,
    Virtio,
    Other,
}

/// The host controller a disk hangs off.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct Controller {
    pub mode: Option<ControllerMode>,
    /// Kernel driver bound to the controller (Linux `driver` link; FreeBSD device name prefix).
    pub driver: Option<String>,
    /// PCI class code as 24 bits, e.g. 0x010601.
    pub pci_class: Option<u32>,
    /// "vendor:device" hex ids.
    pub pci_id: Option<String>,
    /// Human description (FreeBSD "Intel ICH7 UDMA100 controller", pciconf device string).
    pub description: Option<String>,
    /// PCI address or FreeBSD device name (0000:00:1f.2, atapci0, ahcich2, umass1), or the
    /// USB device of a Linux usb-storage disk as its kernel log names it ("usb 2-1.3").
    pub address: Option<String>,
    /// For USB: "uas" or "usb-storage" (Linux), "umass" (FreeBSD).
    pub usb_driver: Option<String>,
    /// The chipset family ("Intel ICH7") when the capture names only another function of
    /// the same chipset: FreeBSD 8's ad4 on ata2 while the log shows only the PATA function
    /// "atapci0: <Intel ICH7 UDMA100 controller>" (seed 000). Read by the controller table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chipset: Option<String>,
    /// For USB: the speed the device's link runs at, Mbit/s (1.5, 12, 480, 5000, ...), as the
    /// kernel's USB device list ("Spd=12") or `lsusb -t` ("12M") gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usb_speed_mbps: Option<f64>,
    /// For USB: the device failed SYNCHRONIZE CACHE when the OS probed it, so the OS sends
    /// it no cache flushes (FreeBSD's "quirks=0x3<NO_SYNC_CACHE,...>" on a umass disk).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usb_no_flush: Option<bool>,
    /// For USB: the device reports a removable medium, as a flash stick or card reader does
    /// and a USB-SATA bridge in front of a fixed disk does not (the RMB bit of SCSI INQUIRY
    /// data, SPC-4 6.4.2; FreeBSD da(4) announces "Removable Direct Access").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usb_removable: Option<bool>,
    /// For USB: the system runs from this device: the boot log mounts its root file system
    /// from a disk, and every disk the log attaches is on USB (FreeBSD's "Trying to mount
    /// root from ufs:..." with only umass(4) disks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usb_root: Option<bool>,
    /// For USB: the device refused the pass-through command smartctl sent it (smartctl's
    /// "Read Device Identity failed: scsi error unsupported scsi opcode", or "Read NVMe
    /// Identify Controller failed: scsi error ..." through a USB-NVMe bridge's tunnel): its
    /// bridge passes no such command, so identify and SMART data are unreadable through it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usb_passthrough_refused: Option<bool>,
    /// For USB: smartctl did not know the bridge's USB ID and asked for a device type
    /// ("/dev/sdc: Unknown USB bridge [0x1e91:0xa4ae (0x100)]", "Please specify device type
    /// with the -d option."): its drive database (drivedb.h) has no entry for the bridge, so
    /// every smartctl and smartd run needs `-d TYPE` to reach the drive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usb_bridge_unknown: Option<bool>,
    /// For USB: the bridge speaks UAS but the kernel keeps it on usb-storage for its bugs
    /// (drivers/usb/storage/uas-detect.h: "UAS is ignored for this device, using usb-storage
    /// instead", the quirks list's IGNORE_UAS): a UAS bridge, which is a USB 3 device.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usb_uas_ignored: Option<bool>,
    /// The SATA channel shows no SATA status registers: FreeBSD's CAM announced the disk
    /// "(SATA, UDMA5, ...)" without a "SATA n.x" revision (sys/cam/ata/ata_xpt.c
    /// ata_announce_periph prints the revision whenever the SIM reports one), so its rate
    /// is the SIM's nominal 150 MB/s and the controller emulates an IDE channel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sata_status_hidden: Option<bool>,
}

/// One partition (or BSD label entry nested in an MBR slice).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct Partition {
    pub number: u32,
    /// Kernel name: sda1, ada0p1, da0s1, da0s1a.
    pub name: String,
    /// Start in logical sectors of the disk it is on.
    pub start_sector: u64,
    pub size_sectors: u64,
    /// Bytes per sector for the two numbers above.
    pub sector_bytes: u32,
    /// Absolute start in bytes from the start of the disk.
    pub start_bytes: u64,
    pub type_name: Option<String>,
    /// Linux `alignment_offset` of the partition as the kernel computed it.
    pub alignment_offset_bytes: Option<u64>,
    /// BSD label entries inside an MBR slice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Partition>,
    /// The MBR entry's active (boot) flag, 0x80 in dp_flag: the slice the MBR boot code
    /// starts. gpart show prints it as `[active]` and kern.geom.confxml as
    /// `<attrib>active</attrib>` (sys/geom/part/g_part_mbr.c g_part_mbr_dumpconf).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub active: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct PartitionTable {
    /// "mbr", "gpt", "bsd", "apm", "none".
    pub scheme: String,
    pub partitions: Vec<Partition>,
    /// Notes such as "[CORRUPT]" or "protective MBR only".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// What kind of layer sits above a disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LayerKind {
    Partition,
    /// dm-crypt with LUKS1/LUKS2 header.
    Luks,
    /// dm-crypt plain mode (or an unidentified crypt table).
    DmCrypt,
    Geli,
    Lvm,
    Md,
    Zfs,
    Multipath,
    DmCache,
    /// Another device-mapper target (linear, error, flakey, delay).
    DmOther,
    Gmirror,
    Other,
}

/// A layer stacked on a disk: partition, crypt, LVM, md, ZFS...
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct Layer {
    pub kind: Option<LayerKind>,
    /// Kernel/GEOM name: dm-0, md0, ada0p4.eli, zroot.
    pub name: String,
    /// Friendlier name: /dev/mapper/cryptroot, vg-lv.
    pub display_name: Option<String>,
    /// The device(s) it sits on (names).
    pub on: Vec<String>,
    /// Cipher spec, e.g. aes-xts-plain64 or AES-XTS.
    pub cipher: Option<String>,
    pub key_bits: Option<u32>,
    /// GELI "Crypto: hardware|accelerated software|software"; Linux the kernel crypto driver.
    pub crypto_impl: Option<String>,
    /// md RAID level ("raid1"), dm target ("linear").
    pub level: Option<String>,
    /// ZFS ashift, encryption sector size.
    pub sector_bytes: Option<u32>,
    pub ashift: Option<u32>,
    /// Why `ashift` is unknown although diskdoc asked for it (zdb could not open a pool
    /// that is not in the cache file, ...); None when it is known or was never asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ashift_why: Option<String>,
    /// Capture keys this layer was read from.
    pub from: Vec<String>,
}

/// A mounted filesystem on a disk or one of its layers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct Mount {
    /// Device or dataset name as the mount table shows it.
    pub source: String,
    pub mountpoint: String,
    pub fstype: String,
    pub options: String,
    /// For ZFS: compression property if known ("lz4", "off").
    pub compression: Option<String>,
}

/// SMART summary (smartctl -j preferred, text fallback).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct Smart {
    pub health_passed: Option<bool>,
    pub reallocated_sectors: Option<u64>,
    pub pending_sectors: Option<u64>,
    pub offline_uncorrectable: Option<u64>,
    pub reported_uncorrect: Option<u64>,
    pub udma_crc_errors: Option<u64>,
    pub power_on_hours: Option<u64>,
    /// NVMe media and data integrity errors.
    pub media_errors: Option<u64>,
    /// Attributes with WHEN_FAILED set (name and value).
    #[serde(default)]
    pub failing_attributes: Vec<String>,
    /// Number of entries in the ATA error log, if shown.
    pub error_log_count: Option<u64>,
    /// Error-log entries shown whose error register says UNC (uncorrectable data: a read the
    /// drive could not recover, ACS-3 7.1 error bit 6), as smartctl decodes them.
    #[serde(default)]
    pub error_log_unc: Option<u64>,
    /// The drive's power-on lifetime (hours) at the newest of those UNC entries, as the
    /// entry's head gives it ("Error 4 occurred at disk power-on lifetime: 6214 hours").
    #[serde(default)]
    pub error_log_unc_last_hours: Option<u64>,
    /// Model family as smartctl's drive database names it (e.g. "... (SMR)").
    pub model_family: Option<String>,
    /// NVMe "Percentage Used" / SCSI "Percentage used endurance indicator" (0-255 %).
    #[serde(default)]
    pub percentage_used: Option<u64>,
    /// SCSI "Elements in grown defect list" (also copied to `reallocated_sectors`).
    #[serde(default)]
    pub grown_defects: Option<u64>,
    /// SATA Phy Event Counters (GP log 0x11): 0x0001 ICRC + 0x000B host-to-device CRC.
    #[serde(default)]
    pub sata_phy_crc_errors: Option<u64>,
    /// SATA Phy Event Counters 0x0002..0x0007: R_ERR responses (link-level errors).
    #[serde(default)]
    pub sata_phy_r_errors: Option<u64>,
    /// SATA Phy Event Counter 0x000A: device-to-host register FISes sent because of a
    /// COMRESET (each one a link reset the host issued).
    #[serde(default)]
    pub sata_phy_comresets: Option<u64>,
    /// Self-tests the drive's own log records as failed (smartctl's self-test log, less the
    /// failures a newer extended test that passed outdates; smartd's "Self-Test Log error
    /// count increased from N to M"): a short or long test that read the surface and found
    /// it unreadable.
    #[serde(default)]
    pub self_test_errors: Option<u64>,
    /// SCSI "Non-medium error count" (smartctl scsiprint.cpp, SPC-4 log page 06h parameter
    /// 0000h): recoverable error events other than read, write and verify errors, mostly
    /// the transport's (a frame retried on the SAS link).
    #[serde(default)]
    pub scsi_non_medium_errors: Option<u64>,
    /// SCSI error counter log: gigabytes (10^9 bytes) read plus written, the data that
    /// crossed the link (verify reads stay inside the drive).
    #[serde(default)]
    pub scsi_transferred_gb: Option<f64>,
}

/// What a kernel log line says about a disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum KernelEventKind {
    MediumError,
    IoTimeout,
    IoError,
    CrcError,
    LinkReset,
    LinkSpeedLimited,
    ComresetFailed,
    // The drive itself failed a read or write (libata "device error", AC_ERR_DEV).
    DeviceError,
    // The path to the drive failed the command, not the drive: a SCSI host byte such as
    // DID_ERROR or DID_NO_CONNECT (include/scsi/scsi_status.h), a USB host controller that
    // died or a device that dropped off the bus, CAM's "CCB request completed with an
    // error" (CAM_REQ_CMP_ERR).
    TransportError,
    // The kernel crashed (an oops or BUG) with the disk's I/O completion in its call trace
    // (sources::kernel_log::storage_path_oops): a bug of the kernel's block, SCSI or storage
    // driver code, or of the device model answering it; no line names the disk.
    StoragePathOops,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct KernelEvent {
    pub kind: KernelEventKind,
    pub line: String,
    pub from: String,
}

/// Everything diskdoc knows about one block device.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct DiskFacts {
    /// Kernel name: sda, nvme0n1, ada0, da3, loop0, zram0, dm-0.
    pub name: String,
    /// Device node: /dev/sda.
    pub dev_path: String,
    pub class: Fact<DeviceClass>,
    pub model: Fact<String>,
    pub vendor: Fact<String>,
    pub serial: Fact<String>,
    pub firmware: Fact<String>,
    pub wwn: Fact<String>,
    pub size_bytes: Fact<u64>,
    pub logical_sector_bytes: Fact<u32>,
    pub physical_sector_bytes: Fact<u32>,
    /// Offset of LBA 0 from a physical sector boundary, or the kernel's alignment_offset
    /// (IDENTIFY word 209; FreeBSD stripeoffset). The two run opposite ways: the kernel's
    /// (sysfs alignment_offset, stripeoffset) is the distance from LBA 0 to the first
    /// physical boundary; the drive's (word 209, smartctl/camcontrol "offset N") is where
    /// LBA 0 sits inside its physical sector. Keep the capture key that says which:
    /// checks/partition_misaligned.rs converts by source (512 the drive's way = 3584 the kernel's).
    pub alignment_offset_bytes: Fact<u64>,
    pub rotational: Fact<bool>,
    /// Nominal media rotation rate; 0 means non-rotating (IDENTIFY word 217).
    pub rotation_rpm: Fact<u32>,
    pub scheduler: Fact<String>,
    pub nr_requests: Fact<u32>,
    /// Queue depth in use by the device (Linux device/queue_depth; FreeBSD openings/tags).
    pub queue_depth: Fact<u32>,
    pub transport: Fact<Transport>,
    pub controller: Fact<Controller>,
    /// Negotiated SATA link speed in Gb/s (1.5, 3.0, 6.0).
    pub link_current_gbps: Fact<f64>,
    /// Highest speed the drive supports (IDENTIFY word 76).
    pub link_drive_max_gbps: Fact<f64>,
    /// Highest speed the port/host supports (hw_sata_spd_limit, controller capability).
    pub link_port_max_gbps: Fact<f64>,
    /// A configured limit below the hardware's (sata_spd_limit, libata.force).
    pub link_limit_gbps: Fact<f64>,
    pub ncq_supported: Fact<bool>,
    /// NCQ depth the drive supports (IDENTIFY word 75 + 1).
    pub ncq_drive_depth: Fact<u32>,
    /// Whether the OS actually queues commands (FreeBSD "Command Queueing enabled").
    pub ncq_active: Fact<bool>,
    pub write_cache_supported: Fact<bool>,
    pub write_cache_enabled: Fact<bool>,
    pub trim_supported: Fact<bool>,
    pub partition_table: Fact<PartitionTable>,
    /// Layers stacked above this device, bottom first.
    pub layers: Vec<Layer>,
    /// Filesystems mounted from this device or its layers.
    pub mounts: Vec<Mount>,
    pub smart: Fact<Smart>,
    pub kernel_events: Vec<KernelEvent>,
    /// Parsed raw IDENTIFY words, when the drive is ATA.
    pub ata_identify: Option<AtaIdentify>,
    /// Free-form notes from the probe ("opened without root: size from sysfs").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The storage device's PCI-Express link (hop 0) and every port above it.
    #[serde(default)]
    pub pcie: Fact<Vec<PcieLink>>,
    /// NVMe SMART / health information (NVMe Base spec, log page 02h).
    #[serde(default)]
    pub nvme_health: Fact<NvmeHealth>,
    /// Linux queue/zoned: none, host-aware, host-managed (an SMR drive's zone model).
    #[serde(default)]
    pub zoned: Fact<String>,
    /// How unused blocks reach the device: discard support, and what trims the filesystems
    /// and pools on it.
    #[serde(default)]
    pub trim: TrimFacts,
    /// Power management on the disk and its path.
    #[serde(default)]
    pub power: PowerFacts,
    /// Activity: the disk's I/O counters sampled one second apart.
    #[serde(default)]
    pub busy: Fact<BusySample>,
    /// Drive temperature in Celsius, sampled before and after the tests (hwmon / smartctl).
    #[serde(default)]
    pub temp_samples_c: Vec<i64>,
    /// The ZFS leaf vdevs on this disk with errors counted or a fault noted (`zpool status`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vdev_errors: Vec<VdevErrors>,
    /// The drive as a RAID controller's own tool reports it (ssacli, arcconf, MegaCli,
    /// Areca cli64, tw_cli, ...): present only for a drive the controller marks failed,
    /// predicted to fail, or with media errors counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller_drive: Option<ControllerDrive>,
    /// Surface scans of the disk a user ran and pasted (badblocks(8)): the blocks each
    /// found unreadable, unwritable or read back wrong.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub surface_scans: Vec<SurfaceScan>,
    /// What partitioning and mkfs tools said about this disk's partitions: parted's
    /// align-check answers and warnings, mkfs.xfs's alignment warning, fdisk's and parted's
    /// refusal of an MBR table on a disk larger than MBR can address.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_messages: Vec<PartitionToolMessage>,
    /// A parallel-ATA disk's Ultra DMA mode held below what drive and host support
    /// (sources::pata_mode): known only when a log or table shows such a limit.
    #[serde(default, skip_serializing_if = "Fact::is_unknown")]
    pub pata_mode: Fact<PataMode>,
    /// Why the OS does not queue commands to an NCQ drive when the kernel itself decided it
    /// for hardware reasons (sources::kernel_log::ncq_off_cause): the cause and its detail.
    #[serde(default, skip_serializing_if = "Fact::is_unknown")]
    pub ncq_off_cause: Fact<(NcqOffCause, String)>,
    /// Whether the old Linux IDE driver (drivers/ide, `hdX` disks) moves this disk's data by
    /// DMA, as `hdparm` reads it with HDIO_GET_DMA (sources::hdparm::parse_dma).
    #[serde(default, skip_serializing_if = "Fact::is_unknown")]
    pub ide_dma: Fact<IdeDma>,
    /// The highest Ultra DMA mode number the drive says it supports (ATA IDENTIFY word 88,
    /// as `hdparm -i` lists it on its "UDMA modes:" line and `hdparm -I` on its "DMA:" line):
    /// 5 is UDMA/100, 6 UDMA/133 (ATA/ATAPI-7 volume 1, the Ultra DMA timing table). It dates
    /// a parallel-ATA drive's interface generation (sources::hdparm::HdparmIdentify::udma_max).
    #[serde(default, skip_serializing_if = "Fact::is_unknown")]
    pub udma_drive_max: Fact<u32>,
}

/// `hdparm`'s `using_dma` of a disk on the old Linux IDE driver, and the driver's answer
/// when DMA was asked for (hdparm.c: "setting using_dma to 1 (on)", then "HDIO_SET_DMA
/// failed: ..." when the ioctl fails).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct IdeDma {
    /// `using_dma = 1 (on)`.
    pub on: bool,
    /// The error the driver gave when DMA was switched on (`Operation not permitted`: the
    /// chipset driver does not allow DMA on this drive or does not know the chipset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_error: Option<String>,
}

/// A kernel's own reason to leave NCQ off, which no setting of the user's changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum NcqOffCause {
    /// The drive is on the kernel's NCQ quirk list (libata ATA_HORKAGE_NONCQ): its NCQ is
    /// known to be broken or slow.
    KernelQuirk,
    /// The host adapter's chip has no NCQ.
    HostWithoutNcq,
}

/// A parallel-ATA disk's Ultra DMA mode and the maxima it is held below (sources::pata_mode).
/// Rates are the mode's MB/s as libata names it ("UDMA/33" = 33; ATA/ATAPI-7 table of
/// Ultra DMA timings).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct PataMode {
    pub current_udma_mb_s: Option<u32>,
    pub drive_max_udma_mb_s: Option<u32>,
    pub host_max_udma_mb_s: Option<u32>,
    /// The cable (or its detection) is the reason: 40-wire, UDMA/33 at most.
    pub cable_40_wire: bool,
    pub model: Option<String>,
    /// The log line that says so.
    pub line: String,
    /// The same drive model at a faster mode under another driver in the same paste: the
    /// cable detection is wrong, not the cable.
    pub faster_elsewhere: Option<String>,
}

/// One pasted surface scan of a disk (sources::badblocks): badblocks(8) reads (and in its
/// write modes writes) every block and counts those that failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct SurfaceScan {
    /// "badblocks".
    pub tool: String,
    /// "Pass completed, N bad blocks found.", else the errors counted so far.
    pub bad_blocks: u64,
    /// Read, write and compare (corruption) errors, "(r/w/c errors)".
    pub read_errors: Option<u64>,
    pub write_errors: Option<u64>,
    pub corruption_errors: Option<u64>,
    /// Whether the pass completed (else the scan was cut off or the paste ends early).
    pub completed: bool,
    /// The pasted line it came from.
    pub line: String,
    pub from: String,
}

/// A drive behind a RAID controller as the controller's tool reports it
/// (sources::raid_controller).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct ControllerDrive {
    /// The source id of the tool ("ssacli", "arcconf", "megacli", "areca-cli", ...).
    pub tool: String,
    /// The tool's address of the drive ("2I:1:7", "[32:4] of adapter 0", "p3").
    pub address: String,
    /// The state as the tool prints it ("Failed", "Predictive Failure", "FAILED").
    pub state: String,
    /// The controller took the drive out of service.
    pub failed: bool,
    /// The drive's own failure prediction tripped, as the controller reports it.
    pub predictive_failure: bool,
    /// Media errors the controller counted on the drive.
    pub media_errors: Option<u64>,
    /// The controller found sectors it could not read on the members of this logical drive
    /// (HPE Smart Array "Unrecoverable Media Errors: Detected"): the drive is then the
    /// logical drive, named by the tool.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unrecoverable_media: bool,
    /// The pasted line it came from.
    pub line: String,
    pub from: String,
}

/// What a partitioning or mkfs tool's message says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PartitionToolVerdict {
    /// The tool judged a partition not aligned (parted `align-check`, its "not properly
    /// aligned for best performance" warning, mkfs.xfs "device is not properly aligned").
    Misaligned,
    /// The tool judged a partition aligned (parted `align-check`).
    Aligned,
    /// The tool refused an MBR (msdos/DOS) table on a disk larger than its 2^32 sectors.
    MbrTooSmall,
    /// The kernel's GPT reader found the backup (secondary) GPT header short of the disk's
    /// last LBA (UEFI 2.10 section 5.3.2 puts it there): the disk grew after the table was
    /// written (a virtual disk or volume resized, an image written to a larger disk).
    GptBackupNotAtEnd,
}

/// One message of a partitioning or mkfs tool about a disk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PartitionToolMessage {
    /// "parted", "mkfs.xfs", "fdisk".
    pub tool: String,
    pub verdict: PartitionToolVerdict,
    /// The partition number or device the message names ("4", "sdc1").
    pub partition: Option<String>,
    /// The disk's size in bytes, when the message gives it.
    pub disk_bytes: Option<u64>,
    /// The pasted line it came from.
    pub line: String,
    pub from: String,
}

impl PartitionToolMessage {
    /// The kernel GPT reader's (`tool`: "GEOM", "kernel") complaint that `disk`'s backup
    /// header is not in its last LBA, from the pasted `line` (`from` is set by the caller).
    pub(crate) fn gpt_backup_not_at_end(tool: &str, disk: &str, line: &str) -> Self {
        Self {
            tool: tool.to_string(),
            verdict: PartitionToolVerdict::GptBackupNotAtEnd,
            partition: Some(disk.to_string()),
            disk_bytes: None,
            line: line.to_string(),
            from: String::new(),
        }
    }
}

/// A ZFS leaf vdev's error counters and state as `zpool status` prints them
/// (zpool_main.c print_status_config: READ, WRITE and CKSUM are the I/O and checksum
/// errors ZFS counted on the vdev since the pool was imported or cleared; a note such as
/// "too many errors" says ZFS degraded or faulted the vdev because of them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct VdevErrors {
    pub pool: String,
    /// The vdev's name as zpool prints it (a kernel name, a by-id link, a label).
    pub vdev: String,
    /// ONLINE, DEGRADED, FAULTED, UNAVAIL, REMOVED, OFFLINE.
    pub state: Option<String>,
    pub read_errors: Option<u64>,
    pub write_errors: Option<u64>,
    pub checksum_errors: Option<u64>,
    /// The row's trailing note: "too many errors", "(resilvering)", "was /dev/sdb1".
    pub note: Option<String>,
    /// The pasted line it came from.
    pub line: String,
    pub from: String,
}

impl VdevErrors {
    /// Whether ZFS saw the device fail reads or writes: non-zero READ or WRITE, or the
    /// "too many errors" note zpool prints for a vdev it degraded or faulted over errors.
    /// Checksum errors alone are data that arrived wrong (cable, controller, memory) and
    /// are not counted here.
    pub fn io_failed(&self) -> bool {
        self.read_errors.is_some_and(|n| n > 0)
            || self.write_errors.is_some_and(|n| n > 0)
            || self
                .note
                .as_deref()
                .is_some_and(|n| n.contains("too many errors"))
    }

    /// Whether the counters are a btrfs device's (`btrfs device stats`, facts::pasted::
    /// drive_tools reads them into this form: btrfs keeps the same kind of per-device
    /// read, write and checksum counts as ZFS per vdev), by the source they came from: the
    /// evidence key names sources::btrfs_stats' spec id, spelled here because the model
    /// ranks below the sources (tests/it/layering.rs).
    pub fn is_btrfs(&self) -> bool {
        // From `btrfs device stats` or from the kernel's print of the same counters
        // (sources::btrfs_stats::printk_stats), both written as "[dev] write_io_errs N ...".
        self.from.contains("btrfs-device-stats")
            || (self.pool.is_empty() && self.line.contains("] write_io_errs "))
    }

    /// Whether only writes failed on the vdev: a write count, no failed reads, no checksum
    /// errors and no "too many errors" note. A drive that meets a bad sector on a write
    /// remaps it (ACS-4 and SBC-4 automatic reallocation on write, smartctl's
    /// Reallocated_Sector_Ct), so a write the device did not complete is the device, its
    /// cable, controller or power failing the request, not a sector found bad.
    pub fn writes_only_failed(&self) -> bool {
        self.write_errors.is_some_and(|n| n > 0)
            && self.read_errors.is_none_or(|n| n == 0)
            && self.checksum_errors.is_none_or(|n| n == 0)
            && !self
                .note
                .as_deref()
                .is_some_and(|n| n.contains("too many errors"))
    }

    /// Whether ZFS counted checksum errors on the vdev and no failed I/O: blocks came back
    /// different from what was written (zpool-status(8), message ZFS-8000-9P), from the
    /// disk, its cable or controller, or the machine's memory.
    pub fn checksum_only(&self) -> bool {
        !self.io_failed() && self.checksum_errors.is_some_and(|n| n > 0)
    }
}

impl DiskFacts {
    /// Amend the disk's controller facts with `f`: the known ones, else new ones (from
    /// `from`) with only what `f` sets.
    pub fn amend_controller(&mut self, from: &str, f: impl FnOnce(&mut Controller)) {
        match &mut self.controller {
            Fact::Known { value, .. } => f(value),
            c => {
                let mut value = Controller::default();
                f(&mut value);
                *c = Fact::known(value, from);
            }
        }
    }

    pub fn new(name: &str, dev_path: &str) -> DiskFacts {
        DiskFacts {
            name: name.to_string(),
            dev_path: dev_path.to_string(),
            ..Default::default()
        }
    }
    /// Whether this looks like a SATA/PATA (ATA-command) drive.
    pub fn is_ata(&self) -> bool {
        matches!(
            self.transport.get(),
            Some(Transport::Sata) | Some(Transport::Pata)
        ) || self.ata_identify.is_some()
    }
    /// Whether this is an NVMe drive: by class, transport or controller mode, else by a
    /// kernel name only the NVMe drivers give (when nothing gave its class).
    pub fn is_nvme(&self) -> bool {
        self.class.get() == Some(DeviceClass::Nvme)
            || self.transport.get() == Some(Transport::Nvme)
            || self.controller.value().and_then(|c| c.mode) == Some(ControllerMode::Nvme)
            || (self.class.get().is_none() && self.named_like(&["nvme", "nvd", "nda"]))
    }
    /// Whether the kernel name is one of `prefixes` followed by a unit (Linux nvme0n1,
    /// FreeBSD nvd0/nda0, Linux vda/xvda, FreeBSD vtbd0): names that only one driver gives.
    pub fn named_like(&self, prefixes: &[&str]) -> bool {
        prefixes.iter().any(|p| {
            self.name
                .strip_prefix(p)
                .and_then(|r| r.chars().next())
                .is_some_and(|c| c.is_ascii_alphanumeric())
        })
    }
}

/// A benchmark a person ran and pasted (dd, cp, fio), for the benchmark critic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct UserBenchmark {
    /// "dd", "cp", "fio", "hdparm -t", "diskinfo -t".
    pub tool: String,
    /// The command line, if it was pasted.
    pub command: Option<String>,
    /// dd if= / cp source / fio filename.
    pub input: Option<String>,
    /// dd of= / cp destination.
    pub output: Option<String>,
    pub block_size_bytes: Option<u64>,
    pub bytes: Option<u64>,
    pub seconds: Option<f64>,
    pub bytes_per_sec: Option<f64>,
    pub records_in: Option<String>,
    pub records_out: Option<String>,
    /// dd flags: oflag=direct, conv=fsync, iflag=direct, conv=fdatasync...
    #[serde(default)]
    pub flags: Vec<String>,
    /// An error line (EIO, ENOSPC, EINVAL).
    pub error: Option<String>,
    /// Where it came from ("pasted:... lines 10-13").
    pub from: String,
    /// Filesystem of the output file as the text states it ("zfs", "ufs"), when known:
    /// zeros written to a compressing filesystem measure nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filesystem: Option<String>,
    /// The shell's `time` around the run, when pasted: wall-clock seconds ("real") and the
    /// CPU seconds the process used ("user" + "sys"). A run whose CPU time fills its wall
    /// time never waited on a device.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_real_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_cpu_s: Option<f64>,
    /// The wall-clock seconds of a `sync` or `umount` timed right after this run (the
    /// shell's `time`, sources::shell_time): the writeback the run itself did not wait for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flush_real_s: Option<f64>,
    /// That flush as typed ("umount /media", "sync").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flush_command: Option<String>,
    /// The mean time one request took from its submission to its completion, as the tool
    /// reported it (fio's slat + clat means, its "lat" line): how fast the thing that
    /// answered was, whatever the command line said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_latency_us: Option<f64>,
}

/// Everything diskdoc knows about the machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SystemFacts {
    pub platform: Platform,
    pub os_name: Fact<String>,
    pub os_release: Fact<String>,
    pub hostname: Fact<String>,
    pub cpu_model: Fact<String>,
    /// CPU advertises AES-NI (Linux cpuinfo flag "aes"; FreeBSD Features2 AESNI).
    pub aes_ni: Fact<bool>,
    /// Kernel crypto driver used for xts(aes) (/proc/crypto) or aesni(4) loaded.
    pub aes_driver: Fact<String>,
    pub ram_bytes: Fact<u64>,
    pub is_root: Fact<bool>,
    pub disks: Vec<DiskFacts>,
    /// Read/write tests from the bundle (finite numbers only, as in the bundle).
    #[serde(default, with = "crate::evidence::finite_results")]
    #[schemars(with = "Vec<BenchResult>")]
    pub benchmarks: Vec<BenchResult>,
    /// Benchmarks pasted by a person (explain, wizard symptoms).
    #[serde(default)]
    pub user_benchmarks: Vec<UserBenchmark>,
    /// md arrays and ZFS pools that are resyncing, rebuilding, scrubbing or degraded.
    #[serde(default)]
    pub arrays: Fact<Vec<ArrayActivity>>,
}

impl SystemFacts {
    pub fn empty(platform: Platform) -> SystemFacts {
        SystemFacts {
            platform,
            os_name: Fact::default(),
            os_release: Fact::default(),
            hostname: Fact::default(),
            cpu_model: Fact::default(),
            aes_ni: Fact::default(),
            aes_driver: Fact::default(),
            ram_bytes: Fact::default(),
            is_root: Fact::default(),
            disks: Vec::new(),
            benchmarks: Vec::new(),
            user_benchmarks: Vec::new(),
            arrays: Fact::default(),
        }
    }
    pub fn disk(&self, name: &str) -> Option<&DiskFacts> {
        let n = name.trim_start_matches("/dev/");
        self.disks.iter().find(|d| d.name == n)
    }
}

// ---------------------------------------------------------------------------------------
// The causes of slowness on today's hardware.

/// One PCIe link on the path from a storage controller up to the root port. Speeds in
/// GT/s per lane (2.5, 5, 8, 16, 32, 64: PCIe Base spec 7.5.3.6 Link Capabilities, Max Link
/// Speed; 7.5.3.8 Link Status, Current Link Speed), widths in lanes. Linux:
/// Documentation/ABI/testing/sysfs-bus-pci (current_link_speed, max_link_speed,
/// current_link_width, max_link_width); `lspci -vv` LnkCap/LnkSta; FreeBSD `pciconf -lvc`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct PcieLink {
    /// PCI address (0000:01:00.0) or FreeBSD selector (nvme0@pci0:1:0:0).
    pub address: String,
    /// 0 = the storage device itself, 1 = the port above it, ... up to the root port.
    pub hop: u32,
    pub current_gts: Option<f64>,
    pub max_gts: Option<f64>,
    pub current_width: Option<u32>,
    pub max_width: Option<u32>,
    /// lspci's own "(downgraded)" mark on LnkSta.
    #[serde(default)]
    pub marked_downgraded: bool,
}

/// One LBA format a namespace offers (NVMe Identify Namespace LBAF list).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct LbaFormat {
    pub data_bytes: u32,
    pub in_use: bool,
    /// Relative Performance, 0 best .. 3 degraded.
    pub rel_perf: Option<u8>,
}

/// The NVMe SMART / Health Information log (NVMe Base spec, Log Page 02h), plus the
/// Identify Controller temperature thresholds (WCTEMP/CCTEMP) and the namespace's LBA
/// formats where the source shows them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct NvmeHealth {
    /// Byte 0 Critical Warning: bit 0 spare below threshold, 1 temperature, 2 reliability
    /// degraded, 3 read-only, 4 volatile memory backup failed, 5 PMR read-only.
    pub critical_warning: Option<u8>,
    /// Bytes 1-2 Composite Temperature, in degrees Celsius.
    pub temperature_c: Option<i64>,
    /// Bytes 200-215 Temperature Sensors 1-8 (Celsius), the ones reported.
    #[serde(default)]
    pub sensors_c: Vec<i64>,
    /// Identify Controller WCTEMP / CCTEMP in Celsius.
    pub warning_temp_c: Option<i64>,
    pub critical_temp_c: Option<i64>,
    /// Byte 3 Available Spare, byte 4 Available Spare Threshold, byte 5 Percentage Used.
    pub available_spare: Option<u64>,
    pub spare_threshold: Option<u64>,
    pub percentage_used: Option<u64>,
    /// Bytes 160-175 Media and Data Integrity Errors.
    pub media_errors: Option<u64>,
    /// Bytes 192-195 / 196-199: minutes at or above WCTEMP / CCTEMP.
    pub warning_temp_minutes: Option<u64>,
    pub critical_temp_minutes: Option<u64>,
    /// Bytes 216-231: Thermal Management Temperature 1/2 transition counts and seconds.
    pub tmt1_count: Option<u64>,
    pub tmt2_count: Option<u64>,
    pub tmt1_seconds: Option<u64>,
    pub tmt2_seconds: Option<u64>,
    #[serde(default)]
    pub lba_formats: Vec<LbaFormat>,
}

/// What an array is doing (md sync_action, zpool scan).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct ArrayActivity {
    /// md0, tank.
    pub name: String,
    /// "md" or "zfs", or the RAID controller tool that reported it ("ssacli", "arcconf",
    /// "megacli", "areca-cli", "tw-cli", "megaclisas-status", "check-raid").
    pub kind: String,
    /// resync, recovery, reshape, check, repair, scrub, resilver; "idle" when none.
    pub action: String,
    /// Some members missing or faulted.
    pub degraded: bool,
    pub percent_done: Option<f64>,
    /// Current rate in KiB/s (md "speed=", zpool "issued at").
    pub speed_kib_s: Option<u64>,
    /// Remaining time as the source states it ("finish=97.3min", "2 days 10:54:20 to go").
    pub remaining: Option<String>,
    /// Member devices (kernel names, partitions allowed).
    #[serde(default)]
    pub members: Vec<String>,
    /// md sync_speed_min / sync_speed_max in KiB/s (per array, or system-wide when the
    /// array says "(system)").
    pub speed_min_kib_s: Option<u64>,
    pub speed_max_kib_s: Option<u64>,
    /// The highest rate of the earlier progress lines when the source showed several over
    /// time (md progress lines pasted one after another); `speed_kib_s` is the last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_speed_kib_s: Option<u64>,
    /// Data the array lost: a ZFS pool's "status:" or "errors:" line saying blocks failed
    /// their checksum with no good copy left (zpool-status(8), ZFS-8000-8A). Absent in
    /// older reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_errors: Option<String>,
    /// A ZFS pool's "status:" line saying its devices were faulted after I/O failures that
    /// no member's counters or state carry (zpool-status(8), ZFS-8000-HC/-JQ;
    /// sources::zpool::unattributed_io_failure). Absent in older reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub io_failure: Option<String>,
    /// Why the array serves no I/O at all: an md array /proc/mdstat lists as "inactive"
    /// (bound members, never run; sources::mdstat::MdArray::stopped), with the slots no
    /// member holds. Absent in older reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_running: Option<String>,
    #[serde(default)]
    pub from: Vec<String>,
}

/// A process doing I/O during the busy sample (/proc/PID/io read_bytes/write_bytes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct IoProcess {
    pub pid: u32,
    pub comm: String,
    /// Bytes the process read and wrote from storage during the sample.
    pub bytes: u64,
}

/// The share of a sample's time with I/O in flight (`BusySample::util_pct`) above which
/// a disk is busy enough to mention: disk-busy's notice threshold, and the level at which
/// a pasted iostat row makes its disk known though nothing else in the paste names it.
pub const BUSY_NOTICE_PCT: f64 = 20.0;

/// Two /proc/diskstats samples of one disk (Documentation/admin-guide/iostats.rst).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct BusySample {
    pub interval_ms: u64,
    /// Share of the interval the disk had I/O in flight (field 10, io_ticks), 0-100.
    pub util_pct: f64,
    /// Average requests in flight (field 11, weighted time in queue / interval).
    pub avg_queue: f64,
    /// Average time per completed request, ms.
    pub await_ms: Option<f64>,
    pub ios: u64,
    pub bytes: u64,
    /// Processes with the most storage I/O during the sample (root only), largest first.
    #[serde(default)]
    pub top: Vec<IoProcess>,
    /// The sample is a tool's output a person pasted (gstat, iostat -x), not one diskdoc
    /// took right before its tests: it says how busy the disk was when that output was
    /// made, and nothing about the time diskdoc ran.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pasted: bool,
}

/// Which trim-capable filesystems of a disk discard online, and what trims periodically.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct FsTrim {
    /// Mount points mounted with online discard (`discard`, btrfs `discard=async`).
    pub online: Vec<String>,
    /// Mount points of trim-capable filesystems mounted without it.
    pub without_discard: Vec<String>,
    /// What trims on a schedule; empty: nothing found.
    pub periodic: Vec<TrimJob>,
}

/// One periodic trim: "fstrim.timer enabled (systemctl is-enabled)", "cron job
/// /etc/cron.weekly/fstrim", and the capture key that says so.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct TrimJob {
    pub what: String,
    pub from: String,
}

/// One ZFS pool's autotrim property (zpoolprops(7)): "on", "off", as `zpool get` printed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
pub struct PoolAutotrim {
    pub pool: String,
    pub value: String,
    /// What runs `zpool trim` on this pool on a schedule, when something was seen to
    /// ("zfs-trim-weekly@tank.timer enabled (timers.target wants it)"); none: nothing seen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub periodic: Option<String>,
}

/// How a disk's unused blocks get back to it (the trim topic).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct TrimFacts {
    /// Linux queue/discard_max_bytes (0: the discard path is not there).
    #[serde(default)]
    pub discard_max_bytes: Fact<u64>,
    /// FreeBSD kern.cam.da.N.delete_method / ada: NONE, ATA_TRIM, UNMAP, ...
    #[serde(default)]
    pub delete_method: Fact<String>,
    /// How the filesystems on this disk get their free space trimmed (Linux: mount options,
    /// fstrim.timer, distribution cron jobs).
    #[serde(default)]
    pub fs_trim: Fact<FsTrim>,
    /// The autotrim property of each ZFS pool with a member on this disk (`zpool get
    /// autotrim`); unknown when the disk holds no pool or the property was not captured.
    #[serde(default)]
    pub zfs_autotrim: Fact<Vec<PoolAutotrim>>,
    /// A discard someone asked for on this disk and the kernel refused, as the line says
    /// it: fstrim(8) "the discard operation is not supported" (FITRIM failed with
    /// EOPNOTSUPP), ext4's "mounting with "discard" option, but the device does not support
    /// discard" (fs/ext4/super.c), blkdiscard's "Operation not supported". It shows the
    /// disk is meant to be trimmed, whatever its media.
    #[serde(default)]
    pub discard_refused: Fact<String>,
    /// A discard the kernel sent and the device failed, as the line says it: fstrim(8)
    /// or blkdiscard(8) "... ioctl failed: Input/output error" (EIO, not EOPNOTSUPP: the
    /// device advertises discard, and the command itself errs).
    #[serde(default, skip_serializing_if = "Fact::is_unknown")]
    pub discard_failed: Fact<String>,
    /// A layer stacked on this disk that passes no discard although the device under it
    /// takes them, as `lsblk -D` shows it: the layer's row at DISC-GRAN and DISC-MAX 0B
    /// under a parent with non-zero ones. dm-crypt does this unless the mapping was opened
    /// with discards allowed (drivers/md/dm-crypt.c sets no discard limits without
    /// DM_CRYPT_ALLOW_DISCARDS: cryptsetup --allow-discards, crypttab(5) "discard"). The
    /// value names the layer and the device it sits on; absent in older reports.
    #[serde(default)]
    pub layer_blocks_discard: Fact<String>,
    /// The ZFS pool whose leaf vdev on this disk `zpool status -t` prints "(untrimmed)":
    /// the device takes discards (else it prints "(trim unsupported)") and no `zpool trim`
    /// ever ran on the leaf (zpool_main.c print_status_trim; autotrim leaves the state
    /// alone). Absent in older reports.
    #[serde(default, skip_serializing_if = "Fact::is_unknown")]
    pub zfs_untrimmed: Fact<String>,
}

/// Power management on a disk and its path (the power topic).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct PowerFacts {
    /// SATA link power management policy of the host the disk hangs off
    /// (/sys/class/scsi_host/hostN/link_power_management_policy).
    #[serde(default)]
    pub lpm_policy: Fact<String>,
    /// ATA Advanced Power Management level (IDENTIFY word 91), 1-254; None when disabled.
    #[serde(default)]
    pub apm_level: Fact<u32>,
    /// SMART 193 Load_Cycle_Count.
    #[serde(default)]
    pub load_cycles: Fact<u64>,
    /// SMART 193 Load_Cycle_Count read more than once in the same paste with the time of
    /// day noted between the readings (sources::smartctl_attr::ata_raw_timed): how fast the
    /// count grew while the poster watched. Absent in older reports.
    #[serde(default, skip_serializing_if = "Fact::is_unknown")]
    pub load_cycles_watched: Fact<WatchedLoadCycles>,
    /// Kernel log lines where a power-saving state failed on this disk's path (NVMe
    /// APST/D3cold resets, AER errors on its PCIe links).
    #[serde(default)]
    pub power_log: Fact<Vec<String>>,
    /// The idle and standby timers the drive runs by itself, as a vendor or mode-page tool
    /// printed them: SCSI power condition mode page 1Ah (SPC-4 7.5.13: IDLE_A/B/C,
    /// STANDBY_Y/Z with their timers in 100 ms units, `sdparm -p po`), ATA Extended Power
    /// Conditions (ACS-3 4.13: Idle a/b/c, Standby y/z, `openSeaChest --showEPCSettings`).
    /// Absent in older reports.
    #[serde(default)]
    pub drive_timers: Fact<Vec<DriveTimer>>,
}

/// Two timed readings of the load cycle count: the first and the last reading that have a
/// time of day before them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
pub struct WatchedLoadCycles {
    pub first: u64,
    pub last: u64,
    /// Seconds between the two readings (a stamp earlier than the one before it is read as
    /// the next day).
    pub seconds: u32,
}

/// One power-condition timer a drive runs by itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
pub struct DriveTimer {
    /// The condition as the tool names it ("Standby Z", "STANDBY_Z", "Idle B").
    pub condition: String,
    /// Whether the timer is enabled (the tool's "*" or the condition's enable bit).
    pub enabled: bool,
    /// Idle time before the drive enters the condition.
    pub timer_ms: u64,
    /// The condition stops the spindle (standby z) or slows it (standby y): the next
    /// request waits for the platters to spin up again (seconds).
    pub spins_down: bool,
    /// The line(s) the timer was read from.
    pub line: String,
}

/// The ATA IDENTIFY DEVICE fields diskdoc uses, decoded (ATA/ACS-3 section 7.12.7;
/// sources::ata_identify decodes the words).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct AtaIdentify {
    pub model: Option<String>,
    pub serial: Option<String>,
    pub firmware: Option<String>,
    /// Word 75 bits 4:0 + 1: maximum queue depth.
    pub queue_depth: Option<u32>,
    /// Word 76 bit 8: NCQ supported.
    pub ncq_supported: Option<bool>,
    /// Word 76 bits 3:1: highest supported SATA generation as Gb/s.
    pub sata_max_gbps: Option<f64>,
    /// Word 77 bits 3:1: current negotiated speed as Gb/s.
    pub sata_current_gbps: Option<f64>,
    /// Word 82 bit 5 / word 85 bit 5: volatile write cache supported / enabled.
    pub write_cache_supported: Option<bool>,
    pub write_cache_enabled: Option<bool>,
    /// Words 106, 117-118: logical and physical sector sizes.
    pub logical_sector_bytes: Option<u32>,
    pub physical_sector_bytes: Option<u32>,
    /// Word 209: offset of LBA 0 within the first physical sector, bytes.
    pub lba0_offset_bytes: Option<u32>,
    /// Word 217: 1 = non-rotating, 0401h-FFFEh = rpm.
    pub rotation_rpm: Option<u32>,
    /// Word 222: transport major version ("SATA 3.1", "PATA").
    pub transport: Option<String>,
    /// Word 169 bit 0: DATA SET MANAGEMENT (TRIM) supported.
    pub trim_supported: Option<bool>,
    /// Word 83 bit 3 (APM supported) and, when word 86 bit 3 says it is enabled, word 91 bits
    /// 7:0 (the current APM level, 1-254): Some(None) supported but off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apm_level: Option<Option<u32>>,
}

impl AtaIdentify {
    /// True when word 222 says the drive sits on a parallel (PATA) bus.
    pub fn is_parallel(&self) -> bool {
        self.transport
            .as_deref()
            .is_some_and(|t| t.starts_with("PATA"))
    }
    /// True when word 222 says serial ATA.
    pub fn is_serial(&self) -> bool {
        self.transport
            .as_deref()
            .is_some_and(|t| t.starts_with("SATA"))
    }
}
