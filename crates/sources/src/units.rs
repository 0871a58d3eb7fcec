//! Human forms of raw numbers for the reports: throughput in decimal MB/s (as disk vendors and
//! dd on FreeBSD print it), sizes in both SI and IEC units, durations from nanoseconds.

/// Throughput in decimal megabytes per second: `183.0 MB/s`. Non-finite input (a division by a
/// zero elapsed time upstream) prints as `n/a` rather than `NaN MB/s`.
pub fn mb_per_sec(bytes_per_sec: f64) -> String {
    if !bytes_per_sec.is_finite() || bytes_per_sec < 0.0 {
        return "n/a".to_string();
    }
    let mb = bytes_per_sec / 1e6;
    if mb >= 100.0 {
        format!("{mb:.1} MB/s")
    } else if mb >= 1.0 {
        format!("{mb:.2} MB/s")
    } else {
        format!("{:.1} kB/s", bytes_per_sec / 1e3)
    }
}

/// The number only, in MB/s, for table cells.
pub fn mb_number(bytes_per_sec: f64) -> String {
    if !bytes_per_sec.is_finite() || bytes_per_sec < 0.0 {
        return "n/a".to_string();
    }
    let mb = bytes_per_sec / 1e6;
    // Two decimals below 10 MB/s, so a 0.46 MB/s random read does not print as 0.5.
    if mb < 10.0 {
        format!("{mb:.2}")
    } else {
        format!("{mb:.1}")
    }
}

/// A size in decimal units (how drives are labelled): `500.1 GB`.
pub fn bytes_si(b: u64) -> String {
    const UNITS: [&str; 6] = ["B", "kB", "MB", "GB", "TB", "PB"];
    scaled(b, 1000.0, &UNITS)
}

/// A size in binary units: `4 KiB`, `465.8 GiB`.
pub fn bytes_iec(b: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    scaled(b, 1024.0, &UNITS)
}

/// A size in binary units, always with one decimal: `4.0 KiB`, `465.8 GiB`; below 1 KiB
/// `small` names the unit (`100 B` in bench tables, `100 bytes` in check prose).
pub fn bytes_iec_one_decimal(b: u64, small: &str) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = b as f64;
    let mut i = 0;
    while v >= 1024.0 && i < UNITS.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{b} {small}")
    } else {
        format!("{v:.1} {}", UNITS[i])
    }
}

/// [`bytes_iec_one_decimal`] with `B` for small sizes: `512 B`, `4.0 KiB`.
pub fn bytes_iec1(b: u64) -> String {
    bytes_iec_one_decimal(b, "B")
}

fn scaled(b: u64, base: f64, units: &[&str; 6]) -> String {
    let mut v = b as f64;
    let mut i = 0;
    while v >= base && i < units.len() - 1 {
        v /= base;
        i += 1;
    }
    if i == 0 {
        format!("{b} B")
    } else if (v - v.round()).abs() < 0.005 {
        format!("{} {}", v.round() as u64, units[i])
    } else {
        format!("{v:.1} {}", units[i])
    }
}

/// A block size label: 512 B, 4 KiB, 1 MiB.
pub fn block_size(b: u64) -> String {
    bytes_iec(b)
}

/// A duration from nanoseconds: `85 us`, `4.21 ms`, `2.31 s`.
pub fn duration_ns(ns: u64) -> String {
    let n = ns as f64;
    if ns < 1_000 {
        format!("{ns} ns")
    } else if ns < 1_000_000 {
        format!("{:.0} us", n / 1e3)
    } else if ns < 1_000_000_000 {
        format!("{:.2} ms", n / 1e6)
    } else {
        format!("{:.2} s", n / 1e9)
    }
}

/// A SATA link speed: `6.0 Gb/s (SATA 3.x, 600 MB/s)`; the MB/s is the usable ceiling after
/// 8b/10b coding (SATA 3.x spec: 6 Gb/s line rate, 600 MB/s payload).
pub fn link(gbps: f64) -> String {
    let generation = if (gbps - 1.5).abs() < 0.01 {
        "SATA 1.x, "
    } else if (gbps - 3.0).abs() < 0.01 {
        "SATA 2.x, "
    } else if (gbps - 6.0).abs() < 0.01 {
        "SATA 3.x, "
    } else {
        ""
    };
    format!("{gbps:.1} Gb/s ({generation}{:.0} MB/s)", gbps * 100.0)
}

