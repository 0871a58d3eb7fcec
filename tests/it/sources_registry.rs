//! The source registry (`diskdoc_core::sources::SPECS`, issue 16 item 1): every spec has
//! real fixtures, every fixture is recognised by explain as its own tool and nothing else,
//! every spec's parser reads its fixtures, and every capture key of the FreeBSD plan
//! belongs to a spec.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use diskdoc_core::evidence::EvidenceBundle;
use diskdoc_core::explain::recognize::{Tool, recognize};
use diskdoc_core::explain::segment::prepare;
use diskdoc_core::plan::freebsd;
use diskdoc_core::sources::SPECS;
use diskdoc_core::sources::spec::SourceSpec;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The fixture directories of a spec: `<platform>/<id>` for each platform directory that
/// has one, and its own `fixture_dirs`.
fn dirs_of(spec: &SourceSpec) -> Vec<String> {
    let mut v: Vec<String> = ["freebsd", "linux", "other"]
        .iter()
        .map(|p| format!("{p}/{}", spec.id))
        .filter(|d| root().join(d).is_dir())
        // linux/dmesg is Linux's dmesg, not FreeBSD's (its spec names it).
        .filter(|d| {
            !SPECS
                .iter()
                .any(|s| s.id != spec.id && s.fixture_dirs.contains(&d.as_str()))
        })
        .collect();
    v.extend(spec.fixture_dirs.iter().map(|d| d.to_string()));
    v
}

/// (relative path, text) of every file in a fixture directory.
fn files_in(dir: &str) -> Vec<(String, String)> {
    let Ok(rd) = std::fs::read_dir(root().join(dir)) else {
        return Vec::new();
    };
    let mut v: Vec<(String, String)> = rd
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| {
            let text = String::from_utf8_lossy(&std::fs::read(e.path()).expect("read")).to_string();
            (format!("{dir}/{}", e.file_name().to_string_lossy()), text)
        })
        .collect();
    v.sort();
    v
}

/// Every capture key of the fixture bundles (a spec's fixture may be a capture in one).
fn bundle_keys() -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for e in std::fs::read_dir(root().join("bundles"))
        .expect("bundles")
        .flatten()
    {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "json") {
            let b = EvidenceBundle::load(&p).expect("bundle loads");
            keys.extend(b.captures.keys().cloned());
        }
    }
    keys
}

/// The tools explain recognises in the seed threads (tests/fixtures/seeds: whole mailing
/// list threads, with their addresses in that directory's README).
fn seed_tools() -> BTreeSet<Tool> {
    let mut tools = BTreeSet::new();
    for e in std::fs::read_dir(root().join("seeds"))
        .expect("seeds")
        .flatten()
    {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "txt") {
            let text = std::fs::read(&p).expect("read");
            if let Ok(prep) = prepare(0, "seed", &text) {
                tools.extend(recognize(&prep.lines).blocks.iter().map(|b| b.tool));
            }
        }
    }
    tools
}

/// Specs that have no real fixture yet: listed here so the gap is visible, and the test
/// fails once a fixture arrives (then the entry goes).
const NO_FIXTURE_YET: &[&str] = &[
    // The one public sysfs attribute listing found so far is corpus-reviewed batch 19's row 27
    // (a RAID tuning script's dry run, "current value of /sys/block/sdX/device/queue_depth is
    // 1"); the scorer reads it there, and the parser's unit tests build the `grep .` form.
    "sysfs-values",
    // No public `nvmecontrol logpage -p 2` output found yet; the parser is tested with
    // smartctl and nvme-cli outputs of the same log page (tests/fixtures/nvme-smart-log).
    "nvmecontrol-logpage",
    // No public `nvmecontrol identify` (namespace) output found yet; issue 17's tests build
    // its LBA format lines from sbin/nvmecontrol/identify_ext.c's printfs, marked.
    "nvmecontrol-identify",
    // `zfs get compression` output is only built inline by tests/it/freebsd_live_probe.rs.
    "zfs-get",
    // lsusb -v is read for its secrets only (its `iSerial` line); the rule is tested with a
    // line in tests/it/privacy_structure.rs, not a whole public output.
    "lsusb",
];

#[test]
fn ids_are_unique_and_every_pasteable_spec_is_a_tool() {
    let mut seen = BTreeSet::new();
    for s in SPECS {
        assert!(seen.insert(s.id), "two specs have the id {}", s.id);
        if s.paste.is_some() {
            let t = Tool::from_id(s.id).unwrap_or_else(|| panic!("no Tool for spec {}", s.id));
            assert_eq!(t.spec().id, s.id);
        }
    }
    for t in Tool::all() {
        assert!(
            SPECS.iter().any(|s| s.id == t.id() && s.paste.is_some()),
            "{} is no pasteable spec of the registry",
            t.id()
        );
    }
}

