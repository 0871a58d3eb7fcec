//! Turn pasted free text (mail quotes, re-wrapped lines, collapsed pastes) into clean lines
//! that keep their original line numbers. References: RFC 3676 (format=flowed quoting with
//! ">"), and the greedy line-filling rule mail clients use when they re-wrap at ~72 columns.

use crate::sources::markup::{is_quoted_printable, qp_line, strip_ansi, strip_markup};
use regex::Regex;
use std::sync::LazyLock;

/// Only this much input is read; the rest is reported as ignored. 4 MiB holds the longest
/// real paste we have (a full `sysctl -a`, 150 KiB) many times over.
pub const MAX_INPUT_BYTES: usize = 4 * 1024 * 1024;
/// A single line longer than this is cut: no tool output we recognise has such lines, and
/// per-line regexes stay cheap.
const MAX_LINE_CHARS: usize = 16 * 1024;

/// A static pattern of explain's recognisers (each a literal of its file; their unit and
/// fixture tests compile every one).
pub(crate) fn re(s: &str) -> Regex {
    Regex::new(s).expect("static regex")
}

/// `rx!(NAME, r"...")`: a lazily compiled static pattern, for the recogniser files.
macro_rules! rx {
    ($name:ident, $pat:expr) => {
        static $name: std::sync::LazyLock<regex::Regex> =
            std::sync::LazyLock::new(|| super::segment::re($pat));
    };
}
pub(super) use rx;

/// One cleaned line (the type is `pasted::Line`: the facts read lines too).
pub use crate::pasted::Line;

/// Why an input cannot be read as text at all.
#[derive(Debug, Clone, PartialEq)]
pub enum InputProblem {
    Empty,
    /// Share of bytes that are NUL, other control characters or invalid UTF-8, in percent.
    Binary {
        bad_percent: u32,
    },
}

impl std::fmt::Display for InputProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputProblem::Empty => f.write_str("the input is empty (nothing was pasted)"),
            InputProblem::Binary { bad_percent } => write!(
                f,
                "the input looks binary ({bad_percent}% of its bytes are control characters or \
                 invalid UTF-8); paste the text output of the tools instead"
            ),
        }
    }
}

/// The cleaned lines of one input plus notes on what was changed or dropped.
#[derive(Debug, Clone, Default)]
pub struct Prepared {
    pub lines: Vec<Line>,
    pub notes: Vec<String>,
    /// Number of original lines read.
    pub total_lines: usize,
    /// Lines past the input cap ([`MAX_INPUT_BYTES`]) that were not read.
    pub lines_not_read: usize,
}

