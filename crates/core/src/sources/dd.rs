//! dd results and command lines pasted by people (GNU coreutils and BSD dd), as
//! [`UserBenchmark`] values for the benchmark critic.
//!
//! Reference: dd(1) of GNU coreutils ("N+M records in/out", "B bytes (x GB, y GiB) copied,
//! S s, R MB/s"; older releases "B bytes (x GB) copied"; translated record lines such as
//! German "Datensätze ein/aus"; decimal commas in such locales) and FreeBSD dd(1) ("B bytes
//! transferred in S secs (R bytes/sec)"). Operand sizes: K/M/G = 1024-based, KB/MB/GB =
//! 1000-based (GNU), lowercase k/m/g (BSD). Without bs=/ibs=/obs= both dds use 512-byte
//! blocks (POSIX dd default), which is what makes `dd if=/dev/ad8 of=/dev/null` slow.
//!
//! The text is tokenised as one stream so that outputs collapsed onto one line by a blog or
//! mail client (seed 003) parse the same as the original lines.

use crate::model::UserBenchmark;
use crate::sources::util::{clean_line, leading_f64, leading_u64, parse_size};

#[derive(Debug, Clone)]
struct Tok {
    line: usize,
    text: String,
}

#[derive(Default)]
struct Group {
    b: UserBenchmark,
    first_line: usize,
    last_line: usize,
    has_records: bool,
    has_summary: bool,
    /// Seconds of the summary were printed without decimals (GNU status=progress line).
    summary_integer_secs: bool,
    used: bool,
    /// The shell's `time` after the run: real, user and sys seconds.
    time_real: Option<f64>,
    time_user: Option<f64>,
    time_sys: Option<f64>,
}

impl Group {
    fn touch(&mut self, line: usize) {
        if !self.used {
            self.first_line = line;
        }
        self.used = true;
        self.last_line = self.last_line.max(line);
    }
}

