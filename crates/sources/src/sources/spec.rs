//! One [`SourceSpec`] per thing diskdoc reads: its id, platform, live capture keys, how to
//! recognise its output in a paste, its parser entry point and where its secrets are. Each
//! spec lives in its source's own file (`sources/<tool>.rs`, a `pub const SPEC`), so one
//! file holds one tool's whole knowledge; `sources::SPECS` lists them (as ripgrep lists its flags).
//!
//! Who reads what:
//! - `explain::recognize` walks the specs' [`Recogniser`]s (start detectors in rank order,
//!   member lines, tolerances) instead of per-tool match arms, and builds its prompt and
//!   prose-mention patterns from the specs' [`Program`]s and `mention`s;
//! - `explain::bundle` stores a pasted block under the spec's [`SourceSpec::pasted_as`] key,
//!   the key the live probe uses, so the facts read a paste as a capture;
//! - `report::redact` takes the per-source [`Secret`] rules of every spec and adds its
//!   source-independent rules (MAC addresses, home paths, prompts, UUIDs, udev links).
//!   Rules apply to every text of an output, whatever its source: a pasted line nobody
//!   recognised still has its serial replaced;
//! - `tests/it/sources_registry.rs` checks that every spec has fixtures, that every fixture is
//!   recognised as its own tool, and that every capture key of `plan.rs` belongs to a spec.
//!
//! # Adding a tool
//! 1. Write the parser in `sources/<tool>.rs` and, in the same file, a
//!    `pub const SPEC: SourceSpec` with an `id` (the fixture directory name), the live
//!    capture templates (the same `{disk}`/`{dev}`/`{unit}`/`{pool}` templates as
//!    `plan.rs`), `parse` (a count of what the parser read, for the registry test), the
//!    secret rules, and, if it can be pasted, a [`Paste`] with a [`Recogniser`], the
//!    [`Program`] typed before its output (unless another spec already declares it) and
//!    how prose names its command (`mention`). Mark the program `.deciding_platform()`
//!    only after scoring explain's corpus with it (see [`Program::decides_platform`]).
//!    Outputs that share their line shapes (camcontrol identify and atacontrol cap, the
//!    three GEOM lists, the JSON tools) share one `Recogniser` static, whose `classify`
//!    names the spec a block belongs to.
//!    A tool only ever pasted, run bare or with flags, takes [`pasted_only!`] instead.
//! 2. Add `&<tool>::SPEC` to `sources::SPECS`; a spec with a `paste` is a
//!    `pasted::Tool` by that alone (`Tool::all`), explain needs no other list.
//! 3. Put real outputs under `tests/fixtures/<platform>/<id>/` with their source addresses
//!    in `tests/fixtures/INDEX.md`, and their secrets in `tests/fixtures/secrets.tsv`.

use crate::evidence::{Platform, SourceKey, fill_template};

/// What a secret is; decides the redaction token (`SERIAL-1`, `WWN-1`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SecretKind {
    Serial,
    Wwn,
    Host,
    User,
    Mac,
    Label,
    Uuid,
    /// A ZFS pool name (zpool(8): it names the machine's storage as its owner chose).
    Pool,
    /// A ZFS pool or vdev GUID: a random 64-bit number, printed in decimal by
    /// `zpool get guid`, `zpool status -g` and `zdb -C` (module/zfs/spa_misc.c
    /// spa_generate_guid), unique to one pool on one machine.
    Guid,
}

