//! `camcontrol identify adaN` (camcontrol(8)) and the older `atacontrol cap adN`
//! (atacontrol(8), FreeBSD <= 8) output: the decoded ATA IDENTIFY DEVICE data.
//!
//! Both print "key   value" lines, then a feature table with Support/Enable(d)/Value/Vendor
//! columns. Pasted copies often have tabs expanded or runs of spaces collapsed to one, so
//! keys are matched by known prefixes and table columns by their yes/no tokens, never by
//! column position. Field meanings follow ATA/ACS-3 section 7.12.7 (IDENTIFY DEVICE data).

use super::geom_util::{leading_digits_f64, leading_digits_u64, sata_gen_gbps, unquote};

/// One row of the feature table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Feature {
    /// As printed, e.g. "write cache", "Native Command Queuing (NCQ)".
    pub name: String,
    pub supported: Option<bool>,
    /// `None` when the column is empty or "-".
    pub enabled: Option<bool>,
    /// Value column ("32 tags", "31/0x1F", "254/0xFE", "zeroed").
    pub value: Option<String>,
    /// Vendor column (the AAM vendor-recommended value).
    pub vendor: Option<String>,
}

/// What `camcontrol identify` / `atacontrol cap` said.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Identify {
    /// True for the `atacontrol cap` layout ("Protocol Serial ATA II", "lba48 supported").
    pub atacontrol_layout: bool,
    /// Header periph ("pass0" in "pass0: <ST9320423AS 0002SDM1> ATA-8 SATA 2.x device").
    pub periph: Option<String>,
    /// Header inquiry string inside <...>.
    pub inquiry: Option<String>,
    /// Header standard ("ATA-8 SATA 2.x").
    pub header_standard: Option<String>,
    /// Header "300.000MB/s transfers": the negotiated transfer rate.
    pub transfer_mbps: Option<f64>,
    /// The parenthesis after it ("SATA 2.x, UDMA6, PIO 8192bytes").
    pub transfer_detail: Option<String>,
    /// Header ", Command Queueing Enabled" present.
    pub command_queueing_enabled: bool,
    /// "protocol" / "Protocol" line ("ATA/ATAPI-8 SATA 2.x", "SATA revision 2.x").
    pub protocol: Option<String>,
    pub model: Option<String>,
    pub firmware: Option<String>,
    pub serial: Option<String>,
    pub wwn: Option<String>,
    pub logical_sector_bytes: Option<u32>,
    pub physical_sector_bytes: Option<u32>,
    /// Offset of LBA 0 within the first physical sector ("offset 0"), bytes.
    pub sector_offset_bytes: Option<u32>,
    pub lba_sectors: Option<u64>,
    pub lba48_sectors: Option<u64>,
    /// "media RPM": Some(0) for "non-rotating" (word 217 = 1), else the rpm.
    pub rotation_rpm: Option<u32>,
    pub dma_modes: Option<String>,
    pub features: Vec<Feature>,
}

/// Keys of the key/value part (lower-cased), longest first so "lba48 supported" wins over
/// "lba supported".
const KEYS: &[&str] = &[
    "additional product id",
    "firmware revision",
    "lba48 supported",
    "lba supported",
    "serial number",
    "sectors/track",
    "device model",
    "pio supported",
    "dma supported",
    "sector size",
    "cylinders",
    "media rpm",
    "protocol",
    "heads",
    "wwn",
];

impl Identify {
    /// The feature row whose name starts with `prefix` (case-insensitive).
    pub fn feature(&self, prefix: &str) -> Option<&Feature> {
        let p = prefix.to_ascii_lowercase();
        self.features
            .iter()
            .find(|f| f.name.to_ascii_lowercase().starts_with(&p))
    }

    /// The APM level when APM is enabled: camcontrol's "advanced power management" row prints
    /// IDENTIFY word 91 whole (sbin/camcontrol/camcontrol.c atacapprint: "%d/0x%02X" of
    /// apm_value), whose bits 7:0 are the level (ATA8-ACS 7.16.7.91); Some(None) when the drive
    /// supports APM but has it off, None when the row is missing or says unsupported.
    pub fn apm_level(&self) -> Option<Option<u32>> {
        let f = self.feature("advanced power management")?;
        if f.supported != Some(true) {
            return None;
        }
        if f.enabled != Some(true) {
            return Some(None);
        }
        let raw = f
            .value
            .as_deref()?
            .split('/')
            .next()?
            .trim()
            .parse::<u32>()
            .ok()?;
        Some(Some(raw & 0xff).filter(|l| *l > 0))
    }

