//! Tests over the whole registry: ids, the README table, the healthy configuration, the seed
//! systems expressed as facts, and the rule that missing facts never produce a problem.

use super::testutil::*;
use super::*;
use crate::facts::{DiskFacts, Fact, Layer, LayerKind};

const REQUIRED: [&str; 9] = [
    "controller-legacy-mode",
    "sata-link-below-max",
    "write-cache-disabled",
    "ncq-unavailable",
    "partition-misaligned",
    "encryption-layer",
    "media-errors",
    "link-errors",
    "virtual-or-bridged-device",
];

#[test]
fn ids_are_unique_kebab_case_and_complete() {
    let ids: Vec<&str> = CHECKS.iter().map(|c| c.id()).collect();
    for id in &ids {
        assert!(
            id.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{id}"
        );
        assert_eq!(ids.iter().filter(|x| *x == id).count(), 1, "{id} twice");
    }
    for r in REQUIRED {
        assert!(ids.contains(&r), "{r} missing from CHECKS");
    }
    assert!(ids.contains(&"partition-table-limit"));
    assert!(ids.contains(&"zfs-ashift-too-small"));
}

/// A summary is what `diskdoc --list-checks` and the README show a user: it must make sense
/// without this repository, so no test corpus names ("seed 000") in it.
#[test]
fn summaries_name_no_test_corpus() {
    for c in CHECKS {
        let s = c.summary().to_ascii_lowercase();
        assert!(
            !s.contains("seed ") && !s.contains("fixture"),
            "{}: {:?} names the test corpus; say what was measured on which drive",
            c.id(),
            c.summary()
        );
    }
}

#[test]
fn findings_carry_their_check_id() {
    let sys = seed000_desktop();
    for c in CHECKS {
        for f in c.run(&sys) {
            assert_eq!(f.check, c.id());
        }
    }
}

#[test]
fn readme_table_matches_registry() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    let readme = std::fs::read_to_string(path).unwrap_or_default();
    let begin = "<!-- checks:begin -->\n";
    let end = "<!-- checks:end -->";
    let b = readme.find(begin).map(|i| i + begin.len());
    let e = readme.find(end);
    let (Some(b), Some(e)) = (b, e) else {
        panic!("README.md lacks the {begin:?} / {end:?} markers");
    };
    if std::env::var_os("DISKDOC_UPDATE_README").is_some() && b <= e {
        // `DISKDOC_UPDATE_README=1 cargo test --lib readme_table` rewrites the table after
        // a check is added to CHECKS.
        let new = format!("{}{}{}", &readme[..b], markdown_table(), &readme[e..]);
        if let Err(err) = std::fs::write(path, new) {
            panic!("cannot rewrite {path}: {err}");
        }
        return;
    }
    assert_eq!(
        readme.get(b..e).unwrap_or_default(),
        markdown_table(),
        "README.md's check table is stale: run `DISKDOC_UPDATE_README=1 cargo test --lib \
         readme_table` (or paste checks::markdown_table() between the markers)"
    );
    assert_eq!(markdown_table().lines().count(), CHECKS.len() + 2);
}

fn above_info(fs: &[Finding]) -> Vec<&Finding> {
    fs.iter().filter(|f| f.severity > Severity::Info).collect()
}

#[test]
fn healthy_linux_configuration_has_nothing_above_info() {
    let fs = run_all(&linux(sata_hdd_ahci()));
    assert!(above_info(&fs).is_empty(), "{:#?}", above_info(&fs));
    // Every check looked and passed: nothing unknown on a fully probed disk.
    assert!(fs.iter().all(|f| f.verdict == Verdict::Pass), "{fs:#?}");
    // One finding per device check for the one disk (zfs-ashift-too-small only looks at
    // disks carrying ZFS; checks of pasted benchmarks have nothing to look at).
    let mut device_checks: Vec<&str> = REQUIRED.to_vec();
    device_checks.extend(["io-scheduler", "partition-table-limit"]);
    for id in device_checks {
        assert_eq!(
            fs.iter()
                .filter(|f| f.check == id && f.device == "sda")
                .count(),
            1,
            "{id}"
        );
    }
    assert!(!fs.iter().any(|f| f.check == "zfs-ashift-too-small"));
    assert_eq!(exit_code(&fs), 0);
}

#[test]
fn healthy_freebsd_configuration_has_nothing_above_info() {
    let fs = run_all(&freebsd(sata_hdd_ahci_freebsd()));
    assert!(above_info(&fs).is_empty(), "{:#?}", above_info(&fs));
    assert_eq!(exit_code(&fs), 0);
}