/// The token prefix, matching rule and words of each kind (diskdoc-core's redaction:
/// `SERIAL-1`, `HOST-2`, ...).
impl SecretKind {
    pub fn prefix(self) -> &'static str {
        match self {
            SecretKind::Serial => "SERIAL",
            SecretKind::Wwn => "WWN",
            SecretKind::Host => "HOST",
            SecretKind::User => "USER",
            SecretKind::Mac => "MAC",
            SecretKind::Label => "LABEL",
            SecretKind::Uuid => "UUID",
            SecretKind::Pool => "POOL",
            SecretKind::Guid => "GUID",
        }
    }

    /// Every kind, for recognising tokens.
    pub const ALL: [SecretKind; 9] = [
        SecretKind::Serial,
        SecretKind::Wwn,
        SecretKind::Host,
        SecretKind::User,
        SecretKind::Mac,
        SecretKind::Label,
        SecretKind::Uuid,
        SecretKind::Pool,
        SecretKind::Guid,
    ];

    /// What the kind is, in words, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            SecretKind::Serial => "a serial number",
            SecretKind::Wwn => "a WWN/EUI-64",
            SecretKind::Host => "a host name",
            SecretKind::User => "a user name",
            SecretKind::Mac => "a MAC address",
            SecretKind::Label => "a label",
            SecretKind::Uuid => "a UUID",
            SecretKind::Pool => "a ZFS pool name",
            SecretKind::Guid => "a ZFS GUID",
        }
    }

    /// Kinds replaced as whole words only: a host "nas" must not eat "nasty", a label
    /// "backup" not "backups", a pool "hr" not "hrs", a GUID not the digits of a longer
    /// number.
    pub fn whole_word(self) -> bool {
        matches!(
            self,
            SecretKind::Host
                | SecretKind::User
                | SecretKind::Label
                | SecretKind::Pool
                | SecretKind::Guid
        )
    }
}

/// A secret a source's own layout locates ([`Secret::Scan`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub kind: SecretKind,
    pub value: String,
    /// The value stands where only this secret stands (a pool's row, a by-id link's serial
    /// part): no shape test (serials without digits count).
    pub sure: bool,
}

impl Found {
    pub fn sure(kind: SecretKind, value: &str) -> Found {
        Found {
            kind,
            value: value.to_string(),
            sure: true,
        }
    }

    pub fn likely(kind: SecretKind, value: &str) -> Found {
        Found {
            kind,
            value: value.to_string(),
            sure: false,
        }
    }
}

/// A source's structural secret finder ([`Secret::Scan`]).
pub type Scanner = fn(&str) -> Vec<Found>;