    /// Volatile write cache (word 82 bit 5 supported, word 85 bit 5 enabled).
    pub fn write_cache(&self) -> Option<&Feature> {
        self.feature("write cache")
    }

    /// NCQ row: supported (word 76 bit 8) and the queue depth (word 75 bits 4:0, plus one).
    pub fn ncq(&self) -> Option<&Feature> {
        self.feature("native command queuing")
    }

    /// NCQ queue depth. camcontrol prints "32 tags"; atacontrol prints word 75 raw,
    /// "31/0x1F", which is the depth minus one.
    pub fn ncq_depth(&self) -> Option<u32> {
        let f = self.ncq()?;
        if f.supported != Some(true) {
            return None;
        }
        let v = f.value.as_deref()?;
        let n = u32::try_from(leading_digits_u64(v)?).ok()?;
        if v.contains("tags") {
            Some(n)
        } else if v.contains('/') {
            n.checked_add(1)
        } else {
            Some(n)
        }
    }

    /// DATA SET MANAGEMENT / TRIM supported (word 169 bit 0).
    pub fn trim(&self) -> Option<bool> {
        self.feature("data set management")
            .and_then(|f| f.supported)
    }

    /// Highest SATA generation the drive supports, from the protocol line. camcontrol
    /// derives "SATA n.x" there from IDENTIFY word 76 (supported generations).
    /// atacontrol's old "Serial ATA II" only says the SATA capabilities word is present,
    /// not which speeds, so it gives None.
    pub fn drive_max_gbps(&self) -> Option<f64> {
        sata_gen_gbps(self.protocol.as_deref()?)
    }

    /// The negotiated link: the header's "(SATA 2.x, ..." generation, else the MB/s.
    pub fn link_current_gbps(&self) -> Option<f64> {
        if let Some(d) = &self.transfer_detail
            && let Some(g) = sata_gen_gbps(d)
        {
            return Some(g);
        }
        self.transfer_mbps
            .and_then(super::geom_util::sata_gbps_from_mbps)
    }
}

/// Parse either layout from any text (quote prefixes, collapsed spacing, truncation).
pub fn parse(text: &str) -> Identify {
    let mut id = Identify::default();
    let mut in_table = false;
    for raw in text.lines() {
        let line = unquote(raw);
        if line.is_empty() || line == "..." {
            continue;
        }
        if parse_header(line, &mut id) {
            continue;
        }
        let lower = line.to_ascii_lowercase();
        if lower.starts_with("feature ") && lower.contains("support") {
            in_table = true;
            continue;
        }
        if !in_table {
            if let Some(key) = KEYS.iter().find(|k| {
                lower.starts_with(*k)
                    && lower
                        .get(k.len()..)
                        .is_some_and(|r| r.is_empty() || r.starts_with(char::is_whitespace))
            }) {
                let value = line.get(key.len()..).unwrap_or("").trim();
                apply_key(&mut id, key, value);
                continue;
            }
            if lower.starts_with("overlap not supported") {
                // atacontrol prints this as a key line, camcontrol as a table row.
                id.atacontrol_layout = true;
                continue;
            }
        }
        if let Some(f) = parse_feature_row(line) {
            in_table = true;
            id.features.push(f);
        }
    }
    id
}

