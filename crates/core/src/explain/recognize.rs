//! Find tool outputs inside free text: one small line detector per tool (its "start" and
//! "member" lines), a block builder that tolerates blank lines and short interruptions, and
//! the command lines (typed at a prompt or named in prose) that say which device a block is
//! about. Formats follow the tools' man pages: camcontrol(8), atacontrol(8), diskinfo(8),
//! gpart(8), geli(8), pciconf(8), zpool-status(8), iostat(8), gstat(8), smartctl(8),
//! hdparm(8), lsblk(8), fdisk(8), sfdisk(8), cryptsetup(8), dmsetup(8), fio(1), dd(1).

use serde::Serialize;

use super::segment::{Line, rx};
use crate::evidence::Platform;

/// A tool whose output diskdoc recognises. `id()` matches the fixture directory names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tool {
    CamcontrolIdentify,
    AtacontrolCap,
    CamcontrolDevlist,
    Diskinfo,
    GpartShow,
    GpartList,
    GeomDiskList,
    GeliList,
    Pciconf,
    BsdFdisk,
    FreebsdDmesg,
    LinuxDmesg,
    Sysctl,
    ZpoolStatus,
    Iostat,
    Gstat,
    Smartctl,
    SmartctlJson,
    HdparmI,
    HdparmW,
    HdparmT,
    Lsblk,
    LsblkJson,
    FdiskList,
    SfdiskDump,
    CryptsetupStatus,
    DmsetupTable,
    Fio,
    FioJson,
    Dd,
    Df,
    // Issue 17's sources (explain/modern.rs).
    LspciVv,
    Mdstat,
    NvmeSmartLog,
    NvmeIdNs,
    NvmecontrolLogpage,
    NvmecontrolIdentify,
    LsblkD,
    Diskstats,
    PciconfLvc,
    HdparmB,
    ZpoolGetAshift,
    ZdbC,
    CrystalDiskMark,
    KDiskMark,
}

impl Tool {
    pub const ALL: [Tool; 45] = [
        Tool::CamcontrolIdentify,
        Tool::AtacontrolCap,
        Tool::CamcontrolDevlist,
        Tool::Diskinfo,
        Tool::GpartShow,
        Tool::GpartList,
        Tool::GeomDiskList,
        Tool::GeliList,
        Tool::Pciconf,
        Tool::BsdFdisk,
        Tool::FreebsdDmesg,
        Tool::LinuxDmesg,
        Tool::Sysctl,
        Tool::ZpoolStatus,
        Tool::Iostat,
        Tool::Gstat,
        Tool::Smartctl,
        Tool::SmartctlJson,
        Tool::HdparmI,
        Tool::HdparmW,
        Tool::HdparmT,
        Tool::Lsblk,
        Tool::LsblkJson,
        Tool::FdiskList,
        Tool::SfdiskDump,
        Tool::CryptsetupStatus,
        Tool::DmsetupTable,
        Tool::Fio,
        Tool::FioJson,
        Tool::Dd,
        Tool::Df,
        Tool::LspciVv,
        Tool::Mdstat,
        Tool::NvmeSmartLog,
        Tool::NvmeIdNs,
        Tool::NvmecontrolLogpage,
        Tool::NvmecontrolIdentify,
        Tool::LsblkD,
        Tool::Diskstats,
        Tool::PciconfLvc,
        Tool::HdparmB,
        Tool::ZpoolGetAshift,
        Tool::ZdbC,
        Tool::CrystalDiskMark,
        Tool::KDiskMark,
    ];

    /// Stable name, as in tests/fixtures/<platform>/<tool>/.
    pub fn id(self) -> &'static str {
        match self {
            Tool::CamcontrolIdentify => "camcontrol-identify",
            Tool::AtacontrolCap => "atacontrol-cap",
            Tool::CamcontrolDevlist => "camcontrol-devlist",
            Tool::Diskinfo => "diskinfo",
            Tool::GpartShow => "gpart-show",
            Tool::GpartList => "gpart-list",
            Tool::GeomDiskList => "geom-disk-list",
            Tool::GeliList => "geli-list",
            Tool::Pciconf => "pciconf",
            Tool::BsdFdisk => "fdisk",
            Tool::FreebsdDmesg => "dmesg",
            Tool::LinuxDmesg => "linux-dmesg",
            Tool::Sysctl => "sysctl",
            Tool::ZpoolStatus => "zpool-status",
            Tool::Iostat => "iostat",
            Tool::Gstat => "gstat",
            Tool::Smartctl => "smartctl",
            Tool::SmartctlJson => "smartctl-json",
            Tool::HdparmI => "hdparm-I",
            Tool::HdparmW => "hdparm-W",
            Tool::HdparmT => "hdparm-t",
            Tool::Lsblk => "lsblk",
            Tool::LsblkJson => "lsblk-J",
            Tool::FdiskList => "fdisk-l",
            Tool::SfdiskDump => "sfdisk-d",
            Tool::CryptsetupStatus => "cryptsetup-status",
            Tool::DmsetupTable => "dmsetup-table",
            Tool::Fio => "fio",
            Tool::FioJson => "fio-json",
            Tool::Dd => "dd",
            Tool::Df => "df",
            Tool::LspciVv => "lspci-vv",
            Tool::Mdstat => "mdstat",
            Tool::NvmeSmartLog => "nvme-smart-log",
            Tool::NvmeIdNs => "nvme-id-ns",
            Tool::NvmecontrolLogpage => "nvmecontrol-logpage",
            Tool::NvmecontrolIdentify => "nvmecontrol-identify",
            Tool::LsblkD => "lsblk-D",
            Tool::Diskstats => "diskstats",
            Tool::PciconfLvc => "pciconf-lvc",
            Tool::HdparmB => "hdparm-B",
            Tool::ZpoolGetAshift => "zpool-get-ashift",
            Tool::ZdbC => "zdb-C",
            Tool::CrystalDiskMark => "crystaldiskmark",
            Tool::KDiskMark => "kdiskmark",
        }
    }

    /// The tool a fixture directory holds (`freebsd/dmesg` -> FreeBSD dmesg).
    pub fn from_fixture_dir(platform: &str, dir: &str) -> Option<Tool> {
        Some(match (platform, dir) {
            ("linux", "dmesg") => Tool::LinuxDmesg,
            (_, "lsblk-o") => Tool::Lsblk,
            (_, "sfdisk-l") => Tool::FdiskList,
            (_, d) => *Tool::ALL.iter().find(|t| t.id() == d)?,
        })
    }

    /// The OS this tool's output implies, if only one has it.
    pub fn platform(self) -> Option<Platform> {
        match self {
            Tool::CamcontrolIdentify
            | Tool::AtacontrolCap
            | Tool::CamcontrolDevlist
            | Tool::Diskinfo
            | Tool::GpartShow
            | Tool::GpartList
            | Tool::GeomDiskList
            | Tool::GeliList
            | Tool::Pciconf
            | Tool::BsdFdisk
            | Tool::FreebsdDmesg
            | Tool::Gstat
            | Tool::NvmecontrolLogpage
            | Tool::NvmecontrolIdentify
            | Tool::PciconfLvc => Some(Platform::Freebsd),
            Tool::LinuxDmesg
            | Tool::HdparmI
            | Tool::HdparmW
            | Tool::HdparmT
            | Tool::Lsblk
            | Tool::LsblkJson
            | Tool::FdiskList
            | Tool::SfdiskDump
            | Tool::CryptsetupStatus
            | Tool::DmsetupTable
            | Tool::LspciVv
            | Tool::Mdstat
            | Tool::NvmeSmartLog
            | Tool::NvmeIdNs
            | Tool::LsblkD
            | Tool::Diskstats
            | Tool::HdparmB
            | Tool::KDiskMark => Some(Platform::Linux),
            _ => None,
        }
    }

    /// A human name for listings.
    pub fn display(self) -> &'static str {
        match self {
            Tool::CamcontrolIdentify => "camcontrol identify",
            Tool::AtacontrolCap => "atacontrol cap",
            Tool::CamcontrolDevlist => "camcontrol devlist",
            Tool::Diskinfo => "diskinfo",
            Tool::GpartShow => "gpart show",
            Tool::GpartList => "gpart list",
            Tool::GeomDiskList => "geom disk list",
            Tool::GeliList => "geli list",
            Tool::Pciconf => "pciconf -lv",
            Tool::BsdFdisk => "fdisk (FreeBSD)",
            Tool::FreebsdDmesg => "FreeBSD dmesg",
            Tool::LinuxDmesg => "Linux dmesg",
            Tool::Sysctl => "sysctl",
            Tool::ZpoolStatus => "zpool status",
            Tool::Iostat => "iostat",
            Tool::Gstat => "gstat",
            Tool::Smartctl => "smartctl",
            Tool::SmartctlJson => "smartctl -j",
            Tool::HdparmI => "hdparm -I",
            Tool::HdparmW => "hdparm -W",
            Tool::HdparmT => "hdparm -t",
            Tool::Lsblk => "lsblk",
            Tool::LsblkJson => "lsblk -J",
            Tool::FdiskList => "fdisk -l / sfdisk -l",
            Tool::SfdiskDump => "sfdisk -d",
            Tool::CryptsetupStatus => "cryptsetup status",
            Tool::DmsetupTable => "dmsetup table",
            Tool::Fio => "fio",
            Tool::FioJson => "fio --output-format=json",
            Tool::Dd => "dd",
            Tool::Df => "df",
            Tool::LspciVv => "lspci -vv",
            Tool::Mdstat => "/proc/mdstat",
            Tool::NvmeSmartLog => "nvme smart-log",
            Tool::NvmeIdNs => "nvme id-ns",
            Tool::NvmecontrolLogpage => "nvmecontrol logpage -p 2",
            Tool::NvmecontrolIdentify => "nvmecontrol identify",
            Tool::LsblkD => "lsblk -D",
            Tool::Diskstats => "/proc/diskstats",
            Tool::PciconfLvc => "pciconf -lvc",
            Tool::HdparmB => "hdparm -B",
            Tool::ZpoolGetAshift => "zpool get ashift all-vdevs",
            Tool::ZdbC => "zdb -C",
            Tool::CrystalDiskMark => "CrystalDiskMark",
            Tool::KDiskMark => "KDiskMark",
        }
    }
}