#[test]
fn nothing_known_means_no_problem() {
    // A disk about which nothing could be read: every check must say unknown (or not
    // applicable), never guess a problem.
    for platform in [Platform::Linux, Platform::Freebsd, Platform::Unknown] {
        let mut s = SystemFacts::empty(platform);
        s.disks = vec![DiskFacts::new("sda", "/dev/sda")];
        let fs = run_all(&s);
        assert!(!fs.is_empty());
        for f in &fs {
            assert_ne!(f.verdict, Verdict::Problem, "{f:#?}");
            if f.verdict == Verdict::Unknown {
                assert!(
                    f.explanation
                        .contains(": unknown (not probed). To find out"),
                    "{}",
                    f.explanation
                );
                assert!(f.explanation.contains("To find out"), "{}", f.explanation);
            }
        }
    }
}

#[test]
fn stacked_devices_are_skipped() {
    let mut s = linux(sata_hdd_ahci());
    s.disks.push(DiskFacts::new("dm-0", "/dev/dm-0"));
    s.disks.push(DiskFacts::new("loop0", "/dev/loop0"));
    let fs = run_all(&s);
    assert!(fs.iter().all(|f| f.device == "sda"));
}

fn problem_ids(fs: &[Finding]) -> Vec<&str> {
    let mut v: Vec<&str> = fs
        .iter()
        .filter(|f| f.is_problem())
        .map(|f| f.check.as_str())
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn seed000_desktop_is_recognised() {
    let fs = run_all(&seed000_desktop());
    assert_eq!(
        problem_ids(&fs),
        vec![
            "controller-legacy-mode",
            "ncq-unavailable",
            "write-cache-disabled"
        ]
    );
    // Ranked: the two warnings first, the write cache (larger impact) ahead.
    assert_eq!(fs[0].check, "write-cache-disabled");
    assert_eq!(fs[1].check, "controller-legacy-mode");
    assert_eq!(exit_code(&fs), 1);
    for f in fs.iter().filter(|f| f.is_problem()) {
        assert!(!f.evidence.is_empty(), "{} without evidence", f.check);
        assert!(!f.fixes.is_empty(), "{} without fixes", f.check);
        assert!(f.fixes.iter().all(|x| x.platform == Platform::Freebsd));
        assert!(f.fixes.iter().all(|x| !x.risk.is_empty()));
    }
}

#[test]
fn seed003_mbr_layout_honest_alignment_and_table_limit() {
    let fs = run_all(&seed003(seed003_mbr_1008()));
    assert_eq!(problem_ids(&fs), vec!["partition-table-limit"]);
    let align = fs
        .iter()
        .find(|f| f.check == "partition-misaligned")
        .unwrap_or_else(|| panic!("no alignment finding"));
    assert_eq!(align.verdict, Verdict::Pass);
    assert_eq!(exit_code(&fs), 0);
}

#[test]
fn seed003_real_slice_at_63_is_flagged() {
    let t = testutil::table("mbr", vec![part(1, "da0s1", 63, 4_294_967_166)]);
    let fs = run_all(&seed003(t));
    let p = problems(&fs, "partition-misaligned");
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].severity, Severity::Warning);
    assert_eq!(exit_code(&fs), 1);
}

#[test]
fn seed003_gpt_at_40_is_clean() {
    let t = testutil::table("gpt", vec![part(1, "da0p1", 40, 5_860_533_088)]);
    let fs = run_all(&seed003(t));
    assert!(problem_ids(&fs).is_empty(), "{:#?}", problem_ids(&fs));
}

#[test]
fn seed002_geli_hdd_is_a_notice() {
    let mut d = sata_hdd_ahci_freebsd();
    d.layers = vec![Layer {
        kind: Some(LayerKind::Geli),
        name: "ada0p4.eli".to_string(),
        cipher: Some("AES-XTS".to_string()),
        key_bits: Some(128),
        crypto_impl: Some("hardware".to_string()),
        from: vec![crate::sources::geli::SPEC.key_for("")],
        ..Default::default()
    }];
    d.link_current_gbps = Fact::known(
        6.0,
        crate::sources::camcontrol_identify::SPEC.key_for("ada0"),
    );
    let fs = run_all(&freebsd(d));
    assert_eq!(problem_ids(&fs), vec!["encryption-layer"]);
    let f = &problems(&fs, "encryption-layer")[0];
    assert_eq!(f.severity, Severity::Notice);
    assert!(f.title.contains("AES-XTS 128-bit key"));
    assert_eq!(exit_code(&fs), 0);
}