/// Clean one input. `src` is its index, `label` its name for notes.
pub fn prepare(src: usize, label: &str, input: &[u8]) -> Result<Prepared, InputProblem> {
    let mut notes = Vec::new();
    let decoded = crate::pasted::decode_utf16(input);
    let input: &[u8] = match &decoded {
        Some((text, name)) => {
            notes.push(format!(
                "{label}: read as {name} text (as Windows editors save it)"
            ));
            text.as_bytes()
        }
        None => input,
    };
    let mut bytes = input;
    let mut lines_not_read = 0usize;
    if bytes.len() > MAX_INPUT_BYTES {
        let cut = bytes[..MAX_INPUT_BYTES]
            .iter()
            .rposition(|&b| b == b'\n')
            .map(|p| p + 1)
            .unwrap_or(MAX_INPUT_BYTES);
        let past = input[cut..].iter().filter(|&&b| b == b'\n').count();
        notes.push(format!(
            "{label}: input is {} bytes; only the first {} bytes were read, the rest \
             ({past} more lines) was ignored",
            input.len(),
            cut
        ));
        lines_not_read = past;
        bytes = &bytes[..cut];
    }
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(InputProblem::Empty);
    }
    let text = String::from_utf8_lossy(bytes);
    let bad = bad_bytes(bytes, &text);
    // Pasted text may hold a stray NUL or a replacement character; a binary file is full
    // of them. 5% separates the two on every fixture and on /bin/ls.
    if bad * 20 > bytes.len() {
        return Err(InputProblem::Binary {
            bad_percent: ((bad * 100) / bytes.len().max(1)) as u32,
        });
    }
    let mut raw: Vec<RawLine> = Vec::new();
    let mut cut_lines = 0usize;
    let mut total = 0usize;
    // A mail archive that kept the message's quoted-printable encoding ("status=3D0x51",
    // RFC 2045 section 6.7): decoded first, as the mail reader would have shown it.
    let qp = is_quoted_printable(&text);
    if qp {
        notes.push(format!(
            "{label}: decoded the quoted-printable encoding a mail archive kept (=3D, =20)"
        ));
    }
    for (i, l) in text.split('\n').enumerate() {
        total = i + 1;
        let l = l.strip_suffix('\r').unwrap_or(l);
        let (l, soft) = if qp {
            qp_line(l)
        } else {
            (l.to_string(), false)
        };
        // Colour codes go before the control characters, or their "[1m" would stay.
        let mut l: String = strip_ansi(&l)
            .chars()
            .filter(|c| *c == '\t' || !c.is_control())
            .map(|c| {
                if c == '\u{a0}' || c == '\u{202f}' {
                    ' '
                } else {
                    c
                }
            })
            .collect();
        if l.chars().count() > MAX_LINE_CHARS {
            cut_lines += 1;
            l = l.chars().take(MAX_LINE_CHARS).collect();
        }
        let l = strip_markup(&l);
        let (depth, unquoted) = strip_quote(&l);
        // Markup inside a reply's quote ("> `(da0:...", "> **...**") is the quoted poster's:
        // taken off as it is from an unquoted line, so a paste reads the same plain and
        // quoted. A line with no quote prefix went through strip_markup once only.
        let inner = if depth > 0 {
            strip_markup(unquoted)
        } else {
            unquoted.to_string()
        };
        let rest = strip_log_header(strip_diff_marker(strip_frontend_prefix(&inner)));
        raw.push(RawLine {
            no: i + 1,
            depth,
            // The width without the quote prefix decides re-wrapping, so a paste reads the
            // same plain and quoted: the prefix a reply adds ("> ", RFC 3676 section 4.5)
            // came after the lines were wrapped, and a replier's client that wraps the
            // quoted text again leaves the prefix's two columns short of its width at most.
            width: display_width(unquoted),
            full_width: display_width(&l),
            // A soft break's line goes on in the next one: its blanks are the text's own.
            text: if soft {
                rest.to_string()
            } else {
                rest.trim_end().to_string()
            },
            soft,
        });
    }
    if cut_lines > 0 {
        notes.push(format!(
            "{label}: {cut_lines} line(s) longer than {MAX_LINE_CHARS} characters were cut"
        ));
    }
    dedent(&mut raw);
    let (lines, joined) = unwrap(src, raw);
    if joined > 0 {
        notes.push(format!(
            "{label}: re-joined {joined} line(s) that a mail client had wrapped at ~72 columns"
        ));
    }
    let mut out = Vec::with_capacity(lines.len());
    let mut split_count = 0usize;
    for l in lines {
        let parts = unflatten(&l.text);
        if parts.len() > 1 {
            split_count += 1;
        }
        for p in parts {
            out.push(Line {
                src: l.src,
                first: l.first,
                last: l.last,
                text: p,
            });
        }
    }
    if split_count > 0 {
        notes.push(format!(
            "{label}: split {split_count} line(s) where several outputs had been run together \
             on one line"
        ));
    }
    Ok(Prepared {
        lines: out,
        notes,
        total_lines: total,
        lines_not_read,
    })
}

/// Take off an indent the whole paste shares: a reStructuredText literal block (Sphinx
/// blogs indent it by three spaces under "::") or a Markdown indented code block (four
/// spaces, CommonMark section 4.4) leaves every line of the output behind the same run of
/// spaces, which the tools never print before their first column ("smartctl 6.6 ..." starts
/// a line). Only a run of two or more spaces on every non-blank line, over at least two
/// lines, counts: an output's own indentation (zpool status's " pool:", fio's "  read:")
/// starts under a line at column 0 or one space in, and a single line is left as it is.
fn dedent(raw: &mut [RawLine]) {
    let texts = raw.iter().filter(|l| !l.text.trim().is_empty());
    let lines = texts.clone().count();
    let Some(indent) = texts
        .map(|l| {
            l.text
                .len()
                .saturating_sub(l.text.trim_start_matches(' ').len())
        })
        .min()
    else {
        return;
    };
    if indent < 2 || lines < 2 {
        return;
    }
    for l in raw.iter_mut() {
        l.text = l.text.get(indent..).unwrap_or("").to_string();
    }
}

struct RawLine {
    no: usize,
    depth: usize,
    width: usize,
    /// The width with the quote prefix: what a replier's client that re-wrapped the quoted
    /// line counted (its continuation then comes unquoted).
    full_width: usize,
    text: String,
    /// The line ended in a quoted-printable soft line break (RFC 2045 section 6.7 rule 5):
    /// the next line is the rest of it.
    soft: bool,
}