/// "pass0: <ST9320423AS 0002SDM1> ATA-8 SATA 2.x device" and
/// "pass0: 300.000MB/s transfers (SATA 2.x, UDMA6, PIO 8192bytes)" /
/// "pass11: 600.000MB/s transfers, Command Queueing Enabled".
fn parse_header(line: &str, id: &mut Identify) -> bool {
    let Some((periph, rest)) = line.split_once(':') else {
        return false;
    };
    let periph = periph.trim();
    let looks_periph = periph.starts_with(|c: char| c.is_ascii_lowercase())
        && periph.ends_with(|c: char| c.is_ascii_digit())
        && !periph.contains(char::is_whitespace);
    if !looks_periph {
        return false;
    }
    let rest = rest.trim();
    if rest.starts_with('<') {
        id.periph = Some(periph.to_string());
        if let Some(end) = rest.find('>') {
            id.inquiry = rest.get(1..end).map(|s| s.trim().to_string());
            let std = rest.get(end + 1..).unwrap_or("").trim();
            let std = std.strip_suffix("device").unwrap_or(std).trim();
            if !std.is_empty() {
                id.header_standard = Some(std.to_string());
            }
        }
        return true;
    }
    if let Some(i) = rest.find("MB/s transfers") {
        id.periph = Some(periph.to_string());
        id.transfer_mbps = leading_digits_f64(rest.get(..i).unwrap_or(""));
        let after = rest.get(i + "MB/s transfers".len()..).unwrap_or("");
        if let (Some(a), Some(b)) = (after.find('('), after.find(')'))
            && a < b
        {
            id.transfer_detail = after.get(a + 1..b).map(|s| s.trim().to_string());
        }
        if after
            .to_ascii_lowercase()
            .contains("command queueing enabled")
        {
            id.command_queueing_enabled = true;
        }
        return true;
    }
    false
}

fn apply_key(id: &mut Identify, key: &str, value: &str) {
    let v = || (!value.is_empty()).then(|| value.to_string());
    match key {
        "protocol" => {
            // camcontrol: "ATA/ATAPI-8 SATA 2.x"; atacontrol: "SATA revision 2.x" or
            // "Serial ATA II".
            if value.starts_with("SATA revision") || value.starts_with("Serial ATA") {
                id.atacontrol_layout = true;
            }
            id.protocol = v();
        }
        "device model" => id.model = v(),
        "firmware revision" => id.firmware = v(),
        "serial number" => id.serial = v(),
        "wwn" => id.wwn = v(),
        "sector size" => {
            // "logical 512, physical 4096, offset 0"
            let l = value.to_ascii_lowercase();
            let num_after = |w: &str| {
                l.find(w)
                    .and_then(|i| leading_digits_u64(l.get(i + w.len()..)?))
            };
            id.logical_sector_bytes = num_after("logical").and_then(|n| u32::try_from(n).ok());
            id.physical_sector_bytes = num_after("physical").and_then(|n| u32::try_from(n).ok());
            id.sector_offset_bytes = num_after("offset").and_then(|n| u32::try_from(n).ok());
        }
        "lba supported" => id.lba_sectors = leading_digits_u64(value),
        "lba48 supported" => id.lba48_sectors = leading_digits_u64(value),
        "media rpm" => {
            // Word 217: 0001h = non-rotating media, 0401h-FFFEh = nominal rpm.
            id.rotation_rpm = if value.to_ascii_lowercase().contains("non-rotating") {
                Some(0)
            } else {
                leading_digits_u64(value).and_then(|n| u32::try_from(n).ok())
            };
        }
        "dma supported" => id.dma_modes = v(),
        _ => {}
    }
}

/// A feature row: name words, then "yes"/"no" (Support), then optionally "yes"/"no"/"-"
/// (Enable), then Value and Vendor. The name is everything before the first yes/no token.
fn parse_feature_row(line: &str) -> Option<Feature> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    let is_yn = |t: &str| t.eq_ignore_ascii_case("yes") || t.eq_ignore_ascii_case("no");
    let si = toks.iter().position(|t| is_yn(t))?;
    if si == 0 {
        return None;
    }
    let name = toks.get(..si)?.join(" ");
    let yn = |t: &str| Some(t.eq_ignore_ascii_case("yes"));
    let supported = yn(toks.get(si)?);
    let mut rest = toks.get(si + 1..).unwrap_or(&[]).iter().copied().peekable();
    let mut enabled = None;
    if let Some(t) = rest.peek() {
        if is_yn(t) {
            enabled = yn(t);
            rest.next();
        } else if *t == "-" {
            rest.next();
        }
    }
    let remaining: Vec<&str> = rest.collect();
    // Value is "32 tags" (two words) or a single token like "254/0xFE"; the vendor column
    // is a further "n/0xNN" token.
    let (value, vendor) = match remaining.as_slice() {
        [] => (None, None),
        [v] => (Some(v.to_string()), None),
        [n, "tags", ..] => (Some(format!("{n} tags")), None),
        [v, w, ..] if w.contains("/0x") => (Some(v.to_string()), Some(w.to_string())),
        all => (Some(all.join(" ")), None),
    };
    Some(Feature {
        name,
        supported,
        enabled,
        value,
        vendor,
    })
}

