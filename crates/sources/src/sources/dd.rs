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
pub fn failed_io_device(b: &UserBenchmark) -> Option<String> {
    let msg = b.error.as_deref()?.strip_prefix("EIO:")?;
    let quoted = msg.split_whitespace().find_map(|w| {
        let w = w.trim_matches(|c: char| "'`\"‘’“”:,".contains(c));
        w.starts_with("/dev/").then(|| w.to_string())
    });
    let low = msg.to_lowercase();
    let path = quoted.or_else(|| {
        // coreutils' "error reading"/"error writing" in German, French ("erreur de
        // lecture"/"d'écriture"), Spanish ("error al leer"/"escribir") and Russian
        // ("ошибка чтения"/"записи").
        if ["read", "lesen", "lecture", "leer", "чтени"]
            .iter()
            .any(|w| low.contains(w))
        {
            b.input.clone()
        } else if ["writ", "schreiben", "écriture", "escribir", "запис"]
            .iter()
            .any(|w| low.contains(w))
        {
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
    // strerror(EIO) in glibc's translations: German, French, Spanish, Russian.
    let errno = if [
        "input/output error",
        "eingabe-/ausgabefehler",
        "erreur d'entrée/sortie",
        "error de entrada/salida",
        "ошибка ввода/вывода",
    ]
    .iter()
    .any(|w| low.contains(w))
    {
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
    if !RECORD_WORDS.iter().any(|w| word.starts_with(w)) {
        return None;
    }
    let mut dir = toks
        .get(i + 2)
        .map(|d| d.text.to_lowercase())
        .unwrap_or_default();
    let mut used = 3;
    // Portuguese and older Spanish put "de" before the direction ("registros de entrada").
    if dir == "de" {
        dir = toks
            .get(i + 3)
            .map(|d| d.text.to_lowercase())
            .unwrap_or_default();
        used = 4;
    }
    let dir = if let Some((_, d)) = DIRECTION_WORDS.iter().find(|(w, _)| dir.starts_with(w)) {
        (*d).to_string()
    } else {
        return None;
    };
    Some((format!("{a}+{b}"), dir, used))
}

/// The record lines' noun in coreutils' translations (po/*.po of "%s+%s records in"):
/// English and Dutch "records", Italian "record", German "Datensätze", French
/// "enregistrements", Spanish and Portuguese "registros", Russian "записей". As printed
/// in real runs: "500+0 enregistrements lus" / "écrits", "1024+0 record dentro" / "record
/// fuori", "250+0 registros leídos" / "escritos" (older Spanish "registros de entrada" /
/// "de salida"), "31744+0 registros de entrada" / "registros de saída" (Brazilian
/// Portuguese), "2048+0 записей получено" / "отправлено", "500000+0 records in" /
/// "records uit" (Dutch).
const RECORD_WORDS: &[&str] = &[
    "record",
    "datens",
    "enregistrements",
    "registros",
    "записей",
];

/// The record lines' direction words in those translations, as "in" or "out": "ein"/"aus",
/// "lus"/"écrits", "leídos"/"escritos", "получено"/"отправлено", "dentro"/"fuori", "in"/"uit",
/// "(de) entrada"/"(de) saída"/"(de) salida".
const DIRECTION_WORDS: &[(&str, &str)] = &[
    ("in", "in"),
    ("out", "out"),
    ("ein", "in"),
    ("aus", "out"),
    ("lus", "in"),
    ("écrits", "out"),
    ("leídos", "in"),
    ("escritos", "out"),
    ("получено", "in"),
    ("отправлено", "out"),
    ("dentro", "in"),
    ("fuori", "out"),
    ("uit", "out"),
    ("entrada", "in"),
    ("saída", "out"),
    ("salida", "out"),
];

/// The summary's "bytes" in coreutils' translations ("%s bytes (%s) copied, %s, %s"):
/// German "Bytes", Italian "byte", French "octets", Russian "байт".
const BYTE_WORDS: &[&str] = &["bytes", "byte", "octets", "байт", "байта", "байтов"];

/// The summary's "copied" in those translations: German "kopiert", French "copiés",
/// Italian "copiati", Spanish and Portuguese "copiados", Russian "скопировано"/"скопирован",
/// Dutch "gekopieerd".
const COPIED_WORDS: &[&str] = &[
    "copied",
    "kopiert",
    "copiés",
    "copiati",
    "copiados",
    "скопирован",
    "gekopieerd",
];

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
    if !BYTE_WORDS.contains(&w1.to_lowercase().as_str()) {
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
    if !COPIED_WORDS.iter().any(|w| cw.starts_with(w)) {
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
    r"^(?:\^C)?(\d+)\+(\d+) (records?|Datensätze|enregistrements|registros|записей) (?:de )?(in|out|ein|aus|lus|écrits|leídos|escritos|получено|отправлено|dentro|fuori|uit|entrada|saída|salida)\s*$"
);
crate::rx!(
    DD_BSD_BYTES,
    // BSD dd (bin/dd/misc.c summary) prints "secs"; GNU coreutils 5.x before 5.93 printed the
    // same sentence with "seconds" (src/dd.c print_stats of 2004-2005), a format old Linux
    // posts still carry. "%.0f bytes/sec" has no decimals, so a comma in it groups
    // thousands ("(1,680,410,061 bytes/sec)", a locale's or the poster's grouping).
    r"^(\d+) bytes transferred in ([\d.]+) (?:secs|seconds) \((\d[\d,]*) bytes/sec\)"
);
crate::rx!(
    DD_GNU_BYTES,
    // The rate is the one part a poster's markup breaks ("4.55032 s, **# 466 kB/s**"): bytes,
    // "copied" and the seconds already make the line dd's, and the rate follows from them.
    // coreutils 5.93-7.x spelled the unit out ("copied, 10.0092 seconds, 107 MB/s"); 8.x
    // prints "s" (src/dd.c print_stats).
    r"^(\d+) (?:bytes|Bytes|byte|octets|байт[аов]*)(?: \([^)]*\))? (?:copied|kopiert|copiés|copiati|copiados|скопирован[оа]?|gekopieerd), ([\d.,]+) ?(?:s|seconds?|seconden|с|сек)(?:,|$)"
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
            // Without one, dd's EIO on a file ("dd: closing output file 'F': Input/output
            // error") is an application's file error (sources::app_file_error): the
            // filesystem under F failed, and no run's figures come with it.
            _ if super::app_file_error::failure(t)
                .is_some_and(|e| !super::app_file_error::names_device_node(&e)) =>
            {
                spec::Start::No
            }
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
            && !COPIED_WORDS.iter().any(|w| trimmed.contains(w)))
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
mod tests;