/// Every dd run (command and/or result lines) in `text`, in order. Each result is paired
/// with the command line before it when there is one; a summary line without a command
/// inherits the last command when bs x count equals its byte count (repeated runs).
pub fn parse(text: &str) -> Vec<UserBenchmark> {
    let lines: Vec<String> = text.lines().map(clean_line).collect();
    let mut toks: Vec<Tok> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        for t in unmark(l).split_whitespace() {
            toks.push(Tok {
                line: i + 1,
                text: t.to_string(),
            });
        }
    }
    let mut out: Vec<UserBenchmark> = Vec::new();
    let mut g = Group::default();
    let mut last_cmd: Option<UserBenchmark> = None;
    let mut i = 0;
    while i < toks.len() {
        let Some(t) = toks.get(i) else { break };
        let line = t.line;
        // Command: "dd" followed by operands with '='.
        if is_dd_word(&t.text)
            && toks
                .get(i + 1)
                .is_some_and(|n| n.line == line && n.text.contains('='))
        {
            let mut ops = Vec::new();
            let mut j = i + 1;
            let mut cur = line;
            while let Some(n) = toks.get(j) {
                // A mail or forum editor wraps a long command: a next line made only of dd
                // operands (`count=1024`) continues it.
                if n.line == cur + 1 && operands_only(&toks, j) {
                    cur = n.line;
                }
                if n.line != cur || !n.text.contains('=') || n.text.starts_with('#') {
                    break;
                }
                ops.push(n.text.trim_matches(['\'', '`', '"', ';']).to_string());
                j += 1;
            }
            flush(&mut g, &mut out);
            g.b = command(&ops);
            g.touch(line);
            last_cmd = Some(g.b.clone());
            i = j;
            continue;
        }
        // Error: "dd: <what>: <message>" up to the end of the line.
        // dd's diagnostics start the line and always carry "what: message".
        let starts_line = i == 0 || toks.get(i - 1).is_some_and(|p| p.line != line);
        // The shell's `time` lines of the run (bash's "real 0m0.281s", "user 0m0.108s",
        // "sys 0m0.173s"; POSIX `time -p` bare seconds): kept so the critic can tell a run
        // that waited on the device from one the CPU bounded. The "real" line is looked at
        // again below for a dd that printed no byte count.
        if starts_line && g.used && matches!(t.text.as_str(), "real" | "user" | "sys") {
            let v = real_at(&toks, i).map(|(v, _)| v);
            match t.text.as_str() {
                "real" => g.time_real = v,
                "user" => g.time_user = v,
                _ => g.time_sys = v,
            }
        }
        let msg: Vec<&str> = if t.text == "dd:" && starts_line {
            toks.iter()
                .skip(i)
                .take_while(|n| n.line == line)
                .map(|n| n.text.as_str())
                .collect()
        } else {
            Vec::new()
        };
        if msg.len() >= 3 && msg.iter().skip(1).any(|w| w.contains(':')) {
            let n = msg.len();
            if g.has_summary && !g.has_records && g.summary_integer_secs {
                // A status=progress snapshot of the run that is now failing.
                clear_summary(&mut g);
            } else if g.has_summary {
                flush(&mut g, &mut out);
            }
            g.b.error = Some(error_text(&msg.join(" ")));
            g.touch(line);
            i += n.max(1);
            continue;
        }
        // Records: "N+M records in" / "N+M Datensätze ein".
        if let Some((rec, dir, used)) = records_at(&toks, i) {
            if dir_is_in(&dir) {
                if g.has_records && g.has_summary {
                    flush(&mut g, &mut out);
                } else if g.has_summary && !g.has_records {
                    if g.summary_integer_secs {
                        // The earlier line was a status=progress snapshot of this same run.
                        clear_summary(&mut g);
                    } else {
                        flush(&mut g, &mut out);
                    }
                }
                g.b.records_in = Some(rec);
            } else {
                g.b.records_out = Some(rec);
            }
            g.has_records = true;
            g.touch(line);
            i += used;
            continue;
        }
        // The shell's `time` after a dd that printed no byte count: BusyBox dd prints only
        // the two records lines unless built with FEATURE_DD_THIRD_STATUS_LINE
        // (coreutils/dd.c), so `time dd ...` is how its users measure. The elapsed time
        // and bs x count (or the full records out x bs) give the rate.
        if t.text == "real"
            && starts_line
            && g.has_records
            && !g.has_summary
            && let Some((secs, used)) = real_at(&toks, i)
        {
            let full_out =
                g.b.records_out
                    .as_deref()
                    .and_then(|r| r.split_once('+'))
                    .and_then(|(f, _)| f.parse::<u64>().ok());
            let bytes = implied_bytes(&g.b).or_else(|| {
                full_out.and_then(|n| g.b.block_size_bytes.and_then(|b| b.checked_mul(n)))
            });
            if let Some(bytes) = bytes
                && secs > 0.0
            {
                g.b.bytes = Some(bytes);
                g.b.seconds = Some(secs);
                g.b.bytes_per_sec = Some(bytes as f64 / secs);
                g.has_summary = true;
                g.touch(line);
            }
            i += used;
            continue;
        }
        // Summary lines.
        if let Some((s, used)) = summary_at(&toks, i) {
            if g.has_summary {
                flush(&mut g, &mut out);
            }
            if g.b.command.is_none() && !g.has_records {
                // A bare summary: repeated run of the last command when the sizes agree.
                if let Some(c) = &last_cmd
                    && implied_bytes(c) == Some(s.bytes)
                {
                    let keep_err = g.b.error.take();
                    g.b = c.clone();
                    g.b.error = keep_err;
                }
            }
            g.b.bytes = Some(s.bytes);
            g.b.seconds = s.seconds;
            g.b.bytes_per_sec = s.rate;
            g.has_summary = true;
            g.summary_integer_secs = s.integer_secs;
            if g.b.tool.is_empty() {
                g.b.tool = "dd".into();
            }
            g.touch(line);
            i += used;
            continue;
        }
        i += 1;
    }
    flush(&mut g, &mut out);
    out
}

/// Whether the line that starts at token `j` holds nothing but dd operands (dd(1): if, of,
/// bs, ibs, obs, count, skip, seek, conv, iflag, oflag, status).
fn operands_only(toks: &[Tok], j: usize) -> bool {
    let Some(line) = toks.get(j).map(|t| t.line) else {
        return false;
    };
    if j > 0 && toks.get(j - 1).is_some_and(|p| p.line == line) {
        return false;
    }
    const OPS: &[&str] = &[
        "if", "of", "bs", "ibs", "obs", "count", "skip", "seek", "iseek", "oseek", "conv", "iflag",
        "oflag", "status",
    ];
    toks.iter().skip(j).take_while(|t| t.line == line).all(|t| {
        t.text
            .split_once('=')
            .is_some_and(|(k, _)| OPS.contains(&k))
    })
}

