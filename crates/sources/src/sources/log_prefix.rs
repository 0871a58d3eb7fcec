//! The prefixes a kernel log line carries before its message: mail quotes, Markdown inline
//! code, printk levels, dmesg and dmesg -T stamps, syslog and journal headers. Its own module
//! so that every reader of kernel lines (kernel_log, raid_log) can strip them without
//! importing each other.

/// The abbreviated month names syslog and journalctl print in their stamps ("%b", the
/// locale's LC_TIME abmon: journalctl's short format is strftime "%b %d %H:%M:%S" in the
/// user's locale), lower-cased, for the locales forum posts come from (glibc
/// localedata/locales: en, de_DE "Mär Mai Okt Dez", fr_FR "janv. févr. mars avril mai juin
/// juil. août sept. oct. nov. déc.", es_ES "ene abr ago dic", it_IT "gen mag giu lug ago set
/// ott dic", pt_BR "fev mai ago set out dez", nl_NL "mrt mei okt", sv_SE "maj okt", pl_PL,
/// cs_CZ, tr_TR, ru_RU and uk_UA). A trailing dot (fr_FR) is taken off before comparing.
pub const MONTH_ABBREVIATIONS: &[&str] = &[
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec", // en
    "mär", "mai", "okt", "dez", // de
    "janv", "févr", "mars", "avr", "avril", "juin", "juil", "août", "sept", "déc", // fr
    "ene", "abr", "ago", "dic", // es
    "gen", "mag", "giu", "lug", "set", "ott", // it
    "fev", "out", // pt
    "mrt", "mei", "maj", // nl, sv
    "sty", "lut", "kwi", "cze", "lip", "sie", "wrz", "paź", "lis", "gru", // pl
    "led", "úno", "bře", "dub", "kvě", "čen", "čec", "srp", "zář", "říj", "pro", // cs
    "oca", "şub", "nis", "haz", "tem", "ağu", "eyl", "eki", "kas", "ara", // tr
    "янв", "фев", "мар", "апр", "мая", "июн", "июл", "авг", "сен", "окт", "ноя", "дек", // ru
    "січ", "лют", "бер", "кві", "тра", "чер", "лип", "сер", "вер", "жов", "гру", // uk
];

/// Whether `word` is an abbreviated month name of one of those locales ("Sep", "giu",
/// "févr.").
pub fn is_month_abbreviation(word: &str) -> bool {
    let w = word.strip_suffix('.').unwrap_or(word).to_lowercase();
    MONTH_ABBREVIATIONS.contains(&w.as_str())
}

/// A regex fragment matching one of [`MONTH_ABBREVIATIONS`], any case, with the optional
/// dot: for the syslog stamp patterns of explain's segmenter.
pub fn month_pattern() -> String {
    format!("(?i:{})\\.?", MONTH_ABBREVIATIONS.join("|"))
}

/// Drop mail quotes, "[  12.345678]" timestamps and syslog/journal prefixes such as
/// "Dec 10 18:56:03 host kernel: " or "Dec 10 18:56:03 kernel: ".
pub fn strip_prefixes(raw: &str) -> &str {
    let mut s = raw.trim_start();
    while let Some(r) = s.strip_prefix('>') {
        s = r.trim_start();
    }
    // A poster's elision of the repeated device prefix of a multi-line report (".....CAM
    // status: ATA status error" where "(ada0:ata0:0:0:0): " stood): three or more dots, or
    // the ellipsis character.
    let dots = s.len().saturating_sub(s.trim_start_matches('.').len());
    if dots >= 3 {
        s = s.trim_start_matches('.').trim_start();
    } else if let Some(r) = s.strip_prefix('\u{2026}') {
        s = r.trim_start();
    }
    // A line quoted as Markdown inline code: "`ata1.00: ... NCQ (not used)`".
    if let Some(inner) = s.strip_prefix('`') {
        s = inner.trim_end().trim_end_matches('`');
    }
    s = super::markup::strip_html_emphasis(s);
    s = strip_printk_level(s);
    // journal/syslog: the "kernel:" tag within the first ~64 bytes; RFC 5424 syslog puts
    // "kernel - - - " (APP-NAME, then nil PROCID, MSGID and STRUCTURED-DATA) there instead,
    // metalog "[kernel] " (its "%s [%s] %s" line: stamp, program, message).
    for tag in ["kernel: ", "kernel - - - ", "[kernel] "] {
        if let Some(i) = s.find(tag)
            && i < 64
        {
            s = s.get(i + tag.len()..).unwrap_or(s);
            break;
        }
    }
    let t = strip_dmesg_decode(strip_headless_stamp(strip_iso_stamp(s.trim_start())));
    if let Some(rest) = t.strip_prefix('[')
        && let Some(end) = rest.find(']')
    {
        let stamp = rest.get(..end).unwrap_or("");
        if is_stamp(stamp) {
            let mut after = strip_caller_field(rest.get(end + 1..).unwrap_or(""));
            // dmesg prints several stamps when asked for several (util-linux dmesg.c
            // print_record: --reltime's "[Jan13 04:31]" or "[  +0.010370]", then -T's ctime
            // "[Tue Jan 13 04:31:07 2026]"), and the caller field may follow after a space
            // ("[2277096.910173] [ T1514] sd 0:0:2:0: ..."): take each further bracket that is
            // a stamp, or a caller field with its T/C letter (a bare "[ 2]" after a space stays).
            for _ in 0..3 {
                let u = after.trim_start();
                let Some((field, next)) = u.strip_prefix('[').and_then(|r| r.split_once(']'))
                else {
                    break;
                };
                // A further stamp has its dot or colon: a bare "[2]" is a count, not a time.
                let timed = field.contains(['.', ':']) && is_stamp(field);
                if timed || is_task_or_cpu_caller(field) {
                    after = next;
                } else {
                    break;
                }
            }
            return strip_printk_level(after.trim_start());
        }
    }
    strip_printk_level(t)
}