/// One recognised tool output.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Block {
    pub tool: Tool,
    /// Device the output is about (ada0, sda, mapper name), when the text says.
    pub device: Option<String>,
    /// The command line that produced it, when pasted.
    pub command: Option<String>,
    /// Input index and first/last original line numbers.
    pub src: usize,
    pub first: usize,
    pub last: usize,
    /// Index range into the prepared lines.
    #[serde(skip)]
    pub idx: (usize, usize),
    /// The cleaned text.
    pub text: String,
}

/// A command line found in the text: typed at a prompt, or named in a sentence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Command {
    pub src: usize,
    pub line: usize,
    #[serde(skip)]
    pub idx: usize,
    /// The program (dd, cp, camcontrol, ...).
    pub program: String,
    /// The command text from the program name on (prompt removed).
    pub text: String,
    /// Device named in the arguments.
    pub device: Option<String>,
    /// True when typed at a prompt or on a line of its own; false when named in prose.
    pub typed: bool,
}

/// A `name=value` or `name: value` setting found inside prose (seed 000's
/// `hw.ata.wc="0"` in loader.conf).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InlineSetting {
    pub name: String,
    pub value: String,
    pub src: usize,
    pub line: usize,
}

/// Everything recognised in the prepared lines.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Recognized {
    pub blocks: Vec<Block>,
    pub commands: Vec<Command>,
    pub settings: Vec<InlineSetting>,
    /// (src, first, last) ranges of non-blank lines nobody claimed.
    pub ignored: Vec<(usize, usize, usize)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    AtaIdent,
    Devlist,
    Diskinfo,
    GpartShow,
    Geom,
    Pciconf,
    BsdFdisk,
    BsdDmesg,
    LinuxDmesg,
    Sysctl,
    Zpool,
    Iostat,
    Gstat,
    Smartctl,
    Json,
    Hdparm,
    Lsblk,
    Fdisk,
    SfdiskDump,
    Cryptsetup,
    Dmsetup,
    Fio,
    Dd,
    Df,
    /// Issue 17's sources, detected in explain/modern.rs.
    Modern(super::modern_detect::M),
}

impl Kind {
    /// (blank lines, other non-member lines) a block may bridge when a member follows.
    fn tolerance(self) -> (usize, usize) {
        match self {
            Kind::Smartctl => (3, 3),
            Kind::BsdDmesg => (2, 4),
            Kind::LinuxDmesg => (1, 2),
            Kind::Sysctl => (1, 40),
            Kind::Zpool => (1, 2),
            Kind::Fio => (2, 3),
            Kind::Hdparm => (2, 2),
            Kind::AtaIdent => (1, 1),
            Kind::Fdisk => (3, 4),
            Kind::Iostat => (1, 1),
            Kind::Geom => (1, 1),
            Kind::Diskinfo => (1, 0),
            Kind::GpartShow => (1, 0),
            Kind::Json => (1, 0),
            Kind::Gstat => (1, 0),
            Kind::SfdiskDump => (1, 0),
            Kind::BsdFdisk => (1, 0),
            Kind::Dd => (0, 1),
            Kind::Modern(m) => m.tolerance(),
            _ => (0, 0),
        }
    }
}

// ---- camcontrol identify / atacontrol cap (ATA IDENTIFY rendered as a table) ----
rx!(
    ATA_PASS_HDR,
    r"^(pass|ada|da)\d+: (<.*>.*device|[\d.]+MB/s transfers)"
);
rx!(ATA_PROTO_CAM, r"^protocol\s+(ATA|ACS|SATA|\S*ATA)");
rx!(
    ATA_PROTO_ATACONTROL,
    r"^Protocol\s+(Serial ATA|SATA|ATA|ATAPI)\b"
);
rx!(
    ATA_ROW,
    r"^(device model|serial number|firmware revision|WWN|additional product id|cylinders|heads|sectors/track|sector size|LBA supported|LBA48 supported|lba supported|lba48 supported|PIO supported|DMA supported|dma supported|overlap not supported|media RPM|Zoned-Device Commands|Feature\s+Support\s+Enable|read ahead|write cache|flush cache|overlap|Tagged Command Queuing|Native Command Queuing|NCQ |Receive and Send FPDMA|SMART|microcode download|security|power management|advanced power management|automatic acoustic management|media status notification|power-up in Standby|write-read-verify|unload|general purpose logging|free-fall|sense data reporting|extended power conditions|device statistics notification|[Dd]ata [Ss]et [Mm]anagement|DSM - |Trusted Computing|encrypts all user data|Sanitize|HPA - |NCQ Priority|NCQ Non-Data|NCQ Streaming|NCQ Autosense|Receive & Send FPDMA|Power-Up In Standby|Host Protected Area|Accessible Max Address|Zoned|\.\.\.)\b"
);
rx!(
    ATA_CAMCONTROL_ONLY,
    r"^(protocol\s|LBA supported|LBA48 supported|PIO supported|DMA supported|sector size|media RPM|flush cache|[Dd]ata [Ss]et [Mm]anagement|Host Protected Area|pass\d+: )"
);
rx!(
    ATA_ATACONTROL_ONLY,
    r"^(Protocol\s|lba supported|lba48 supported|dma supported|overlap not supported)"
);
rx!(ATA_MODEL, r"^device model\s+(.+)$");

// ---- camcontrol devlist ----
rx!(
    DEVLIST_ROW,
    r"^[<(].*[>)]\s+at scbus-?\d+ target -?\d+ lun \w+ \("
);
rx!(DEVLIST_BUS, r"^scbus-?\d+ on \S+ bus \d+:");

// ---- diskinfo ----
rx!(
    DISKINFO_ROW,
    r"^\s*\S.*?\s#\s(sectorsize|mediasize in (bytes|sectors)|stripesize|stripeoffset|Cylinders according|Heads according|Sectors according|Disk descr|Disk ident|Attachment|Physical path|TRIM/UNMAP support|Rotation rate|Zone Mode)"
);
rx!(
    DISKINFO_T,
    r"^\s*(Seek times:|Full stroke:|Half stroke:|Quarter stroke:|Short forward:|Short backward:|Seq outer:|Seq inner:|Transfer rates:|outside:|middle:|inside:|I/O command overhead:|time to read 10MB block|time to read 20480 sectors|calculated command overhead|Asynchronous random reads:|Synchronous random writes:|sectorsize:\s+\d+\s+ops|\d+(\.\d+)? kbytes:)"
);
rx!(DISK_HEADER, r"^(/dev/)?([a-zA-Z]+[\dX][\w.]*)$");

// ---- gpart show ----
rx!(
    GPART_HDR,
    r"^=>\s+\d+\s+\d+\s+(\S+)\s+(MBR|GPT|BSD|EBR|VTOC8|APM|LDM|BSD64|PC98)\b"
);
rx!(
    GPART_ROW,
    r"^\s*\d+\s+\d+\s+(\S+\s+)?(\S+|- free -)(\s+\[[^\]]*\])?\s+\([\d.]+\s*[KMGTPEkmgtpe]?B?\)(\s+\[[^\]]*\])?\s*$"
);
rx!(GPART_ROW_FREE, r"^\s*\d+\s+\d+\s+(\S+\s+)?- free -");

// ---- GEOM lists (gpart list, geli list, geom disk list) ----
rx!(GEOM_NAME, r"^Geom name: (\S+)");
rx!(
    GEOM_MEMBER,
    r"^(\s*\d+\. Name: \S|(modified|state|fwheads|fwsectors|last|first|entries|scheme|Providers|Consumers|State|EncryptionAlgorithm|KeyLength|AuthenticationAlgorithm|Crypto|Version|UsedKey|Flags|KeysAllocated|KeysTotal):|\s+[A-Za-z][\w ]*: )"
);
rx!(
    GEOM_GELI,
    r"^(EncryptionAlgorithm|KeyLength|Crypto|AuthenticationAlgorithm|KeysTotal):"
);
rx!(
    GEOM_GPART,
    r"^(scheme|entries|first|last|modified):|^\s+(rawtype|rawuuid|efimedia|type|index|start|end|length|offset):"
);

// ---- pciconf -lv ----
rx!(
    PCICONF_ROW,
    r"^\S+@pci\d+:\d+:\d+:\d+:\s+(class=0x|card=0x)"
);
rx!(PCICONF_SUB, r"^\s+(vendor|device|class|subclass)\s+= ");
// pciconf -c / -b (usr.sbin/pciconf/cap.c, pciconf.c): "cap 10[70] = PCI-Express 2 ...",
// "ecap 0001[100] = AER ...", "bar   [10] = type Memory ...", and their wrapped tails
// ("link x4(x8) speed 8.0(8.0) ASPM disabled(L0s)", indented under the value).
rx!(
    PCICONF_CAP,
    r"^\s*(cap [0-9a-f]{2}\[[0-9a-f]+\]|ecap [0-9a-f]{4}\[[0-9a-f]+\]|bar\s+\[[0-9a-f]+\]) = "
);
rx!(
    PCICONF_CAP_MORE,
    r"^\s{6,}\S|^\s*(link x\d+\(x\d+\)|speed [\d.]+\([\d.]+\)|max read \d+|Table in map|PBA in map)"
);

// ---- FreeBSD fdisk ----
rx!(BSDFDISK_START, r"^\*+.*Working on device (\S+) \*+");
rx!(
    BSDFDISK_ROW,
    r"^(parameters (extracted|to be used)|cylinders=\d|Media sector size|Warning: BIOS sector|Information from DOS bootblock|The data for partition \d+ is:|sysid \d|start \d+, size|beg: cyl|end: cyl|<UNUSED>)"
);

