use super::*;
use crate::checks::{Confidence, EvidenceRef, Fix, Severity};

fn finding() -> Finding {
    let mut f = Finding::new(
        "write-cache-disabled",
        "ada0",
        Verdict::Problem,
        Severity::Warning,
        "write cache is off",
    )
    .explain("Every write waits for the platter.\n\nTurn it on.");
    f.evidence.push(EvidenceRef {
        source: crate::sources::sysctl::HW_ATA_WC.key_for(""),
        value: "0".into(),
    });
    f.fixes.push(Fix {
        platform: Platform::Freebsd,
        summary: "enable it".into(),
        steps: vec!["sysctl hw.ata.wc=1".into()],
        risk: "power loss".into(),
    });
    f
}

fn same(s: &str) -> String {
    s.to_string()
}

/// The three places that list findings, each in the form it printed before they
/// shared this renderer.
#[test]
fn each_style_keeps_its_form() {
    let f = finding();
    let style = |headline, body, width, evidence, fixes, paras| TextStyle {
        headline,
        lead: "",
        body,
        width,
        wrap_headline: true,
        break_long: true,
        explanation: true,
        blank_line_paragraphs: paras,
        evidence,
        fixes,
        clean: same,
    };
    let report = text(
        &f,
        &style(
            Headline::Numbered(1),
            4,
            72,
            Evidence::Block {
                bullet: "- ",
                wrap: true,
            },
            Fixes::Numbered,
            true,
        ),
    );
    assert_eq!(
        report,
        [
            "1. [warning] ada0: write cache is off (write-cache-disabled)",
            "    Every write waits for the platter.",
            "    Turn it on.",
            "    Evidence:",
            "    - sysctl:hw.ata.wc = 0",
            "    Fix (FreeBSD): enable it",
            "      1. sysctl hw.ata.wc=1",
            "      Risk: power loss",
        ]
    );
    let console = text(
        &f,
        &style(Headline::Tagged, 4, 40, Evidence::None, Fixes::None, false),
    );
    assert_eq!(
        console,
        [
            "[warning] ada0 write-cache-disabled:",
            "    write cache is off",
            "    Every write waits for the platter.",
            "    Turn it on.",
        ]
    );
    let explain = text(
        &f,
        &TextStyle {
            lead: "  ",
            wrap_headline: false,
            break_long: false,
            ..style(
                Headline::Tagged,
                6,
                98,
                Evidence::Inline {
                    wrap: false,
                    limit: usize::MAX,
                },
                Fixes::Plain,
                false,
            )
        },
    );
    assert_eq!(
        explain,
        [
            "  [warning] ada0 write-cache-disabled: write cache is off",
            "      Every write waits for the platter.",
            "      Turn it on.",
            "      evidence: sysctl:hw.ata.wc = 0",
            "      fix (FreeBSD): enable it",
            "          sysctl hw.ata.wc=1",
        ]
    );
}

/// A wizard style: no explanation, evidence or fixes unless a test asks for them.
fn wizard(headline: Headline, lead: &'static str, body: usize, width: usize) -> TextStyle {
    TextStyle {
        headline,
        lead,
        body,
        width,
        wrap_headline: true,
        break_long: true,
        explanation: false,
        blank_line_paragraphs: false,
        evidence: Evidence::None,
        fixes: Fixes::None,
        clean: same,
    }
}

#[test]
fn verdict_lines_fill_the_label_column_and_hang_under_the_verdict() {
    let mut f = finding();
    f.title = "ada0: write cache is off".into();
    let st = wizard(Headline::Verdict { column: 26 }, "  ", 0, 79);
    assert_eq!(
        text(&f, &st),
        ["  Write cache .............. warning: write cache is off"]
    );
    // Narrow: the title wraps under the verdict word, not under the label.
    assert_eq!(
        text(&f, &TextStyle { width: 40, ..st }),
        [
            "  Write cache .............. warning:",
            "                             write cache",
            "                             is off",
        ]
    );
    // A pass says "good" once; an id this diskdoc does not know is its own label.
    let pass = Finding::new(
        "no-such-check",
        "ada0",
        Verdict::Pass,
        Severity::Info,
        "AHCI: good",
    );
    assert_eq!(
        text(&pass, &st),
        ["  no-such-check ............ good: AHCI"]
    );
}

#[test]
fn check_named_headline_with_evidence_kept_whole() {
    let f = finding();
    // Narrower than the headline and an evidence item: both stay whole.
    let st = TextStyle {
        explanation: true,
        wrap_headline: false,
        evidence: Evidence::Block {
            bullet: "  ",
            wrap: false,
        },
        ..wizard(Headline::Labelled, "", 2, 20)
    };
    assert_eq!(
        text(&f, &st),
        [
            "Write cache (write-cache-disabled):",
            "  Every write waits",
            "  for the platter.",
            "  Turn it on.",
            "  Evidence:",
            "    sysctl:hw.ata.wc = 0",
        ]
    );
}

