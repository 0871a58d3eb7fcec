//! badblocks(8) (e2fsprogs misc/badblocks.c): a surface scan. It prints its mode
//! ("Checking for bad blocks in read-write mode", "... (read-only test)", "... in
//! non-destructive read-write mode"), the range ("From block 0 to 1465130645"), each pass
//! ("Testing with pattern 0xaa: ", "Reading and comparing: "), progress lines
//! "  6.86% done, 31:09 elapsed. (0/0/0 errors)" (`print_status`: "%6.2f%% done, %s
//! elapsed. (%d/%d/%d errors)", the read, write and corruption error counts so far) and at
//! the end "Pass completed, 0 bad blocks found. (0/0/0 errors)". A warning such as
//! "set_o_direct: Inappropriate ioctl for device" (FreeBSD has no O_DIRECT fcntl for a
//! disk) only says the scan goes through the cache; it is no disk error.

use crate::sources::{spec, util};

/// What a badblocks run shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BadblocksRun {
    /// "read-write", "non-destructive read-write", "read-only".
    pub mode: Option<String>,
    /// The last (read, write, corruption) error counts printed.
    pub errors: Option<(u64, u64, u64)>,
    /// "Pass completed, N bad blocks found.".
    pub bad_blocks: Option<u64>,
    /// The last progress percentage printed.
    pub percent_done: Option<f64>,
}

/// "(0/0/0 errors)" -> (0, 0, 0).
fn error_counts(l: &str) -> Option<(u64, u64, u64)> {
    let inner = l.rsplit_once('(')?.1.split_once(" errors)")?.0;
    let mut n = inner.split('/').map(|v| v.trim().parse::<u64>().ok());
    let r = n.next()??;
    let w = n.next()??;
    let c = n.next()??;
    n.next().is_none().then_some((r, w, c))
}

fn is_progress(t: &str) -> bool {
    t.contains("% done, ") && t.contains(" elapsed.")
}

/// A bad block's number, which -v prints on a line of its own ("%lu\n", badblocks.c
/// bb_output) over the progress line it had drawn: on a terminal the number overwrites the
/// start of "NN.NN% done, 1:34:03 elapsed. (32/0/0 errors)", so a paste keeps
/// "19075872done, 1:34:03 elapsed. (32/0/0 errors)" or the bare number.
fn is_block_number(t: &str) -> bool {
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &t[digits..];
    digits > 0 && (rest.is_empty() || (rest.starts_with("done, ") && rest.contains(" elapsed.")))
}

/// A poster's mark of lines left out ("...", "[...]", "…").
fn is_elision(t: &str) -> bool {
    matches!(t, "..." | "[...]" | "[…]" | "…" | "....")
}

/// Every run in the text (a new one at each "Checking for bad blocks" line).
pub fn parse(text: &str) -> Vec<BadblocksRun> {
    let mut out: Vec<BadblocksRun> = Vec::new();
    for raw in text.lines() {
        let l = util::clean_line(raw);
        // Progress is redrawn with backspaces or \r on a terminal; a paste keeps the last.
        let t = l
            .rsplit('\r')
            .next()
            .unwrap_or(&l)
            .trim()
            .trim_matches('`')
            .trim();
        if let Some(m) = t.strip_prefix("Checking for bad blocks") {
            let mode = m
                .trim()
                .trim_start_matches("in ")
                .trim_end_matches(" mode")
                .trim_start_matches('(')
                .trim_end_matches(')')
                .trim_end_matches(" test");
            out.push(BadblocksRun {
                mode: Some(mode.to_string()),
                ..BadblocksRun::default()
            });
            continue;
        }
        let progress = is_progress(t) || is_block_number(t);
        let pass = t.starts_with("Pass completed, ");
        if !progress && !pass {
            continue;
        }
        if out.is_empty() {
            out.push(BadblocksRun::default());
        }
        let Some(r) = out.last_mut() else { continue };
        if let Some(e) = error_counts(t) {
            r.errors = Some(e);
        }
        if is_progress(t) {
            let pct = t.split('%').next().unwrap_or("");
            // "Testing with pattern 0xaa:   6.86% done": the number is the last word.
            r.percent_done = pct.split_whitespace().last().and_then(|p| p.parse().ok());
        }
        if let Some(rest) = t.strip_prefix("Pass completed, ") {
            r.bad_blocks = util::leading_u64(rest);
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn is_member(t: &str) -> bool {
    let t = t.trim().trim_matches('`').trim();
    t.starts_with("Checking for bad blocks")
        || t.starts_with("From block ")
        || t.starts_with("Testing with pattern ")
        || t.starts_with("Testing with random pattern")
        || t.starts_with("Reading and comparing")
        || t.starts_with("Pass completed, ")
        || is_progress(t)
        || is_block_number(t)
        || is_elision(t)
}

/// What a run found, for a disk's facts: the bad blocks of its "Pass completed" line, else
/// of the last error counts printed (a scan cut off, or a paste that ends early), with the
/// line that says it. None for a run that printed neither.
pub fn scan(run: &BadblocksRun) -> Option<crate::model::SurfaceScan> {
    let (r, w, c) = match run.errors {
        Some((r, w, c)) => (Some(r), Some(w), Some(c)),
        None => (None, None, None),
    };
    let counted = run
        .errors
        .and_then(|(r, w, c)| r.checked_add(w)?.checked_add(c));
    let bad = run.bad_blocks.or(counted)?;
    let errors = run
        .errors
        .map(|(r, w, c)| format!(" ({r}/{w}/{c} errors)"))
        .unwrap_or_default();
    let line = match run.bad_blocks {
        Some(n) => format!("Pass completed, {n} bad blocks found.{errors}"),
        None => format!("{bad} errors so far{errors}"),
    };
    Some(crate::model::SurfaceScan {
        tool: "badblocks".to_string(),
        bad_blocks: bad,
        read_errors: r,
        write_errors: w,
        corruption_errors: c,
        completed: run.bad_blocks.is_some(),
        line,
        from: String::new(),
    })
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "badblocks",
    starts: &[(40, |lines| {
        let Some(first) = lines.first().map(|l| util::clean_line(l)) else {
            return spec::Start::No;
        };
        let t = first.trim();
        spec::Start::from(
            (t.starts_with("Checking for bad blocks") && t.contains("mode"))
                || (t.starts_with("Pass completed, ") && t.contains("bad blocks found")),
        )
    })],
    member: |l, _| spec::Member::from(is_member(&util::clean_line(l))),
    tolerance: (1, 0),
    classify: |_, _| "badblocks",
    ..spec::Recogniser::NONE
};

/// badblocks: a surface scan people paste, captured by no probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "badblocks")),
    programs: &[spec::Program::new("badblocks", spec::flags_or_node)],
    ..spec::SourceSpec::named("badblocks", "badblocks")
};

#[cfg(test)]
mod tests;