/// Where a source prints a secret.
#[derive(Debug, Clone, Copy)]
pub enum Secret {
    /// A label (matched case-insensitively, at the start of a word) followed on the same
    /// line by the value: "Serial Number:    WD-WCC4E1234567", `"serial": "X"`.
    After(&'static str, SecretKind),
    /// The value, then this label on the same line: diskinfo(8)'s "WD-WCAS8715\t# Disk ident.".
    Before(&'static str, SecretKind),
    /// A JSON string member with this key.
    JsonKey(&'static str, SecretKind),
    /// A table column with this header, read by character column (`lsblk -o +SERIAL`).
    Column(&'static str, SecretKind),
    /// An XML element's text (`<ident>X</ident>` of kern.geom.confxml).
    XmlTag(&'static str, SecretKind),
    /// Secrets only the source's layout locates: a table's pool row, the serial part of a
    /// vdev's by-id name, a GUID column. The scanner runs over every text of an output
    /// (like every rule), so it must find nothing in text that is not its source's.
    Scan(Scanner),
}

/// A live capture template, as in `plan.rs`: `{disk}` the kernel name (ada0), `{dev}` the
/// node (/dev/ada0), `{unit}` the unit number, `{pool}` a ZFS pool name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Live {
    Cmd(&'static [&'static str]),
    Sysctl(&'static str),
    File(&'static str),
    /// A DIOCG* ioctl on the device node (request name as in `IoctlRequest::name`).
    Ioctl(&'static str),
}

const PLACEHOLDERS: [&str; 4] = ["{disk}", "{dev}", "{unit}", "{pool}"];

impl Live {
    /// Whether the template needs a device (or pool) name.
    fn per_device(self) -> bool {
        match self {
            Live::Cmd(argv) => argv
                .iter()
                .any(|a| PLACEHOLDERS.iter().any(|p| a.contains(p))),
            Live::Sysctl(s) | Live::File(s) => PLACEHOLDERS.iter().any(|p| s.contains(p)),
            Live::Ioctl(_) => true,
        }
    }

    /// The capture key for `device` (kernel name, with or without /dev/); None when the
    /// template names a device and none is given.
    pub fn key(self, device: Option<&str>) -> Option<SourceKey> {
        let disk = device.map(|d| d.trim_start_matches("/dev/"));
        if self.per_device() && disk.is_none() {
            return None;
        }
        let d = disk.unwrap_or("");
        Some(match self {
            Live::Cmd(argv) => {
                SourceKey::Command(argv.iter().map(|a| fill_template(a, d)).collect())
            }
            Live::Sysctl(n) => SourceKey::Sysctl(fill_template(n, d)),
            Live::File(p) => SourceKey::File(fill_template(p, d)),
            Live::Ioctl(r) => SourceKey::Ioctl {
                device: format!("/dev/{d}"),
                request: r.to_string(),
            },
        })
    }

    /// This template's key for `device` as facts name it in `from`
    /// ("cmd:camcontrol identify ada0"); a machine-wide template ignores `device`.
    pub fn key_for(self, device: &str) -> String {
        self.key(Some(device))
            .map(|k| k.to_string())
            .unwrap_or_default()
    }

    /// The device a concrete key of this template names: the text that stands for its one
    /// placeholder (`{dev}` without its /dev/), so `camcontrol tags {disk} -v` finds "ada0"
    /// in "cmd:camcontrol tags ada0 -v". None when the key is not of this template, or the
    /// template has no placeholder.
    pub fn device_in(self, key: &str) -> Option<&str> {
        let pattern = match self {
            Live::Cmd(argv) => format!("cmd:{}", argv.join(" ")),
            Live::Sysctl(n) => format!("sysctl:{n}"),
            Live::File(p) => format!("file:{p}"),
            Live::Ioctl(_) => return None,
        };
        let (at, placeholder) = PLACEHOLDERS
            .iter()
            .find_map(|p| pattern.find(p).map(|at| (at, *p)))?;
        let before = match placeholder {
            "{dev}" => format!("{}/dev/", &pattern[..at]),
            _ => pattern[..at].to_string(),
        };
        let after = &pattern[at + placeholder.len()..];
        key.strip_prefix(before.as_str())?
            .strip_suffix(after)
            .filter(|d| !d.is_empty())
    }

    /// Whether a concrete key (its string form) is an instance of this template: every
    /// placeholder stands for one non-empty run without blanks.
    pub fn matches(self, key: &str) -> bool {
        let pattern = match self {
            Live::Cmd(argv) => format!("cmd:{}", argv.join(" ")),
            Live::Sysctl(n) => format!("sysctl:{n}"),
            Live::File(p) => format!("file:{p}"),
            Live::Ioctl(r) => format!("ioctl:{{dev}}:{r}"),
        };
        template_matches(&pattern, key)
    }
}

/// `pattern` with placeholders against `s`, left to right (a placeholder matches the
/// shortest run that lets the rest match).
fn template_matches(pattern: &str, s: &str) -> bool {
    let next = PLACEHOLDERS
        .iter()
        .filter_map(|p| pattern.find(p).map(|i| (i, p.len())))
        .min();
    let Some((i, len)) = next else {
        return pattern == s;
    };
    let (lit, rest) = (&pattern[..i], &pattern[i + len..]);
    let Some(tail) = s.strip_prefix(lit) else {
        return false;
    };
    tail.char_indices()
        .skip(1)
        .map(|(k, _)| k)
        .chain(std::iter::once(tail.len()))
        .take_while(|&k| !tail[..k].contains(' '))
        .any(|k| !tail[..k].is_empty() && template_matches(rest, &tail[k..]))
}

/// What a start detector says about a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// The line starts an output of this recogniser.
    Yes,
    /// Not this recogniser's; try the next one.
    No,
    /// The line looks like this tool's but is not an output start (an hdparm "/dev/sda:"
    /// with nothing of hdparm after it): no recogniser starts here.
    Stop,
}

impl Start {
    pub fn from(b: bool) -> Start {
        if b { Start::Yes } else { Start::No }
    }
}

impl SourceSpec {
    /// The key of this source's first live capture for `device` (ignored by a machine-wide
    /// source), as facts name it in `from`: `smartctl::SPEC.key_for("sda")` is
    /// "cmd:smartctl -j -a /dev/sda". Empty for a source no probe captures.
    pub fn key_for(&self, device: &str) -> String {
        self.live
            .first()
            .copied()
            .or(self.pasted_as)
            .map(|l| l.key_for(device))
            .unwrap_or_default()
    }

    /// The key a pasted block of this source about `device` is stored under.
    pub fn pasted_key(&self, device: Option<&str>) -> Option<SourceKey> {
        let live = self.pasted_as?;
        match self.paste.as_ref().and_then(|p| p.live_device) {
            Some(map) => live.key(Some(&map(device?)?)),
            None => live.key(device),
        }
    }
}

/// Whether a line belongs to the block being built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Member {
    Yes,
    /// The line belongs to this tool but starts a new output (a second disk).
    NewBlock,
    No,
}

impl Member {
    pub fn from(b: bool) -> Member {
        if b { Member::Yes } else { Member::No }
    }
}

/// Per-block state the member detectors read: rows taken so far, a tool's own markers
/// (bits it defines, e.g. "the protocol line was seen"), and a nesting depth (JSON).
#[derive(Debug, Default, Clone)]
pub struct BlockState {
    pub rows: usize,
    pub marks: u32,
    pub depth: i64,
    /// The output is complete (a balanced JSON document): take no more lines.
    pub done: bool,
}

impl BlockState {
    pub fn has(&self, mark: u32) -> bool {
        self.marks & mark != 0
    }
    pub fn mark(&mut self, mark: u32) {
        self.marks |= mark;
    }
}

/// A start detector: `lines[0]` is the candidate line, the rest follow it (for detectors
/// that need to see the next line).
pub type StartFn = fn(&[&str]) -> Start;

/// How to find one family of outputs in free text.
pub struct Recogniser {
    /// Names the family in comparisons ("another tool starts here").
    pub name: &'static str,
    /// Start detectors with their ranks: all recognisers' detectors are tried on a line in
    /// rank order, the first `Yes` (or `Stop`) decides. Ranks encode precedence between
    /// tools whose lines overlap (a dd summary before a JSON brace, Linux dmesg's bare
    /// "ata1: SATA link up" before FreeBSD's "ata1: ").
    pub starts: &'static [(u16, StartFn)],
    pub member: fn(&str, &BlockState) -> Member,
    /// Extra state kept per line (after `rows` is counted).
    pub update: Option<fn(&str, &mut BlockState)>,
    /// (blank lines, other non-member lines) a block may bridge when a member follows.
    pub tolerance: (usize, usize),
    /// Outputs with many kinds of lines: any line that is not prose belongs.
    pub permissive: bool,
    /// Take every line until `update` marks the state done (a JSON document): no blank,
    /// command or member tests.
    pub whole: bool,
    /// A permissive block goes on over another recogniser's start line when this says so
    /// (a bare "ata3: SATA connect" inside a FreeBSD verbose boot): (other's name, line).
    pub absorbs: Option<fn(&str, &str) -> bool>,
    /// Rewrite a line into the block's text (a dmesg line behind a "Controller:" label).
    pub clean: Option<fn(&str) -> Option<String>>,
    /// The spec id a finished block belongs to, from its text and the program of the
    /// command typed before it.
    pub classify: fn(&str, Option<&str>) -> &'static str,
}

/// No typed command produces the output (a script's or a program window's results).
fn no_command(_: &str, _: &str) -> bool {
    false
}

impl Recogniser {
    /// A results table's recogniser: its start detectors, its member lines, one blank line
    /// bridged, the block classified as `classify` says.
    pub(crate) const fn table(
        name: &'static str,
        starts: &'static [(u16, StartFn)],
        member: fn(&str, &BlockState) -> Member,
        classify: fn(&str, Option<&str>) -> &'static str,
    ) -> Recogniser {
        Recogniser {
            name,
            starts,
            member,
            tolerance: (1, 0),
            classify,
            ..Recogniser::NONE
        }
    }

    /// A recogniser that starts nothing: the defaults for `..Recogniser::NONE` (no extra
    /// state, no tolerance, not permissive, line by line, no absorbing, no rewriting).
    pub const NONE: Recogniser = Recogniser {
        name: "",
        starts: &[],
        member: |_, _| Member::No,
        update: None,
        tolerance: (0, 0),
        permissive: false,
        whole: false,
        absorbs: None,
        clean: None,
        classify: |_, _| "",
    };
}

/// How a source is found in a paste.
pub struct Paste {
    pub family: &'static Recogniser,
    /// Whether a command (program, text from the program on) produced this output.
    pub command: fn(&str, &str) -> bool,
    /// The device the output names in its own text.
    pub device: Option<fn(&str) -> Option<String>>,
    /// The text's device wins over the command's ("gpart show da0 da0s1" prints each geom).
    pub device_in_text_first: bool,
    /// When nothing names the device: whether an earlier block (its text) of this tool
    /// shows the same drive as this one, so it gets that block's device.
    pub same_drive: Option<fn(&str, &str) -> bool>,
    /// In a family several tools share: whether a block's text is this tool's (the JSON
    /// family asks its members in registry order, see `sources::json_doc`).
    pub owns: Option<fn(&str) -> bool>,
    /// The device a matching command names, in place of its last disk-like argument and
    /// of the text's device: the pool of `zdb -C tank` or `zpool get ashift tank
    /// all-vdevs` (None: the block has no device).
    pub command_device: Option<fn(&str) -> Option<String>>,
    /// The device the live key names, from the block's device: an NVMe namespace
    /// (nvme0n1, nvme0ns1) to its controller (nvme0), whose health log the probes read.
    /// None from the mapping: no live key.
    pub live_device: Option<fn(&str) -> Option<String>>,
    /// One output describes one drive (a SMART report, an IDENTIFY table): when nothing
    /// names its device, explain ties it to the disk another block of the same drive
    /// names (serial, else model), else to the placeholder disk (`explain::devices`).
    pub one_drive: bool,
    /// How to cut this tool's outputs (one entry per output shape) back into lines when a
    /// web page ran them together on one line (`explain::segment::unflatten`).
    pub flat: &'static [Flat],
}

/// The line starts of one tool's output, for re-splitting a line on which a web page or
/// mail archive ran several of its lines together (the newlines lost, the words kept).
/// Each pattern finds one kind of line start (group 1 when it has one, else the whole
/// match, is where the cut goes); a line is cut only when it is long, holds at least
/// `min` starts of this tool and one match of `need` (the tool's own header or banner).
#[derive(Debug, Clone, Copy)]
pub struct Flat {
    pub starts: &'static [&'static str],
    pub need: &'static str,
    pub min: usize,
}

impl Paste {
    /// A tool found by its family and command alone (no device in its text, no sharing).
    pub const fn new(family: &'static Recogniser, command: fn(&str, &str) -> bool) -> Paste {
        Paste {
            family,
            command,
            device: None,
            device_in_text_first: false,
            same_drive: None,
            owns: None,
            command_device: None,
            live_device: None,
            one_drive: false,
            flat: &[],
        }
    }
}

/// Everything diskdoc knows about one source.
pub struct SourceSpec {
    /// Stable name: the fixture directory (tests/fixtures/<platform>/<id>/), explain's
    /// tool id.
    pub id: &'static str,
    /// A human name for listings.
    pub display: &'static str,
    /// The OS whose output this is, when only one has it.
    pub platform: Option<Platform>,
    /// Fixture directories ("linux/dmesg") holding this source's outputs besides
    /// `<platform>/<id>`.
    pub fixture_dirs: &'static [&'static str],
    /// Every key a live probe captures this source under (plan.rs for FreeBSD, the Linux
    /// probe's commands).
    pub live: &'static [Live],
    /// The live key a pasted block is stored under; None when no live probe's facts read
    /// this tool (measurements, tools whose facts come natively from sysfs or GEOM). Its
    /// device is the block's, mapped by [`Paste::live_device`] when the spec has one.
    pub pasted_as: Option<Live>,
    /// How many records or fields the parser read from a text (0: nothing recognised).
    pub parse: Option<fn(&str) -> usize>,
    pub secrets: &'static [Secret],
    pub paste: Option<Paste>,
    /// The programs whose typed command lines explain recognises for this source (each
    /// program in one spec only, though several sources share it: camcontrol's is
    /// camcontrol identify's, smartctl's the text report's).
    pub programs: &'static [Program],
    /// How a sentence names this source's command before the device it ran on
    /// ("the output of camcontrol identify ada0"): a regex fragment with no capture group.
    pub mention: Option<&'static str>,
    /// The command lines this source answers an [`Ask`] with: a fix, a how-to-know hint or
    /// explain's follow-up list names what it needs shown, and the tool's spec says how.
    /// `{dev}` stands for the device exactly as the asker writes it (/dev/sda, ada0, passN).
    pub asks: &'static [(Ask, &'static str)],
}