fn clear_summary(g: &mut Group) {
    g.b.bytes = None;
    g.b.seconds = None;
    g.b.bytes_per_sec = None;
    g.has_summary = false;
}

fn dir_is_in(d: &str) -> bool {
    d.starts_with("in") || d.starts_with("ein")
}

fn is_dd_word(t: &str) -> bool {
    let w = t.trim_start_matches(['\'', '`', '"', '(', '$', '#', '%', '>', '[', ']']);
    // "1)" list markers and shell prompts are separate tokens; "dd" itself must be whole.
    w == "dd" || w.ends_with("/dd") || w.ends_with("#dd") || w.ends_with("$dd")
}

fn flush(g: &mut Group, out: &mut Vec<UserBenchmark>) {
    if g.used {
        let mut b = std::mem::take(&mut g.b);
        if b.tool.is_empty() {
            b.tool = "dd".into();
        }
        if b.block_size_bytes.is_none() {
            b.block_size_bytes = derived_block_size(&b);
        }
        if let (Some(r), Some(u), Some(sy)) = (g.time_real, g.time_user, g.time_sys) {
            b.time_real_s = Some(r);
            b.time_cpu_s = Some(u + sy);
        }
        b.from = if g.first_line == g.last_line {
            format!("line {}", g.first_line)
        } else {
            format!("lines {}-{}", g.first_line, g.last_line)
        };
        out.push(b);
    }
    *g = Group::default();
}

/// Block size from bytes / full records when no command was pasted: exact when there is no
/// partial record; with a partial record the largest power of two not above bytes/full.
fn derived_block_size(b: &UserBenchmark) -> Option<u64> {
    let bytes = b.bytes?;
    let rec = b.records_out.as_deref().or(b.records_in.as_deref())?;
    let (full, partial) = rec.split_once('+')?;
    let full: u64 = full.parse().ok()?;
    let partial: u64 = partial.parse().ok()?;
    if full == 0 {
        return None;
    }
    if partial == 0 {
        return (bytes % full == 0).then(|| bytes / full);
    }
    let q = bytes / full;
    if q == 0 {
        return None;
    }
    let p2 = 1u64 << (63 - q.leading_zeros());
    (bytes.saturating_sub(p2.saturating_mul(full)) < p2.saturating_mul(2)).then_some(p2)
}

/// The UserBenchmark a dd command line describes.
fn command(ops: &[String]) -> UserBenchmark {
    let mut b = UserBenchmark {
        tool: "dd".into(),
        command: Some(format!("dd {}", ops.join(" "))),
        ..Default::default()
    };
    let mut bs = None;
    let mut obs = None;
    let mut ibs = None;
    for op in ops {
        let Some((k, v)) = op.split_once('=') else {
            continue;
        };
        match k {
            "if" => b.input = Some(v.to_string()),
            "of" => b.output = Some(v.to_string()),
            "bs" => bs = parse_size(v),
            "ibs" => ibs = parse_size(v),
            "obs" => obs = parse_size(v),
            "conv" | "oflag" | "iflag" => {
                for f in v.split(',').filter(|f| !f.is_empty()) {
                    b.flags.push(format!("{k}={f}"));
                }
            }
            "count" | "skip" | "seek" | "iseek" | "oseek" | "status" => {
                b.flags.push(format!("{k}={v}"))
            }
            _ => {}
        }
    }
    // bs= overrides ibs/obs (dd(1)); the write size matters for writes, the read size for
    // reads; report the larger-impact one: obs when writing to a file/device, else ibs.
    b.block_size_bytes = bs.or(obs.or(ibs)).or(Some(512));
    b
}

/// bs x count when both are given (count counts input blocks).
fn implied_bytes(b: &UserBenchmark) -> Option<u64> {
    let count = b
        .flags
        .iter()
        .find_map(|f| f.strip_prefix("count="))
        .and_then(parse_size)?;
    b.block_size_bytes?.checked_mul(count)
}