fn bad_bytes(bytes: &[u8], text: &str) -> usize {
    let ctrl = bytes
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b))
        .count();
    let replaced = text.chars().filter(|&c| c == '\u{fffd}').count();
    ctrl + replaced
}

/// Width as a terminal shows it (tabs to the next multiple of 8).
fn display_width(s: &str) -> usize {
    let mut w = 0;
    for c in s.chars() {
        if c == '\t' {
            w = (w / 8 + 1) * 8;
        } else {
            w += 1;
        }
    }
    w
}

/// Remove mail quote prefixes ("> ", ">> ", "> > "), returning the depth and the rest.
/// A prefix is at most 3 leading spaces then `>` (RFC 3676 section 4.5); "=>" (gpart) and
/// "->" are not quotes.
fn strip_quote(line: &str) -> (usize, &str) {
    let lead = line.len() - line.trim_start_matches(' ').len();
    if lead > 3 {
        return (0, line);
    }
    let mut rest = &line[lead..];
    if !rest.starts_with('>') {
        return (0, line);
    }
    let mut depth = 0;
    while let Some(r) = rest.strip_prefix('>') {
        depth += 1;
        rest = r.strip_prefix(' ').unwrap_or(r);
        // "> > text": a space between quote marks.
        if rest.starts_with("> ") || rest == ">" || rest.starts_with(">>") {
            continue;
        }
        // ">  > > text": a reply quoting a message whose quoted lines were indented (" > >
        // text"), up to three spaces as at the start of the line.
        let inner = rest.trim_start_matches(' ');
        if rest.len() - inner.len() <= 3
            && (inner.starts_with("> ") || inner == ">" || inner.starts_with(">>"))
        {
            rest = inner;
        }
    }
    (depth.min(255), rest)
}

/// The one-character mark a unified diff puts before each line (`+` added, `-` removed;
/// diff(1) and git-diff(1)'s "unified format"), when a kernel log quoted in a patch or a
/// documentation change keeps it: "+[65060.950040] nvme nvme0: ...". Only a mark directly
/// before a printk stamp "[ seconds.micros]" goes, so a "+" or "-" of a tool's own output
/// (a gpart "- free -" row, a signed number) stays.
fn strip_diff_marker(line: &str) -> &str {
    static STAMPED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^[+-]\[\s*\d+\.\d+\]").expect("static regex"));
    if STAMPED.is_match(line) {
        &line[1..]
    } else {
        line
    }
}

/// The prefix a front end that runs commands on a machine puts before each line of their
/// output: Vagrant's machine-scoped UI (lib/vagrant/ui.rb, class Prefixed, format_message:
/// OUTPUT_PREFIX "==> " then "MACHINE: ", so a provisioner's output reads "==> default: dd:
/// ..."). The machine name is one word (Vagrantfile `config.vm.define NAME`); the output
/// after the prefix is the command's own, indentation included.
fn strip_frontend_prefix(line: &str) -> &str {
    static VAGRANT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^==> [A-Za-z0-9][\w.-]*: ?").expect("static regex"));
    // smartctl's drive-database warnings start "==> WARNING: " (ataprint.cpp): a shouted
    // word, which is no machine name of a Vagrantfile's.
    match VAGRANT.find(line) {
        Some(m)
            if !line
                .get(4..m.end())
                .unwrap_or("")
                .trim_end()
                .trim_end_matches(':')
                .chars()
                .all(|c| c.is_ascii_uppercase()) =>
        {
            &line[m.end()..]
        }
        _ => line,
    }
}