/// What diskdoc asks a user to run, named by what the output shows rather than by tool, so
/// that checks and explain do not spell a tool's command line: each [`SourceSpec::asks`]
/// holds the command for the asks its tool answers, and `sources::ask` fills one in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// The program that reads a drive's SMART data, as prose names it.
    SmartProgram,
    /// The drive's SMART report: health, attributes or NVMe log, error counters.
    SmartReport,
    /// The same report as JSON: what diskdoc's probe runs.
    SmartJson,
    /// The extended report with the drive's own error and self-test logs.
    SmartExtended,
    /// The SATA version line: the drive's top link speed and the one in use.
    SmartSataLine,
    /// Start the drive's long (whole surface) self-test.
    SmartLongTest,
    /// The drive's self-test durations.
    SmartTestTimes,
    /// The report through a SATA-to-USB bridge that passes ATA commands (SAT).
    SmartSatReport,
    /// The option that passes ATA commands through a SAT bridge.
    SmartSatOption,
    /// The drive's own identity through a SAT bridge (not the bridge's answer for it).
    SmartSatIdentity,
    /// The option that reaches drive N behind a MegaRAID controller.
    SmartMegaraidOption,
    /// The report of drive N behind a MegaRAID controller.
    SmartMegaraidReport,
    /// The program of FreeBSD's CAM queries, as prose names it.
    CamProgram,
    /// A CAM disk's ATA IDENTIFY (or SCSI inquiry) as FreeBSD prints it.
    CamIdentify,
    /// The two IDENTIFY lines with the link speed the drive negotiated.
    CamIdentifyLink,
    /// Every CAM device with the SIM (controller channel) it hangs off.
    CamDevlist,
    /// The queue depth CAM uses for a disk.
    CamTags,
    /// Set the queue depth CAM uses for a disk (the depth follows).
    CamSetTags,
    /// A SCSI disk's caching mode page (the WCE bit).
    CamCachingPage,
    /// Edit a SCSI disk's caching mode page.
    CamEditCachingPage,
    /// Edit a SCSI disk's power condition mode page (its standby timer).
    CamEditPowerPage,
    /// Turn off an EPC drive's Standby_z timer.
    CamEpcStandbyOff,
    /// Set an ATA drive's APM level to performance (no head parking).
    CamApmPerformance,
    /// The program that lists PCI devices on Linux, as prose names it.
    PciProgram,
    /// Every PCI device with its kernel driver (works without root).
    PciDrivers,
    /// The storage controllers and the drivers bound to them.
    PciStorageDrivers,
    /// The SATA controllers and the drivers bound to them.
    PciSataDrivers,
    /// Every PCI device in full, with link capabilities.
    PciVerbose,
    /// One PCI device in full (its address follows `-s`).
    PciDevice,
    /// One PCI device's link lines: the speed and width it can do and the ones in use.
    PciLinkLines,
}