/// A bracketed stamp: dmesg's seconds ("  12.345678"), --reltime's delta ("  +0.010370") or
/// minute ("Jan13 04:31"), a console logger's wall clock ("2021-12-10 20:56:10"), or -T's
/// ctime.
fn is_stamp(stamp: &str) -> bool {
    let t = stamp.trim();
    (!t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | ' ' | ':' | ',' | '-' | '+'))
        && t.bytes().any(|b| b.is_ascii_digit()))
        || is_ctime_stamp(stamp)
        || is_reltime_minute(t)
}

/// dmesg --reltime's minute stamp, "%b%d %H:%M" (util-linux dmesg.c print_record, the
/// first line of each minute): "Jan13 04:31", "Sep 5 10:02" after trimming.
fn is_reltime_minute(t: &str) -> bool {
    let Some((day, hm)) = t.rsplit_once(' ') else {
        return false;
    };
    let day = day.trim();
    let month: String = day.chars().take_while(|c| c.is_alphabetic()).collect();
    let date = day.get(month.len()..).unwrap_or("").trim();
    let Some((h, m)) = hm.split_once(':') else {
        return false;
    };
    let num =
        |x: &str, n: usize| !x.is_empty() && x.len() <= n && x.bytes().all(|b| b.is_ascii_digit());
    (3..=4).contains(&month.chars().count()) && num(date, 2) && num(h, 2) && num(m, 2)
}

/// printk.c print_caller's field on its own: "T1514" (task) or "C2" (CPU), padded.
fn is_task_or_cpu_caller(field: &str) -> bool {
    let f = field.trim();
    f.strip_prefix(['T', 'C'])
        .is_some_and(|d| !d.is_empty() && d.len() <= 7 && d.bytes().all(|b| b.is_ascii_digit()))
}

/// dmesg -x/--decode's facility and level before the message, "%-6s:%-6s: " (util-linux
/// dmesg.c print_record): "kern  :info  : [  +0.000042] sd 2:0:0:1: ...".
fn strip_dmesg_decode(s: &str) -> &str {
    const FACILITIES: [&str; 12] = [
        "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron",
        "authpriv", "ftp",
    ];
    const LEVELS: [&str; 8] = [
        "emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
    ];
    let Some((fac, rest)) = s.split_once(':') else {
        return s;
    };
    let fac = fac.trim_end();
    // local0 to local7.
    let local = fac
        .strip_prefix("local")
        .is_some_and(|d| d.len() == 1 && d.bytes().all(|b| (b'0'..=b'7').contains(&b)));
    let fac_ok = FACILITIES.contains(&fac) || local;
    if !fac_ok {
        return s;
    }
    let Some((lvl, msg)) = rest.split_once(':') else {
        return s;
    };
    if LEVELS.contains(&lvl.trim()) {
        msg.trim_start()
    } else {
        s
    }
}

/// The field some kernels print right after the stamp, before the message: the caller of
/// CONFIG_PRINTK_CALLER ("[  T123]" task id or "[    C2]" CPU, kernel/printk/printk.c
/// info_print_prefix / print_caller) and the bare CPU number of vendor kernels ("[  592.518442][
/// 2] sd 8:0:0:0: ..."). Only a bracket glued to the stamp and holding nothing but an optional
/// T/C and up to 7 digits is taken, so "[sda]" or "[ 2] of 3" text after a space stays.
fn strip_caller_field(s: &str) -> &str {
    if let Some(after) = vendor_cpu_field(s) {
        return after;
    }
    let Some(rest) = s.strip_prefix('[') else {
        return s;
    };
    let Some((field, after)) = rest.split_once(']') else {
        return s;
    };
    let f = field.trim();
    let digits = f.strip_prefix(['T', 'C']).unwrap_or(f);
    if !digits.is_empty() && digits.len() <= 7 && digits.bytes().all(|b| b.is_ascii_digit()) {
        after
    } else {
        s
    }
}

