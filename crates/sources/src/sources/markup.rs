//! The formatting posters put around pasted output: HTML tags, Markdown emphasis and forum
//! BBCode, and the quoted-printable transfer encoding a mail archive kept (RFC 2045 section
//! 6.7). One module, so the paste segmenter (explain) and the kernel-log prefix stripper
//! (log_prefix) agree on what markup is.

use regex::Regex;
use std::sync::LazyLock;

/// The character references a page's HTML escaping left in a paste (HTML Living Standard
/// 13.2.5.72-80): a forum archive that stored a post's source shows lsblk's tree as
/// "&#9500;&#9472;sda1" and mdstat's "unused devices: &lt;none&gt;". Numeric references
/// of printable characters are decoded (a no-break space becomes a space, a byte order mark
/// goes), and the four named ones HTML escaping writes (&amp; &lt; &gt; &quot;); any other
/// "&name;" stays as it is.
fn decode_char_refs(line: &str) -> std::borrow::Cow<'_, str> {
    static REF: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|(amp|lt|gt|quot));")
            .expect("static regex")
    });
    if !line.contains('&') {
        return std::borrow::Cow::Borrowed(line);
    }
    REF.replace_all(line, |c: &regex::Captures<'_>| {
        let all = c.get(0).map_or("", |m| m.as_str());
        if let Some(name) = c.get(3) {
            return match name.as_str() {
                "amp" => "&",
                "lt" => "<",
                "gt" => ">",
                _ => "\"",
            }
            .to_string();
        }
        let code = c
            .get(1)
            .and_then(|m| m.as_str().parse::<u32>().ok())
            .or_else(|| {
                c.get(2)
                    .and_then(|m| u32::from_str_radix(m.as_str(), 16).ok())
            });
        match code.and_then(char::from_u32) {
            Some('\u{feff}') => String::new(),
            Some('\u{a0}') => " ".to_string(),
            Some(ch) if !ch.is_control() || ch == '\t' => ch.to_string(),
            _ => all.to_string(),
        }
    })
}

/// The formatting a forum or issue tracker left around pasted output: the HTML tags people
/// type to keep a paste's layout (`<pre>`, `<code>`, `<b>` around a figure, `<br>`), and
/// Markdown emphasis around a whole line (`_fdisk: ... of them_`, `*...*`, `**...**`). The
/// tool's own text is what is inside; angle brackets of other words (`<Go Back>`, printk's
/// `<4>`) stay. The BBCode of phpBB and vBulletin forums goes the same way: `[color=...]`,
/// `[font=...]`, `[code]`, `[quote]` and their closing tags anywhere, `[b]`, `[i]`, `[u]`
/// only at the start of a line (a kernel line may print "10.2[B]") and their closing tags
/// anywhere. `[size=...]` stays: lspci prints "[size=16K]".
pub fn strip_markup(line: &str) -> String {
    static TAG: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)</?(?:pre|code|b|i|em|strong|tt|kbd|samp|br)\s*/?>").expect("static regex")
    });
    static BBCODE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?i)\[/?(?:color|font|code|quote|noparse)(?:=[^\]\[]{0,40})?\]|\[/(?:b|i|u)\]"#,
        )
        .expect("static regex")
    });
    static BBCODE_LEAD: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)^(\s*)(?:\[(?:b|i|u)\])+").expect("static regex"));
    static BOLD_FIGURE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(^|[\s=:(,])(?:\*\*|__)([^*_\s](?:[^*_]*[^*_\s])?)(?:\*\*|__)")
            .expect("static regex")
    });
    let l = decode_char_refs(line);
    let l = TAG.replace_all(&l, "");
    let l = BBCODE.replace_all(&l, "").into_owned();
    let l = BBCODE_LEAD.replace(&l, "$1").into_owned();
    // Bold around a figure inside a line ("... = **278.55 kB/sec**"): a poster's emphasis
    // of the number that matters. Only the double marks, and only around a run that holds
    // a digit and no star: hdparm's "*udma5" and a rule of stars stay.
    let l = BOLD_FIGURE
        .replace_all(&l, |c: &regex::Captures<'_>| {
            let all = c.get(0).map_or("", |m| m.as_str());
            let inner = c.get(2).map_or("", |m| m.as_str());
            if inner.chars().any(|ch| ch.is_ascii_digit()) {
                format!("{}{inner}", c.get(1).map_or("", |m| m.as_str()))
            } else {
                all.to_string()
            }
        })
        .into_owned();
    // A Markdown code span the poster opened or closed on this line and not on it again
    // (CommonMark 0.31 section 6.1: a backtick string with no matching one stays literal, so
    // the renderer shows it and a copy keeps it): "`(da0:storvsc0:0:0:0): Capacity data has
    // changed" with the closing mark lines later. A lone backtick at the start or the end of
    // the line goes; a line whose backticks pair up ("Use `gpart commit da0` to ...") is the
    // tool's own text and stays, and so does a whole line in one span, taken off below.
    let l = strip_lone_backtick(&l);
    let t = l.trim();
    for mark in ["**", "__", "*", "_", "`"] {
        if let Some(inner) = t
            .strip_prefix(mark)
            .and_then(|r| r.strip_suffix(mark))
            .filter(|i| {
                let i = i.trim();
                !i.is_empty()
                    && !i.starts_with(['*', '_'])
                    && !i.ends_with(['*', '_'])
                    && i.chars().any(char::is_alphanumeric)
            })
        {
            let indent = &l[..l.len() - l.trim_start().len()];
            return format!("{indent}{inner}");
        }
    }
    l
}