/// What a system logger put before each line of a program's output, so the program's own
/// text reaches its recogniser: a printk level (`<4>`, include/linux/kern_levels.h, as
/// `dmesg -r` and serial consoles print it), and a syslog header whose tag is not the
/// kernel's: RFC 3164 `Mmm dd hh:mm:ss HOST TAG[PID]: ` (also with a year before it, a
/// fraction of a second, and a severity word between host and tag, as SONiC's rsyslog
/// template writes `2026 Jul  7 20:25:49.272090 host NOTICE root: `), RFC 3339 stamps
/// (`journalctl -o short-iso`), RFC 5424 `<PRI>1 STAMP HOST APP PROCID MSGID SD `, and a bare
/// stamp a log viewer put before each line of a command's output (`Apr 10 14:39:47   pool:
/// home3`: only the stamp and the one space after it go, the output's own indentation
/// stays). Kernel lines keep their header whole: the kernel-log recognisers read it (a
/// `kernel:` tag says the text is the kernel's, whatever follows), and so do journal lines
/// that name no host (`Jun  3 12:00:00 kernel: ata1: ...`).
fn strip_log_header(line: &str) -> &str {
    static LEVEL: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^<[0-7]>(?:\[|[A-Za-z(])").expect("static regex"));
    // The month is the locale's abbreviation (journalctl and syslog print "%b" in LC_TIME:
    // "giu 07 07:21:31" under it_IT), sources::log_prefix::MONTH_ABBREVIATIONS.
    static STAMP: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(&format!(
            r"(?x)^(?:
                (?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\s+)?(?:\d{{4}}\s+)?
                {month}\s+\d{{1,2}}\s+\d\d:\d\d:\d\d(?:\.\d+)?(?:\s+\d{{4}})?
              | <\d{{1,3}}>1\s+\d{{4}}-\d\d-\d\dT\S+
              | \d{{4}}-\d\d-\d\d[T\s]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?
              | \d{{8}}[_T-]?\d{{6}}
            )[\x20\t]",
            month = crate::sources::log_prefix::month_pattern()
        ))
        .expect("static regex")
    });
    // HOST, an optional severity or facility.level word, and TAG[PID]: (the host may be
    // missing before a tag with a PID), or RFC 5424's APP-NAME PROCID MSGID
    // STRUCTURED-DATA, "-" for a nil field. A tag without a PID must follow a host and look
    // like a program name, so a stamped "Device Model: ..." or "status: ..." is no header.
    static HEADER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?x)^(?:
                 (?:[\w.-]+\x20+)?(?:(?:[A-Z]{3,9}|[a-z]+\.[a-z]+)\x20+)?([A-Za-z][\w./-]*)\[\d+\]:\x20?
               | [\w.-]+\x20+(?:(?:[A-Z]{3,9}|[a-z]+\.[a-z]+)\x20+)?([a-z][a-z0-9_.-]*):(?:\x20|$)
               | [\w.-]+\x20+([A-Za-z][\w./-]*)\x20+(?:-|\d+)\x20+\S+\x20+(?:-|\[[^\]]*\])\x20
              )",
        )
        .expect("static regex")
    });
    let line = strip_grep_file(line);
    let mut l = line;
    if LEVEL.is_match(l) {
        l = &l[3..];
    }
    // A stamped line indented as a whole (a quoted log in a forum post) loses the indent
    // with the stamp; a bare line keeps it.
    let Some(stamp) = STAMP.find(l.trim_start()) else {
        return l;
    };
    let rest = &l.trim_start()[stamp.end()..];
    // A script's logger writes a severity word after its stamp ("20181103_110000\tERROR\t
    // pool: tank", the stamp in ISO 8601's basic format): the word and the one separator
    // after it go; the logged output's own indentation (zpool status's tab before its config
    // lines) stays. An upper-case severity word is no host name.
    if let Some(m) = LEVEL_WORD.find(rest) {
        return &rest[m.end()..];
    }
    // The kernel's tag behind a field more than the host: a facility.level (FreeBSD syslogd
    // -v "<kern.crit> host kernel: ") or the year again ("host 2011 kernel: ").
    if KERNEL_AFTER_FIELDS.is_match(rest) {
        return line;
    }
    if let Some(c) = HEADER.captures(rest) {
        let tag = c
            .get(1)
            .or(c.get(2))
            .or(c.get(3))
            .map_or("", |m| m.as_str());
        if tag == "kernel" {
            return line;
        }
        let end = c.get(0).map_or(0, |m| m.end());
        return &rest[end..];
    }
    // A stamp with no header: the kernel's journal lines without a host start "kernel:".
    if rest.starts_with("kernel:") || rest.starts_with("kernel ") {
        return line;
    }
    rest
}

/// The file name `grep -H` or `grep -r` prints before each line it found, "FILE:" (GNU grep
/// print_line_head: the name, then ':' for a match or '-' for a context line):
/// "/var/log/syslog.1:Sep  7 06:25:20 host kernel: ...", "kern.log.2.gz-Sep ...". Taken off
/// only before a log stamp, so "/dev/sda: WDC ..." stays.
fn strip_grep_file(line: &str) -> &str {
    static FILE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?:[\w.~-]*/[\w./~-]*|(?:syslog|messages|kern\.log|daemon\.log|debug|all\.log|console\.log)(?:\.\d+)?(?:\.gz)?)[:-]")
            .expect("static regex")
    });
    let Some(m) = FILE.find(line) else {
        return line;
    };
    let rest = &line[m.end()..];
    let stamp = rest
        .split_whitespace()
        .next()
        .is_some_and(crate::sources::log_prefix::is_month_abbreviation)
        || rest.get(..10).is_some_and(|d| {
            d.bytes().enumerate().all(|(i, b)| {
                if i == 4 || i == 7 {
                    b == b'-'
                } else {
                    b.is_ascii_digit()
                }
            })
        });
    if stamp { rest } else { line }
}

