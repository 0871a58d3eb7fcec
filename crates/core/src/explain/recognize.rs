//! Find tool outputs inside free text. The tools' line detectors live with their source
//! specs (`sources::<tool>::SPEC`, see `sources::spec`): each spec's `Recogniser` gives its
//! ranked start detectors, member lines, tolerances and classifier, and this module walks
//! them generically: a block builder that tolerates blank lines and short interruptions,
//! then the spec's own rules for which device and command a block belongs to. Only the
//! command lines (typed at a prompt or named in prose) are recognised here.

use regex::Regex;
use schemars::JsonSchema;
use serde::Serialize;
use std::sync::LazyLock;

use super::segment::Line;
use crate::evidence::Platform;
use crate::sources::{
    self, SPECS,
    spec::{BlockState, Member, Paste, Recogniser, SourceSpec, Start, StartFn},
};

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

/// A `name=value` or `name: value` setting found inside prose (seed 000's
/// `hw.ata.wc="0"` in loader.conf).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct InlineSetting {
    pub name: String,
    pub value: String,
    pub src: usize,
    pub line: usize,
}

/// Everything recognised in the prepared lines.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct Recognized {
    pub blocks: Vec<Block>,
    pub commands: Vec<Command>,
    pub settings: Vec<InlineSetting>,
    /// (src, first, last) ranges of non-blank lines nobody claimed.
    pub ignored: Vec<(usize, usize, usize)>,
}

fn re(s: &str) -> Regex {
    Regex::new(s).expect("static regex")
}

macro_rules! rx {
    ($name:ident, $pat:expr) => {
        static $name: LazyLock<Regex> = LazyLock::new(|| re($pat));
    };
}