// ---- the source specs (see sources::spec) ----
use crate::sources::spec;

/// What the FreeBSD probe runs per CAM disk: camcontrol(8) identify, the drive's IDENTIFY.
pub const ARGV: &[&str] = &["camcontrol", "identify", "{disk}"];

crate::rx!(
    ATA_PASS_HDR,
    r"^(pass|ada|da)\d+: (<.*>.*device|[\d.]+MB/s transfers)"
);
crate::rx!(ATA_PROTO_CAM, r"^protocol\s+(ATA|ACS|SATA|\S*ATA)");
crate::rx!(
    ATA_PROTO_ATACONTROL,
    r"^Protocol\s+(Serial ATA|SATA|ATA|ATAPI)\b"
);
crate::rx!(
    ATA_ROW,
    r"^(device model|serial number|firmware revision|WWN|additional product id|cylinders|heads|sectors/track|sector size|LBA supported|LBA48 supported|lba supported|lba48 supported|PIO supported|DMA supported|dma supported|overlap not supported|media RPM|Zoned-Device Commands|Feature\s+Support\s+Enable|read ahead|write cache|flush cache|overlap|Tagged Command Queuing|Native Command Queuing|NCQ |Receive and Send FPDMA|SMART|microcode download|security|power management|advanced power management|automatic acoustic management|media status notification|power-up in Standby|write-read-verify|unload|general purpose logging|free-fall|sense data reporting|extended power conditions|device statistics notification|[Dd]ata [Ss]et [Mm]anagement|DSM - |Trusted Computing|encrypts all user data|Sanitize|HPA - |NCQ Priority|NCQ Non-Data|NCQ Streaming|NCQ Autosense|Receive & Send FPDMA|Power-Up In Standby|Host Protected Area|Accessible Max Address|Zoned|\.\.\.)\b"
);
crate::rx!(
    ATA_CAMCONTROL_ONLY,
    r"^(protocol\s|LBA supported|LBA48 supported|PIO supported|DMA supported|sector size|media RPM|flush cache|[Dd]ata [Ss]et [Mm]anagement|Host Protected Area|pass\d+: )"
);
crate::rx!(
    ATA_ATACONTROL_ONLY,
    r"^(Protocol\s|lba supported|lba48 supported|dma supported|overlap not supported)"
);
crate::rx!(ATA_MODEL, r"^device model\s+(.+)$");
crate::rx!(ATA_MODEL_ANY, r"(?m)^device model\s+(.+)$");

/// Block markers: the protocol line, a table row.
const SEEN_PROTOCOL: u32 = 1;
const SEEN_TABLE: u32 = 2;

fn is_protocol(t: &str) -> bool {
    ATA_PROTO_CAM.is_match(t) || ATA_PROTO_ATACONTROL.is_match(t)
}

fn start_header(lines: &[&str]) -> spec::Start {
    let t = lines.first().copied().unwrap_or("");
    // "pass0: <...> ... device" then the identify table; a dmesg "da0: <...>" has no table
    // after it.
    spec::Start::from(
        ATA_PASS_HDR.is_match(t)
            && !t.contains("Command Queueing enabled")
            && lines.get(1..lines.len().min(5)).is_some_and(|w| {
                w.iter()
                    .any(|l| ATA_PROTO_CAM.is_match(l) || ATA_ROW.is_match(l))
            }),
    )
}

fn start_table(lines: &[&str]) -> spec::Start {
    let t = lines.first().copied().unwrap_or("");
    spec::Start::from(is_protocol(t) || ATA_MODEL.is_match(t))
}

fn member(t: &str, st: &spec::BlockState) -> spec::Member {
    if is_protocol(t) && st.has(SEEN_PROTOCOL) {
        return spec::Member::NewBlock;
    }
    if t.starts_with("pass") && ATA_PASS_HDR.is_match(t) {
        return if st.has(SEEN_TABLE) {
            spec::Member::NewBlock
        } else {
            spec::Member::Yes
        };
    }
    spec::Member::from(is_protocol(t) || ATA_ROW.is_match(t.trim()))
}