/// The line without a lone Markdown backtick at its start or end (see [`strip_markup`]):
/// only when it is the line's one backtick, and not a fence ("```").
fn strip_lone_backtick(l: &str) -> String {
    if l.matches('`').count() != 1 || l.contains("``") {
        return l.to_string();
    }
    let t = l.trim();
    let indent = &l[..l.len() - l.trim_start().len()];
    if let Some(rest) = t.strip_prefix('`') {
        return format!("{indent}{rest}");
    }
    if let Some(rest) = t.strip_suffix('`') {
        return format!("{indent}{rest}");
    }
    l.to_string()
}

/// A line a webmail or forum wrapped in an inline HTML emphasis tag to point at it
/// ("<b>ata2: dev 0 configured for UDMA/33</b>"): the tags are the poster's markup, the
/// text between them the kernel's. Only the phrasing tags HTML 4.01 section 9.2.1 lists for
/// emphasis (b, i, em, strong, tt, code) are taken off, and only as a pair around the line.
pub(crate) fn strip_html_emphasis(s: &str) -> &str {
    const TAGS: [&str; 6] = ["b", "i", "em", "strong", "tt", "code"];
    // Every kernel-log line of a live scan passes here: no tag, no work (and no allocation).
    let Some(after_lt) = s.strip_prefix('<') else {
        return s;
    };
    for tag in TAGS {
        // "<tag>" ... "</tag>", compared without building either string.
        let Some(rest) = after_lt
            .get(..tag.len())
            .filter(|h| h.eq_ignore_ascii_case(tag))
            .and_then(|_| after_lt.get(tag.len()..))
            .and_then(|r| r.strip_prefix('>'))
        else {
            continue;
        };
        let rest = rest.trim_end();
        let close_len = tag.len() + 3;
        let cut = rest.len().saturating_sub(close_len);
        let closes = rest.get(cut..).is_some_and(|t| {
            t.starts_with("</")
                && t.ends_with('>')
                && t.get(2..2 + tag.len())
                    .is_some_and(|n| n.eq_ignore_ascii_case(tag))
        });
        if closes && rest.len() >= close_len {
            return rest.get(..cut).unwrap_or(rest).trim_start();
        }
    }
    s
}

/// Whether a pasted text is a mail body that kept its quoted-printable transfer encoding
/// (RFC 2045 section 6.7), as list archives that store the raw message show it: every "="
/// of the text written "=3D", a blank before a line break "=20" or "=09", a character past
/// ASCII as the escapes of its UTF-8 bytes ("=C2=A0"), and a line longer than 76
/// characters broken by a lone "=" at its end. Only lines that could be such text count
/// ([`qp_escapes`]: every "=" starts an escape or a soft break). A program's own "=" before
/// a number ("count=20", fio's "IOPS=97.2k") can read as one escape, so the text must show
/// an escaped "=" or an escaped UTF-8 character, and two such signs in all: a line ending
/// in "timeout=20" alone is no encoding.
pub fn is_quoted_printable(text: &str) -> bool {
    let mut strong = 0usize;
    let mut weak = 0usize;
    for line in text.lines() {
        let Some(escapes) = qp_escapes(line) else {
            continue;
        };
        let end = line.trim_end();
        weak = weak.saturating_add(usize::from(end.ends_with("=20") || end.ends_with("=09")));
        strong = strong.saturating_add(escapes.iter().filter(|&&b| b == b'=').count());
        strong = strong.saturating_add(utf8_sequences(line.as_bytes()));
    }
    strong >= 1 && strong.saturating_add(weak) >= 2
}