/// The CPU field of vendor kernels built with CONFIG_PRINTK_CPU_ID (Android and Samsung
/// Exynos trees: kernel/printk.c vprintk emits `"c%u "` with the printing CPU after the
/// stamp; the Exynos kernels of Hardkernel's ODROID boards bracket it, "[ 1394.012800] [c0]
/// usb 4-1.2: reset SuperSpeed USB device ..."): a space, then "[c" or "c", one or two
/// digits and "]" or a space. Returns the message after it.
fn vendor_cpu_field(s: &str) -> Option<&str> {
    let t = s.strip_prefix(' ')?.trim_start();
    let (bracket, rest) = match t.strip_prefix("[c") {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('c')?),
    };
    let n = rest.bytes().take_while(u8::is_ascii_digit).count();
    let close = if bracket { "]" } else { " " };
    ((1..=2).contains(&n))
        .then(|| rest.get(n..)?.strip_prefix(close))
        .flatten()
}

/// A dmesg stamp whose opening bracket was cut off: an excerpt that starts inside the first
/// line ("1982.874590] ata5.00: exception Emask ..." of "[ 1982.874590] ..."), or a paste
/// whose markup ate the "[". The kernel prints the stamp as "[%5lu.%06lu] " (printk.c
/// print_time), so seconds, a dot, microseconds and "] " are all that is left of it; a line
/// that merely starts with a number and a bracket but no dot is left alone.
fn strip_headless_stamp(s: &str) -> &str {
    let Some((stamp, rest)) = s.split_once("] ") else {
        return s;
    };
    let Some((secs, micros)) = stamp.trim_start().split_once('.') else {
        return s;
    };
    let digits = |x: &str| !x.is_empty() && x.len() <= 12 && x.bytes().all(|b| b.is_ascii_digit());
    if digits(secs) && digits(micros) {
        rest
    } else {
        s
    }
}

/// An ISO 8601 wall-clock stamp before the message, with no syslog tag after it: util-linux
/// dmesg --time-format=iso ("%Y-%m-%dT%H:%M:%S,%06ld%+03d:%02d ", dmesg.c
/// iso_8601_time), and loggers and log shippers that print "2017-10-09T07:30:25+0000: "
/// (a colon after the zone). Fraction, zone ("Z", "+00:00", "+0000") and the colon are
/// optional; at least one blank must follow, so a date inside a message stays.
fn strip_iso_stamp(s: &str) -> &str {
    let b = s.as_bytes();
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    let shape = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        .iter()
        .all(|&i| digit(i))
        && at(4, b'-')
        && at(7, b'-')
        && (at(10, b'T') || at(10, b' '))
        && at(13, b':')
        && at(16, b':');
    if !shape {
        return s;
    }
    let mut i = 19;
    if at(i, b'.') || at(i, b',') {
        i += 1;
        while digit(i) {
            i += 1;
        }
    }
    if at(i, b'Z') {
        i += 1;
    } else if (at(i, b'+') || at(i, b'-')) && digit(i + 1) && digit(i + 2) {
        i += 3;
        if at(i, b':') && digit(i + 1) {
            i += 1;
        }
        while digit(i) {
            i += 1;
        }
    }
    if at(i, b':') {
        i += 1;
    }
    match s.get(i..) {
        Some(rest) if rest.starts_with([' ', '\t']) => rest.trim_start(),
        _ => s,
    }
}

/// dmesg -T's stamp, ctime(3) style: "Tue Oct 27 08:51:30 2020" (util-linux dmesg.c), with
/// the locale's day and month abbreviations ("Fr Aug 26 22:01:01 2022" under de_DE; fr_FR's
/// end in a dot, "ven. nov.  2 15:29:39 2018", as LINUX_PREFIX allows).
fn is_ctime_stamp(s: &str) -> bool {
    let word = |x: &&str| {
        let x = x.strip_suffix('.').unwrap_or(x);
        (2..=5).contains(&x.chars().count()) && x.chars().all(char::is_alphabetic)
    };
    let w: Vec<&str> = s.split_whitespace().collect();
    w.len() == 5
        && w.first().is_some_and(word)
        && w.get(1).is_some_and(word)
        && w.get(2)
            .is_some_and(|d| d.chars().all(|c| c.is_ascii_digit()))
        && w.get(3).is_some_and(|t| t.split(':').count() == 3)
        && w.get(4)
            .is_some_and(|y| y.len() == 4 && y.chars().all(|c| c.is_ascii_digit()))
}

/// A printk level "<3>" (dmesg -r, serial consoles, some forum pastes) before the text.
fn strip_printk_level(s: &str) -> &str {
    if let Some(r) = s.strip_prefix('<')
        && let Some((lvl, rest)) = r.split_once('>')
        && !lvl.is_empty()
        && lvl.len() <= 3
        && lvl.chars().all(|c| c.is_ascii_digit())
    {
        return rest;
    }
    s
}

#[cfg(test)]
mod cpu_tests;

#[cfg(test)]
mod tests;