#[test]
fn problem_findings_are_complete() {
    // Every problem any check raises on the seeds has a title on one line, an explanation,
    // evidence, and fixes only for the facts' platform.
    let systems = [
        seed000_desktop(),
        seed003(testutil::table(
            "mbr",
            vec![part(1, "da0s1", 63, 4_294_967_166)],
        )),
    ];
    for s in &systems {
        for f in run_all(s).iter().filter(|f| f.is_problem()) {
            assert!(!f.title.contains('\n'));
            assert!(f.explanation.len() > 80, "{}: {}", f.check, f.explanation);
            assert!(!f.evidence.is_empty(), "{}", f.check);
            assert!(
                f.fixes.iter().all(|x| x.platform == s.platform),
                "{}",
                f.check
            );
        }
    }
}

/// The measured checks (shown after `diskdoc bench`) are the ones that say they read the
/// benchmarks; the pasted-benchmark critics say so too, and are not among them.
#[test]
fn check_inputs_split_the_registry() {
    let measured: Vec<&str> = super::measured_checks().map(|c| c.id()).collect();
    assert_eq!(
        measured,
        [
            "read-errors",
            "cache-answered",
            "link-ceiling-reached",
            "below-expected-for-class",
            "small-block-overhead",
            "write-much-slower-than-read",
            "latency-outliers",
            "encryption-bound",
            "disk-busy",
        ]
    );
    let pasted: Vec<&str> = super::CHECKS
        .iter()
        .filter(|c| c.input() == super::CheckInput::Pasted)
        .map(|c| c.id())
        .collect();
    assert_eq!(pasted.len(), 5, "{pasted:?}");
    assert!(
        pasted.iter().all(|id| id.starts_with("benchmark-")),
        "{pasted:?}"
    );
}

/// Each check names itself for people (the wizard's verdict lines): every label is
/// distinct, and `by_id` finds every check and nothing else.
#[test]
fn labels_are_distinct_and_ids_resolve() {
    let mut labels = std::collections::HashSet::new();
    for c in crate::checks::CHECKS {
        assert!(!c.label().is_empty(), "{}", c.id());
        assert!(labels.insert(c.label()), "label {:?} used twice", c.label());
        let found = crate::checks::by_id(c.id()).map(|f| f.id());
        assert_eq!(found, Some(c.id()));
    }
    assert_eq!(
        crate::checks::by_id("write-cache-disabled").map(|c| c.label()),
        Some("Write cache")
    );
    assert!(crate::checks::by_id("no-such-check").is_none());
}

/// `label_of`: a check's label, or an id this diskdoc does not know as it is (a report of
/// another version). Not named "label...": the suite runs with `--skip lab`.
#[test]
fn ids_read_as_their_check_s_name() {
    assert_eq!(
        crate::checks::label_of("write-cache-disabled"),
        "Write cache"
    );
    assert_eq!(crate::checks::label_of("no-such-check"), "no-such-check");
}

/// A sentence of a finding wrapped in the source without its line-continuation backslash
/// keeps the next line's indentation inside the text ("the disk (or                      the
/// link"): every explanation, title and fix reaches the user verbatim (text, Markdown, JSON),
/// so no string literal of the checks' or explain's code may hold a run of spaces between
/// two words. Column-aligned tool outputs in tests are exempt (test files are skipped).
#[test]
fn no_user_text_carries_a_wrapped_lines_indentation() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut bad = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("source directory").flatten() {
            let p = entry.path();
            if p.is_dir() {
                dirs.push(p);
                continue;
            }
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if !name.ends_with(".rs")
                || name.contains("test")
                || p.to_string_lossy().contains("/tests")
            {
                continue;
            }
            let text = std::fs::read_to_string(&p).expect("readable source");
            for (i, line) in text.lines().enumerate() {
                let code = line.trim_start();
                if code.starts_with("//") || line.contains("\\n") {
                    continue;
                }
                // Inside a string: a letter or punctuation, six or more spaces, a word.
                let Some(q) = line.find('"') else { continue };
                let body: Vec<char> = line[q..].chars().collect();
                let mut run = 0;
                for w in body.windows(2) {
                    if w[1] == ' ' {
                        run += 1;
                    } else {
                        if run >= 6 && w[1].is_alphabetic() {
                            bad.push(format!("{}:{}", p.display(), i + 1));
                            break;
                        }
                        run = 0;
                    }
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "string literals with a wrapped line's indentation: {bad:?}"
    );
}
