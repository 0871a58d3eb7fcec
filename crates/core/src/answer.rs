//! The answers of `diskdoc explain` and `diskdoc replay` as the text they print, for every
//! front end: the binary (crates/diskdoc, commands/explain.rs and commands/replay.rs) reads
//! files and prints, the web page (crates/web) takes a paste or a dropped file; both call
//! these functions, so the page cannot drift from the command line. Input caps, redaction
//! and the final check for leaked secrets are here for the same reason.

use crate::checks;
use crate::explain::render::{render_markdown, render_text};
use crate::explain::{self, ExplainError, Explanation, Input};
use crate::report::redact::{self, Leak};
use crate::report::{
    self, LoadError, Loaded, Pasted, Report, ReportKind, report_from_loaded, text,
};

/// The total input one command reads by default, MiB: far above any real report, bundle or
/// pasted log (diskdoc's own reports are kilobytes to a few MiB), low enough that parsing
/// stays in memory bounds. Each pasted input is further cut at
/// [`explain::segment::MAX_INPUT_BYTES`].
pub const DEFAULT_MAX_INPUT_MIB: u64 = 64;

/// The one message for input over the cap; `raise` says how the front end raises it.
pub fn over_cap(label: &str, cap_bytes: u64, raise: &str) -> String {
    format!(
        "{label} goes over diskdoc's input cap: one command reads at most {} MiB in total \
         (a guard against memory use on huge or endless input); {raise}",
        cap_bytes >> 20
    )
}

/// The output forms (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The command's own console form (replay: the text report; explain: the reply).
    Text,
    Markdown,
    /// The versioned report envelope.
    Json,
    Prometheus,
    /// The HTML report ([`report::html`]): one self-contained page with charts.
    Html,
    /// The plain-text report for mailing lists ([`report::text`]: 72 columns, ASCII, safe
    /// from mbox "From " escaping): explain's report in the form `diskdoc replay` prints it,
    /// the reply the web page copies. Replay: the same as `Text`.
    Mail,
}

/// What a command prints, and the exit status it ends with (0 no finding at warning or
/// above, 1 such findings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub output: String,
    pub exit_status: i32,
}

/// Why no answer could be given; each message names the problem and the way out.
#[derive(Debug)]
pub enum AnswerError {
    Explain(ExplainError),
    Load(LoadError),
    /// The final check found a secret redaction missed: nothing is shown.
    Leak(Leak),
}

impl std::fmt::Display for AnswerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnswerError::Explain(e) => e.fmt(f),
            AnswerError::Load(e) => e.fmt(f),
            AnswerError::Leak(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AnswerError {}

impl From<Leak> for AnswerError {
    fn from(e: Leak) -> Self {
        AnswerError::Leak(e)
    }
}

/// `diskdoc explain`: the inputs explained and rendered in `form`. Text and Markdown are the
/// explanation's own forms, redacted here; JSON, Prometheus and HTML render the `explain`
/// report, whose pasted inputs a replay reads again. Every form passes the final check before it is
/// returned.
pub fn explain(
    inputs: &[Input],
    form: Form,
    redact: bool,
    argv: Vec<String>,
) -> Result<Answer, AnswerError> {
    let ex = explain::explain(inputs).map_err(AnswerError::Explain)?;
    let exit_status = checks::exit_code(&ex.findings);
    let own = |render: fn(&Explanation) -> String| -> Result<String, Leak> {
        if redact {
            let (shared, red) = redact::share_explanation(&ex);
            let out = render(&shared);
            red.verify(&out).map(|()| out)
        } else {
            Ok(render(&ex))
        }
    };
    let output = match form {
        Form::Markdown => own(render_markdown)?,
        Form::Text => own(render_text)?,
        Form::Json | Form::Prometheus | Form::Html | Form::Mail => {
            // Lossy: the report's pasted text is a string; the explanation read the bytes.
            let pasted = inputs
                .iter()
                .map(|i| Pasted {
                    label: i.label.clone(),
                    text: String::from_utf8_lossy(&i.bytes).into_owned(),
                })
                .collect();
            let r = Report::from_explanation(ex, pasted, argv);
            render_report(&r, form, redact, text::render)?
        }
    };
    Ok(Answer {
        output,
        exit_status,
    })
}

/// A report as `form` asks: JSON the envelope, Markdown the Markdown report (or the
/// comparison), Prometheus the exposition, HTML the page with charts, text (and mail) the
/// command's own form (`text`); redacted unless `redact` is false, and checked for leaked
/// secrets.
pub fn render_report(
    r: &Report,
    form: Form,
    redact: bool,
    text: impl FnOnce(&Report) -> String,
) -> Result<String, Leak> {
    let shared = r.share(redact);
    match form {
        Form::Json => shared.render(report::json::render),
        Form::Markdown => shared.render(|shared| match (shared.comparison(), shared.summary()) {
            (Some(c), _) => report::compare::render_markdown(&c),
            (None, Some(s)) => report::summarize::render_markdown(&s, &shared.messages),
            (None, None) => report::markdown::render(shared),
        }),
        Form::Prometheus => shared.render(report::prometheus::render),
        // The page, checked as written and as a reader sees it.
        #[cfg(feature = "html")]
        Form::Html => report::html::render_shared(&shared),
        // The web build (crates/web asks for no HTML; see the `html` feature).
        #[cfg(not(feature = "html"))]
        Form::Html => {
            Ok("diskdoc: this build has no HTML report (the html feature is off)\n".into())
        }
        Form::Text | Form::Mail => shared.render(text),
    }
}

#[cfg(feature = "html")]
/// A Markdown report written to a file with its charts beside it: `markdown` links each
/// chart as `![caption](file)`, and `charts` holds each file's name and SVG text.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkdownFiles {
    pub markdown: String,
    pub charts: Vec<(String, String)>,
}