#[test]
fn every_spec_has_a_fixture() {
    let keys = bundle_keys();
    assert!(keys.len() > 30, "only {} bundle keys found", keys.len());
    let seeds = seed_tools();
    assert!(seeds.len() > 5, "only {seeds:?} in the seed threads");
    let mut missing = Vec::new();
    for s in SPECS {
        let files: usize = dirs_of(s).iter().map(|d| files_in(d).len()).sum();
        let captured = keys.iter().any(|k| s.captures(k));
        let in_seed = Tool::from_id(s.id).is_some_and(|t| seeds.contains(&t));
        let has = files > 0 || captured || in_seed;
        if NO_FIXTURE_YET.contains(&s.id) {
            assert!(
                !has,
                "{} has a fixture now: drop it from NO_FIXTURE_YET",
                s.id
            );
        } else if !has {
            missing.push(s.id);
        }
    }
    assert!(missing.is_empty(), "specs without fixtures: {missing:?}");
}

#[test]
fn every_fixture_is_its_own_tool_and_nothing_else() {
    let mut failures = Vec::new();
    let mut n = 0usize;
    for s in SPECS.iter().filter(|s| s.paste.is_some()) {
        let Some(tool) = Tool::from_id(s.id) else {
            failures.push(format!("{}: no Tool", s.id));
            continue;
        };
        for d in dirs_of(s) {
            for (name, text) in files_in(&d) {
                n += 1;
                let got: Vec<Tool> = match prepare(0, "t", text.as_bytes()) {
                    Ok(p) => recognize(&p.lines).blocks.iter().map(|b| b.tool).collect(),
                    Err(e) => {
                        failures.push(format!("{name}: not text ({e:?})"));
                        continue;
                    }
                };
                if got.is_empty() || got.iter().any(|t| *t != tool) {
                    failures.push(format!(
                        "{name}: expected only {}, got {:?}",
                        s.id,
                        got.iter().map(|t| t.id()).collect::<Vec<_>>()
                    ));
                }
            }
        }
    }
    assert!(n >= 130, "only {n} fixtures found");
    assert!(
        failures.is_empty(),
        "{} of {n} fixtures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_parser_reads_its_fixtures() {
    let mut failures = Vec::new();
    for s in SPECS {
        let Some(parse) = s.parse else { continue };
        for d in dirs_of(s) {
            for (name, text) in files_in(&d) {
                if parse(&text) == 0 {
                    failures.push(format!("{name}: the {} parser read nothing", s.id));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_plan_capture_key_belongs_to_a_spec() {
    let mut items: Vec<&freebsd_items::Item> = Vec::new();
    items.extend(freebsd::GLOBAL.iter());
    items.extend(freebsd::PER_DISK.iter());
    items.extend(freebsd::PER_POOL.iter());
    items.extend(freebsd::PER_NVME_CONTROLLER.iter());
    assert!(items.len() > 30, "only {} plan items", items.len());
    let mut orphans = Vec::new();
    for item in items {
        // Per-disk items for each kind of disk name the templates fill differently.
        for disk in ["ada0", "da12", "nvd1"] {
            let key = item.key_str(disk);
            let owners: Vec<&str> = SPECS
                .iter()
                .filter(|s| s.captures(&key))
                .map(|s| s.id)
                .collect();
            if owners.is_empty() {
                orphans.push(key);
            }
        }
    }
    // The argv the plan builds outside its item tables.
    for argv in [
        freebsd::GSTAT_BUSY
            .iter()
            .map(|a| a.to_string())
            .collect::<Vec<_>>(),
        diskdoc_core::sources::zfs_get::argv(&["zroot/ROOT/default".to_string()]),
    ] {
        let key = format!("cmd:{}", argv.join(" "));
        if !SPECS.iter().any(|s| s.captures(&key)) {
            orphans.push(key);
        }
    }
    orphans.dedup();
    assert!(orphans.is_empty(), "capture keys no spec owns: {orphans:?}");
    // And the converse: a key no spec owns is caught (a test of the test).
    assert!(!SPECS.iter().any(|s| s.captures("cmd:camcontrol identify")));
}

/// The pasted block of a spec goes under one of its own live keys.
#[test]
fn pasted_keys_are_live_keys() {
    for s in SPECS {
        if let Some(p) = s.pasted_as {
            assert!(
                s.live.contains(&p),
                "{}: pasted_as is not one of its live keys",
                s.id
            );
        }
    }
}

mod freebsd_items {
    pub use diskdoc_core::plan::Item;
}