#[test]
fn ranked_answer_says_how_sure_and_keeps_this_platform_s_fixes() {
    let mut f = finding().confidence(Confidence::High);
    f.explanation.clear();
    f.evidence.push(EvidenceRef {
        source: crate::sources::camcontrol_identify::SPEC.key_for("ada0"),
        value: "write_cache_enabled=no".into(),
    });
    f.fixes.push(Fix {
        platform: Platform::Linux,
        summary: "hdparm".into(),
        steps: vec!["hdparm -W1 /dev/sda".into()],
        risk: String::new(),
    });
    let st = TextStyle {
        evidence: Evidence::Inline {
            wrap: true,
            limit: 1,
        },
        fixes: Fixes::Steps {
            only: Platform::Freebsd,
        },
        ..wizard(Headline::Ranked(1), "", 3, 36)
    };
    assert_eq!(
        text(&f, &st),
        [
            "1. [warning] write cache is off",
            "   (sure: measured)",
            "   evidence: sysctl:hw.ata.wc = 0",
            "   Fix: enable it",
            "     - sysctl hw.ata.wc=1",
            "     Risk: power loss",
        ]
    );
    // Evidence wraps two columns in; a step stays one line however long.
    f.evidence[0].value = "0 (off since boot)".into();
    f.fixes[0].steps[0] = "sysctl hw.ata.wc=1 && camcontrol reset all".into();
    let lines = text(&f, &st);
    assert_eq!(
        lines[2..5],
        [
            "   evidence: sysctl:hw.ata.wc = 0",
            "     (off since boot)",
            "   Fix: enable it"
        ]
    );
    assert_eq!(
        lines[5],
        "     - sysctl hw.ata.wc=1 && camcontrol reset all"
    );
}

#[test]
fn bullet_names_the_check_and_drops_the_device() {
    let mut f = finding();
    f.title = "ada0: write cache is off".into();
    let st = TextStyle {
        explanation: true,
        wrap_headline: false,
        ..wizard(Headline::Bullet, "  ", 4, 30)
    };
    assert_eq!(
        text(&f, &st),
        [
            "  - Write cache: write cache is off",
            "    Every write waits for the",
            "    platter.",
            "    Turn it on.",
        ]
    );
}

#[test]
fn verdict_words_and_short_titles() {
    let mut f = finding();
    assert_eq!(verdict_word(&f, PASS_TAG), "warning");
    f.verdict = Verdict::Pass;
    assert_eq!(verdict_word(&f, PASS_TAG), "ok");
    assert_eq!(verdict_word(&f, PASS_WORD), "good");
    f.verdict = Verdict::NotApplicable;
    assert_eq!(verdict_word(&f, PASS_WORD), "n/a");
    // A tagged headline tags by verdict: the console's list of unknowns, headline alone.
    f.verdict = Verdict::Unknown;
    let unknown = TextStyle {
        explanation: false,
        ..wizard(Headline::Tagged, "", 4, 72)
    };
    assert_eq!(
        text(&f, &unknown),
        ["[unknown] ada0 write-cache-disabled: write cache is off"]
    );
    f.title = "ada0: 3.0 Gb/s link: good".into();
    assert_eq!(short_title(&f), "3.0 Gb/s link");
    // "ada0s1" is not "ada0: ": the prefix must be the whole device and a colon.
    f.title = "ada0s1 is aligned".into();
    assert_eq!(short_title(&f), "ada0s1 is aligned");
}

#[test]
fn markdown_styles_keep_their_form() {
    let f = finding();
    let section = markdown(
        &f,
        &MarkdownStyle {
            headline: MarkdownHeadline::Section(2),
            text: same,
            code: same,
            step: same,
        },
    );
    assert_eq!(
        section,
        "### 2. [warning] ada0: write cache is off (write-cache-disabled)\n\n\
             Every write waits for the platter.\n\nTurn it on.\n\n\
             Evidence:\n\n- `sysctl:hw.ata.wc`: 0\n\n\
             **Fix (FreeBSD)**: enable it\n\n1. sysctl hw.ata.wc=1\n\nRisk: power loss\n\n"
    );
    let item = markdown(
        &f,
        &MarkdownStyle {
            headline: MarkdownHeadline::ListItem,
            text: same,
            code: same,
            step: same,
        },
    );
    assert!(
        item.starts_with(
            "- **warning** `write-cache-disabled` on ada0: write cache is off\n\n  Every"
        ),
        "{item}"
    );
    assert!(
        item.ends_with("  - evidence `sysctl:hw.ata.wc`: 0\n\n"),
        "{item}"
    );
    assert!(!item.contains("Fix"), "explain's list has no fixes: {item}");
}