impl Ask {
    /// Every ask, for the registry test (each has exactly one spec that answers it).
    #[cfg(test)]
    pub(crate) const ALL: [Ask; 30] = [
        Ask::SmartProgram,
        Ask::SmartReport,
        Ask::SmartJson,
        Ask::SmartExtended,
        Ask::SmartSataLine,
        Ask::SmartLongTest,
        Ask::SmartTestTimes,
        Ask::SmartSatReport,
        Ask::SmartSatOption,
        Ask::SmartSatIdentity,
        Ask::SmartMegaraidOption,
        Ask::SmartMegaraidReport,
        Ask::CamProgram,
        Ask::CamIdentify,
        Ask::CamIdentifyLink,
        Ask::CamDevlist,
        Ask::CamTags,
        Ask::CamSetTags,
        Ask::CamCachingPage,
        Ask::CamEditCachingPage,
        Ask::CamEditPowerPage,
        Ask::CamEpcStandbyOff,
        Ask::CamApmPerformance,
        Ask::PciProgram,
        Ask::PciDrivers,
        Ask::PciStorageDrivers,
        Ask::PciSataDrivers,
        Ask::PciVerbose,
        Ask::PciDevice,
        Ask::PciLinkLines,
    ];
}

/// `template` with `{dev}` replaced by `dev`, whatever `dev` is (an empty one too).
pub(crate) fn fill_ask(template: &str, dev: &str) -> String {
    template.replace("{dev}", dev)
}

