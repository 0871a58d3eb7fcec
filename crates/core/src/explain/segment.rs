//! Turn pasted free text (mail quotes, re-wrapped lines, collapsed pastes) into clean lines
//! that keep their original line numbers. References: RFC 3676 (format=flowed quoting with
//! ">"), and the greedy line-filling rule mail clients use when they re-wrap at ~72 columns.

use crate::sources::markup::strip_markup;
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
    for (i, l) in text.split('\n').enumerate() {
        total = i + 1;
        let l = l.strip_suffix('\r').unwrap_or(l);
        let mut l: String = l
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
        let rest = strip_log_header(strip_diff_marker(&inner));
        raw.push(RawLine {
            no: i + 1,
            depth,
            // The width without the quote prefix decides re-wrapping, so a paste reads the
            // same plain and quoted: the prefix a reply adds ("> ", RFC 3676 section 4.5)
            // came after the lines were wrapped, and a replier's client that wraps the
            // quoted text again leaves the prefix's two columns short of its width at most.
            width: display_width(unquoted),
            full_width: display_width(&l),
            text: rest.trim_end().to_string(),
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
    static STAMP: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?x)^(?:
                (?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\s+)?(?:\d{4}\s+)?
                (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+\d{1,2}\s+\d\d:\d\d:\d\d(?:\.\d+)?(?:\s+\d{4})?
              | <\d{1,3}>1\s+\d{4}-\d\d-\d\dT\S+
              | \d{4}-\d\d-\d\d[T\s]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?
              | \d{8}[_T-]?\d{6}
            )[\x20\t]",
        )
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
            kernel:\s | <\d{1,3}> |
            ```|~~~ |                          # Markdown code fences
            \d+\+\d+\s |                       # dd records
            \d+\s(?:bytes|Bytes)\s |              # dd summaries
            \d+\s(?:not\s)?aligned(?::\s.*)?$ |   # parted align-check's answer (3.5+: a reason)
            /dev/ | => | Disk\s | Device | NAME\s | \#|\$ | \* | - | \d+\.\s |
            \[[^\]]{1,40}\]\s?[\#$%]\s |          # a prompt: '[root@localhost ~]# '
            [\w.-]+@[\w.-]+(?::\S*)?\s?[\#$%]\s |  # 'root@host:~# ', 'user@host:/tmp$ '
            (?:pool|state|scan|config|errors|status|action):
            # inxi's section headers, padded to its first column or alone on a line
            # (print_data: 'Drives:    Local Storage: ...', the narrow layout's 'Drives:').
            | (?:System|Machine|Battery|Memory|Graphics|Audio|Network|Bluetooth|Logical|RAID|Drives|Optical|Partition|Swap|Unmounted|Sensors|Repos|Info):(?:\s\s|$)
        )",
    )
    .expect("static regex")
});

/// A line a user typed at a shell prompt: `root@host:~/temp# `, `[root@host ~]# `, the
/// FreeBSD csh/tcsh `root:/path # ` (`set prompt = "%n:%/ %# "`), or a bare `# `/`$ `/`% `.
static PROMPT_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:[\w.-]+@[\w.-]+(?::\S*)?\s?|\[[^\]]{1,40}\]\s?|[\w.-]+:[~/]\S*\s|)[\#$%]\s+\S",
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
    let mut prev: Option<(usize, usize, usize)> = None; // (quote depth, width, full width)
    for RawLine {
        no,
        depth,
        width,
        full_width,
        text,
    } in raw
    {
        let mut join = false;
        if let (Some((pdepth, pw, pfull)), Some(last)) = (prev, out.last()) {
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
        prev = Some((depth, width, full_width));
    }
    (out, joined)
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
    cuts.sort_unstable();
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
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        prepare(0, "t", s.as_bytes())
            .map(|p| p.lines.into_iter().map(|l| l.text).collect())
            .unwrap_or_default()
    }

    #[test]
    fn nvme_list_and_smart_log_run_together_are_cut_back_into_lines() {
        // sources::nvme_list FLAT and sources::nvme_smart FLAT: nvme-cli 1.x's `nvme list`
        // and `nvme smart-log` as a web page ran them into one line each.
        let list = "# nvme list Node SN Model Namespace Usage Format FW Rev ---------------- \
                    -------------------- ---------------------------------------- --------- \
                    -------------------------- ---------------- -------- /dev/nvme0n1 \
                    S3X9NX0K123456 Samsung SSD 970 EVO 1TB 1 3.98 GB / 1.00 TB 512 B + 0 B \
                    2B2QEXE7 /dev/nvme1n1 S4EWNX0R654321 Samsung SSD 980 PRO 1TB 1 200.11 GB \
                    / 1.00 TB 512 B + 0 B 5B2QGXA7";
        let parts = unflatten(list);
        assert_eq!(parts.first().map(String::as_str), Some("# nvme list"));
        assert!(
            parts
                .iter()
                .any(|p| p == "Node SN Model Namespace Usage Format FW Rev"),
            "{parts:?}"
        );
        assert!(
            parts
                .iter()
                .any(|p| p.starts_with("/dev/nvme1n1 S4EWNX0R654321")),
            "{parts:?}"
        );
        let log = "# nvme smart-log /dev/nvme1 Smart Log for NVME device:nvme1 \
                   namespace-id:ffffffff critical_warning : 0 temperature : 36 C \
                   available_spare : 100% available_spare_threshold : 10% percentage_used : 3% \
                   data_units_read : 24,617,317 power_cycles : 204";
        let parts = unflatten(log);
        assert_eq!(
            parts.first().map(String::as_str),
            Some("# nvme smart-log /dev/nvme1"),
            "{parts:?}"
        );
        assert!(parts.iter().any(|p| p == "available_spare_threshold : 10%"));
        assert!(parts.iter().any(|p| p == "percentage_used : 3%"));
        let text = format!("{list}\n{log}\n");
        let got = lines(&text);
        assert!(got.iter().any(|l| l == "temperature : 36 C"), "{got:?}");
        // Near miss: the same fields in prose without nvme-cli's header stay one line.
        let prose = "my drive shows critical_warning : 0 and temperature : 36 C and \
                     available_spare : 100% and percentage_used : 3% and power_cycles : 204 \
                     which looks fine to me";
        assert_eq!(unflatten(prose), vec![prose.to_string()]);
    }

    #[test]
    fn hdparm_settings_run_together_are_cut_back_into_read_backs() {
        // sources::hdparm FLAT_SETTINGS: plain `hdparm /dev/hda` with the newlines lost.
        let line = "/dev/hda: multcount = 16 (on) I/O support = 1 (32-bit) unmaskirq = 1 (on) \
                    using_dma = 0 (off) keepsettings = 0 (off) readonly = 0 (off) readahead = 8 \
                    (on) geometry = 4865/255/63, sectors = 78165360, start = 0";
        let parts = unflatten(line);
        assert_eq!(
            parts.first().map(String::as_str),
            Some("/dev/hda:"),
            "{parts:?}"
        );
        assert!(
            parts.iter().any(|p| p == "using_dma = 0 (off)"),
            "{parts:?}"
        );
        assert!(
            parts.iter().any(|p| p == "I/O support = 1 (32-bit)"),
            "{parts:?}"
        );
        // Without the DMA read-back the line is left alone (the shape needs it).
        let other = line.replace("using_dma = 0 (off) ", "");
        assert_eq!(unflatten(&other), vec![other.clone()]);
    }

    #[test]
    fn a_paste_indented_as_a_whole_loses_the_shared_indent() {
        // goodcommand.net 2019: `smartctl -a` in a reStructuredText literal block.
        let t = "   ubuntu@ubuntu:~$ sudo smartctl -a /dev/sdb\n   smartctl 6.6 2016-05-31 r4324 [x86_64-linux-4.15.0-46-generic] (local build)\n\n   === START OF INFORMATION SECTION ===\n   Vendor:               AVAGO\n";
        let l = lines(t);
        assert!(l.iter().any(|x| x.starts_with("smartctl 6.6 ")), "{l:?}");
        assert!(
            l.iter().any(|x| x == "Vendor:               AVAGO"),
            "{l:?}"
        );
        // Near miss: an output's own indentation under a line at column 0 stays, and so
        // does a single indented line.
        let z = "  pool: tank\n state: ONLINE\nconfig:\n\n        NAME        STATE\n";
        assert!(lines(z).iter().any(|x| x == "  pool: tank"));
        assert_eq!(
            lines("    193 Load_Cycle_Count"),
            vec!["    193 Load_Cycle_Count"]
        );
    }

    #[test]
    fn diff_marks_before_a_printk_stamp_go() {
        assert_eq!(
            strip_diff_marker("+[65060.950040] nvme nvme0: failed to set APST feature (-19)"),
            "[65060.950040] nvme nvme0: failed to set APST feature (-19)"
        );
        assert_eq!(strip_diff_marker("-[    1.5] ata1: x"), "[    1.5] ata1: x");
        // Not a stamp after the mark: a tool's own text stays whole.
        assert_eq!(strip_diff_marker("- free - (1.0G)"), "- free - (1.0G)");
        assert_eq!(strip_diff_marker("+12 bytes"), "+12 bytes");
    }

    #[test]
    fn quotes_are_stripped_at_any_depth() {
        assert_eq!(strip_quote("> > foo"), (2, "foo"));
        assert_eq!(strip_quote(">> foo"), (2, "foo"));
        assert_eq!(strip_quote(">"), (1, ""));
        assert_eq!(strip_quote("=> 63 945"), (0, "=> 63 945"));
        assert_eq!(
            lines("> [ns4]# atacontrol cap ad4\n>\n"),
            vec!["[ns4]# atacontrol cap ad4", "", ""]
        );
    }

    #[test]
    fn markup_inside_a_quote_goes_as_without_one() {
        // A Markdown code span opened on a quoted line, emphasis around a quoted line: the
        // same text as the unquoted paste; the tool's own paired backticks stay.
        let t = "`(da0:storvsc0:0:0:0): Capacity data has changed\n\
                 **GEOM_PART: da0 was automatically resized.**\n\
                 \x20 Use `gpart commit da0` to save changes or `gpart undo da0` to revert them.\n";
        let quoted: String = t.lines().map(|l| format!("> {l}\n")).collect();
        assert_eq!(lines(t), lines(&quoted));
        assert_eq!(
            lines(&quoted)[0],
            "(da0:storvsc0:0:0:0): Capacity data has changed"
        );
        assert!(lines(&quoted)[2].contains("`gpart commit da0`"));
    }

    #[test]
    fn a_short_line_wraps_alike_plain_and_quoted() {
        // A 54-column line followed by a long word: no mail client wrapped it at 72 (the
        // word would have fitted), with or without the reply's "> " that makes it 56 wide.
        let t = "thunderbolt 0-1: new device found, vendor=0x8086 dev=1\n\
                 Intel_Corporation_JHL6540_Thunderbolt_3\n";
        let quoted: String = t.lines().map(|l| format!("> {l}\n")).collect();
        assert_eq!(lines(t).len(), 3, "{:?}", lines(t));
        assert_eq!(lines(t), lines(&quoted));
    }

    #[test]
    fn a_dmesg_ctime_stamp_starts_a_line_of_its_own() {
        // `dmesg -T` (util-linux) prints "[Sun Jun 26 20:30:22 2022] "; a line near the wrap
        // width before it is a whole kernel message, not a wrapped one.
        let t = "[Sun Jun 26 20:30:22 2022] md/raid1:md0: active with 2 out of 2 mirrors\n\
                 [Sun Jun 26 20:30:22 2022] md0: detected capacity change from 0 to 2144337920\n";
        assert_eq!(lines(t).len(), 3, "{:?}", lines(t));
        // Without the stamp the same break is a re-wrap.
        let w = "md/raid1:md0: active with 2 out of 2 mirrors and some more words here\n\
                 continued\n";
        assert_eq!(lines(w).len(), 2, "{:?}", lines(w));
    }

    #[test]
    fn a_dev_printk_line_starts_a_line_of_its_own_at_any_quote_depth() {
        // Kernel lines in dev_printk's "driver device: message" form (drivers/base/core.c),
        // NOT A CAPTURE: one near the wrap width is followed by the next message, not by its
        // own tail; each quote level ("> > ") widens the line by two columns.
        let t = "usb 2-1.3: New USB device found, idVendor=1e91, idProduct=a3a8, bcdDevice=2.07\n\
                 usb 2-1.3: New USB device strings: Mfr=1, Product=2, SerialNumber=5\n\
                 usb-storage 2-1.3:1.0: Quirks match for vid 1e91 pid a3a8: 800000\n\
                 scsi host5: usb-storage 2-1.3:1.0\n\
                 sd 5:0:0:0: [sdc] Very big device. Trying to use READ CAPACITY(16).\n\
                 sd 5:0:0:0: [sdc] 7814037168 512-byte logical blocks: (4.00 TB/3.64 TiB)\n\
                 nvme nvme0: I/O 12 QID 3 timeout, aborting and some more words here\n\
                 ahci 0000:00:1f.2: AHCI 0001.0300 32 slots 6 ports 6 Gbps 0x3f impl SATA\n";
        for depth in 0..4 {
            let q = "> ".repeat(depth);
            let quoted: String = t.lines().map(|l| format!("{q}{l}\n")).collect();
            let got = lines(&quoted);
            assert_eq!(got.len(), 9, "depth {depth}: {got:?}");
            assert_eq!(
                got[4],
                "sd 5:0:0:0: [sdc] Very big device. Trying to use READ CAPACITY(16)."
            );
        }
        // A wrapped kernel line's tail still joins it: the tail is no "driver device: ".
        let w = "> > sd 5:0:0:0: [sdc] tag#0 FAILED Result: hostbyte=DID_OK driverbyte=\n\
                 > > DRIVER_SENSE cmd_age=0s\n";
        assert_eq!(lines(w).len(), 2, "{:?}", lines(w));
    }

    #[test]
    fn an_mdstat_line_after_a_long_personalities_line_is_not_its_tail() {
        let t = "Personalities : [linear] [raid0] [raid1] [raid6] [raid5] [raid4] [raid10]\n\
                 md0 : active raid10 sdg[5] sdf[4] sde[3](F) sdd[2] sdc[1] sdb[0]\n";
        // (lines() keeps the empty line after the last newline.)
        assert_eq!(lines(t).len(), 3, "{:?}", lines(t));
        // Prose a client wrapped still joins.
        let p = "I have replaced the failed disk in the array and started the rebuild, then\n\
                 waited two days for it to finish\n";
        assert_eq!(lines(p).len(), 2, "{:?}", lines(p));
    }

    #[test]
    fn an_inxi_section_header_after_a_long_line_is_not_its_tail() {
        // inxi -Fxz: a 73-column Network line, then the Drives section (wide layout), and
        // the narrow layout's header alone on its line.
        let t = "           IF: eno1 state: up speed: 1000 Mbps duplex: full mac: <filter>\n\
                 Drives:    Local Storage: total: 908.66 GiB used: 31.68 GiB (3.5%)\n";
        assert_eq!(lines(t).len(), 3, "{:?}", lines(t));
        let n = "  IF: enp3s0 state: down mac: <filter> speed: 1000 Mbps duplex: full\n\
                 Drives:\n  Local Storage: total: 9.21 TiB used: 3.35 TiB (36.4%)\n";
        assert_eq!(lines(n).len(), 4, "{:?}", lines(n));
        // A sentence that starts with the same word still joins.
        let p = "I have replaced the failed disk in the array and started the rebuild, then\n\
                 Drives: both were new\n";
        assert_eq!(lines(p).len(), 2, "{:?}", lines(p));
    }

    #[test]
    fn rewrapped_lines_are_joined_but_tables_are_not() {
        let wrapped = "atapci0: <nVidia nForce CK804 UDMA133 controller> port 0x1f0-0x1f7,0x3f6,\n0x170-0x177,0x376,0xffa0-0xffaf at device 15.0 on pci0\n";
        let l = lines(wrapped);
        assert_eq!(
            l[0],
            "atapci0: <nVidia nForce CK804 UDMA133 controller> port 0x1f0-0x1f7,0x3f6, 0x170-0x177,0x376,0xffa0-0xffaf at device 15.0 on pci0"
        );
        let table = "0 78 0.00 0 0.00 0.00 0 0.00 0.50 7474 3.65 0 0 30 4 65\n287 78 0.00 0 0.00\n";
        assert_eq!(lines(table).len(), 3);
        // parted's align-check answer after its command (parted 3.5+ adds the reason) is
        // the output, not the command's tail, however long the prompt line is.
        let parted = "pi@raspberry-2ccf67b77b36:~$ sudo parted /dev/mmcblk0 align-check optimal 4\n\
                      4 not aligned: 30929920s % 2048s != 0s\n";
        assert_eq!(lines(parted).len(), 3, "{:?}", lines(parted));
        // A CAM error report after a register dump cut at 80 columns: each line of the
        // report starts with the device path, never a wrapped tail.
        let cam = "> ahcich8: is 00000002 cs 00000000 ss 00000000 rs 00000020 tfd 50 serr 00000000 c7\n\
                   > (aprobe0:ahcich8:0:0:0): ATA_IDENTIFY. ACB: ec 00 00 00 00 40 00 00 00 00 00 00\n\
                   > (aprobe0:ahcich8:0:0:0): CAM status: Command timeout\n";
        assert_eq!(lines(cam).len(), 4, "{:?}", lines(cam));
        // A parenthesised word after a wrapped line is still its tail.
        let prose = "> the disk kept timing out whenever the controller tried to reset the port\n\
                     > (twice a day) until replaced\n";
        assert_eq!(lines(prose).len(), 2, "{:?}", lines(prose));
    }

    /// A typed command near the wrap width is followed by its output, not by its tail,
    /// whatever the prompt and the output (quoted replies add two columns): smartctl's
    /// banner, a grep's match, a number. A command a client wrapped still joins when the
    /// next line is more of its words.
    #[test]
    fn output_after_a_typed_command_is_not_its_tail() {
        for (cmd, out) in [
            (
                "> root:/smartmontools-7.0 # ./smartctl -a /dev/da0 -T permissive",
                "> smartctl 7.0 2018-12-30 r4883 [FreeBSD 9.3-RELEASE amd64] (local build)",
            ),
            (
                "> root@anode1:~/temp# smartctl /dev/sdc -a | grep 'grown defect'",
                "> Elements in grown defect list: 30",
            ),
            (
                "[admin@storage01 ~]$ sudo smartctl -x /dev/sdb | grep -i 'defect list'",
                "Elements in grown defect list: 12",
            ),
            (
                "# smartctl -a -j /dev/nvme0n1 | jq .nvme_smart_health_information_log.media",
                "0",
            ),
        ] {
            let t = format!("{cmd}\n{out}\n");
            assert_eq!(lines(&t).len(), 3, "{:?}", lines(&t));
        }
        for (cmd, tail) in [
            (
                "> root@host:~# dd if=/dev/zero of=/dev/sdb bs=1M count=1000 oflag=direct",
                "> status=progress",
            ),
            (
                "root@nas:/root # dd if=/dev/ada0 bs=1m count=4096 conv=sync,noerror",
                "of=/dev/null",
            ),
            (
                "$ sudo fio --name=seqwrite --rw=write --bs=1M --size=4G --filename=/dev/sdc",
                "| tee fio.log",
            ),
        ] {
            let t = format!("{cmd}\n{tail}\n");
            assert_eq!(lines(&t).len(), 2, "{:?}", lines(&t));
        }
    }

    #[test]
    fn collapsed_dd_runs_are_split() {
        let l = unflatten(
            "root@heckler:/home/dan # dd if=/dev/zero of=/dev/da0 bs=32k count=300000 300000+0 records in 300000+0 records out 9830400000 bytes transferred in 53.709288 secs (183029796 bytes/sec) root@heckler:/home/dan # dd if=/dev/zero of=/dev/da0 bs=64k count=300000",
        );
        assert_eq!(
            l[0],
            "root@heckler:/home/dan # dd if=/dev/zero of=/dev/da0 bs=32k count=300000"
        );
        assert_eq!(l[1], "300000+0 records in");
        assert_eq!(l[2], "300000+0 records out");
        assert_eq!(
            l[3],
            "9830400000 bytes transferred in 53.709288 secs (183029796 bytes/sec)"
        );
        assert!(
            l[4].ends_with("dd if=/dev/zero of=/dev/da0 bs=64k count=300000"),
            "{l:?}"
        );
    }

    #[test]
    fn log_headers_go_and_kernel_lines_stay_whole() {
        // A bare stamp before each line of a command's output: the stamp and one space go,
        // the output's own indentation and tabs stay (zpool status).
        assert_eq!(
            lines(
                "Jun  2 03:04:05   pool: tank\nJun  2 03:04:05  state: ONLINE\nJun  2 03:04:05 \tNAME  STATE\n"
            ),
            vec!["  pool: tank", " state: ONLINE", "\tNAME  STATE", ""]
        );
        // RFC 3164 with host and a tag with a PID, a SONiC-style year, fraction and
        // severity, RFC 3339 (journalctl -o short-iso) and RFC 5424 headers of other
        // programs: the program's text is what remains.
        for (l, want) in [
            (
                "Oct  9 22:15:01 nas smartd[812]: Device: /dev/sdb [SAT], 16 Currently unreadable (pending) sectors",
                "Device: /dev/sdb [SAT], 16 Currently unreadable (pending) sectors",
            ),
            (
                "2025 Feb 11 08:00:00.123456 sw1 NOTICE admin: Model Number:    ACME NVMe 1TB",
                "Model Number:    ACME NVMe 1TB",
            ),
            (
                "2024-05-06T07:08:09+0200 box logger[77]: === START OF INFORMATION SECTION ===",
                "=== START OF INFORMATION SECTION ===",
            ),
            (
                "<30>1 2024-05-06T07:08:09.1Z box zed 991 - - eid=5 class=statechange",
                "eid=5 class=statechange",
            ),
            (
                "  Nov 30 11:12:13 pc root: SMART support is: Enabled",
                "SMART support is: Enabled",
            ),
            (
                "<6>ata3: SATA link up 3.0 Gbps",
                "ata3: SATA link up 3.0 Gbps",
            ),
        ] {
            assert_eq!(strip_log_header(l), want, "{l}");
        }
        // The kernel's lines keep their header, with or without a host; so do lines whose
        // words after a stamp are no header ("status: ...", "Device Model: ...").
        for l in [
            "Nov 30 11:12:13 pc kernel: ata1.00: failed command: READ DMA",
            "Nov 30 11:12:13 kernel: ata1.00: failed command: READ DMA",
            "2024-05-06T07:08:09+0200 pc kernel: nvme nvme0: I/O 9 QID 3 timeout, aborting",
            "<3>1 2024-05-06T07:08:09Z pc kernel - - - blk_update_request: I/O error",
            // A field more between host and tag: the year again, a facility.level.
            "Jun 12 15:23:30 2011 barracuda 2011 kernel: [ 376.184695] end_request: I/O error, dev sdb, sector 793283772",
            "Jun 12 15:23:30 <kern.crit> barracuda kernel: ata1.00: failed command: READ DMA",
            // FreeBSD 4's syslogd tag of the kernel it booted, /kernel.
            "Feb 21 22:11:22 tuatara /kernel: da0 at umass-sim0 bus 0 target 0 lun 0",
        ] {
            assert_eq!(strip_log_header(l), l);
        }
        // Near miss: another program's path tag is no kernel line and loses its stamp.
        let l = "Feb 21 22:11:22 tuatara /usr/sbin/cron: da0 at umass-sim0";
        assert_ne!(strip_log_header(l), l);
        // Another program's tag after two fields is still stripped with the header.
        assert_eq!(
            strip_log_header(
                "Jun 12 15:23:30 barracuda smartd[612]: Device: /dev/sda, 8 Currently unreadable"
            ),
            "Device: /dev/sda, 8 Currently unreadable"
        );
        assert_eq!(
            strip_log_header("Nov 30 11:12:13 status: One or more devices is resilvering."),
            "status: One or more devices is resilvering."
        );
        assert_eq!(
            strip_log_header("Nov 30 11:12:13 Device Model:     ST4000DM004"),
            "Device Model:     ST4000DM004"
        );
        assert_eq!(strip_log_header("=> 63 945"), "=> 63 945");
        // A script's logger: basic-format stamp, a severity word, tabs; the output's own
        // indentation after the word's one separator stays.
        assert_eq!(
            lines(
                "20181103_110000\tERROR\t  pool: tank\n20181103_110000\tERROR\t\tNAME  STATE\n20181103T110000 INFO scan: none requested\n"
            ),
            vec!["  pool: tank", "\tNAME  STATE", "scan: none requested", ""]
        );
        // A number that is no stamp, and a stamp without a level word, keep their text.
        assert_eq!(
            strip_log_header("20181103_110000\tpool: tank"),
            "pool: tank"
        );
        assert_eq!(strip_log_header("2018110 ERROR x"), "2018110 ERROR x");
        // Stamped kernel lines are never re-joined as a mail client's wrapped line.
        let l = lines(
            "Nov 30 11:12:13 pc kernel: ata1.00: status: { DRDY ERR }, and a little more\nNov 30 11:12:13 pc kernel: ata1.00: error: { ABRT }\n",
        );
        assert_eq!(l.len(), 3, "{l:?}");
        // Nor is a Markdown code fence after a line of mail width.
        let l =
            lines("the output of the second run, with the write cache switched off again:\n```\n");
        assert_eq!(l[1], "```", "{l:?}");
    }

    #[test]
    fn empty_and_binary_inputs_are_named() {
        assert_eq!(prepare(0, "t", b"").unwrap_err(), InputProblem::Empty);
        assert_eq!(
            prepare(0, "t", b" \n\t\n").unwrap_err(),
            InputProblem::Empty
        );
        let bin: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 256) as u8).collect();
        assert!(matches!(
            prepare(0, "t", &bin),
            Err(InputProblem::Binary { .. })
        ));
    }

    #[test]
    fn a_log_run_together_on_one_line_is_cut_at_its_stamps() {
        use crate::model::KernelEventKind;
        use crate::sources::kernel_log::all_events;
        // An index excerpt of a libata bus-error report with its newlines dropped, a shell
        // prompt before it.
        let flat = "root@box ~ #df -h Filesystem Size Used /dev/root 468.3M 443.1M [ 14.374593] \
                    ata1.00: exception Emask 0x12 SAct 0x7f00001f SErr 0x800500 action 0x6 frozen \
                    [ 14.384533] ata1.00: irq_stat 0x08000000, interface fatal error [ 14.394483] \
                    ata1: SError: { UnrecovData Proto LinkSeq } [ 14.399952] ata1.00: failed \
                    command: READ FPDMA QUEUED";
        let parts = unflatten(flat);
        assert_eq!(parts.len(), 5, "{parts:?}");
        assert_eq!(
            parts[3],
            "[ 14.394483] ata1: SError: { UnrecovData Proto LinkSeq }"
        );
        let kinds: Vec<_> = all_events(&parts.join("\n"), "k")
            .into_iter()
            .map(|(_, e)| e.kind)
            .collect();
        assert!(kinds.contains(&KernelEventKind::CrcError), "{kinds:?}");
        // Without stamps: cut at each libata port prefix.
        let bare = "ata3.00: exception Emask 0x0 SAct 0x0 SErr 0x0 action 0x0 ata3.00: failed \
                    command: READ DMA EXT ata3.00: status: { DRDY ERR } ata3.00: error: { UNC }";
        assert_eq!(unflatten(bare).len(), 4, "{:?}", unflatten(bare));
        // One long stamped line is one line, and two stamps are not yet a flattened log.
        let one = "[    2.512345] ata1.00: ATA-9: ST2000DM001-1CH164, CC43, max UDMA/133, \
                   3907029168 sectors: 2000 GB, NCQ (depth 31/32), AA";
        assert_eq!(unflatten(one).len(), 1);
        let two = "[    2.512345] ata1.00: configured for UDMA/133 [    2.512399] ata1.00: \
                   supports DRM functions and may not be fully accessible";
        assert_eq!(unflatten(two).len(), 1);
    }
}