/// How many runs of escapes in `line` spell one UTF-8 character past ASCII: a lead byte
/// C2h-F4h then the continuation bytes 80h-BFh its length asks for, each "=XX" right after
/// the one before ("=E2=80=99").
fn utf8_sequences(line: &[u8]) -> usize {
    let mut found = 0usize;
    let mut i = 0usize;
    while i < line.len() {
        let need = match escape_at(line, i) {
            Some(0xc2..=0xdf) => 1,
            Some(0xe0..=0xef) => 2,
            Some(0xf0..=0xf4) => 3,
            _ => {
                i += 1;
                continue;
            }
        };
        let follow = (1..=need).all(|k| {
            let at = i + 3 * k;
            line.get(at) == Some(&b'=')
                && line
                    .get(at + 1..at + 3)
                    .and_then(hex_byte)
                    .is_some_and(|c| (0x80..=0xbf).contains(&c))
        });
        if follow {
            found = found.saturating_add(1);
            i += 3 * (need + 1);
        } else {
            i += 3;
        }
    }
    found
}

/// One line of a quoted-printable text decoded (RFC 2045 section 6.7 rules 1 and 5): each
/// "=XX" is the byte XX, and a lone "=" at the end (blanks after it allowed, rule 3) is a
/// soft line break, reported as `true`: the line goes on in the next one with nothing
/// between them. A line that is no quoted-printable line (a "=" before anything but two
/// upper-case hex digits, a mail header's "charset=us-ascii") is returned as it is.
pub fn qp_line(line: &str) -> (String, bool) {
    if qp_escapes(line).is_none() {
        return (line.to_string(), false);
    }
    // Blanks after the last character were added in transport and go (rule 3); a space
    // the text itself ended with was written "=20".
    let body = line.trim_end_matches([' ', '\t']);
    let (body, soft) = match body.strip_suffix('=') {
        Some(b) => (b, true),
        None => (body, false),
    };
    let src = body.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(src.len());
    let mut i = 0usize;
    while let Some(&b) = src.get(i) {
        if let Some(v) = escape_at(src, i) {
            out.push(v);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    (String::from_utf8_lossy(&out).into_owned(), soft)
}

/// The bytes of the escapes in `line` if it can be a line of quoted-printable text: every
/// "=" followed by two upper-case hex digits (RFC 2045 rule 1: "Uppercase letters must be
/// used"), or the last character before trailing blanks (a soft break).
fn qp_escapes(line: &str) -> Option<Vec<u8>> {
    let body = line.trim_end_matches([' ', '\t']).as_bytes();
    let mut out = Vec::new();
    let mut i = 0usize;
    while let Some(&b) = body.get(i) {
        if b != b'=' {
            i += 1;
            continue;
        }
        if i + 1 == body.len() {
            break;
        }
        out.push(body.get(i + 1..i + 3).and_then(hex_byte)?);
        i += 3;
    }
    Some(out)
}

/// The byte of the escape "=XX" at `i` of `s`, if one stands there.
fn escape_at(s: &[u8], i: usize) -> Option<u8> {
    if s.get(i) == Some(&b'=') {
        s.get(i + 1..i + 3).and_then(hex_byte)
    } else {
        None
    }
}

/// Two upper-case hex digits as a byte.
fn hex_byte(h: &[u8]) -> Option<u8> {
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    match h {
        [a, b] => Some(digit(*a)? * 16 + digit(*b)?),
        _ => None,
    }
}

/// A terminal's escape sequences taken out of a line, as the terminal showed it: scripts that
/// colour their output (PiBenchmarks, `ls --color`, systemd's status) leave them in a log or a
/// paste copied from a file. ECMA-48 section 5.4: a control sequence is ESC `[`, parameter and
/// intermediate bytes, and one final byte in 0x40-0x7E; ESC `(`/`)` designate a character set
/// with one more byte (ISO 2022); ESC `]` starts an operating-system command ended by BEL or
/// ESC `\`. Any other ESC goes alone. Text without ESC comes back unchanged.
pub fn strip_ansi(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('\u{1b}') {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut it = line.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        match it.peek().copied() {
            Some('[') => {
                it.next();
                for d in it.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&d) {
                        break;
                    }
                }
            }
            Some('(') | Some(')') => {
                it.next();
                it.next();
            }
            Some(']') => {
                it.next();
                while let Some(d) = it.next() {
                    if d == '\u{7}' {
                        break;
                    }
                    if d == '\u{1b}' && it.peek() == Some(&'\\') {
                        it.next();
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests;
