//! The vocabulary of pasted text that the facts read: which tool an output came from
//! ([`Tool`], one per source spec), a recognised output ([`Block`]: its tool, lines with
//! their original line numbers, the device and command line it belongs to), a command
//! line ([`Command`]) and a cleaned input [`Line`]. `explain` makes them (segment,
//! recognise); `facts::pasted` derives facts from them. It sits between `sources` and
//! `facts` so the derivation needs nothing of explain (tests/layering.rs).

use schemars::JsonSchema;
use serde::Serialize;

use crate::evidence::Platform;
use crate::sources::{self, spec::SourceSpec};

/// What a device operand looks like (the spec helpers' pattern; group 1 is the name).
pub use crate::sources::spec::DEV_ARG;

/// A tool whose output diskdoc recognises. `id()` matches the fixture directory names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, JsonSchema)]
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
    // Issue 17's sources (sources/modern_detect.rs; what they prove: explain/modern.rs).
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
    ZpoolGetAutotrim,
    CrystalDiskMark,
    KDiskMark,
}

impl Tool {
    pub const ALL: [Tool; 46] = [
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
        Tool::ZpoolGetAutotrim,
        Tool::CrystalDiskMark,
        Tool::KDiskMark,
    ];

    /// The source spec behind this tool: its id, names, recogniser and secrets.
    pub fn spec(self) -> &'static SourceSpec {
        match self {
            Tool::CamcontrolIdentify => &sources::camcontrol_identify::SPEC,
            Tool::AtacontrolCap => &sources::camcontrol_identify::ATACONTROL_SPEC,
            Tool::CamcontrolDevlist => &sources::camcontrol_devlist::SPEC,
            Tool::Diskinfo => &sources::diskinfo::SPEC,
            Tool::GpartShow => &sources::gpart_show::SPEC,
            Tool::GpartList => &sources::gpart_list::SPEC,
            Tool::GeomDiskList => &sources::geom_disk::SPEC,
            Tool::GeliList => &sources::geli::SPEC,
            Tool::Pciconf => &sources::pciconf::SPEC,
            Tool::BsdFdisk => &sources::bsd_fdisk::SPEC,
            Tool::FreebsdDmesg => &sources::dmesg::SPEC,
            Tool::LinuxDmesg => &sources::kernel_log::LINUX_SPEC,
            Tool::Sysctl => &sources::sysctl::SPEC,
            Tool::ZpoolStatus => &sources::zpool::SPEC,
            Tool::Iostat => &sources::iostat::SPEC,
            Tool::Gstat => &sources::gstat::SPEC,
            Tool::Smartctl => &sources::smartctl::SPEC,
            Tool::SmartctlJson => &sources::smartctl::JSON_SPEC,
            Tool::HdparmI => &sources::hdparm::IDENTIFY_SPEC,
            Tool::HdparmW => &sources::hdparm::WRITE_CACHE_SPEC,
            Tool::HdparmT => &sources::hdparm::TIMING_SPEC,
            Tool::Lsblk => &sources::lsblk::SPEC,
            Tool::LsblkJson => &sources::lsblk::JSON_SPEC,
            Tool::FdiskList => &sources::fdisk::SPEC,
            Tool::SfdiskDump => &sources::sfdisk::SPEC,
            Tool::CryptsetupStatus => &sources::cryptsetup::SPEC,
            Tool::DmsetupTable => &sources::dmsetup::SPEC,
            Tool::Fio => &sources::fio::SPEC,
            Tool::FioJson => &sources::fio::JSON_SPEC,
            Tool::Dd => &sources::dd::SPEC,
            Tool::Df => &sources::df::SPEC,
            Tool::LspciVv => &sources::modern_detect::LSPCI_VV_SPEC,
            Tool::Mdstat => &sources::modern_detect::MDSTAT_SPEC,
            Tool::NvmeSmartLog => &sources::nvme_smart::NVME_CLI_SPEC,
            Tool::NvmeIdNs => &sources::modern_detect::NVME_ID_NS_SPEC,
            Tool::NvmecontrolLogpage => &sources::nvme_smart::SPEC,
            Tool::NvmecontrolIdentify => &sources::modern_detect::NVMECONTROL_IDENTIFY_SPEC,
            Tool::LsblkD => &sources::modern_detect::LSBLK_D_SPEC,
            Tool::Diskstats => &sources::modern_detect::DISKSTATS_SPEC,
            Tool::PciconfLvc => &sources::pciconf::LVC_SPEC,
            Tool::HdparmB => &sources::hdparm::APM_SPEC,
            Tool::ZpoolGetAshift => &sources::modern_detect::ZPOOL_GET_ASHIFT_SPEC,
            Tool::ZdbC => &sources::modern_detect::ZDB_C_SPEC,
            Tool::ZpoolGetAutotrim => &sources::zpool_autotrim::SPEC,
            Tool::CrystalDiskMark => &sources::modern_detect::CRYSTALDISKMARK_SPEC,
            Tool::KDiskMark => &sources::modern_detect::KDISKMARK_SPEC,
        }
    }

    /// Stable name, as in tests/fixtures/<platform>/<tool>/.
    pub fn id(self) -> &'static str {
        self.spec().id
    }

    /// The tool whose spec has this id.
    pub fn from_id(id: &str) -> Option<Tool> {
        Tool::ALL.iter().copied().find(|t| t.id() == id)
    }

    /// The tool a fixture directory holds (`freebsd/dmesg` -> FreeBSD dmesg): a spec's own
    /// `fixture_dirs` first, then the directory named after its id.
    pub fn from_fixture_dir(platform: &str, dir: &str) -> Option<Tool> {
        let path = format!("{platform}/{dir}");
        Tool::ALL
            .iter()
            .copied()
            .find(|t| t.spec().fixture_dirs.contains(&path.as_str()))
            .or_else(|| Tool::from_id(dir))
    }

    /// The OS this tool's output implies, if only one has it.
    pub fn platform(self) -> Option<Platform> {
        self.spec().platform
    }

    /// A human name for listings.
    pub fn display(self) -> &'static str {
        self.spec().display
    }
}

/// One cleaned line of a paste (explain's segmenter makes them).
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Which input (file) it came from, index into the caller's list.
    pub src: usize,
    /// First and last original line numbers (1-based) this line was built from.
    pub first: usize,
    pub last: usize,
    /// Text with quote prefixes removed and trailing whitespace trimmed.
    pub text: String,
}

/// One recognised tool output.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
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
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
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

/// What the facts read of a paste: its recognised outputs, its command lines and all its
/// cleaned lines (prose too: a sentence can say a disk is GELI-encrypted).
#[derive(Debug, Clone, Copy)]
pub struct Pasted<'a> {
    pub blocks: &'a [Block],
    pub commands: &'a [Command],
    pub lines: &'a [Line],
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_device_is_the_last_disk_like_argument() {
        assert_eq!(device_in_args("-a /dev/sda").as_deref(), Some("sda"));
        // of=/dev/null names no disk; bs=1m is an option.
        assert_eq!(
            device_in_args("if=/dev/ada0 of=/dev/null bs=1m").as_deref(),
            Some("ada0")
        );
        assert_eq!(device_in_args("identify ada1 -v").as_deref(), Some("ada1"));
        assert_eq!(device_in_args("status tank"), None);
        assert_eq!(device_in_args("-l 5"), None);
    }

    #[test]
    fn every_tool_is_its_spec() {
        for t in Tool::ALL {
            assert_eq!(Tool::from_id(t.id()), Some(t), "{}", t.id());
        }
    }
}