static KERNEL_AFTER_FIELDS: LazyLock<Regex> =
    // FreeBSD before 5.0 booted /kernel, and syslogd tagged its lines "host /kernel: ".
    LazyLock::new(|| {
        Regex::new(r"^(?:\S+\x20+){1,2}/?kernel:(?:\x20|$)").expect("static regex")
    });

static LEVEL_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:INFO|ERROR|ERR|WARN|WARNING|NOTICE|DEBUG|CRIT|CRITICAL|FATAL|ALERT|EMERG)(?:\t|\x20|:\x20)")
        .expect("static regex")
});

static NOT_CONTINUATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)^(?:
            [a-z_]+\d+(?:\.\d+)?:\s |        # dmesg 'ada0: ', 'ata1.00: '
            # FreeBSD CAM's device path before each line of an error report
            # ('(aprobe0:ahcich8:0:0:0): ', cam_periph.c cam_periph_error / xpt_print).
            \([a-z]+\d+:[a-z_-]+\d+:\d+:\d+:[0-9a-f]+\):\s |
            [a-z_]+\d+\s(?:on|at)\s |          # dmesg attach lines 'da0 at umass-sim0'
            # A digest program's line ('49438591...b571  -', md5sum(1)/sha256sum(1)): its
            # hex column starts a record of its own.
            [0-9a-fA-F]{32,128}\s |
            # A key column padded before its colon is a program's record, never the tail of
            # wrapped prose: /proc/mdstat's 'md0 : active raid10 ...' after a long
            # 'Personalities : [linear] [raid0] ...' line (drivers/md/md.c md_seq_show).
            [A-Za-z][\w-]*\s+:\s |
            # Linux dev_printk's 'driver device: ' (drivers/base/core.c: '%s %s: ', the
            # driver string then dev_name): 'sd 5:0:0:0: ', 'usb 2-1.3: ', 'scsi host5: ',
            # 'usb-storage 2-1.3:1.0: ', 'nvme nvme0: ', 'ahci 0000:00:1f.2: '.
            [a-z][a-z0-9_-]{1,23}\s(?:[a-z]{1,12}\d[\w.:-]*|\d+[-.:][\w.:-]*):\s |
            (?:Root\smount|Timecounter|FreeBSD\s|Copyright|CPU:|real\smemory|avail\smemory|Trying\sto|GEOM|usb_)|
            \[\s*\d+\.\d+\] |                  # Linux dmesg timestamp
            \[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\s(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s |  # dmesg -T's ctime stamp
            (?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\s+)?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+\d{1,2}\s+\d\d:\d\d:\d\d |
            \d{4}-\d\d-\d\d[\sT]\d\d:\d\d |      # syslog and journal stamps, gstat -C records
            date:\s\d{4}-\d\d-\d\d,\s |          # hd-idle's log records (hd-idle.c log_spinup)
            kernel:\s | <\d{1,3}> |
            ```|~~~ |                          # Markdown code fences
            \d+\+\d+\s |                       # dd records
            \d+\s(?:bytes|Bytes)\s |              # dd summaries
            \d+(?:\.\d+)?\x20?[KMGTP]?i?B\s+\d+:\d\d:\d\d\s+\[ |  # pv's progress line
            \d+\s(?:not\s)?aligned(?::\s.*)?$ |   # parted align-check's answer (3.5+: a reason)
            /dev/ | => | Disk\s | Device | NAME\s | \#|\$ | \* | - | \d+\.\s |
            \[[^\]]{1,40}\]\s?[\#$%]\s |          # a prompt: '[root@localhost ~]# '
            [\w.-]+@[\w.-]+(?::\S*)?\s?[\#$%]\s |  # 'root@host:~# ', 'user@host:/tmp$ '
            (?:pool|state|scan|config|errors|status|action):
            # inxi's section headers, padded to its first column or alone on a line
            # (print_data: 'Drives:    Local Storage: ...', the narrow layout's 'Drives:').
            | (?:System|Machine|Battery|Memory|Graphics|Audio|Network|Bluetooth|Logical|RAID|Drives|Optical|Partition|Swap|Unmounted|Sensors|Repos|Info):(?:\s\s|$)
            # A Prometheus text-exposition sample (metric_name{label='v'} value
            # [timestamp], prometheus/docs exposition_formats.md): a name of words joined by
            # '_' (etcd_disk_wal_fsync_duration_seconds_bucket), labels in braces, one number.
            | [a-zA-Z:][a-zA-Z0-9:]*(?:_[a-zA-Z0-9:]+)+(?:\{[^}]*\})?\s[-+]?(?:[0-9.]+(?:[eE][-+]?\d+)?|NaN|\+Inf)(?:\s\d+)?$
        )",
    )
    .expect("static regex")
});

/// A line a user typed at a shell prompt: `root@host:~/temp# `, `[root@host ~]# `, the
/// FreeBSD csh/tcsh `root:/path # ` (`set prompt = "%n:%/ %# "`), or a bare `# `/`$ `/`% `.
static PROMPT_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:[\w.-]+@(?:[\w.-]+|\(none\))(?::\S*)?\s?|\[[^\]]{1,40}\]\s?|[\w.-]+:[~/]\S*\s|)[\#$%]\s+\S",
    )
    .expect("static regex")
});