// ---- loader.conf/sysctl settings named in prose ----
rx!(
    SYSCTL_INLINE,
    r#"\b((?:hw\.ata\.(?:wc|ata_dma|atapi_dma)|kern\.cam\.ada\.(?:\d+\.)?(?:write_cache|read_ahead)|kern\.cam\.da\.\d+\.(?:rotating|delete_method)|hw\.ahci\.\w+|vfs\.zfs\.\w+|kern\.geom\.\w+))\s*[=:]\s*"?([\w.-]+)"?"#
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

/// The start detectors of every recogniser in the registry, in rank order (each
/// recogniser once, though several specs share it).
static STARTS: LazyLock<Vec<(u16, StartFn, &'static Recogniser)>> = LazyLock::new(|| {
    let mut v: Vec<(u16, StartFn, &'static Recogniser)> = Vec::new();
    let mut seen: Vec<&'static str> = Vec::new();
    for spec in SPECS {
        let Some(paste) = &spec.paste else { continue };
        let family = paste.family;
        if seen.contains(&family.name) {
            continue;
        }
        seen.push(family.name);
        v.extend(family.starts.iter().map(|(rank, f)| (*rank, *f, family)));
    }
    v.sort_by_key(|(rank, _, _)| *rank);
    v
});

/// The recogniser a line can start, if it is a strong signature of one.
fn start_kind(texts: &[&str], i: usize) -> Option<&'static Recogniser> {
    let rest = texts.get(i..)?;
    if rest.first()?.trim().is_empty() {
        return None;
    }
    for (_, start, family) in STARTS.iter() {
        match start(rest) {
            Start::Yes => return Some(family),
            Start::Stop => return None,
            Start::No => {}
        }
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

/// Count a member line into the block's state.
fn update_state(family: &Recogniser, t: &str, st: &mut BlockState) {
    st.rows += 1;
    if let Some(update) = family.update {
        update(t, st);
    }
}

/// Recognise every block and command in the prepared lines (all inputs, in order).
pub fn recognize(lines: &[Line]) -> Recognized {
    let mut out = Recognized::default();
    let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
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
                && !sources::sysctl::is_line(t)
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
        let Some(family) = start_kind(&texts, i) else {
            if let Some(m) = mention_at(line, i) {
                out.commands.push(m);
                pending = Some(out.commands.len() - 1);
            }
            i += 1;
            continue;
        };
        let end = extend(lines, &texts, i, family);
        for c in claimed.iter_mut().take(end).skip(i) {
            *c = true;
        }
        // A command applies when it came within 4 lines before the block, in the same input.
        let cmd = pending.take().and_then(|ci| {
            let c = out.commands.get(ci)?;
            (c.src == line.src && i.saturating_sub(c.idx) <= 4).then(|| c.clone())
        });
        let block = finish(lines, i, end, family, cmd.as_ref(), &out.blocks);
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

/// Grow a block from `start`; returns the end index (exclusive).
fn extend(lines: &[Line], texts: &[&str], start: usize, family: &Recogniser) -> usize {
    let mut st = BlockState::default();
    let src = lines.get(start).map(|l| l.src).unwrap_or(0);
    let (max_blank, max_other) = family.tolerance;
    let first = lines.get(start).map(|l| l.text.as_str()).unwrap_or("");
    update_state(family, first, &mut st);
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
        if family.whole {
            if st.done {
                break;
            }
            update_state(family, t, &mut st);
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
        // (Unless the recogniser absorbs it: see `Recogniser::absorbs`.)
        if family.permissive
            && start_kind(texts, j).is_some_and(|k| {
                k.name != family.name && !family.absorbs.is_some_and(|absorbs| absorbs(k.name, t))
            })
        {
            break;
        }
        match (family.member)(t, &st) {
            Member::Yes => {
                update_state(family, t, &mut st);
                end = j + 1;
                blanks = 0;
                others = 0;
                soft = 0;
            }
            Member::NewBlock => break,
            Member::No => {
                if start_kind(texts, j).is_some_and(|k| k.name != family.name) {
                    break;
                }
                if family.permissive && !looks_like_prose(t) {
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
    end
}

/// Whether the command typed before a block produced it.
fn cmd_matches(paste: Option<&Paste>, cmd: Option<&Command>) -> bool {
    match (paste, cmd) {
        (Some(p), Some(c)) => (p.command)(&c.program, &c.text),
        _ => false,
    }
}

fn finish(
    lines: &[Line],
    start: usize,
    end: usize,
    family: &'static Recogniser,
    cmd: Option<&Command>,
    earlier: &[Block],
) -> Block {
    let slice = lines.get(start..end).unwrap_or(&[]);
    let text: String = slice
        .iter()
        .map(|l| {
            family
                .clean
                .and_then(|clean| clean(&l.text))
                .unwrap_or_else(|| l.text.clone())
        })
        .collect::<Vec<_>>()
        .join("\n");
    let id = (family.classify)(&text, cmd.map(|c| c.program.as_str()));
    // A classify naming no tool would be a registry bug (tests/sources_registry.rs checks
    // every fixture); the family's first tool stands in rather than a panic.
    let tool = Tool::from_id(id)
        .or_else(|| {
            Tool::ALL.iter().copied().find(|t| {
                t.spec()
                    .paste
                    .as_ref()
                    .is_some_and(|p| p.family.name == family.name)
            })
        })
        .unwrap_or(Tool::Df);
    let paste = tool.spec().paste.as_ref();
    let first_line = slice.first().map(|l| l.first).unwrap_or(0);
    let last_line = slice.last().map(|l| l.last).unwrap_or(first_line);
    let src = slice.first().map(|l| l.src).unwrap_or(0);
    let from_text = || {
        paste
            .and_then(|p| p.device)
            .and_then(|device| device(&text))
    };
    // gpart show prints the provider on its header line; prefer it to the command's
    // last argument ("gpart show da0 da0s1").
    let mut device = if paste.is_some_and(|p| p.device_in_text_first) {
        from_text()
    } else {
        None
    };
    if device.is_none() {
        device = cmd
            .and_then(|c| c.device.clone())
            .filter(|_| cmd_matches(paste, cmd));
    }
    if device.is_none() {
        device = from_text();
    }
    if let Some(of_command) = paste.and_then(|p| p.command_device) {
        // These name a pool, not a disk: `zdb -C tank`, `zpool get ashift tank all-vdevs`.
        device = cmd
            .filter(|_| cmd_matches(paste, cmd))
            .and_then(|c| of_command(&c.text));
    }
    if device.is_none()
        && let Some(same) = paste.and_then(|p| p.same_drive)
    {
        // The same drive shown again (seed 000: the table after disabling the cache):
        // reuse the device of an earlier block of the same drive.
        device = earlier
            .iter()
            .rev()
            .filter(|b| b.tool == tool)
            .find(|b| same(&text, &b.text))
            .and_then(|b| b.device.clone());
    }
    Block {
        tool,
        device,
        command: cmd
            .filter(|_| cmd_matches(paste, cmd))
            .map(|c| c.text.clone()),
        src,
        first: first_line,
        last: last_line,
        idx: (start, end),
        text,
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