// ---- dmesg ----
rx!(
    BSD_DMESG_START,
    r"^(?:(?:ata|ada|ad|atapci|ahci|ahcich|da|mps|mpr|mpt|nvd|nda|nvme|ar|acd|cd|siis|siisch|mvs|mvsch|umass|aac|ciss|isp|mfi|mrsas|twa|twe|hptrr|arcmsr|pass|ses|mmcsd|sdhci)\d+: |Copyright \(c\) .*The FreeBSD Project|FreeBSD \d+\.\d+-\S+ #|---<<BOOT>>---|[a-z]+\d+ at [a-z_-]+\d+ bus \d+ scbus\d+ |\((?:ada|da|pass|probe|cd|ses)\d+:[\w-]+:\d+:\d+:-?\d+\): )"
);
rx!(
    BSD_DMESG_PREFIXED,
    r"^[A-Z][a-z]+: ((?:atapci|ahci)\d+: .*)$"
);
rx!(
    BSD_DMESG_MEMBER,
    r"^(?:[a-z_][\w.-]*\d+(?:\.\d+)?: |[a-z_]+\d+(?:\.\d+)? (?:at|on) |\(|\s|Copyright|FreeBSD|CPU: |real memory|avail memory|usable memory|Timecounter|ACPI|kbd\d|Trying to mount|Root mount|GEOM|SMP|Event timer|Timecounters|WARNING|random|Waiting|Autoloading|MADT|APIC|VT\(|Features|Origin|Hyperthreading|cpu\d|ioapic\d|Mounting|Dual Console|Starting|module_register|firmware|netmap|ZFS|lo\d|Security policy|Fast IPsec|\[)"
);
rx!(
    LINUX_PREFIX,
    r"^(?:\[\s*\d+\.\d+\]\s*|(?:\w{3}\s+)?\w{3}\s+\d+\s+[\d:]+\s+(?:\d{4}\s+)?(?:\S+\s+)?kernel:\s*|<\d{1,3}>)"
);
rx!(
    LINUX_DMESG_BARE,
    r"^(?:ata\d+(?:\.\d+)?: (?:SATA|ATA-|configured|exception|status|cmd|error|failed|hard resetting|limiting|COMRESET|softreset|link|EH|irq_stat|SError|\d+ sectors|Features|supports|Model|NCQ|DMA|qc timeout|found unknown|revalidation)|sd \d+:\d+:\d+:\d+: |scsi \d+:\d+:\d+:\d+: |scsi host\d+: |usb-storage \d+-[\d.]+:|usb \d+-[\d.]+: |ahci \d{4}:|nvme nvme\d+|blk_update_request|print_req_error|Buffer I/O error|end_request|I/O error, dev|Linux version \d)"
);

// ---- sysctl ----
rx!(
    SYSCTL_LINE,
    r"^((?:kern|dev|hw|vfs|vm|net|security|debug|machdep|user|p1003_1b|compat|kstat|sysctl)\.[\w.%-]+)(?::\s?(.*)|=(.*))$"
);
rx!(
    SYSCTL_INLINE,
    r#"\b((?:hw\.ata\.(?:wc|ata_dma|atapi_dma)|kern\.cam\.ada\.(?:\d+\.)?(?:write_cache|read_ahead)|kern\.cam\.da\.\d+\.(?:rotating|delete_method)|hw\.ahci\.\w+|vfs\.zfs\.\w+|kern\.geom\.\w+))\s*[=:]\s*"?([\w.-]+)"?"#
);

// ---- zpool status ----
rx!(
    ZPOOL_START,
    r"^\s*pool: \S+|^\s*scan: (resilver|scrub) |^\s*NAME\s+STATE\s+READ\s+WRITE\s+CKSUM"
);
rx!(
    ZPOOL_MEMBER,
    r"^\s*(state|status|action|see|scan|scrub|config|errors|remove|checkpoint|pool):|^\s*NAME\s+STATE\s+READ|^\s+\S+\s+(ONLINE|DEGRADED|FAULTED|OFFLINE|UNAVAIL|REMOVED|AVAIL|INUSE)\b|^\s*(spares|logs|cache|special|dedup)\s*$|^\s+\S|^(/\S|<0x)"
);

// ---- iostat / gstat ----
rx!(
    IOSTAT_START,
    r"^\s*(tty\s+(\S+\s+)*cpu\s*$|tin\s+tout\s+KB/t|extended device statistics|device\s+r/s\s+w/s|Linux \d+\.\S+ \(\S+\)\s+\S+\s+_\S+_|avg-cpu:|Device:?\s+(rrqm/s|r/s|tps))"
);
rx!(
    IOSTAT_MEMBER,
    r"^\s*(tty\s|tin\s+tout|extended device|device\s+r/s|avg-cpu:|Device:?\s|[\w./-]+(\s+-?[\d.]+){3,}\s*$|[\d.]+(\s+[\d.]+)*\s*$)"
);
rx!(GSTAT_START, r"^\s*(dT: [\d.]+s\s+w: |L\(q\)\s+ops/s)");
rx!(GSTAT_ROW, r"^\s*\d+\s+\d+(\s+[\d.]+)+\s*\|?\s*\S+\s*$");

// ---- smartctl text ----
rx!(
    SMART_START,
    r"^(smartctl \d+\.\d+ |=== START OF (INFORMATION|READ SMART|SMART DATA|ENABLE/DISABLE) SECTION ===|(Device Model|Model Family|Model Number|User Capacity|Sector Sizes?|Rotation Rate|SATA Version is|SMART overall-health self-assessment test result|SMART Health Status|Smartctl open device|Total NVM Capacity|Namespace 1 Formatted LBA Size|Writeback Cache is|Logical block size|LU is fully provisioned):|SMART/Health Information \(NVMe Log 0x02|Supported Power States\s*$|Warning  Comp\. Temp\. Threshold:)"
);
rx!(
    // One row of smartctl's attribute table pasted without its header ("5
    // Reallocated_Sector_Ct 0x0033 094 094 036 Pre-fail Always - 8256"): a report cut down
    // to the rows the poster found interesting.
    SMART_ATTR_ROW,
    r"^\s*\d{1,3}\s+[A-Za-z][\w-]*\s+0x[0-9a-fA-F]{4}\s+\d{1,3}\s+\d{1,3}\s+[\d-]{1,3}\s+(Pre-fail|Old_age)(\s+(Always|Offline))?(\s+\S+)?(\s+\d.*)?\s*$"
);
rx!(
    SMART_MEMBER,
    r"^([A-Z][\w /().,#+-]{1,60}:(\s|$)|===|\s|ID#|Copyright \(C\)|Num\s|Index\s|No Errors Logged|No self-tests|SMART |ATA Error Count|Error \d+ |Supported Power States|Supported LBA Sizes|Id\s+Fmt|Vendor|Product|Revision|Compliance|User Capacity|Logical|Rotation|Form Factor|Device|Serial|LU WWN|Firmware|Local Time|Read|Write|Verify|Non-medium|Elements|Current|Specified|Accumulated|Manufactured|Blocks|Percentage|General Purpose|Address|Page|Pending|Device Statistics|Flags|SCT|Temperature|Phy|SATA Phy|Interval|Min/Max|Lifetime|Under/Over|Power|Unsafe|Media|Error|Warning|Critical|Available|Data Units|Host|Controller|\d+\s+\S+\s+0x[0-9a-f]{4}\s|0x[0-9a-f]{2}\s|\d+\s+[\w-]+\s+\d)"
);