/// How the tail of a typed command a mail client wrapped begins: a mail client breaks at a
/// space, so the next line of the command is more of its words: an option (`-T`), a
/// `key=value` (`count=100`), a path, a pipe, a redirection or a list operator, a quoted
/// argument, or a `jq` filter. A typed command's output starts otherwise (a banner, a
/// number, a sentence), and is never the command's tail.
static COMMAND_TAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^(?:-|\||&&|;|\d?>|<|/|\.[\w/]|'|"|[\w.-]+=)"#).expect("static regex")
});

/// Re-join lines that a mail client wrapped. A break is taken as a re-wrap when the line
/// is near the wrap width (55..=80 columns) and the next line's first word would not have
/// fitted on it: greedy filling only breaks when the next word does not fit, while a
/// program that printed short lines leaves room.
fn unwrap(src: usize, raw: Vec<RawLine>) -> (Vec<Line>, usize) {
    let mut out: Vec<Line> = Vec::with_capacity(raw.len());
    let mut joined = 0;
    // (quote depth, width, full width, soft break)
    let mut prev: Option<(usize, usize, usize, bool)> = None;
    for RawLine {
        no,
        depth,
        width,
        full_width,
        text,
        soft,
    } in raw
    {
        // The rest of a line a quoted-printable soft break cut: joined as it was, with
        // nothing between, whatever the widths. The encoder broke the line as the quoting
        // found it, so its rest carries no quote prefix, or that of a replier who quoted
        // the encoded text (a shallower one).
        if let (Some((pdepth, pw, pfull, true)), Some(last)) = (prev, out.last_mut())
            && depth <= pdepth
        {
            last.text.push_str(&text);
            last.last = no;
            prev = Some((
                pdepth,
                pw.saturating_add(width),
                pfull.saturating_add(width),
                soft,
            ));
            continue;
        }
        let mut join = false;
        if let (Some((pdepth, pw, pfull, _)), Some(last)) = (prev, out.last()) {
            // A continuation at the same depth was wrapped before the reply quoted it: its
            // width without the prefix; an unquoted one after a quoted line is the
            // replier's client's wrap, which counted the prefix.
            let pwidth = if pdepth == depth { pw } else { pfull };
            // A quoted line re-wrapped by the replier's client continues unquoted.
            if (pdepth == depth || (depth == 0 && pdepth > 0))
                && (55..=80).contains(&pwidth)
                && !last.text.is_empty()
                && !text.is_empty()
                && !text.starts_with([' ', '\t'])
                // A mail client breaks lines at spaces; a tab after the first word is a
                // program's column ("critical_warning\t\t\t: 0x9", nvme-cli), not a
                // re-wrapped tail.
                && !text.contains('\t')
                && !NOT_CONTINUATION.is_match(&text)
                // A table row after a table row: both have aligned columns.
                && !(last.text.trim().contains("   ") && text.trim().contains("   "))
                // A heading after a table row ("Non-sync'ed 8kB writes:" after a
                // pg_test_fsync row whose blank line the paste lost) opens the next
                // section: a row's wrapped tail is more of its columns, not a title.
                && !(last.text.trim().contains("   ") && text.trim_end().ends_with(':'))
                // A one-word heading ("Commands/features:", "Capabilities:" of hdparm -I,
                // "config:" of zpool status) opens a section of a program's output; a
                // wrapped sentence's tail of one word with a colon is prose either way.
                && !one_word_heading(&text)
                // A rule under a table header ("-----", "=====") is no prose a client
                // wrapped: the row after it is the table's.
                && !last.text.trim().chars().all(|c| matches!(c, '-' | '=' | '+'))
                && !text.trim().chars().all(|c| matches!(c, '-' | '=' | '+'))
                // A finished line ("... on acpi0", "reserved.") followed by a capitalised
                // one is two lines, not one wrapped line.
                && !(last.text.ends_with(['.', ')', ']'])
                    && text.starts_with(|c: char| c.is_ascii_uppercase()))
                // A typed command is followed by its output: only more of its words join.
                && (!PROMPT_LINE.is_match(&last.text) || COMMAND_TAIL.is_match(&text))
                // A command typed without a prompt (`sudo dd if=/dev/md127 ...` after an
                // hdparm -t timing line) starts a line of its own: the block above it ends
                // there and the command's output is read as its own.
                && !super::recognize::is_command_line(&text)
            {
                let wrap_at = [72usize, 74, 76, 78, 80]
                    .into_iter()
                    .find(|w| *w >= pwidth)
                    .unwrap_or(80);
                let first_word = text.split_whitespace().next().unwrap_or("");
                join = pwidth + 1 + first_word.chars().count() > wrap_at;
            }
        }
        if join {
            if let Some(last) = out.last_mut() {
                last.text.push(' ');
                last.text.push_str(&text);
                last.last = no;
                joined += 1;
            }
        } else {
            out.push(Line {
                src,
                first: no,
                last: no,
                text,
            });
        }
        prev = Some((depth, width, full_width, soft));
    }
    (out, joined)
}