/// The device node (without /dev/) a dd run failed on with an I/O error (EIO): the node its
/// message names (GNU coreutils dd.c: "dd: error reading '/dev/sda1': Input/output error",
/// "dd: error writing '/dev/sdb': ...", older releases "dd: reading `/dev/sda'" and "dd:
/// writing to '/dev/sdb'", quoted with ‘’ in a UTF-8 locale; FreeBSD dd(1) via err(3):
/// "dd: /dev/ada0: Input/output error"), else the input of a failed read or the output of a
/// failed write. EIO is the errno of a request the device itself failed (a sector the drive
/// could not read or write, or a drive that stopped answering), unlike ENOSPC at the end of
/// the device. None for runs on files or on nodes below /dev/ subdirectories.
pub(crate) fn failed_io_device(b: &UserBenchmark) -> Option<String> {
    let msg = b.error.as_deref()?.strip_prefix("EIO:")?;
    let quoted = msg.split_whitespace().find_map(|w| {
        let w = w.trim_matches(|c: char| "'`\"‘’“”:,".contains(c));
        w.starts_with("/dev/").then(|| w.to_string())
    });
    let low = msg.to_lowercase();
    let path = quoted.or_else(|| {
        if low.contains("read") || low.contains("lesen") {
            b.input.clone()
        } else if low.contains("writ") || low.contains("schreiben") {
            b.output.clone()
        } else {
            None
        }
    })?;
    let node = path.strip_prefix("/dev/")?;
    (!node.is_empty() && !node.contains('/')).then(|| node.to_string())
}

/// errno name for the message dd printed (strerror text in English or German).
fn error_text(line: &str) -> String {
    let low = line.to_lowercase();
    let errno = if low.contains("input/output error") || low.contains("eingabe-/ausgabefehler") {
        "EIO"
    } else if low.contains("no space left") || low.contains("kein speicherplatz") {
        "ENOSPC"
    } else if low.contains("invalid argument") || low.contains("argument ist ungültig") {
        "EINVAL"
    } else if low.contains("permission denied") || low.contains("keine berechtigung") {
        "EACCES"
    } else if low.contains("no such file") {
        "ENOENT"
    } else if low.contains("read-only file system") {
        "EROFS"
    } else if low.contains("operation not permitted") {
        "EPERM"
    } else {
        "error"
    };
    format!("{errno}: {line}")
}

/// "N+M records in" at `i`: (record string, direction word, tokens used).
fn records_at(toks: &[Tok], i: usize) -> Option<(String, String, usize)> {
    let t = &toks.get(i)?.text;
    // "^C410+0" (interrupted run): skip a non-digit prefix.
    let start = t.find(|c: char| c.is_ascii_digit())?;
    let rec = t.get(start..)?;
    let (a, b) = rec.split_once('+')?;
    if a.is_empty() || b.is_empty() || !a.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if !b.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let word = toks.get(i + 1)?.text.to_lowercase();
    if !(word == "records" || word.starts_with("datens") || word == "enregistrements") {
        return None;
    }
    let dir = toks
        .get(i + 2)
        .map(|d| d.text.to_lowercase())
        .unwrap_or_default();
    if !(dir.starts_with("in")
        || dir.starts_with("out")
        || dir.starts_with("ein")
        || dir.starts_with("aus")
        || dir.starts_with("lus")
        || dir.starts_with("écrits"))
    {
        return None;
    }
    let dir = if dir.starts_with("lus") {
        "in".to_string()
    } else {
        dir
    };
    Some((format!("{a}+{b}"), dir, 3))
}

struct Summary {
    bytes: u64,
    seconds: Option<f64>,
    rate: Option<f64>,
    integer_secs: bool,
}

/// BSD "B bytes transferred in S secs (R bytes/sec)" or GNU "B bytes (..) copied, S s, R U/s".
/// The elapsed time of the shell's `time` at token `i` ("real"): bash's "0m4.610s", BusyBox's
/// two words "0m 4.61s", or a bare "4.61" (POSIX `time -p`); with the tokens used.
fn real_at(toks: &[Tok], i: usize) -> Option<(f64, usize)> {
    let line = toks.get(i)?.line;
    let a = toks.get(i + 1).filter(|t| t.line == line)?.text.as_str();
    let secs = |x: &str| x.trim_end_matches('s').parse::<f64>().ok();
    if let Some((m, rest)) = a.split_once('m') {
        let m: f64 = m.parse().ok()?;
        if rest.is_empty() {
            let b = toks.get(i + 2).filter(|t| t.line == line)?.text.as_str();
            return Some((m * 60.0 + secs(b)?, 3));
        }
        return Some((m * 60.0 + secs(rest)?, 2));
    }
    Some((secs(a)?, 2))
}