/// Percent change from `before` to `after`: `+141.4%`; None when before is zero or not finite.
pub fn delta_pct(before: f64, after: f64) -> Option<f64> {
    if before.is_finite() && after.is_finite() && before.abs() > f64::EPSILON {
        Some((after - before) / before * 100.0)
    } else {
        None
    }
}

pub fn pct(p: Option<f64>) -> String {
    match p {
        Some(v) => format!("{v:+.1}%"),
        None => "n/a".to_string(),
    }
}

/// Word-wrap one paragraph with the textwrap crate, the one wrapper every renderer uses:
/// the first line after `first` (a prefix such as "  Model      " or "[warning] "), the
/// following lines after `indent` spaces, at most `width` columns (one column per char).
///
/// Lines break at ASCII spaces only, first fit: a check id such as `write-cache-disabled` or a
/// path is never split at its hyphens, and lines fill greedily as a person wraps a mail
/// (textwrap's default optimal fit would move words between lines to even them out).
/// `break_long` breaks a word longer than a line (long paths, hex) hard; without it such a
/// word stands alone on a line that is too long. No words: the prefix alone, or nothing.
///
/// A number and the unit after it stay on one line ("up to 232 MB/s", "38 MiB", "10 %"): a
/// reader who finds "232" at a line's end and "MB/s" on the next misreads the figure (SI
/// brochure, 5.4.3: a space separates number and unit, and the two are one expression). A
/// no-break space (U+00A0) in `text` also joins the words around it; it is printed as a
/// plain space.
pub fn wrap_words(
    text: &str,
    first: &str,
    indent: usize,
    width: usize,
    break_long: bool,
) -> Vec<String> {
    // Runs of spaces between words collapse to one, as a person rewrapping a paragraph
    // would (tool output columns "63  3907029105" read the same either way).
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() && c != NO_BREAK)
        .filter(|w| !w.is_empty())
        .collect();
    let mut text = String::with_capacity(text.len());
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            let glued = is_number_word(words[i - 1]) && is_unit_word(w);
            text.push(if glued { NO_BREAK } else { ' ' });
        }
        text.push_str(w);
    }
    if text.is_empty() {
        let head = first.trim_end();
        return if head.is_empty() {
            Vec::new()
        } else {
            vec![head.to_string()]
        };
    }
    let pad = " ".repeat(indent);
    let options = textwrap::Options::new(width.max(1))
        .initial_indent(first)
        .subsequent_indent(&pad)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .word_splitter(textwrap::WordSplitter::NoHyphenation)
        .wrap_algorithm(textwrap::WrapAlgorithm::FirstFit)
        .break_words(break_long);
    textwrap::wrap(&text, options)
        .into_iter()
        .map(|l| l.replace(NO_BREAK, " ").trim_end().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// The no-break space: [`wrap_words`] never breaks a line there (textwrap's AsciiSpace
/// separator splits at U+0020 only) and prints it as a plain space.
pub const NO_BREAK: char = '\u{a0}';

/// A figure as prose writes it: digits with a decimal point or thousands commas, after an
/// optional "(", "~" or sign ("(232", "~285", "+4.1").
fn is_number_word(w: &str) -> bool {
    let w = w.trim_start_matches(['(', '[', '~', '+', '-', '<', '>', '=']);
    w.starts_with(|c: char| c.is_ascii_digit())
        && w.chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
}

/// A unit symbol of the sizes, rates, times and ratios diskdoc prints, with the punctuation
/// a sentence puts after it ("MB/s),", "ms.").
fn is_unit_word(w: &str) -> bool {
    const UNITS: &[&str] = &[
        "B", "kB", "KB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB", "PiB", "B/s", "kB/s",
        "KB/s", "MB/s", "GB/s", "TB/s", "KiB/s", "MiB/s", "GiB/s", "Mb/s", "Gb/s", "GT/s",
        "MB/sec", "IOPS", "ns", "us", "\u{b5}s", "ms", "s", "sec", "%", "rpm", "bytes", "sectors",
        "W", "C", "\u{b0}C",
    ];
    let w = w.trim_end_matches(['.', ',', ';', ':', ')', ']']);
    UNITS.contains(&w)
}

#[cfg(test)]
mod tests;