/// `template` as prose names it without a device: the `{dev}` placeholder and the blank
/// before it left out ("smartctl -x {dev}" is "smartctl -x").
pub(crate) fn bare_ask(template: &str) -> String {
    template.replace(" {dev}", "").replace("{dev}", "")
}

/// A program a paste may show typed at a prompt, with the output following it.
#[derive(Debug, Clone, Copy)]
pub struct Program {
    /// The name as typed, after any directory (`/sbin/camcontrol` is `camcontrol`).
    pub name: &'static str,
    /// Whether the words after the name are this program's arguments rather than prose
    /// that happens to start with its name ("dd seems to do a good job").
    pub args: fn(&str) -> bool,
    /// Whether the last disk-like argument is the device the output is about; not for
    /// dd, whose operands are files as often as disks.
    pub names_device: bool,
    /// Whether a typed command of this program is evidence of its spec's `platform` when
    /// explain guesses a paste's OS (`explain::bundle::guess_platform`). Set on the
    /// programs that have always counted there; the guess was tuned on them
    /// (tests/fixtures/corpus), so a program whose spec has a platform but no flag
    /// (geom, nvmecontrol, lspci, nvme, fdisk, dmesg; fdisk and dmesg run on both OSes)
    /// counts once someone has scored the change.
    pub decides_platform: bool,
}