/// A line that is one word ending in a colon: a section heading of a program's output.
fn one_word_heading(text: &str) -> bool {
    let t = text.trim();
    t.ends_with(':') && !t.contains(char::is_whitespace)
}

static DD_MARK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        (?:\^C)?\d+\+\d+\s+(?:records|Datensätze)\s+(?:in|out|ein|aus)
        | \d+\s+bytes\s+transferred\s+in\s+[\d.]+\s+secs\s+\(\d+\s+bytes/sec\)
        | \d+\s+(?:bytes|Bytes)\s+(?:\([^)]*\)\s+)?(?:copied|kopiert),\s+[\d.,]+\s*s,\s+[\d.,]+\s*[kMGT]?B/s
        | (?:\S+@\S+\s*[\#$%]|\[[^\]]{1,40}\]\s*[\#$%]|(?:^|\s)[\#$])\s+(?:time\s+\S+\s+)?dd\s+if=\S+(?:\s+(?:of|bs|count|conv|oflag|iflag|seek|skip|iseek|oseek|status)=\S+)*
        | (?:^|\s)dd\s+if=\S+(?:\s+(?:of|bs|count|conv|oflag|iflag|seek|skip|iseek|oseek|status)=\S+)*
        | (?:^|\s)[\d.]+\s+real\s+[\d.]+\s+user\s+[\d.]+\s+sys
        | (?:^|\s)real\s+\d+m[\d.]+s
        ",
    )
    .expect("static regex")
});

static DEV_COLON: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b([a-z]{1,8}\d{1,3}): ").expect("static regex"));
static DEV_AT_BUS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b[a-z]{1,8}\d{1,3} at [a-z_-]+\d+ bus \d+ scbus\d+ target \d+ lun \w+")
        .expect("static regex")
});
static DISKINFO_ITEM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        \S+\s+\#\s+(?:sectorsize|mediasize|stripesize|stripeoffset|Cylinders|Heads|Sectors|Disk\s|Attachment|Physical|TRIM|Rotation|Zone)
        | (?:Seek\s+times|Full\s+stroke|Half\s+stroke|Quarter\s+stroke|Short\s+forward|Short\s+backward|Seq\s+outer|Seq\s+inner|Transfer\s+rates|outside|middle|inside|I/O\s+command\s+overhead|Asynchronous\s+random\s+reads):
        ",
    )
    .expect("static regex")
});
static GELI_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?:Geom name|State|EncryptionAlgorithm|KeyLength|AuthenticationAlgorithm|Crypto|Version|UsedKey|Flags|KeysAllocated|KeysTotal|Providers|Consumers|\d+\. Name|Mediasize|Sectorsize|Stripesize|Stripeoffset|Mode):",
    )
    .expect("static regex")
});