// ---- JSON ----
rx!(JSON_START, r#"^\s*(\{|\[)\s*$|^\s*\{\s*""#);

// ---- hdparm ----
rx!(HDPARM_HDR, r"^/dev/[\w/.-]+:\s*$");
rx!(
    HDPARM_I,
    r"^(ATA device, with|\s+(Model Number|Serial Number|Firmware Revision|Transport|Standards|Configuration|Capabilities|Commands/features|Security|Logical Unit WWN|Checksum|Used|Supported|Likely used|CHS|LBA|Logical|Physical|device size|cache/buffer|Form Factor|Nominal Media Rotation Rate|R/W multiple|DMA|PIO|Cycle time|Enabled|Queue depth|Master password|Device)\b)"
);
rx!(
    HDPARM_W,
    r"^\s*(setting drive write-caching to \d|write-caching\s*=\s*\d)"
);
rx!(
    HDPARM_T,
    r"^\s*Timing (buffered disk reads|cached reads|O_DIRECT disk reads|O_DIRECT cached reads):\s+[\d.]+ MB in\s+[\d.]+ seconds\s*=\s*[\d.]+ [kMG]B/sec"
);
rx!(
    HDPARM_OTHER,
    r"^\s*(setting |APM_level|acoustic|readonly|readahead|geometry|multcount|IO_support|unmaskirq|using_dma|keepsettings|standby|write-caching|Timing )"
);

// ---- lsblk ----
rx!(
    LSBLK_HDR,
    r"^NAME\s+(MAJ:MIN|KNAME|FSTYPE|SIZE|TYPE|ROTA|PHY-SEC|MODEL|TRAN|ALIGNMENT|LOG-SEC|MIN-IO|SCHED|RM|MOUNTPOINTS?)\b.*\b(MAJ:MIN|SIZE|TYPE|ROTA|PHY-SEC|LOG-SEC|MODEL|TRAN|MOUNTPOINTS?|FSTYPE)\b"
);
rx!(LSBLK_ROW, r"^[\s├└│─|`-]*[\w.:\[\]-]+\s+(\S+\s+){1,}\S");

// ---- fdisk -l / sfdisk -l / sfdisk -d ----
rx!(
    FDISK_START,
    r"^(Disk /dev/\S+: [\d.,]+ ?\S*B?, \d+ bytes|Disk /dev/\S+: \d+ cylinders|\s*Device\s+Boot\s+Start\s+End|Disklabel type:|Units[:=] (sectors|cylinders)|Sector size \(logical/physical\))"
);
rx!(FDISK_DISK, r"^Disk (/dev/\S+?):");
rx!(
    FDISK_MEMBER,
    r"^(Disk |Units|Sector size|I/O size|Disklabel type|Disk identifier|Disk model|\d+ heads|\s*Device\s+(Boot\s+)?Start|/dev/\S+\s+\*?\s*\d|Partition \d+ (does not|has different)|Partition table entries are not in disk order|WARNING:|Command \(m for help\)|\s+\S)"
);
rx!(
    SFDISK_D_START,
    r"^(# partition table of /dev/\S+|label: (dos|gpt)|unit: sectors)"
);
rx!(
    SFDISK_D_MEMBER,
    r"^(label|label-id|device|unit|first-lba|last-lba|sector-size|# partition table of):|^/dev/\S+\s*:\s*start=|^# partition table of "
);

// ---- cryptsetup / dmsetup ----
rx!(
    CRYPT_START,
    r"^(/dev/mapper/)?([\w.-]+) is (in)?active( and is in use)?\.?\s*$"
);
rx!(
    CRYPT_MEMBER,
    r"^\s+(type|cipher|keysize|key location|device|sector size|offset|size|mode|flags|loop|integrity[\w ]*):|^Command successful\."
);
rx!(
    DMSETUP_ROW,
    r"^[\w.+-]+: \d+ \d+ (linear|striped|crypt|cache|thin|thin-pool|mirror|raid|error|zero|snapshot|snapshot-origin|multipath|delay|flakey|era|integrity|verity|writecache|vdo|dust)\b"
);

// ---- fio ----
rx!(
    FIO_START,
    r"^(\S+: \(g=\d+\): rw=|fio-\d|\S+: \(groupid=\d+, jobs=\d+\): err=|Run status group \d+)"
);
rx!(
    FIO_MEMBER,
    r"^(\s|\.\.\.$|Starting \d+ (process|thread)|Jobs: |Disk stats|Run status|\S+: \(g=\d+\)|\S+: \(groupid=|\S+: Laying out IO file|fio-\d)"
);

// ---- dd ----
rx!(
    DD_RECORDS,
    r"^(?:\^C)?(\d+)\+(\d+) (records|Datensätze) (in|out|ein|aus)\s*$"
);
rx!(
    DD_BSD_BYTES,
    r"^(\d+) bytes transferred in ([\d.]+) secs \((\d+) bytes/sec\)"
);
rx!(
    DD_GNU_BYTES,
    r"^(\d+) (?:bytes|Bytes)(?: \([^)]*\))? (?:copied|kopiert), ([\d.,]+) ?s, ([\d.,]+) ?([kMGT]?i?B)/s"
);
rx!(
    DD_OTHER,
    r"^(dd: |\s*[\d.]+ real\s+[\d.]+ user|real\s+\d+m[\d.]+s|user\s+\d+m|sys\s+\d+m)"
);

// ---- df ----
rx!(
    DF_HDR,
    r"^Filesystem\s+(Size|1K-blocks|1024-blocks|512-blocks|1M-blocks)\s+Used\s+Avail"
);
rx!(
    DF_ROW,
    r"^\S+\s+[\d.,]+[KMGTPE]?i?\s+[\d.,]+[KMGTPE]?i?\s+-?[\d.,]+[KMGTPE]?i?\s+\d+%\s+/\S*\s*$"
);

// ---- commands ----
rx!(
    PROMPT,
    r"^(?:\d+\)\s+|(?:\[[^\]]{1,40}\]\s?[#$%]|[\w.-]+(?:@[\w.-]+)?(?::[\w/~.-]*)?\s?[#$%]|~[\w/.-]*\s?[#$%]|[\w-]+:|[#$%]|guest\s+#)\s+)?(?:sudo\s+)?(?:time\s+(?:~?/\S+\s+)?)?(?:\S*/)?(camcontrol|atacontrol|diskinfo|gpart|geli|geom|pciconf|dmesg|sysctl|zpool|iostat|gstat|smartctl|hdparm|lsblk|sfdisk|fdisk|cryptsetup|dmsetup|fio|dd|cp|df|grep|egrep|journalctl|cat|lspci|nvme|nvmecontrol|zdb)(?:\s+(.*))?$"
);
rx!(
    MENTION,
    r"\b(camcontrol\s+identify|atacontrol\s+cap|diskinfo(?:\s+-\w+)*|smartctl(?:\s+-[\w,-]+)*|hdparm\s+-\w+|geli\s+list|gpart\s+(?:show|list)(?:\s+-\w+)?|zpool\s+status|camcontrol\s+devlist|fdisk\s+-l|cryptsetup\s+status)\s+(/dev/(?:mapper/)?)?([A-Za-z]+\d+[\w.]*|sd[a-z]+\d*|[\w-]+)"
);
rx!(
    DEV_ARG,
    r"^(?:/dev/(?:mapper/)?)?(ada\d+[\w.]*|ad\d+[\w.]*|da\d+[\w.]*|nvd\d+\w*|nda\d+\w*|nvme\d+\w*|sd[a-z]+\d*|hd[a-z]+\d*|vd[a-z]+\d*|md\d+\w*|mmcblk\d+\w*|mmcsd\d+\w*|ar\d+\w*|wd\d+\w*|rwd\d+\w*|pass\d+|loop\d+|dm-\d+|[a-z]+\d+[\w.]*)$"
);

/// Whether a command's arguments look like real arguments, so prose such as "dd seems to
/// do a good job" or "cp is slow" is not taken for a command.
fn plausible_command(program: &str, args: &str) -> bool {
    let a = args.trim();
    match program {
        "dd" => a.contains("if=") || a.contains("of=") || a.contains("bs="),
        "cp" => {
            let n = a.split_whitespace().filter(|w| !w.starts_with('-')).count();
            n == 2
                && a.split_whitespace()
                    .all(|w| !w.ends_with(['.', ',', '!', '?']) || w.contains('/'))
        }
        "camcontrol" => {
            a.starts_with("identify") || a.starts_with("devlist") || a.starts_with("inquiry")
        }
        "atacontrol" => a.starts_with("cap") || a.starts_with("list") || a.starts_with("mode"),
        "diskinfo" => a.starts_with('-') || a.starts_with("/dev/") || DEV_ARG.is_match(a),
        "gpart" => a.starts_with("show") || a.starts_with("list"),
        "geli" => a.starts_with("list") || a.starts_with("status"),
        "geom" => a.starts_with("disk list") || a.starts_with("part list"),
        "pciconf" => a.starts_with("-l"),
        "zpool" => {
            a.starts_with("status")
                || a.starts_with("list")
                || a.starts_with("iostat")
                || a.starts_with("get")
        }
        "lspci" => a.is_empty() || a.starts_with('-'),
        "nvme" => ["smart-log", "id-ns", "id-ctrl", "list", "error-log"]
            .iter()
            .any(|c| a.starts_with(c)),
        "nvmecontrol" => ["logpage", "identify", "devlist"]
            .iter()
            .any(|c| a.starts_with(c)),
        "zdb" => a.starts_with('-'),
        "fio" if a.starts_with('-') && a.chars().nth(1).is_some_and(|d| d.is_ascii_digit()) => {
            false
        }
        "smartctl" | "hdparm" | "fio" | "fdisk" | "sfdisk" => {
            a.starts_with('-')
                || a.starts_with("/dev/")
                || (program == "fio" && a.ends_with(".fio"))
        }
        "lsblk" | "dmesg" | "iostat" | "gstat" | "df" | "sysctl" => {
            a.is_empty()
                || a.starts_with('-')
                || a.starts_with('|')
                || a.contains('.')
                || a.chars().all(|c| c.is_ascii_digit() || c == ' ')
        }
        "cryptsetup" => {
            a.starts_with("status") || a.starts_with("luksDump") || a.starts_with("-v status")
        }
        "dmsetup" => a.starts_with("table") || a.starts_with("ls") || a.starts_with("status"),
        "grep" | "egrep" | "journalctl" | "cat" => {
            a.contains("dmesg")
                || a.contains("/var/log")
                || a.contains("-k")
                || a.contains(" ata")
                || a.contains("/sys/")
                || a.contains("/proc/mdstat")
                || a.contains("/proc/diskstats")
        }
        _ => false,
    }
}

/// The device a command names: the last argument that looks like a disk.
pub fn device_in_args(args: &str) -> Option<String> {
    args.split_whitespace()
        .rev()
        .map(|w| {
            w.trim_matches(|c: char| {
                c == '\'' || c == '"' || c == ',' || c == ':' || c == ')' || c == '('
            })
        })
        .filter_map(|w| {
            let w = w
                .strip_prefix("if=")
                .or_else(|| w.strip_prefix("of="))
                .unwrap_or(w);
            if w.starts_with('-') || w.contains('=') {
                return None;
            }
            DEV_ARG
                .captures(w)
                .and_then(|c| c.get(1))
                .map(|m| m.as_str().to_string())
        })
        .find(|d| {
            !d.chars().all(|c| c.is_ascii_digit()) && d.chars().any(|c| c.is_ascii_digit())
                || d.starts_with("sd")
        })
}

fn command_at(line: &Line, idx: usize) -> Option<Command> {
    let t = line.text.trim();
    if t.len() > 300 {
        return None;
    }
    if let Some(c) = PROMPT.captures(t) {
        let program = c.get(1)?.as_str();
        let args = c.get(2).map(|m| m.as_str()).unwrap_or("");
        if plausible_command(program, args) {
            let start = c.get(1)?.start();
            let text = t.get(start..).unwrap_or(t).to_string();
            let device = match program {
                "dd" => None,
                "cp" => None,
                _ => device_in_args(args),
            };
            return Some(Command {
                src: line.src,
                line: line.first,
                idx,
                program: program.to_string(),
                text,
                device,
                typed: true,
            });
        }
    }
    None
}

fn mention_at(line: &Line, idx: usize) -> Option<Command> {
    let t = line.text.trim();
    if t.len() > 200 {
        return None;
    }
    let c = MENTION.captures(t)?;
    let whole = c.get(0)?.as_str();
    let program = whole.split_whitespace().next()?.to_string();
    let device = c
        .get(3)
        .map(|m| m.as_str().to_string())
        .filter(|d| DEV_ARG.is_match(d));
    Some(Command {
        src: line.src,
        line: line.first,
        idx,
        program,
        text: whole.trim_end_matches(':').to_string(),
        device,
        typed: false,
    })
}

/// The tool a line can start, if it is a strong signature of one.
fn start_kind(lines: &[Line], i: usize) -> Option<Kind> {
    let t = lines.get(i)?.text.as_str();
    if t.trim().is_empty() {
        return None;
    }
    if let Some(m) = super::modern_detect::start(lines, i) {
        return Some(Kind::Modern(m));
    }
    if GPART_HDR.is_match(t.trim_start()) {
        return Some(Kind::GpartShow);
    }
    if DD_RECORDS.is_match(t.trim())
        || DD_BSD_BYTES.is_match(t.trim())
        || DD_GNU_BYTES.is_match(t.trim())
    {
        return Some(Kind::Dd);
    }
    if t.starts_with("dd: ") {
        // An error line counts when a dd summary follows.
        let next = next_nonblank(lines, i + 1, 2)?;
        let nt = lines.get(next)?.text.trim();
        if DD_RECORDS.is_match(nt) || DD_BSD_BYTES.is_match(nt) || DD_GNU_BYTES.is_match(nt) {
            return Some(Kind::Dd);
        }
        return None;
    }
    if JSON_START.is_match(t) {
        return Some(Kind::Json);
    }
    if ATA_PASS_HDR.is_match(t) && !t.contains("Command Queueing enabled") {
        // "pass0: <...> ... device" then the identify table; a dmesg "da0: <...>" has no
        // table after it.
        if lines.get(i + 1..(i + 5).min(lines.len())).is_some_and(|w| {
            w.iter()
                .any(|l| ATA_PROTO_CAM.is_match(&l.text) || ATA_ROW.is_match(&l.text))
        }) {
            return Some(Kind::AtaIdent);
        }
    }
    if ATA_PROTO_CAM.is_match(t) || ATA_PROTO_ATACONTROL.is_match(t) || ATA_MODEL.is_match(t) {
        return Some(Kind::AtaIdent);
    }
    if DEVLIST_ROW.is_match(t) || DEVLIST_BUS.is_match(t) {
        return Some(Kind::Devlist);
    }
    if DISKINFO_ROW.is_match(t)
        || (DISKINFO_T.is_match(t) && t.trim_start().starts_with(['S', 'T', 'I']))
    {
        return Some(Kind::Diskinfo);
    }
    if DISK_HEADER.is_match(t.trim())
        && let Some(n) = next_nonblank(lines, i + 1, 1)
        && lines.get(n).is_some_and(|l| DISKINFO_ROW.is_match(&l.text))
    {
        return Some(Kind::Diskinfo);
    }
    if GEOM_NAME.is_match(t) {
        return Some(Kind::Geom);
    }
    if PCICONF_ROW.is_match(t) {
        return Some(Kind::Pciconf);
    }
    if BSDFDISK_START.is_match(t) {
        return Some(Kind::BsdFdisk);
    }
    if SYSCTL_LINE.is_match(t) {
        return Some(Kind::Sysctl);
    }
    if ZPOOL_START.is_match(t) {
        return Some(Kind::Zpool);
    }
    if GSTAT_START.is_match(t) {
        return Some(Kind::Gstat);
    }
    if IOSTAT_START.is_match(t) {
        return Some(Kind::Iostat);
    }
    if SMART_START.is_match(t) || SMART_ATTR_ROW.is_match(t) {
        return Some(Kind::Smartctl);
    }
    if HDPARM_HDR.is_match(t) {
        if let Some(n) = next_nonblank(lines, i + 1, 1) {
            let nt = lines.get(n).map(|l| l.text.as_str()).unwrap_or("");
            if HDPARM_I.is_match(nt) || HDPARM_OTHER.is_match(nt) || HDPARM_T.is_match(nt) {
                return Some(Kind::Hdparm);
            }
        }
        return None;
    }
    if t.starts_with("ATA device, with") || HDPARM_W.is_match(t) || HDPARM_T.is_match(t) {
        return Some(Kind::Hdparm);
    }
    if LSBLK_HDR.is_match(t) {
        return Some(Kind::Lsblk);
    }
    if FDISK_START.is_match(t) {
        return Some(Kind::Fdisk);
    }
    if SFDISK_D_START.is_match(t) {
        return Some(Kind::SfdiskDump);
    }
    if CRYPT_START.is_match(t) {
        if let Some(n) = next_nonblank(lines, i + 1, 0)
            && lines.get(n).is_some_and(|l| CRYPT_MEMBER.is_match(&l.text))
        {
            return Some(Kind::Cryptsetup);
        }
        return None;
    }
    if DMSETUP_ROW.is_match(t) {
        return Some(Kind::Dmsetup);
    }
    if FIO_START.is_match(t) {
        return Some(Kind::Fio);
    }
    if DF_HDR.is_match(t) || (DF_ROW.is_match(t) && t.starts_with("/dev/")) {
        return Some(Kind::Df);
    }
    // Kernel lines survive an indented paste (a Markdown code block, a quoted mail).
    let lt = t.trim_start();
    if LINUX_PREFIX.is_match(lt) {
        let rest = LINUX_PREFIX.replace(lt, "");
        // A FreeBSD kernel line in syslog ("Oct 17 20:24:00 kernel: (ada0:ahcich4:0:0:0):
        // lost device", /var/log/messages).
        if BSD_DMESG_START.is_match(&rest) && !LINUX_DMESG_BARE.is_match(&rest) {
            return Some(Kind::BsdDmesg);
        }
        if LINUX_DMESG_BARE.is_match(&rest)
            || rest.contains("ata")
            || rest.starts_with("sd ")
            || rest.starts_with("nvme")
            || rest.starts_with("ahci")
        {
            return Some(Kind::LinuxDmesg);
        }
    }
    if LINUX_DMESG_BARE.is_match(lt) {
        return Some(Kind::LinuxDmesg);
    }
    if BSD_DMESG_START.is_match(t) || BSD_DMESG_PREFIXED.is_match(t) {
        return Some(Kind::BsdDmesg);
    }
    None
}

/// A sentence of prose rather than a line of tool output: unindented, six or more words,
/// nearly all of them plain words, no `key=value`, no hex, no aligned columns.
pub fn looks_like_prose(t: &str) -> bool {
    if t.starts_with([' ', '\t']) || t.contains("  ") || t.contains('=') || t.contains("0x") {
        return false;
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    if words.len() < 6 || words.first().is_some_and(|w| w.ends_with(':')) {
        return false;
    }
    let plain = words
        .iter()
        .filter(|w| {
            let w = w.trim_matches(|c: char| ",.;:!?'\"()".contains(c));
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_alphabetic() || c == '-' || c == '\'')
        })
        .count();
    plain * 100 >= words.len() * 75
}

/// Tools whose outputs hold many kinds of lines: any line that is not prose belongs.
fn permissive(kind: Kind) -> bool {
    matches!(kind, Kind::Smartctl | Kind::BsdDmesg | Kind::Fio)
}

fn next_nonblank(lines: &[Line], from: usize, max_skip: usize) -> Option<usize> {
    (from..lines.len().min(from + max_skip + 1))
        .find(|&j| lines.get(j).is_some_and(|l| !l.text.trim().is_empty()))
}

/// Per-block state used to decide membership and splits.
#[derive(Default)]
struct State {
    seen_protocol: bool,
    seen_table: bool,
    seen_dd_bytes: bool,
    seen_disk_line: bool,
    json_depth: i64,
    json_done: bool,
    rows: usize,
}

enum Member {
    Yes,
    /// The line belongs to this tool but starts a new output (a second disk).
    NewBlock,
    No,
}

fn member(kind: Kind, t: &str, st: &State) -> Member {
    use Member::*;
    let yes = |b: bool| if b { Yes } else { No };
    let trimmed = t.trim();
    match kind {
        Kind::AtaIdent => {
            if (ATA_PROTO_CAM.is_match(t) || ATA_PROTO_ATACONTROL.is_match(t)) && st.seen_protocol {
                return NewBlock;
            }
            if t.starts_with("pass") && ATA_PASS_HDR.is_match(t) {
                return if st.seen_table { NewBlock } else { Yes };
            }
            yes(ATA_PROTO_CAM.is_match(t)
                || ATA_PROTO_ATACONTROL.is_match(t)
                || ATA_ROW.is_match(trimmed))
        }
        Kind::Devlist => yes(DEVLIST_ROW.is_match(t) || DEVLIST_BUS.is_match(t)),
        Kind::Diskinfo => {
            if DISK_HEADER.is_match(trimmed) && st.rows > 0 {
                return NewBlock;
            }
            yes(DISKINFO_ROW.is_match(t) || DISKINFO_T.is_match(t))
        }
        Kind::GpartShow => {
            yes(GPART_HDR.is_match(trimmed) || GPART_ROW.is_match(t) || GPART_ROW_FREE.is_match(t))
        }
        Kind::Geom => yes(GEOM_NAME.is_match(t) || GEOM_MEMBER.is_match(t)),
        Kind::Pciconf => yes(PCICONF_ROW.is_match(t)
            || PCICONF_SUB.is_match(t)
            || PCICONF_CAP.is_match(t)
            || PCICONF_CAP_MORE.is_match(t)),
        Kind::BsdFdisk => yes(BSDFDISK_START.is_match(t) || BSDFDISK_ROW.is_match(trimmed)),
        Kind::BsdDmesg => yes(BSD_DMESG_START.is_match(t)
            || BSD_DMESG_PREFIXED.is_match(t)
            || (BSD_DMESG_MEMBER.is_match(t) && !LINUX_PREFIX.is_match(t))
            || (LINUX_PREFIX.is_match(t.trim_start()) && {
                let rest = LINUX_PREFIX.replace(t.trim_start(), "");
                BSD_DMESG_START.is_match(&rest) && !LINUX_DMESG_BARE.is_match(&rest)
            })),
        Kind::LinuxDmesg => {
            let lt = t.trim_start();
            yes(LINUX_PREFIX.is_match(lt) || LINUX_DMESG_BARE.is_match(lt))
        }
        Kind::Sysctl => yes(SYSCTL_LINE.is_match(t) || t.starts_with([' ', '\t', '<'])),
        Kind::Zpool => {
            if ZPOOL_START.is_match(t) {
                return Yes;
            }
            yes(ZPOOL_MEMBER.is_match(t))
        }
        Kind::Iostat => yes(IOSTAT_START.is_match(t) || IOSTAT_MEMBER.is_match(t)),
        Kind::Gstat => yes(GSTAT_START.is_match(t) || GSTAT_ROW.is_match(t)),
        Kind::Smartctl => {
            if t.starts_with("smartctl ") && SMART_START.is_match(t) && st.rows > 3 {
                return NewBlock;
            }
            yes(SMART_START.is_match(t)
                || SMART_MEMBER.is_match(t)
                || SMART_ATTR_ROW.is_match(t)
                || t.trim() == "..."
                // The tail of a row a mail client wrapped onto its own line
                // ("-       8256", "Always       -       65").
                || (!t.trim().is_empty()
                    && t.trim().len() <= 40
                    && (t.trim().starts_with(|c: char| c.is_ascii_digit() || c == '-')
                        || t.trim().starts_with("Always")
                        || t.trim().starts_with("Offline"))
                    && !t.contains(':'))
                || t.starts_with("#"))
        }
        Kind::Json => yes(!st.json_done),
        Kind::Hdparm => {
            if HDPARM_HDR.is_match(t) {
                return if st.rows > 0 { NewBlock } else { Yes };
            }
            yes(t.starts_with([' ', '\t'])
                || t.starts_with("ATA device")
                || HDPARM_I.is_match(t)
                || HDPARM_OTHER.is_match(t)
                || (t.ends_with(':')
                    && t.len() < 40
                    && t.starts_with(|c: char| c.is_ascii_uppercase())))
        }
        Kind::Lsblk => yes(LSBLK_ROW.is_match(t)
            && !t.starts_with(|c: char| c.is_ascii_uppercase() && t.contains(". "))),
        Kind::Fdisk => {
            if FDISK_DISK.is_match(t) && st.seen_disk_line {
                return NewBlock;
            }
            yes(FDISK_START.is_match(t) || FDISK_MEMBER.is_match(t))
        }
        Kind::SfdiskDump => yes(SFDISK_D_START.is_match(t) || SFDISK_D_MEMBER.is_match(t)),
        Kind::Cryptsetup => yes(CRYPT_MEMBER.is_match(t)),
        Kind::Dmsetup => yes(DMSETUP_ROW.is_match(t)),
        Kind::Fio => yes(FIO_START.is_match(t) || FIO_MEMBER.is_match(t)),
        Kind::Dd => {
            // A new "records in" after a summary is the next run; a second BSD summary too
            // (GNU status=progress prints interim "copied" lines before its final one).
            if (DD_RECORDS.is_match(trimmed) && st.seen_dd_bytes)
                || ((DD_BSD_BYTES.is_match(trimmed) || DD_GNU_BYTES.is_match(trimmed))
                    && st.seen_dd_bytes
                    && !trimmed.contains("copied"))
            {
                return NewBlock;
            }
            if trimmed.starts_with("dd: ") && st.seen_dd_bytes {
                return NewBlock;
            }
            yes(DD_RECORDS.is_match(trimmed)
                || DD_BSD_BYTES.is_match(trimmed)
                || DD_GNU_BYTES.is_match(trimmed)
                || DD_OTHER.is_match(t))
        }
        Kind::Df => yes(DF_HDR.is_match(t) || DF_ROW.is_match(t)),
        Kind::Modern(m) => yes(super::modern_detect::member(m, t)),
    }
}

fn update_state(kind: Kind, t: &str, st: &mut State) {
    st.rows += 1;
    match kind {
        Kind::AtaIdent => {
            if ATA_PROTO_CAM.is_match(t) || ATA_PROTO_ATACONTROL.is_match(t) {
                st.seen_protocol = true;
            }
            if ATA_ROW.is_match(t.trim()) {
                st.seen_table = true;
            }
        }
        Kind::Dd => {
            let tt = t.trim();
            if DD_BSD_BYTES.is_match(tt) || DD_GNU_BYTES.is_match(tt) {
                st.seen_dd_bytes = true;
            }
        }
        Kind::Fdisk if FDISK_DISK.is_match(t) => {
            st.seen_disk_line = true;
        }
        Kind::Json => {
            let mut in_str = false;
            let mut esc = false;
            for c in t.chars() {
                if in_str {
                    if esc {
                        esc = false;
                    } else if c == '\\' {
                        esc = true;
                    } else if c == '"' {
                        in_str = false;
                    }
                    continue;
                }
                match c {
                    '"' => in_str = true,
                    '{' | '[' => st.json_depth += 1,
                    '}' | ']' => st.json_depth -= 1,
                    _ => {}
                }
            }
            if st.json_depth <= 0 {
                st.json_done = true;
            }
        }
        _ => {}
    }
}

/// Recognise every block and command in the prepared lines (all inputs, in order).
pub fn recognize(lines: &[Line]) -> Recognized {
    let mut out = Recognized::default();
    let mut claimed = vec![false; lines.len()];
    let mut i = 0usize;
    // Commands seen and not yet attached to a block: (command index in out.commands).
    let mut pending: Option<usize> = None;
    while i < lines.len() {
        let Some(line) = lines.get(i) else { break };
        let t = line.text.as_str();
        if t.trim().is_empty() || t.trim() == "```" {
            i += 1;
            continue;
        }
        for c in SYSCTL_INLINE.captures_iter(t) {
            if let (Some(n), Some(v)) = (c.get(1), c.get(2))
                && !SYSCTL_LINE.is_match(t)
            {
                out.settings.push(InlineSetting {
                    name: n.as_str().to_string(),
                    value: v.as_str().to_string(),
                    src: line.src,
                    line: line.first,
                });
            }
        }
        if let Some(cmd) = command_at(line, i) {
            claimed[i] = true;
            out.commands.push(cmd);
            pending = Some(out.commands.len() - 1);
            i += 1;
            continue;
        }
        let Some(kind) = start_kind(lines, i) else {
            if let Some(m) = mention_at(line, i) {
                out.commands.push(m);
                pending = Some(out.commands.len() - 1);
            }
            i += 1;
            continue;
        };
        let (end, st) = extend(lines, i, kind);
        for c in claimed.iter_mut().take(end).skip(i) {
            *c = true;
        }
        // A command applies when it came within 4 lines before the block, in the same input.
        let cmd = pending.take().and_then(|ci| {
            let c = out.commands.get(ci)?;
            (c.src == line.src && i.saturating_sub(c.idx) <= 4).then(|| c.clone())
        });
        let block = finish(lines, i, end, kind, &st, cmd.as_ref(), &out.blocks);
        out.blocks.push(block);
        i = end.max(i + 1);
    }
    // Ignored: maximal runs of unclaimed non-blank lines, per input.
    let mut run: Option<(usize, usize, usize)> = None;
    for (j, l) in lines.iter().enumerate() {
        let blank = l.text.trim().is_empty();
        let free = !claimed.get(j).copied().unwrap_or(true) && !blank;
        match (&mut run, free) {
            (Some(r), true) if r.0 == l.src => r.2 = l.last,
            (Some(_), true) => {
                out.ignored.extend(run.take());
                run = Some((l.src, l.first, l.last));
            }
            (None, true) => run = Some((l.src, l.first, l.last)),
            (Some(_), false) if !blank => out.ignored.extend(run.take()),
            _ => {}
        }
    }
    out.ignored.extend(run);
    out
}

/// Grow a block from `start`; returns the end index (exclusive) and its state.
fn extend(lines: &[Line], start: usize, kind: Kind) -> (usize, State) {
    let mut st = State::default();
    let src = lines.get(start).map(|l| l.src).unwrap_or(0);
    let (max_blank, max_other) = kind.tolerance();
    let first = lines.get(start).map(|l| l.text.as_str()).unwrap_or("");
    update_state(kind, first, &mut st);
    let mut end = start + 1;
    let mut j = start + 1;
    let mut blanks = 0usize;
    let mut others = 0usize;
    let mut soft = 0usize;
    // A block ends at a cap so one giant paste cannot make one giant block.
    while j < lines.len() && j - start < 200_000 {
        let Some(l) = lines.get(j) else { break };
        if l.src != src {
            break;
        }
        let t = l.text.as_str();
        if kind == Kind::Json {
            if st.json_done {
                break;
            }
            update_state(kind, t, &mut st);
            end = j + 1;
            j += 1;
            continue;
        }
        if t.trim().is_empty() {
            blanks += 1;
            if blanks > max_blank {
                break;
            }
            j += 1;
            continue;
        }
        // A typed command always ends a block.
        if command_at(l, j).is_some() {
            break;
        }
        // In a permissive block another tool's first line still starts a new block.
        // (A bare "ata3: SATA connect ..." inside a FreeBSD verbose boot is FreeBSD's.)
        if permissive(kind)
            && start_kind(lines, j).is_some_and(|k| {
                k != kind
                    && !(kind == Kind::BsdDmesg
                        && k == Kind::LinuxDmesg
                        && !LINUX_PREFIX.is_match(t))
            })
        {
            break;
        }
        match member(kind, t, &st) {
            Member::Yes => {
                update_state(kind, t, &mut st);
                end = j + 1;
                blanks = 0;
                others = 0;
                soft = 0;
            }
            Member::NewBlock => break,
            Member::No => {
                if start_kind(lines, j).is_some_and(|k| k != kind) {
                    break;
                }
                if permissive(kind) && !looks_like_prose(t) {
                    // Output-like but unknown: kept only when a known line follows, so a
                    // "Thanks," after the output is not swallowed.
                    soft += 1;
                    blanks = 0;
                    if soft > 40 {
                        break;
                    }
                } else {
                    others += 1;
                    if others > max_other {
                        break;
                    }
                }
            }
        }
        j += 1;
    }
    (end, st)
}

fn finish(
    lines: &[Line],
    start: usize,
    end: usize,
    kind: Kind,
    st: &State,
    cmd: Option<&Command>,
    earlier: &[Block],
) -> Block {
    let slice = lines.get(start..end).unwrap_or(&[]);
    let text: String = slice
        .iter()
        .map(|l| {
            // "Controller: atapci0: Intel ICH7 UDMA100 controller" -> the dmesg part.
            if kind == Kind::BsdDmesg
                && let Some(c) = BSD_DMESG_PREFIXED.captures(&l.text)
            {
                return c.get(1).map(|m| m.as_str().to_string()).unwrap_or_default();
            }
            l.text.clone()
        })
        .collect::<Vec<_>>()
        .join("\n");
    let tool = classify(kind, &text, cmd);
    let first_line = slice.first().map(|l| l.first).unwrap_or(0);
    let last_line = slice.last().map(|l| l.last).unwrap_or(first_line);
    let src = slice.first().map(|l| l.src).unwrap_or(0);
    // gpart show prints the provider on its header line; prefer it to the command's
    // last argument ("gpart show da0 da0s1").
    let mut device = if tool == Tool::GpartShow {
        device_from_text(tool, &text)
    } else {
        None
    };
    if device.is_none() {
        device = cmd
            .and_then(|c| c.device.clone())
            .filter(|_| cmd_matches(tool, cmd));
    }
    if device.is_none() {
        device = device_from_text(tool, &text);
    }
    if matches!(tool, Tool::ZpoolGetAshift | Tool::ZdbC) {
        // These name a pool, not a disk: `zdb -C tank`, `zpool get ashift tank all-vdevs`.
        device = cmd
            .filter(|_| cmd_matches(tool, cmd))
            .and_then(|c| super::modern_detect::pool_of_command(&c.text));
    }
    if device.is_none() && matches!(tool, Tool::AtacontrolCap | Tool::CamcontrolIdentify) {
        // The same drive shown again (seed 000: the table after disabling the cache):
        // reuse the device of an earlier block with the same model line.
        let model = ATA_MODEL_ANY
            .captures(&text)
            .and_then(|c| c.get(1))
            .map(|m| m.as_str().trim().to_string());
        if let Some(m) = model {
            device = earlier
                .iter()
                .rev()
                .filter(|b| b.tool == tool)
                .find(|b| {
                    b.text
                        .lines()
                        .any(|l| l.starts_with("device model") && l.contains(m.as_str()))
                })
                .and_then(|b| b.device.clone());
        }
    }
    let _ = st;
    Block {
        tool,
        device,
        command: cmd
            .filter(|_| cmd_matches(tool, cmd))
            .map(|c| c.text.clone()),
        src,
        first: first_line,
        last: last_line,
        idx: (start, end),
        text,
    }
}

rx!(ATA_MODEL_ANY, r"(?m)^device model\s+(.+)$");
rx!(SMART_JSON_DEV, r#""name"\s*:\s*"(/dev/[^"]+)""#);
rx!(CRYPT_NAME, r"^(?:/dev/mapper/)?([\w.-]+) is (?:in)?active");
rx!(FDISK_PART_DEV, r"(?m)^(/dev/[a-z]+)\d+\s");
rx!(FDISK_DISK_ANY, r"(?m)^Disk (/dev/\S+?):");
rx!(
    SFDISK_D_DEV,
    r"(?m)^# partition table of (/dev/\S+)|^device: (/dev/\S+)|^(/dev/[a-z]+)\d+\s*:"
);

fn device_from_text(tool: Tool, text: &str) -> Option<String> {
    let first = text.lines().next().unwrap_or("").trim();
    let strip = |s: &str| {
        s.trim_start_matches("/dev/")
            .trim_end_matches(':')
            .to_string()
    };
    match tool {
        Tool::Diskinfo => DISK_HEADER
            .captures(first)
            .and_then(|c| c.get(2))
            .map(|m| m.as_str().to_string()),
        Tool::GpartShow => GPART_HDR
            .captures(first)
            .and_then(|c| c.get(1))
            .map(|m| m.as_str().to_string()),
        Tool::HdparmI | Tool::HdparmW | Tool::HdparmT => {
            text.lines().find(|l| HDPARM_HDR.is_match(l)).map(strip)
        }
        Tool::SmartctlJson => SMART_JSON_DEV
            .captures(text)
            .and_then(|c| c.get(1))
            .map(|m| strip(m.as_str())),
        Tool::CryptsetupStatus => CRYPT_NAME
            .captures(first)
            .and_then(|c| c.get(1))
            .map(|m| m.as_str().to_string()),
        Tool::FdiskList => FDISK_DISK_ANY
            .captures(text)
            .and_then(|c| c.get(1))
            .or_else(|| FDISK_PART_DEV.captures(text).and_then(|c| c.get(1)))
            .map(|m| strip(m.as_str())),
        Tool::SfdiskDump => SFDISK_D_DEV
            .captures(text)
            .and_then(|c| c.get(1).or(c.get(2)).or(c.get(3)))
            .map(|m| strip(m.as_str())),
        Tool::BsdFdisk => BSDFDISK_START
            .captures(first)
            .and_then(|c| c.get(1))
            .map(|m| strip(m.as_str())),
        _ => modern_device_from_text(tool, text),
    }
}

fn cmd_matches(tool: Tool, cmd: Option<&Command>) -> bool {
    let Some(c) = cmd else { return false };
    let p = c.program.as_str();
    let t = c.text.as_str();
    match tool {
        Tool::CamcontrolIdentify => p == "camcontrol" && t.contains("identify"),
        Tool::AtacontrolCap => p == "atacontrol",
        Tool::CamcontrolDevlist => p == "camcontrol" && t.contains("devlist"),
        Tool::Diskinfo => p == "diskinfo",
        Tool::GpartShow => p == "gpart" && t.contains("show"),
        Tool::GpartList => p == "gpart" && t.contains("list"),
        Tool::GeomDiskList => p == "geom",
        Tool::GeliList => p == "geli",
        Tool::Pciconf => p == "pciconf",
        Tool::BsdFdisk | Tool::FdiskList => p == "fdisk" || p == "sfdisk",
        Tool::SfdiskDump => p == "sfdisk",
        Tool::FreebsdDmesg | Tool::LinuxDmesg => {
            matches!(p, "dmesg" | "grep" | "egrep" | "journalctl" | "cat")
        }
        Tool::Sysctl => p == "sysctl",
        Tool::ZpoolStatus => p == "zpool",
        Tool::Iostat => p == "iostat",
        Tool::Gstat => p == "gstat",
        Tool::Smartctl | Tool::SmartctlJson => p == "smartctl",
        Tool::HdparmI | Tool::HdparmW | Tool::HdparmT => p == "hdparm",
        Tool::Lsblk | Tool::LsblkJson => p == "lsblk",
        Tool::CryptsetupStatus => p == "cryptsetup",
        Tool::DmsetupTable => p == "dmsetup",
        Tool::Fio | Tool::FioJson => p == "fio",
        Tool::Dd => p == "dd",
        Tool::Df => p == "df",
        Tool::HdparmB => p == "hdparm",
        Tool::PciconfLvc => p == "pciconf",
        Tool::LspciVv
        | Tool::Mdstat
        | Tool::NvmeSmartLog
        | Tool::NvmeIdNs
        | Tool::NvmecontrolLogpage
        | Tool::NvmecontrolIdentify
        | Tool::LsblkD
        | Tool::Diskstats
        | Tool::ZpoolGetAshift
        | Tool::ZdbC => modern_cmd_matches(tool, p, t),
        Tool::CrystalDiskMark | Tool::KDiskMark => false,
    }
}

fn classify(kind: Kind, text: &str, cmd: Option<&Command>) -> Tool {
    match kind {
        Kind::AtaIdent => {
            if let Some(c) = cmd {
                if c.program == "atacontrol" {
                    return Tool::AtacontrolCap;
                }
                if c.program == "camcontrol" {
                    return Tool::CamcontrolIdentify;
                }
            }
            let cam = text
                .lines()
                .filter(|l| ATA_CAMCONTROL_ONLY.is_match(l))
                .count();
            let ata = text
                .lines()
                .filter(|l| ATA_ATACONTROL_ONLY.is_match(l))
                .count();
            if ata > cam {
                Tool::AtacontrolCap
            } else {
                Tool::CamcontrolIdentify
            }
        }
        Kind::Devlist => Tool::CamcontrolDevlist,
        Kind::Diskinfo => Tool::Diskinfo,
        Kind::GpartShow => Tool::GpartShow,
        Kind::Geom => {
            if text.lines().any(|l| GEOM_GELI.is_match(l))
                || text.contains(".eli") && text.contains("Crypto")
            {
                Tool::GeliList
            } else if text.lines().any(|l| GEOM_GPART.is_match(l)) {
                Tool::GpartList
            } else {
                Tool::GeomDiskList
            }
        }
        Kind::Pciconf if text.lines().any(|l| PCICONF_CAP.is_match(l)) => Tool::PciconfLvc,
        Kind::Pciconf => Tool::Pciconf,
        Kind::BsdFdisk => Tool::BsdFdisk,
        Kind::BsdDmesg => Tool::FreebsdDmesg,
        Kind::LinuxDmesg => Tool::LinuxDmesg,
        Kind::Sysctl => Tool::Sysctl,
        Kind::Zpool => Tool::ZpoolStatus,
        Kind::Iostat => Tool::Iostat,
        Kind::Gstat => Tool::Gstat,
        Kind::Smartctl => Tool::Smartctl,
        Kind::Json => {
            // Decide by the keys only; the JSON may be truncated or re-wrapped.
            let head: String = text.chars().take(200_000).collect();
            if head.contains("\"blockdevices\"") {
                Tool::LsblkJson
            } else if head.contains("\"fio version\"")
                || head.contains("\"jobs\"") && head.contains("\"jobname\"")
            {
                Tool::FioJson
            } else {
                Tool::SmartctlJson
            }
        }
        Kind::Hdparm => {
            if text.contains("APM_level")
                && !text.contains("ATA device")
                && !text.contains("write-caching")
            {
                // hdparm -B (hdparm.c get_apmmode prints " APM_level\t= N").
                Tool::HdparmB
            } else if text.lines().any(|l| HDPARM_T.is_match(l)) && !text.contains("ATA device") {
                Tool::HdparmT
            } else if text.contains("ATA device")
                || text
                    .lines()
                    .any(|l| HDPARM_I.is_match(l) && l.contains("Model Number"))
            {
                Tool::HdparmI
            } else {
                Tool::HdparmW
            }
        }
        Kind::Lsblk => Tool::Lsblk,
        Kind::Fdisk => Tool::FdiskList,
        Kind::SfdiskDump => Tool::SfdiskDump,
        Kind::Cryptsetup => Tool::CryptsetupStatus,
        Kind::Dmsetup => Tool::DmsetupTable,
        Kind::Fio => Tool::Fio,
        Kind::Dd => Tool::Dd,
        Kind::Df => Tool::Df,
        Kind::Modern(m) => modern_tool(m, text),
    }
}

// ---- issue 17's tools (detectors in explain/modern_detect.rs) ----

use super::modern_detect::M;

/// The tool of a finished block.
fn modern_tool(m: M, text: &str) -> Tool {
    match m {
        M::Lspci => Tool::LspciVv,
        M::Mdstat => Tool::Mdstat,
        M::NvmeSmartLog => Tool::NvmeSmartLog,
        M::NvmeIdNs => Tool::NvmeIdNs,
        M::NvmecontrolLog => Tool::NvmecontrolLogpage,
        M::NvmecontrolIdentify => Tool::NvmecontrolIdentify,
        M::LsblkD => Tool::LsblkD,
        M::Diskstats => Tool::Diskstats,
        M::ZpoolGet => Tool::ZpoolGetAshift,
        M::Zdb => Tool::ZdbC,
        // Both print "Sequential 1 MiB (Q= 8, T= 1)" rows; KDiskMark runs fio on Linux and
        // says so in its title and OS line ("OS: arch unknown [linux 6.16.4-arch1-1]").
        M::DiskMark
            if text.contains("KDiskMark")
                || text.contains("[linux ")
                || text.contains("Flexible I/O Tester") =>
        {
            Tool::KDiskMark
        }
        M::DiskMark => Tool::CrystalDiskMark,
    }
}

/// The device a block names in its own text, when it does.
fn modern_device_from_text(tool: Tool, text: &str) -> Option<String> {
    match tool {
        Tool::NvmeSmartLog => super::modern_detect::nvme_header_device(text),
        _ => None,
    }
}

/// Whether a command names this tool (so its device applies to the block).
fn modern_cmd_matches(tool: Tool, program: &str, text: &str) -> bool {
    match tool {
        Tool::LspciVv => program == "lspci",
        Tool::Mdstat => program == "cat" && text.contains("mdstat"),
        Tool::NvmeSmartLog => program == "nvme" && text.contains("smart-log"),
        Tool::NvmeIdNs => program == "nvme" && text.contains("id-ns"),
        Tool::NvmecontrolLogpage => program == "nvmecontrol" && text.contains("logpage"),
        Tool::NvmecontrolIdentify => program == "nvmecontrol" && text.contains("identify"),
        Tool::LsblkD => program == "lsblk",
        Tool::Diskstats => program == "cat" && text.contains("diskstats"),
        Tool::ZpoolGetAshift => program == "zpool",
        Tool::ZdbC => program == "zdb",
        _ => false,
    }
}

/// Whether the JSON block parses (used to say "truncated JSON" in the notes).
pub fn json_parses(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::segment::prepare;

    fn rec(s: &str) -> Recognized {
        let p = prepare(0, "t", s.as_bytes()).expect("text");
        recognize(&p.lines)
    }

    #[test]
    fn commands_at_prompts_and_in_prose() {
        let r = rec(
            "thor# atacontrol cap ad4\nProtocol Serial ATA II\ndevice model HDT722525DLA380\nFeature Support Enable Value Vendor\nwrite cache yes yes\n",
        );
        assert_eq!(r.blocks.len(), 1);
        assert_eq!(r.blocks[0].tool, Tool::AtacontrolCap);
        assert_eq!(r.blocks[0].device.as_deref(), Some("ad4"));
        let r = rec(
            "Output of camcontrol identify ada0:\n\npass0: <ST9320423AS 0002SDM1> ATA-8 SATA 2.x device\npass0: 300.000MB/s transfers (SATA 2.x, UDMA6, PIO 8192bytes)\n\nprotocol              ATA/ATAPI-8 SATA 2.x\ndevice model          ST9320423AS\n",
        );
        assert_eq!(r.blocks[0].tool, Tool::CamcontrolIdentify);
        assert_eq!(r.blocks[0].device.as_deref(), Some("ada0"));
        assert_eq!((r.blocks[0].first, r.blocks[0].last), (3, 7));
    }

    #[test]
    fn prose_is_not_a_command() {
        let r = rec(
            "'dd' seems to do a well job, but it runs as 'root'\ndd to raw device\ncp is slow here.\n",
        );
        assert!(r.commands.is_empty(), "{:?}", r.commands);
        assert!(r.blocks.is_empty());
        assert_eq!(r.ignored, vec![(0, 1, 3)]);
    }

    #[test]
    fn loader_conf_setting_in_prose_is_found() {
        let r = rec(
            "The write caching was disabled by putting hw.ata.wc=\"0\" in /boot/loader.conf and rebooting the machine:\n",
        );
        assert_eq!(r.settings.len(), 1);
        assert_eq!(
            (r.settings[0].name.as_str(), r.settings[0].value.as_str()),
            ("hw.ata.wc", "0")
        );
    }

    #[test]
    fn small_detectors_for_outputs_without_fixtures() {
        // pciconf -lv (pciconf(8)), hdparm -t, German GNU dd with its command line.
        let r = rec(
            "atapci0@pci0:0:31:2:\tclass=0x01018f card=0x81ef1043 chip=0x27c08086 rev=0x01 hdr=0x00\n    vendor     = 'Intel Corporation'\n    device     = 'NM10/ICH7 Family SATA Controller [IDE mode]'\n    class      = mass storage\n    subclass   = ATA\n",
        );
        assert_eq!(
            r.blocks.iter().map(|b| b.tool).collect::<Vec<_>>(),
            vec![Tool::Pciconf]
        );
        assert_eq!(r.blocks[0].last, 5);
        let r = rec(
            "# hdparm -t /dev/sda\n\n/dev/sda:\n Timing buffered disk reads: 356 MB in  3.01 seconds = 118.27 MB/sec\n",
        );
        assert_eq!(
            r.blocks.iter().map(|b| b.tool).collect::<Vec<_>>(),
            vec![Tool::HdparmT]
        );
        assert_eq!(r.blocks[0].device.as_deref(), Some("sda"));
        let r = rec(
            "$ dd if=debian.iso of=/dev/sdc bs=4M\n6395+1 Datensätze ein\n6395+1 Datensätze aus\n3353227264 bytes (3,4 GB, 3,1 GiB) copied, 365,951 s, 9,2 MB/s\n",
        );
        assert_eq!(r.commands.len(), 1);
        assert_eq!(r.commands[0].text, "dd if=debian.iso of=/dev/sdc bs=4M");
        assert_eq!(
            r.blocks.iter().map(|b| b.tool).collect::<Vec<_>>(),
            vec![Tool::Dd]
        );
        assert_eq!((r.blocks[0].first, r.blocks[0].last), (2, 4));
        // A dmesg controller line behind a label ("Controller: atapci0: ...", seed 000).
        let r = rec("Controller: atapci0: Intel ICH7 UDMA100 controller\n");
        assert_eq!(r.blocks[0].tool, Tool::FreebsdDmesg);
        assert_eq!(r.blocks[0].text, "atapci0: Intel ICH7 UDMA100 controller");
        // Linux dmesg with timestamps; lsblk plain; dmsetup table.
        let r = rec(
            "[    1.98] ata1: SATA link up 6.0 Gbps (SStatus 133 SControl 300)\n[    2.01] sd 0:0:0:0: [sda] Write cache: enabled, read cache: enabled\n\nNAME   MAJ:MIN RM   SIZE RO TYPE MOUNTPOINT\nsda      8:0    0 447.1G  0 disk\n└─sda1   8:1    0   600M  0 part /boot/efi\n\nvg-root: 0 104857600 linear 8:19 360671232\n",
        );
        assert_eq!(
            r.blocks.iter().map(|b| b.tool).collect::<Vec<_>>(),
            vec![Tool::LinuxDmesg, Tool::Lsblk, Tool::DmsetupTable]
        );
    }

    #[test]
    fn prose_detector() {
        assert!(looks_like_prose(
            "Sorry for waiting so long, but weekend and a lot of work prevented me"
        ));
        assert!(!looks_like_prose(
            "atkbd: the current kbd controller command byte 0047"
        ));
        assert!(!looks_like_prose("  Features=0x178bfbff<FPU,VME>"));
        assert!(!looks_like_prose("Total time to complete Offline"));
    }
}