impl Program {
    pub const fn new(name: &'static str, args: fn(&str) -> bool) -> Program {
        Program {
            name,
            args,
            names_device: true,
            decides_platform: false,
        }
    }

    /// The same program, typed as evidence of its spec's OS ([`Program::decides_platform`]).
    pub(crate) const fn deciding_platform(self) -> Program {
        Program {
            decides_platform: true,
            ..self
        }
    }
}

/// Arguments that start with one of `words` (a subcommand: `gpart show`, `zpool status`).
pub(crate) fn starts_with_any(args: &str, words: &[&str]) -> bool {
    words.iter().any(|w| args.starts_with(w))
}

/// Arguments of a tool run on a device: flags first, or the device node.
pub(crate) fn flags_or_node(args: &str) -> bool {
    args.starts_with('-') || args.starts_with("/dev/")
}

/// Arguments of a tool run bare or with flags only (hwinfo, inxi, lsscsi, tlp-stat).
pub(crate) fn bare_or_flags(args: &str) -> bool {
    args.is_empty() || args.starts_with('-')
}

/// The spec of a tool only ever pasted (no live probe captures it, its facts come from
/// its own parse): its paste is the output after a command of its own name, its one
/// program takes no arguments or flags only (`args:` says otherwise) and names no device,
/// its secrets are what its `parse` locates. A macro rather than a `const fn`: the
/// paste's command test compares with the literal id, and a `const fn` cannot build that
/// closure nor the `'static` program slice from a parameter.
macro_rules! pasted_only {
    ($id:literal, $display:literal, $platform:expr, $family:expr,
     parse: $parse:expr, secrets: $secrets:expr $(,)?) => {
        $crate::sources::spec::pasted_only!($id, $display, $platform, $family,
            parse: $parse, secrets: $secrets, args: $crate::sources::spec::bare_or_flags)
    };
    ($id:literal, $display:literal, $platform:expr, $family:expr,
     parse: $parse:expr, secrets: $secrets:expr, args: $args:expr $(,)?) => {
        $crate::sources::spec::SourceSpec {
            platform: $platform,
            parse: Some($parse),
            secrets: $secrets,
            paste: Some($crate::sources::spec::Paste::new($family, |p, _| p == $id)),
            programs: &[$crate::sources::spec::Program {
                names_device: false,
                ..$crate::sources::spec::Program::new($id, $args)
            }],
            ..$crate::sources::spec::SourceSpec::named($id, $display)
        }
    };
}
pub(crate) use pasted_only;