/// A line shorter than this is one line of output as printed: the run-together shapes of
/// the tools (`spec::Flat`) are looked for only in longer ones. The shortest real case is
/// an lsblk row with `hdparm -t` after it (133 characters); a single line of the tools
/// whose shapes are listed stays below 100 in their sources' printf formats except for
/// long free text ("status:" of zpool, a smartctl raw value), which holds one start only.
const FLAT_MIN_CHARS: usize = 100;

/// The compiled [`spec::Flat`] shapes of every source in the registry: (starts, need, min).
static FLATS: LazyLock<Vec<(Vec<Regex>, Regex, usize)>> = LazyLock::new(|| {
    crate::sources::SPECS
        .iter()
        .filter_map(|s| s.paste.as_ref())
        .flat_map(|p| p.flat.iter())
        .map(|f| (f.starts.iter().map(|r| re(r)).collect(), re(f.need), f.min))
        .collect()
});

/// Where to cut a long line that holds one tool's output run together: for each shape
/// whose `need` matches and whose line starts occur at least `min` times, every start
/// (group 1 of the pattern, else the whole match).
fn tool_cuts(line: &str) -> Vec<usize> {
    let mut cuts = Vec::new();
    if line.chars().count() < FLAT_MIN_CHARS {
        return cuts;
    }
    for (starts, need, min) in FLATS.iter() {
        if !need.is_match(line) {
            continue;
        }
        let found: Vec<usize> = starts
            .iter()
            .flat_map(|r| {
                r.captures_iter(line)
                    .filter_map(|c| c.get(1).or_else(|| c.get(0)).map(|m| m.start()))
            })
            .collect();
        if found.len() >= *min {
            cuts.extend(found);
        }
    }
    cuts
}

/// Where the printk stamp ("[%5lu.%06lu]", kernel/printk/printk.c print_time) that
/// `before` ends with (blanks after it allowed) starts.
fn printk_stamp_before(before: &str) -> Option<usize> {
    let inner = before.trim_end().strip_suffix(']')?;
    let (head, stamp) = inner.rsplit_once('[')?;
    let digits = |x: &str| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit());
    stamp
        .trim()
        .split_once('.')
        .is_some_and(|(s, us)| digits(s) && digits(us))
        .then_some(head.len())
}

/// Split a line on which several outputs were run together (blogs and web archives that
/// dropped the newlines, as in seed 003). Only lines with two or more markers are split.
pub(crate) fn unflatten(line: &str) -> Vec<String> {
    let mut cuts: Vec<usize> = Vec::new();
    let dd: Vec<(usize, usize)> = DD_MARK
        .find_iter(line)
        .map(|m| (m.start(), m.end()))
        .collect();
    if dd.len() >= 2 {
        for (s, e) in &dd {
            cuts.push(*s);
            cuts.push(*e);
        }
    }
    let di: Vec<usize> = DISKINFO_ITEM.find_iter(line).map(|m| m.start()).collect();
    if di.len() >= 3 {
        cuts.extend(di);
    }
    let dev: Vec<usize> = DEV_COLON
        .find_iter(line)
        .map(|m| m.start())
        .chain(DEV_AT_BUS.find_iter(line).map(|m| m.start()))
        .collect();
    if dev.len() >= 2 {
        cuts.extend(dev);
    }
    cuts.extend(tool_cuts(line));
    if !line.contains('\n') {
        let gk: Vec<usize> = GELI_KEY.find_iter(line).map(|m| m.start()).collect();
        if gk.len() >= 4 && line.contains("Geom name:") {
            cuts.extend(gk);
        }
    }
    // A kernel line keeps its printk stamp ("[   14.394483] ata1: SError: ..."): a cut at
    // the device name right after a stamp moves to the stamp.
    for c in cuts.iter_mut() {
        if let Some(s) = printk_stamp_before(line.get(..*c).unwrap_or("")) {
            *c = s;
        }
    }
    if cuts.is_empty() {
        return vec![line.to_string()];
    }
    cuts.push(0);
    cuts.push(line.len());
    crate::sort::sort(&mut cuts);
    cuts.dedup();
    let mut parts = Vec::new();
    for w in cuts.windows(2) {
        if let Some(p) = line.get(w[0]..w[1]) {
            let p = p.trim();
            if !p.is_empty() {
                parts.push(p.to_string());
            }
        }
    }
    if parts.is_empty() {
        vec![line.to_string()]
    } else {
        parts
    }
}

#[cfg(test)]
mod tests;