#[cfg(feature = "html")]
/// The part of a file name that can be used in a chart's file name and a Markdown link
/// destination without escaping: ASCII letters, digits, `.`, `-` and `_` (anything else,
/// spaces and parentheses included, would need `<...>` or percent-encoding in the link).
fn link_safe(stem: &str) -> String {
    let s: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() { "report".into() } else { s }
}

#[cfg(feature = "html")]
/// The Markdown report (as [`render_report`] gives it) for a file named `stem`.md, with
/// every chart the HTML page draws as an SVG file `stem-N-kind.svg` in the same directory,
/// linked from a Charts section; a comparison or fleet summary has no charts. Every SVG
/// passes the same final check for leaked secrets as the text (also as a reader sees it,
/// with character references decoded).
pub fn render_markdown_files(r: &Report, redact: bool, stem: &str) -> Result<MarkdownFiles, Leak> {
    let shared = r.share(redact);
    let mut markdown = render_report(r, Form::Markdown, redact, text::render)?;
    let mut charts = Vec::new();
    if shared.report.comparison().is_some() || shared.report.summary().is_some() {
        return Ok(MarkdownFiles { markdown, charts });
    }
    let stem = link_safe(stem);
    let mut links = String::new();
    for (i, f) in report::html::figures(&shared.report)
        .into_iter()
        .enumerate()
    {
        let Some(svg) = f.svg else { continue };
        let svg = shared.check(svg)?;
        shared.check(report::html::decoded(&svg))?;
        let name = format!("{stem}-{}-{}.svg", i + 1, f.kind);
        // The caption as a link's alt text: brackets and backslashes would end or escape it.
        let alt: String = f
            .caption
            .chars()
            .filter(|c| !matches!(c, '[' | ']' | '\\' | '\n'))
            .collect();
        links.push_str(&format!("![{alt}]({name})\n\n"));
        charts.push((name, svg));
    }
    if !charts.is_empty() {
        // Before the closing line, which says how the report was made.
        let at = markdown
            .rfind("\n_Generated by diskdoc")
            .map(|i| i + 1)
            .unwrap_or(markdown.len());
        let mut section = String::new();
        if at == markdown.len() && !markdown.ends_with('\n') {
            section.push('\n');
        }
        section.push_str("## Charts\n\n");
        section.push_str(&links);
        markdown.insert_str(at, &section);
        markdown = shared.check(markdown)?;
    }
    Ok(MarkdownFiles { markdown, charts })
}

/// Parse a report or bundle read whole (`label` names it in errors). Lossy: a stray
/// Latin-1 byte from a mail gateway becomes U+FFFD inside a string rather than a refusal;
/// serde_json then reports what is really wrong, if anything.
pub fn load(label: &str, bytes: &[u8]) -> Result<Loaded, LoadError> {
    // A report saved through a Windows editor or PowerShell redirection may be UTF-16.
    match crate::pasted::decode_utf16(bytes) {
        Some((text, _)) => report::load::parse(label, &text),
        None => report::load::parse(label, &String::from_utf8_lossy(bytes)),
    }
}

/// `diskdoc replay`: the loaded file re-derived with this diskdoc by the rule of the command
/// that wrote it (its exit status is the one the original run would have had).
pub fn replay_report(loaded: Loaded, argv: Vec<String>) -> Report {
    let mut r = report_from_loaded(loaded, argv);
    r.derived_as = Some(r.derivation());
    r.kind = ReportKind::Replay;
    r
}

/// Replay's text form: the comparison of a compare report, the table of a summary, else
/// the text report.
pub fn replay_text(r: &Report) -> String {
    match (r.comparison(), r.summary()) {
        (Some(c), _) => report::compare::render_text(&c),
        (None, Some(s)) => report::summarize::render_text(&s, &r.messages),
        (None, None) => text::render(r),
    }
}

/// `diskdoc replay` of a whole file (no `--device`): load, re-derive, render.
pub fn replay(
    label: &str,
    bytes: &[u8],
    form: Form,
    redact: bool,
    argv: Vec<String>,
) -> Result<Answer, AnswerError> {
    let loaded = load(label, bytes).map_err(AnswerError::Load)?;
    let r = replay_report(loaded, argv);
    let output = render_report(&r, form, redact, replay_text)?;
    Ok(Answer {
        output,
        exit_status: r.exit_status,
    })
}