/// Arguments of a listing tool (lsblk, dmesg, iostat, gstat, df, sysctl): none, flags, a
/// pipe, a dotted name (sysctl) or interval numbers (iostat 1 5).
pub(crate) fn listing_args(args: &str) -> bool {
    args.is_empty()
        || args.starts_with('-')
        || args.starts_with('|')
        || args.contains('.')
        || args.chars().all(|c| c.is_ascii_digit() || c == ' ')
}

// A device operand as people type it: a kernel disk name, with or without /dev/ (group 1:
// the name).
crate::rx!(
    pub DEV_ARG,
    r"^(?:/dev/(?:mapper/)?)?(ada\d+[\w.]*|ad\d+[\w.]*|da\d+[\w.]*|nvd\d+\w*|nda\d+\w*|nvme\d+\w*|sd[a-z]+\d*|hd[a-z]+\d*|vd[a-z]+\d*|md\d+\w*|mmcblk\d+\w*|mmcsd\d+\w*|ar\d+\w*|wd\d+\w*|rwd\d+\w*|pass\d+|loop\d+|dm-\d+|[a-z]+\d+[\w.]*)$"
);

impl SourceSpec {
    /// A spec with nothing but its names, for `..SourceSpec::named(..)` in each file.
    pub const fn named(id: &'static str, display: &'static str) -> SourceSpec {
        SourceSpec {
            id,
            display,
            platform: None,
            fixture_dirs: &[],
            live: &[],
            pasted_as: None,
            parse: None,
            secrets: &[],
            paste: None,
            programs: &[],
            mention: None,
            asks: &[],
        }
    }

    /// A measurement a person ran and pasted (a benchmark program's results): read only
    /// from pastes, found by `family` with no command of its own, stored under no live key
    /// (diskdoc runs its own benchmarks); `parse` counts its records.
    pub(crate) const fn measurement(
        id: &'static str,
        display: &'static str,
        family: &'static Recogniser,
        parse: fn(&str) -> usize,
    ) -> SourceSpec {
        SourceSpec {
            parse: Some(parse),
            paste: Some(Paste::new(family, no_command)),
            ..SourceSpec::named(id, display)
        }
    }

    /// Whether `key` (string form) is one of this source's live captures.
    pub fn captures(&self, key: &str) -> bool {
        self.live.iter().any(|l| l.matches(key))
    }
}

/// A start detector's answer from its first line alone.
pub(crate) fn on_first(lines: &[&str], is_start: impl Fn(&str) -> bool) -> Start {
    Start::from(lines.first().is_some_and(|t| is_start(t)))
}

/// Group `group` of `re` on the text's first line (trimmed): the device many outputs name
/// in their header.
pub(crate) fn first_line_capture(re: &regex::Regex, text: &str, group: usize) -> Option<String> {
    re.captures(text.lines().next().unwrap_or("").trim())
        .and_then(|c| c.get(group))
        .map(|m| m.as_str().to_string())
}

/// [`first_line_capture`] as a kernel name ("/dev/ada0" -> "ada0").
pub(crate) fn first_line_device(re: &regex::Regex, text: &str, group: usize) -> Option<String> {
    first_line_capture(re, text, group).map(|d| strip_dev(&d))
}

/// A device node as a kernel name: "/dev/sda:" -> "sda".
pub(crate) fn strip_dev(s: &str) -> String {
    s.trim_start_matches("/dev/")
        .trim_end_matches(':')
        .to_string()
}

/// 1 when a parser that returns a record read anything (its value is not the default).
pub fn found<T: Default + PartialEq>(x: T) -> usize {
    usize::from(x != T::default())
}

/// The index of the next non-blank line in `lines[from..=from + max_skip]`.
pub(crate) fn next_nonblank(lines: &[&str], from: usize, max_skip: usize) -> Option<usize> {
    (from..lines.len().min(from + max_skip + 1))
        .find(|&j| lines.get(j).is_some_and(|l| !l.trim().is_empty()))
}

/// A static regex from a literal pattern (the patterns are tested by the recogniser tests).
#[macro_export]
macro_rules! rx {
    ($vis:vis $name:ident, $pat:expr) => {
        $vis static $name: std::sync::LazyLock<regex::Regex> =
            std::sync::LazyLock::new(|| regex::Regex::new($pat).expect("static regex"));
    };
}

#[cfg(test)]
mod tests;