fn update(t: &str, st: &mut spec::BlockState) {
    if is_protocol(t) {
        st.mark(SEEN_PROTOCOL);
    }
    if ATA_ROW.is_match(t.trim()) {
        st.mark(SEEN_TABLE);
    }
}

/// camcontrol identify or atacontrol cap: the command says; else the rows only one of them
/// prints.
fn classify(text: &str, program: Option<&str>) -> &'static str {
    match program {
        Some("atacontrol") => return "atacontrol-cap",
        Some("camcontrol") => return "camcontrol-identify",
        _ => {}
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
        "atacontrol-cap"
    } else {
        "camcontrol-identify"
    }
}

/// The ATA IDENTIFY table of both tools.
static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "ata-identify-table",
    starts: &[(40, start_header), (41, start_table)],
    member,
    update: Some(update),
    tolerance: (1, 1),
    classify,
    ..spec::Recogniser::NONE
};

/// The same drive shown again (seed 000: the table after disabling the cache): an earlier
/// table with this one's model line.
fn same_drive(text: &str, earlier: &str) -> bool {
    let model = ATA_MODEL_ANY
        .captures(text)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().trim().to_string());
    model.is_some_and(|m| {
        earlier
            .lines()
            .any(|l| l.starts_with("device model") && l.contains(m.as_str()))
    })
}

/// camcontrol(8) identify: "serial number", "WWN" rows.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(ARGV)],
    pasted_as: Some(spec::Live::Cmd(ARGV)),
    parse: Some(|t| spec::found(parse(t))),
    secrets: &[
        spec::Secret::After("serial number", spec::SecretKind::Serial),
        spec::Secret::After("wwn", spec::SecretKind::Wwn),
    ],
    paste: Some(spec::Paste {
        same_drive: Some(same_drive),
        one_drive: true,
        ..spec::Paste::new(&RECOGNISER, |p, t| {
            p == "camcontrol" && t.contains("identify")
        })
    }),
    programs: &[spec::Program::new("camcontrol", |a| {
        spec::starts_with_any(a, &["identify", "devlist", "inquiry", "tags"])
    })
    .deciding_platform()],
    mention: Some(r"camcontrol\s+identify"),
    // camcontrol(8): identify prints the IDENTIFY data, its first two lines the protocol
    // and the negotiated transfer rate ("600.000MB/s transfers"); epc -c state -p
    // Standby_z -d disables that EPC timer; apm -l 254 is the highest APM level (no
    // standby, no head unloading: ATA8-ACS 7.48.5).
    asks: &[
        (spec::Ask::CamProgram, "camcontrol"),
        (spec::Ask::CamIdentify, "camcontrol identify {dev}"),
        (
            spec::Ask::CamIdentifyLink,
            "camcontrol identify {dev} | head -2",
        ),
        (
            spec::Ask::CamEpcStandbyOff,
            "camcontrol epc {dev} -c state -p Standby_z -d",
        ),
        (spec::Ask::CamApmPerformance, "camcontrol apm {dev} -l 254"),
    ],
    ..spec::SourceSpec::named("camcontrol-identify", "camcontrol identify")
};

/// atacontrol(8) cap (FreeBSD <= 8): the same table from the old ata(4) stack.
pub const ATACONTROL_SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(&["atacontrol", "cap", "{disk}"])],
    pasted_as: Some(spec::Live::Cmd(&["atacontrol", "cap", "{disk}"])),
    parse: Some(|t| spec::found(parse(t))),
    secrets: &[spec::Secret::After(
        "serial number",
        spec::SecretKind::Serial,
    )],
    paste: Some(spec::Paste {
        same_drive: Some(same_drive),
        one_drive: true,
        ..spec::Paste::new(&RECOGNISER, |p, _| p == "atacontrol")
    }),
    programs: &[spec::Program::new("atacontrol", |a| {
        spec::starts_with_any(a, &["cap", "list", "mode"])
    })
    .deciding_platform()],
    mention: Some(r"atacontrol\s+cap"),
    ..spec::SourceSpec::named("atacontrol-cap", "atacontrol cap")
};
