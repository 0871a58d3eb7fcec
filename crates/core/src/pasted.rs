//! The vocabulary of pasted text that the facts read: which tool an output came from
//! ([`Tool`], one per source spec), a recognised output ([`Block`]: its tool, lines with
//! their original line numbers, the device and command line it belongs to), a command
//! line ([`Command`]) and a cleaned input [`Line`]. `explain` makes them (segment,
//! recognise); `facts::pasted` derives facts from them. It sits between `sources` and
//! `facts` so the derivation needs nothing of explain (tests/it/layering.rs).

use schemars::JsonSchema;
use serde::Serialize;

use crate::evidence::Platform;
use crate::sources::{self, spec::SourceSpec};

/// What a device operand looks like (the spec helpers' pattern; group 1 is the name).
pub use crate::sources::spec::DEV_ARG;

/// A tool whose output diskdoc recognises: a handle to its source spec, one of the
/// registry's (`sources::SPECS`) specs that can be pasted. The registry is the only list:
/// a new source is its SPEC in `SPECS`, nothing here. Code that asks about one tool names
/// its spec (`b.tool.is(&sources::smartctl::SPEC)`); equality, order and hashing go by
/// the spec's id and registry position, since a `const` spec has no fixed address.
#[derive(Clone, Copy)]
pub struct Tool(&'static SourceSpec);

impl Tool {
    /// The tool of a spec (a pasteable one: `Tool::all` lists only those).
    pub const fn of(spec: &'static SourceSpec) -> Tool {
        Tool(spec)
    }

    /// Every tool, in registry order: the specs of `sources::SPECS` with a `paste`.
    pub fn all() -> impl Iterator<Item = Tool> {
        sources::SPECS
            .iter()
            .copied()
            .filter(|s| s.paste.is_some())
            .map(Tool)
    }

    /// The source spec behind this tool: its id, names, recogniser and secrets.
    pub fn spec(self) -> &'static SourceSpec {
        self.0
    }

    /// Whether this is the tool of `spec`.
    pub fn is(self, spec: &SourceSpec) -> bool {
        self.0.id == spec.id
    }

    /// Whether this is the tool of one of `specs`.
    pub(crate) fn is_any(self, specs: &[&SourceSpec]) -> bool {
        specs.iter().any(|s| self.is(s))
    }

    /// Stable name, as in tests/fixtures/<platform>/<tool>/.
    pub fn id(self) -> &'static str {
        self.0.id
    }

    /// The tool whose spec has this id.
    pub fn from_id(id: &str) -> Option<Tool> {
        Tool::all().find(|t| t.id() == id)
    }

    /// The tool a fixture directory holds (`freebsd/dmesg` -> FreeBSD dmesg): a spec's own
    /// `fixture_dirs` first, then the directory named after its id.
    pub fn from_fixture_dir(platform: &str, dir: &str) -> Option<Tool> {
        let path = format!("{platform}/{dir}");
        Tool::all()
            .find(|t| t.spec().fixture_dirs.contains(&path.as_str()))
            .or_else(|| Tool::from_id(dir))
    }

    /// The OS this tool's output implies, if only one has it.
    pub fn platform(self) -> Option<Platform> {
        self.0.platform
    }

    /// A human name for listings.
    pub fn display(self) -> &'static str {
        self.0.display
    }

    /// Position in the registry: the order tools sort in (registry order, as listed).
    fn rank(self) -> usize {
        sources::SPECS
            .iter()
            .position(|s| s.id == self.0.id)
            .unwrap_or(usize::MAX)
    }
}

impl PartialEq for Tool {
    fn eq(&self, other: &Tool) -> bool {
        self.is(other.0)
    }
}

impl Eq for Tool {}

impl std::hash::Hash for Tool {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.id.hash(h);
    }
}

impl PartialOrd for Tool {
    fn partial_cmp(&self, other: &Tool) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Tool {
    fn cmp(&self, other: &Tool) -> std::cmp::Ordering {
        self.rank()
            .cmp(&other.rank())
            .then_with(|| self.0.id.cmp(other.0.id))
    }
}

impl std::fmt::Debug for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tool({})", self.0.id)
    }
}

/// Serialised as its spec id, the string explain's listing (`Recognised::tool`) shows.
impl Serialize for Tool {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.id)
    }
}

/// The schema keeps the list of allowed ids, taken from the registry.
impl JsonSchema for Tool {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Tool".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let ids: Vec<&str> = Tool::all().map(Tool::id).collect();
        schemars::json_schema!({ "type": "string", "enum": ids })
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
    /// The capture key the evidence bundle holds this output under, the source of every
    /// fact it proves: its spec's live key for its device (`SourceSpec::pasted_key`),
    /// else a `pasted:` key (no live probe reads it, its OS is not the paste's, or a later
    /// output of the same tool and device took the live key). Empty until explain's
    /// bundle assembly stores it, the step that decides between those.
    #[serde(skip)]
    pub key: String,
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
pub(crate) fn device_in_args(args: &str) -> Option<String> {
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

/// Text saved as UTF-16 (Windows Notepad's "Unicode", PowerShell's `>` redirection before
/// version 7), decoded to UTF-8, with the encoding's name for a note; None for anything else.
/// A byte-order mark (U+FEFF as FF FE or FE FF, The Unicode Standard 23.8) decides; without
/// one, ASCII text in UTF-16 has a NUL in every other byte, which no text in UTF-8 has, so
/// that pattern in the first 4 KiB decides too.
pub(crate) fn decode_utf16(bytes: &[u8]) -> Option<(String, &'static str)> {
    let (little, body, name) = match bytes {
        [0xff, 0xfe, rest @ ..] => (true, rest, "UTF-16LE"),
        [0xfe, 0xff, rest @ ..] => (false, rest, "UTF-16BE"),
        _ => {
            let head = &bytes[..bytes.len().min(4096) & !1];
            if head.len() < 4 {
                return None;
            }
            let pairs = head.len() / 2;
            let nul_at = |odd: bool| {
                head.chunks_exact(2)
                    .filter(|c| c[usize::from(odd)] == 0 && c[usize::from(!odd)] != 0)
                    .count()
            };
            // 9 in 10 pairs of the form (char, NUL) or (NUL, char).
            if nul_at(true) * 10 >= pairs * 9 {
                (true, bytes, "UTF-16LE")
            } else if nul_at(false) * 10 >= pairs * 9 {
                (false, bytes, "UTF-16BE")
            } else {
                return None;
            }
        }
    };
    let units = body.chunks_exact(2).map(|c| {
        if little {
            u16::from_le_bytes([c[0], c[1]])
        } else {
            u16::from_be_bytes([c[0], c[1]])
        }
    });
    let text: String = char::decode_utf16(units)
        .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect();
    Some((text, name))
}

#[cfg(test)]
mod tests;