fn summary_at(toks: &[Tok], i: usize) -> Option<(Summary, usize)> {
    let t0 = &toks.get(i)?.text;
    if !t0.chars().all(|c| c.is_ascii_digit()) {
        // "^C10485760000" would be odd; interrupted runs put ^C before the records line.
        return None;
    }
    let bytes: u64 = t0.parse().ok()?;
    let w1 = &toks.get(i + 1)?.text;
    if w1 != "bytes" && w1 != "Bytes" && w1 != "byte" {
        return None;
    }
    let w2 = toks.get(i + 2).map(|t| t.text.as_str()).unwrap_or("");
    if w2 == "transferred" {
        // BSD: bytes transferred in S secs (R bytes/sec)
        let secs = toks.get(i + 4).and_then(|t| leading_f64(&t.text));
        let rate = toks
            .get(i + 6)
            .map(|t| t.text.trim_start_matches('('))
            .and_then(leading_u64)
            .map(|r| r as f64);
        let used = if rate.is_some() { 8 } else { 5 };
        let rate = rate.or_else(|| secs.filter(|s| *s > 0.0).map(|s| bytes as f64 / s));
        return Some((
            Summary {
                bytes,
                seconds: secs,
                rate,
                integer_secs: false,
            },
            used,
        ));
    }
    // GNU: skip the "(x GB, y GiB)" parenthetical to "copied," (or a translation of it).
    let mut j = i + 2;
    if toks.get(j).is_some_and(|t| t.text.starts_with('(')) {
        while let Some(t) = toks.get(j) {
            j += 1;
            if t.text.ends_with(')') || t.text.ends_with("),") {
                break;
            }
            if j > i + 8 {
                return None;
            }
        }
    }
    let cw = toks.get(j)?.text.trim_end_matches(',').to_lowercase();
    if !(cw == "copied" || cw == "kopiert" || cw == "copiés" || cw == "copiati") {
        return None;
    }
    let secs_tok = toks.get(j + 1).map(|t| t.text.as_str()).unwrap_or("");
    let secs = leading_f64(secs_tok);
    let integer_secs = !secs_tok.contains(['.', ',']);
    let rate_num = toks.get(j + 3).and_then(|t| leading_f64(&t.text));
    let rate_unit = toks.get(j + 4).map(|t| t.text.as_str()).unwrap_or("");
    let printed = rate_num.and_then(|n| {
        let u = rate_unit.trim_end_matches("/s");
        crate::sources::util::unit_multiplier(u).map(|m| n * m)
    });
    // GNU rounds the printed rate to 2-3 digits; bytes / seconds is more precise.
    let rate = match secs {
        Some(s) if s > 0.0 => Some(bytes as f64 / s),
        _ => printed,
    };
    let used = if printed.is_some() {
        j + 5 - i
    } else {
        j + 2 - i
    };
    Some((
        Summary {
            bytes,
            seconds: secs,
            rate,
            integer_secs,
        },
        used,
    ))
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

crate::rx!(
    DD_RECORDS,
    r"^(?:\^C)?(\d+)\+(\d+) (records|Datensätze) (in|out|ein|aus)\s*$"
);
crate::rx!(
    DD_BSD_BYTES,
    // BSD dd (bin/dd/misc.c summary) prints "secs"; GNU coreutils 5.x before 5.93 printed the
    // same sentence with "seconds" (src/dd.c print_stats of 2004-2005), a format old Linux
    // posts still carry.
    r"^(\d+) bytes transferred in ([\d.]+) (?:secs|seconds) \((\d+) bytes/sec\)"
);
crate::rx!(
    DD_GNU_BYTES,
    // The rate is the one part a poster's markup breaks ("4.55032 s, **# 466 kB/s**"): bytes,
    // "copied" and the seconds already make the line dd's, and the rate follows from them.
    // coreutils 5.93-7.x spelled the unit out ("copied, 10.0092 seconds, 107 MB/s"); 8.x
    // prints "s" (src/dd.c print_stats).
    r"^(\d+) (?:bytes|Bytes)(?: \([^)]*\))? (?:copied|kopiert), ([\d.,]+) ?(?:s|seconds?)(?:,|$)"
);
crate::rx!(
    DD_OTHER,
    r"^(dd: |\s*[\d.]+ real\s+[\d.]+ user|real\s+\d+m ?[\d.]+s|user\s+\d+m|sys\s+\d+m)"
);

/// Block marker: the summary ("N bytes copied" / "transferred") was seen.
const SEEN_BYTES: u32 = 1;

fn is_summary(t: &str) -> bool {
    let t = unmark(t);
    let t = t.trim();
    DD_RECORDS.is_match(t) || DD_BSD_BYTES.is_match(t) || DD_GNU_BYTES.is_match(t)
}

/// The line without the emphasis and code marks a forum or Markdown editor adds around
/// figures people want noticed (`**236 MB/s**`, `` `1.0 GB/s` ``, `__12 s__`).
fn unmark(t: &str) -> String {
    if !t.contains(['*', '`', '_']) {
        return t.to_string();
    }
    t.replace("**", "").replace("__", "").replace('`', "")
}

fn clean(t: &str) -> Option<String> {
    t.contains(['*', '`', '_']).then(|| unmark(t))
}

fn start(lines: &[&str]) -> spec::Start {
    let t = lines.first().copied().unwrap_or("");
    if is_summary(t.trim()) {
        return spec::Start::Yes;
    }
    // An indented paste (a Markdown code block, a poster's own indent) keeps dd's words.
    if t.trim_start().starts_with("dd: ") {
        // An error line counts when a dd summary follows.
        return match spec::next_nonblank(lines, 1, 2).and_then(|n| lines.get(n)) {
            Some(nt) if is_summary(nt.trim()) => spec::Start::Yes,
            _ => spec::Start::Stop,
        };
    }
    spec::Start::No
}

fn member(t: &str, st: &spec::BlockState) -> spec::Member {
    let t = unmark(t);
    let t = t.as_str();
    let trimmed = t.trim();
    // A new "records in" after a summary is the next run; a second BSD summary too (GNU
    // status=progress prints interim "copied" lines before its final one).
    if (DD_RECORDS.is_match(trimmed) && st.has(SEEN_BYTES))
        || ((DD_BSD_BYTES.is_match(trimmed) || DD_GNU_BYTES.is_match(trimmed))
            && st.has(SEEN_BYTES)
            && !trimmed.contains("copied"))
        || (trimmed.starts_with("dd: ") && st.has(SEEN_BYTES))
    {
        return spec::Member::NewBlock;
    }
    spec::Member::from(is_summary(trimmed) || DD_OTHER.is_match(t))
}

fn update(t: &str, st: &mut spec::BlockState) {
    let t = unmark(t);
    let tt = t.trim();
    if DD_BSD_BYTES.is_match(tt) || DD_GNU_BYTES.is_match(tt) {
        st.mark(SEEN_BYTES);
    }
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "dd",
    starts: &[(20, start)],
    member,
    update: Some(update),
    // One blank line is bridged: `time dd ...` prints the records, a blank line, then the
    // shell's real/user/sys (bash's time keyword), which give the rate of a dd that printed
    // no byte count.
    tolerance: (1, 1),
    classify: |_, _| "dd",
    clean: Some(clean),
    ..spec::Recogniser::NONE
};

/// dd(1): a measurement, captured by no live probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "dd")),
    programs: &[spec::Program {
        names_device: false,
        ..spec::Program::new("dd", |a| {
            a.contains("if=") || a.contains("of=") || a.contains("bs=")
        })
    }],
    ..spec::SourceSpec::named("dd", "dd")
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_device_a_run_failed_on_with_eio() {
        let dev = |t: &str| parse(t).first().and_then(failed_io_device);
        // GNU dd of several releases and locales, FreeBSD dd, prompts and other devices.
        for (text, want) in [
            (
                "# dd if=/dev/zero of=/dev/sdb\ndd: writing to ‘/dev/sdb’: Input/output error\n\
                 1871049+0 records in\n1871048+0 records out\n\
                 957976576 bytes (958 MB) copied, 8600,9 s, 111 kB/s\n",
                Some("sdb"),
            ),
            (
                "$ sudo dd if=/dev/sda1 of=/dev/null bs=1M status=progress\n\
                 dd: error reading '/dev/sda1': Input/output error\n22+0 records in\n\
                 22+0 records out\n23068672 bytes (23 MB, 22 MiB) copied, 13.3 s, 1.7 MB/s\n",
                Some("sda1"),
            ),
            (
                "dd: error writing '/dev/nvme0n1': Input/output error\n5+0 records in\n\
                 4+0 records out\n4194304 bytes (4.2 MB, 4.0 MiB) copied, 0.5 s, 8.4 MB/s\n",
                Some("nvme0n1"),
            ),
            (
                "dd: reading `/dev/hdc': Input/output error\n0+0 records in\n0+0 records out\n",
                Some("hdc"),
            ),
            (
                "# dd if=/dev/ada1 of=/dev/null bs=1m\ndd: /dev/ada1: Input/output error\n\
                 131+0 records in\n131+0 records out\n\
                 137363456 bytes transferred in 12.002071 secs (11445055 bytes/sec)\n",
                Some("ada1"),
            ),
            (
                "dd if=/dev/da0 of=disk.img bs=64k\ndd: Fehler beim Lesen von '/dev/da0': \
                 Eingabe-/Ausgabefehler\n10+0 Datensätze ein\n10+0 Datensätze aus\n",
                Some("da0"),
            ),
            // Not a device: a file on a filesystem, the end of the device, a mapper node.
            (
                "dd if=/dev/zero of=/mnt/big bs=1M\ndd: error writing '/mnt/big': Input/output error\n\
                 9+0 records in\n8+0 records out\n",
                None,
            ),
            (
                "dd if=/dev/zero of=/dev/sdc bs=1M\ndd: error writing '/dev/sdc': No space left on device\n\
                 9+0 records in\n8+0 records out\n",
                None,
            ),
            (
                "dd: error reading '/dev/mapper/vg-root': Input/output error\n1+0 records in\n",
                None,
            ),
        ] {
            assert_eq!(dev(text).as_deref(), want, "{text}");
        }
    }

    #[test]
    fn coreutils_5_summary_spelled_seconds() {
        // GNU coreutils 5.x printed BSD's sentence with "seconds"; the default block size
        // (512 bytes) and the rate come out as for BSD's "secs".
        for (t, bytes, rate) in [
            (
                "# dd if=/dev/zero of=/dev/sdb\n81+0 records in\n80+0 records out\n\
                 40960 bytes transferred in 416.846622 seconds (98 bytes/sec)\n",
                40_960u64,
                98.0,
            ),
            (
                "dd if=/dev/hda of=/dev/null bs=1M count=100\n100+0 records in\n\
                 100+0 records out\n104857600 bytes transferred in 2.500000 seconds \
                 (41943040 bytes/sec)\n",
                104_857_600,
                41_943_040.0,
            ),
        ] {
            let lines: Vec<&str> = t.lines().collect();
            assert!(is_summary(lines[3]), "{t}");
            let v = parse(t);
            assert_eq!(v.len(), 1, "{t}");
            assert_eq!(v[0].bytes, Some(bytes));
            let r = v[0].bytes_per_sec.expect("rate");
            assert!((r - rate).abs() / rate < 0.01, "{r} {rate}");
        }
        assert!(!is_summary("40960 bytes transferred in a while"));
    }

    #[test]
    fn interrupted_run_with_markup_around_the_rate() {
        // openzfs/zfs#4592: ^C before the records line, the rate in Markdown bold with a
        // stray "#". The summary line is dd's by its bytes, "copied" and seconds.
        let t = "# dd if=./a of=/dev/null bs=1k\n^C2071+0 records in\n2070+0 records out\n\
                 2119680 bytes (2.1 MB) copied, 4.55032 s, **# 466 kB/s**\n";
        let lines: Vec<&str> = t.lines().collect();
        assert!(is_summary(lines[3]));
        let v = parse(t);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].block_size_bytes, Some(1024));
        assert_eq!(v[0].bytes, Some(2_119_680));
        let r = v[0].bytes_per_sec.expect("rate from bytes and seconds");
        assert!((r - 2_119_680.0 / 4.55032).abs() < 1.0, "{r}");
        // Without the seconds a line is not dd's summary.
        assert!(!is_summary("2119680 bytes (2.1 MB) copied, soon"));
    }

    #[test]
    fn busybox_time_dd_pairs() {
        // linuxkit/linuxkit PR 3441 (batch 11 of the reviewed corpus): BusyBox's dd prints
        // no byte count; `time` gives the elapsed time.
        let t = "/ # time dd if=/dev/zero of=output bs=1024 count=1048576\n\
                 1048576+0 records in\n1048576+0 records out\n\
                 real    0m 4.61s\nuser    0m 0.79s\nsys     0m 3.77s\n\
                 / # time dd if=/dev/zero of=output bs=1048576 count=1024\n\
                 1024+0 records in\n1024+0 records out\n\
                 real    0m 1.06s\nuser    0m 0.00s\nsys     0m 1.04s\n";
        let v = parse(t);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].block_size_bytes, Some(1024));
        assert_eq!(v[0].bytes, Some(1 << 30));
        assert_eq!(v[0].seconds, Some(4.61));
        let r = v[1].bytes_per_sec.expect("rate");
        assert!((r - 1_073_741_824.0 / 1.06).abs() < 1.0, "{r}");
        // bash's format, and a GNU summary that already gave the time is kept.
        let bash = "dd if=/dev/zero of=f bs=1M count=10\n10+0 records in\n10+0 records out\nreal\t0m2.000s\n";
        assert_eq!(parse(bash)[0].seconds, Some(2.0));
        let gnu = "dd if=/dev/zero of=f bs=1M count=10\n10+0 records in\n10+0 records out\n10485760 bytes (10 MB, 10 MiB) copied, 0.5 s, 21 MB/s\nreal\t0m2.000s\n";
        assert_eq!(parse(gnu)[0].seconds, Some(0.5));
    }

    #[test]
    fn time_lines_give_wall_and_cpu_seconds() {
        // Batch 24's `time dd` of a file: GNU summary, then bash's real/user/sys.
        let text = "$ time dd if=/path/to/bigfile of=/dev/null bs=8k\n131072+0 records in\n131072+0 records out\n\
                    1073741824 bytes (1.1 GB, 1.0 GiB) copied, 0.278144 s, 3.9 GB/s\n\n\
                    real\t0m0.281s\nuser\t0m0.108s\nsys\t0m0.173s\n";
        let b = parse(text);
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].time_real_s, Some(0.281));
        assert!(b[0].time_cpu_s.is_some_and(|c| (c - 0.281).abs() < 1e-9));
        // Without user and sys (a `time` cut short), no CPU time is claimed.
        let cut = "dd if=f of=/dev/null bs=8k\n131072+0 records in\n131072+0 records out\n\
                   1073741824 bytes (1.1 GB, 1.0 GiB) copied, 0.278144 s, 3.9 GB/s\nreal\t0m0.281s\n";
        let b = parse(cut);
        assert_eq!((b[0].time_real_s, b[0].time_cpu_s), (None, None));
    }

    #[test]
    fn coreutils_6_spelled_seconds_and_time_after_a_blank_line() {
        // coreutils 6.x: "copied, S seconds, R MB/s".
        let old = "$ dd if=/dev/zero of=/var/tmp/x bs=1M count=512\n512+0 records in\n512+0 records out\n536870912 bytes (537 MB) copied, 8.5 seconds, 63.2 MB/s\n";
        let v = parse(old);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].seconds, Some(8.5));
        assert!(is_summary(
            "536870912 bytes (537 MB) copied, 8.5 seconds, 63.2 MB/s"
        ));
        assert!(is_summary(
            "1048576 bytes (1.0 MB) copied, 1 second, 1.0 MB/s"
        ));
        assert!(!is_summary("1048576 bytes (1.0 MB) copied, 1 secondhand"));
        // `time dd` without a byte count, its real/user/sys after a blank line: one block.
        let text = "# time dd if=/dev/sdb of=/dev/null bs=4k count=262144\n262144+0 records in\n262144+0 records out\n\nreal    0m12.500s\nuser    0m0.100s\nsys     0m2.000s\n";
        let lines: Vec<&str> = text.lines().collect();
        let st = spec::BlockState::default();
        assert!(RECOGNISER.tolerance.0 >= 1);
        assert_eq!(
            (RECOGNISER.member)("real    0m12.500s", &st),
            spec::Member::Yes
        );
        let v = parse(&lines.join("\n"));
        let r = v[0].bytes_per_sec.expect("rate from time");
        assert!((r - 1_073_741_824.0 / 12.5).abs() < 1.0, "{r}");
    }

    #[test]
    fn command_operands() {
        let v = parse("dd if=/dev/zero of=/tmp/foo bs=10M count=1000 conv=fsync oflag=direct");
        let b = v.first().cloned().unwrap_or_default();
        assert_eq!(b.block_size_bytes, Some(10 << 20));
        assert_eq!(b.input.as_deref(), Some("/dev/zero"));
        assert_eq!(b.output.as_deref(), Some("/tmp/foo"));
        assert!(b.flags.contains(&"conv=fsync".to_string()));
        assert!(b.flags.contains(&"oflag=direct".to_string()));
        let v = parse("$ dd if=/dev/ad8 of=/dev/null");
        assert_eq!(v.first().and_then(|b| b.block_size_bytes), Some(512));
    }

    #[test]
    fn garbage() {
        assert!(parse("dd: \n+ records in\n1 bytes (copied").len() <= 2);
        assert!(parse("").is_empty());
    }
}
