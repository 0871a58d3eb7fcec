//! The guard of the layout (docs/architecture.md): the data-flow diagram is the crate graph.
//! It fails on a forbidden edge, so the picture cannot erode again unnoticed:
//! - crate dependencies: diskdoc-core depends on no system crate and on no other diskdoc
//!   crate; diskdoc-sys does not depend on the binary or on terminal UI crates;
//! - source references: nothing in core names `diskdoc_sys` or `diskdoc::`, nothing in sys
//!   names the binary crate; `unsafe` appears in core only in its `forbid` attribute;
//!   `cfg(target_os)` appears nowhere in core;
//! - inside each crate, imports between top-level modules form no cycle, and core's modules
//!   only import modules of a lower rank (CORE_RANKS: `evidence`/`units`/`sanitize` <-
//!   `model` <- `sources` <- `plan`/`pasted` <- `facts` <- `checks` <- `render` <- `explain`
//!   <- `report` <- `answer`): the pasted-text facts need nothing of explain;
//! - inside each crate, the file graph of `crate::`, `super::` and `self::` references, paths
//!   written as strings in attributes included (serde `with`, schemars `schema_with`), has no cycle
//!   (a parent `mod.rs` naming its own children by relative path is containment, not an
//!   import, so the check registry in checks/mod.rs is not a cycle).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without comments and string literals (so a doc line that mentions
/// `crate::app` or the word unsafe is not an import).
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'r' && (b.get(i + 1) == Some(&b'#') || b.get(i + 1) == Some(&b'"')) {
            // raw string r"..." / r#"..."#
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(b[i] as char);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == b'"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&b'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if b[i] == b'"' {
            let start = i + 1;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            let lit = src.get(start..i.min(b.len())).unwrap_or("");
            i += 1;
            // A path written as a string is still an import: serde's `with = "crate::x"`,
            // schemars' `schema_with = "crate::report::schema::f"` name a function the
            // derive calls. Keep such a literal as code so its edge is seen.
            if is_path_literal(lit) {
                out.push(' ');
                out.push_str(lit);
                out.push(' ');
            } else {
                out.push_str("\"\"");
            }
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            // a char literal such as '"'
            out.push_str("' '");
            i += 3;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// `crate::a::b`, `super::x::y`, `self::f`: a string literal that is a Rust path.
fn is_path_literal(lit: &str) -> bool {
    ["crate::", "super::", "self::"]
        .iter()
        .any(|h| lit.starts_with(h))
        && lit.chars().all(|c| ident_char(c) || c == ':')
}

/// Module path of a file under `src`: src/facts/linux/mod.rs -> ["facts", "linux"].
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

struct Crate {
    name: &'static str,
    /// module path -> code
    files: BTreeMap<Vec<String>, String>,
}

fn load(name: &'static str, src: &str) -> Crate {
    let src = root().join(src);
    let mut paths = Vec::new();
    rs_files(&src, &mut paths);
    let mut files = BTreeMap::new();
    for p in paths {
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        files.insert(module_path(&src, &p), code_only(&text));
    }
    assert!(files.len() > 3, "{name}: found only {} files", files.len());
    Crate { name, files }
}

/// The pure core as one graph: diskdoc-sources (the tool modules and the types they write)
/// and diskdoc-core above it, which re-exports them under the same paths (`crate::sources`,
/// `crate::evidence` ...). One graph, so the ranks and the cycle check see every import
/// across the crate line as they did when both were one crate.
fn load_core() -> Crate {
    let mut core = load("diskdoc-core", "crates/core/src");
    let sources = load("diskdoc-sources", "crates/sources/src");
    for (m, code) in sources.files {
        let e = core.files.entry(m).or_default();
        e.push('\n');
        e.push_str(&code);
    }
    core
}

fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every `crate::a::b::{c, d::e}` / `super::x` path in `code`, as segment lists (braces are
/// expanded one level, enough for `use` lines).
fn paths(code: &str, head: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let pat = format!("{head}::");
    let mut from = 0;
    while let Some(k) = code[from..].find(&pat) {
        let at = from + k;
        from = at + pat.len();
        if at > 0 && code[..at].chars().next_back().is_some_and(ident_char) {
            continue;
        }
        let mut segs = Vec::new();
        let mut rest = &code[at + pat.len()..];
        // super::super::x
        let mut ups = 1;
        if head == "super" {
            while let Some(r) = rest.strip_prefix("super::") {
                ups += 1;
                rest = r;
            }
            segs.push(format!("^{ups}"));
        }
        loop {
            let name: String = rest.chars().take_while(|c| ident_char(*c)).collect();
            if name.is_empty() {
                break;
            }
            rest = &rest[name.len()..];
            segs.push(name);
            match rest.strip_prefix("::") {
                Some(r) => rest = r,
                None => break,
            }
        }
        if let Some(inner) = rest.strip_prefix('{') {
            let end = inner.find('}').unwrap_or(inner.len());
            for item in inner[..end].split(',') {
                let item = item.trim();
                let mut s = segs.clone();
                for part in item.split("::") {
                    let n: String = part.trim().chars().take_while(|c| ident_char(*c)).collect();
                    if !n.is_empty() && n != "self" {
                        s.push(n);
                    }
                }
                out.push(s);
            }
        } else {
            out.push(segs);
        }
    }
    out
}

/// The module file a path lands in: its longest prefix that is a file of the crate.
fn resolve(files: &BTreeMap<Vec<String>, String>, full: &[String]) -> Option<Vec<String>> {
    (1..=full.len())
        .rev()
        .map(|n| full[..n].to_vec())
        .find(|p| files.contains_key(p))
}

/// File-level edges of a crate: from each file to each module file it names by `crate::` or
/// `super::` (not to itself).
fn edges(c: &Crate) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut g: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (m, code) in &c.files {
        let set = g.entry(m.clone()).or_default();
        for p in paths(code, "crate") {
            if let Some(t) = resolve(&c.files, &p)
                && &t != m
                && !t.is_empty()
            {
                set.insert(t);
            }
        }
        for p in paths(code, "super") {
            let ups: usize = p[0].trim_start_matches('^').parse().unwrap_or(1);
            // `super` of a file module is its parent; mod.rs files are their directory's module.
            if ups > m.len() {
                continue;
            }
            let mut full: Vec<String> = m[..m.len() - ups].to_vec();
            full.extend(p[1..].iter().cloned());
            if let Some(t) = resolve(&c.files, &full)
                && &t != m
                && !t.is_empty()
                // `use super::*` in a test module inside the file: the file itself.
                && !(m.starts_with(&t) && p.len() == 1)
            {
                set.insert(t);
            }
        }
    }
    g
}

/// Strongly connected components with more than one node (Tarjan).
fn cycles<N: Ord + Clone>(g: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    struct St<N> {
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        on: BTreeSet<N>,
        stack: Vec<N>,
        next: usize,
        out: Vec<Vec<N>>,
    }
    fn visit<N: Ord + Clone>(v: &N, g: &BTreeMap<N, BTreeSet<N>>, s: &mut St<N>) {
        s.index.insert(v.clone(), s.next);
        s.low.insert(v.clone(), s.next);
        s.next += 1;
        s.stack.push(v.clone());
        s.on.insert(v.clone());
        for w in g.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(w, g, s);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(&w);
                let done = &w == v;
                comp.push(w);
                if done {
                    break;
                }
            }
            if comp.len() > 1 {
                s.out.push(comp);
            }
        }
    }
    let mut s = St {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        on: BTreeSet::new(),
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in g.keys() {
        if !s.index.contains_key(v) {
            visit(v, g, &mut s);
        }
    }
    s.out
}

/// Top-level module edges (`facts` -> `sources`), from the file edges. `sources` is a flat
/// collection of independent parsers, so each of its files is its own node.
fn top_level(c: &Crate) -> BTreeMap<String, BTreeSet<String>> {
    let node = |m: &[String]| -> String {
        match m {
            [first, second, ..] if first == "sources" => format!("sources::{second}"),
            [first, ..] => first.clone(),
            [] => String::new(),
        }
    };
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, tos) in edges(c) {
        let f = node(&from);
        if f.is_empty() {
            continue;
        }
        let set = g.entry(f.clone()).or_default();
        for t in tos {
            let t = node(&t);
            if t != f && !t.is_empty() {
                set.insert(t);
            }
        }
    }
    g
}

fn crates() -> Vec<Crate> {
    vec![
        load("diskdoc-sources", "crates/sources/src"),
        load_core(),
        load("diskdoc-sys", "crates/sys/src"),
        load("diskdoc", "crates/diskdoc/src"),
    ]
}

fn fmt_cycles<N: std::fmt::Debug>(cs: &[Vec<N>]) -> String {
    cs.iter()
        .map(|c| format!("{c:?}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn no_import_cycle_in_any_crate() {
    for c in crates() {
        let files = edges(&c);
        let n_edges: usize = files.values().map(BTreeSet::len).sum();
        assert!(
            n_edges > 10,
            "{}: only {n_edges} edges found; the scanner is broken",
            c.name
        );
        let fc = cycles(&files);
        assert!(
            fc.is_empty(),
            "{}: file import cycles:\n{}",
            c.name,
            fmt_cycles(&fc)
        );
        let tc = cycles(&top_level(&c));
        assert!(
            tc.is_empty(),
            "{}: module import cycles:\n{}",
            c.name,
            fmt_cycles(&tc)
        );
    }
}

/// The scanner sees a cycle when there is one (a test of the test).
#[test]
fn the_cycle_finder_finds_a_planted_cycle() {
    let mut files = BTreeMap::new();
    files.insert(
        vec!["app".to_string()],
        "use crate::bench::cli::run;".to_string(),
    );
    files.insert(vec!["bench".to_string()], String::new());
    files.insert(
        vec!["bench".to_string(), "cli".to_string()],
        "use crate::app::{AppResult, UserError};".to_string(),
    );
    let c = Crate {
        name: "planted",
        files,
    };
    let cs = cycles(&edges(&c));
    assert_eq!(cs.len(), 1, "{cs:?}");
    assert_eq!(cs[0].len(), 2);
    assert_eq!(cycles(&top_level(&c)).len(), 1);
}

/// Core's layers by rank: a module may import only modules of a strictly lower rank (the
/// data-flow diagram of docs/architecture.md). A rank, not a deny-list, so a module added
/// later must be given a place, and two modules of one rank cannot import each other.
const CORE_RANKS: &[(&str, u32)] = &[
    ("evidence", 0),
    ("units", 0),
    ("sanitize", 0),
    // Confidence intervals of measured rates (the bench's stop rule and its results).
    ("confidence", 0),
    // The raw-device guard's pure decisions (signatures, blank samples, loop chains).
    ("safety", 0),
    // The destructive write test's decisions over bytes and loop tables: imports nothing.
    ("safety", 0),
    // One stable sort for every call site (the web module's size): imports nothing.
    ("sort", 0),
    ("model", 1),
    ("sources", 2),
    // The capture plan: tables of keys that facts and the system crate look up.
    ("plan", 3),
    // The pasted-text vocabulary explain's recogniser fills and facts::pasted reads.
    ("pasted", 3),
    ("facts", 4),
    ("checks", 5),
    ("render", 6),
    ("explain", 7),
    ("report", 8),
    // What the front ends print (the binary and the web page call the same functions).
    ("answer", 9),
];

/// The top-level imports of `c` that do not run strictly down `ranks`; a module without a
/// rank is an error too.
fn rank_violations(c: &Crate, ranks: &[(&str, u32)]) -> Vec<String> {
    let rank = |m: &str| ranks.iter().find(|(n, _)| *n == m).map(|(_, r)| *r);
    let mut bad = Vec::new();
    for (from, tos) in edges(c) {
        let Some(f) = from.first() else { continue };
        let Some(rf) = rank(f) else {
            bad.push(format!("{f}: a module with no rank (add it to CORE_RANKS)"));
            continue;
        };
        for t in tos {
            let Some(tt) = t.first() else { continue };
            if tt == f {
                continue;
            }
            match rank(tt) {
                Some(rt) if rt < rf => {}
                Some(rt) => bad.push(format!(
                    "{} (rank {rf}) -> {} (rank {rt})",
                    from.join("::"),
                    t.join("::")
                )),
                None => bad.push(format!(
                    "{tt}: a module with no rank (add it to CORE_RANKS)"
                )),
            }
        }
    }
    bad.sort();
    bad.dedup();
    bad
}

#[test]
fn core_modules_import_down_the_ranks() {
    let core = load_core();
    let bad = rank_violations(&core, CORE_RANKS);
    assert!(
        bad.is_empty(),
        "imports in diskdoc-core that do not run down the ranks:\n{}",
        bad.join("\n")
    );
}

/// The guard catches the two shapes it once missed: a lower layer naming a higher one
/// (`model` -> `sources`, sources importing model) and a file cycle made through a path in
/// an attribute string (schemars' `schema_with`).
#[test]
fn the_guard_catches_planted_layer_and_attribute_cycles() {
    let mk = |files: &[(&[&str], &str)]| Crate {
        name: "planted",
        files: files
            .iter()
            .map(|(m, code)| {
                (
                    m.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
                    code_only(code),
                )
            })
            .collect(),
    };
    let layers = mk(&[
        (&["model"], "use crate::sources::ata_identify;"),
        (&["sources"], ""),
        (&["sources", "ata_identify"], "use crate::model::LbaFormat;"),
    ]);
    let bad = rank_violations(&layers, CORE_RANKS);
    assert!(
        bad.iter()
            .any(|b| b.starts_with("model (rank 1) -> sources")),
        "{bad:?}"
    );
    let attr = mk(&[
        (&["report"], ""),
        (
            &["report", "envelope"],
            "#[schemars(schema_with = \"crate::report::schema::comparison\")] pub x: u8,",
        ),
        (
            &["report", "schema"],
            "use crate::report::envelope::Envelope;",
        ),
    ]);
    let cs = cycles(&edges(&attr));
    assert_eq!(cs.len(), 1, "{cs:?}");
    // An ordinary string is not an import.
    assert_eq!(code_only("let s = \"crate::x is text\";"), "let s = \"\";");
}

#[test]
fn no_crate_names_a_crate_above_it() {
    for c in crates() {
        let above: &[&str] = match c.name {
            "diskdoc-core" => &["diskdoc_sys::", "diskdoc::"],
            "diskdoc-sources" => &["diskdoc_core::", "diskdoc_sys::", "diskdoc::"],
            "diskdoc-sys" => &["diskdoc::"],
            _ => &[],
        };
        for (m, code) in &c.files {
            for a in above {
                let hit = code
                    .match_indices(a)
                    .any(|(i, _)| !code[..i].chars().next_back().is_some_and(ident_char));
                assert!(!hit, "{}: {} names {a}", c.name, m.join("::"));
            }
        }
    }
}

#[test]
fn core_has_no_unsafe_and_no_target_os() {
    let core = load_core();
    for (m, code) in &core.files {
        for (i, _) in code.match_indices("unsafe") {
            let line_start = code[..i].rfind('\n').map_or(0, |k| k + 1);
            let line_end = code[i..].find('\n').map_or(code.len(), |k| i + k);
            let line = code[line_start..line_end].trim();
            assert_eq!(
                line,
                "#![forbid(unsafe_code)]",
                "unsafe in diskdoc-core {}",
                m.join("::")
            );
        }
        assert!(
            !code.contains("target_os"),
            "cfg(target_os) in diskdoc-core {}",
            m.join("::")
        );
    }
    for lib in ["crates/core/src/lib.rs", "crates/sources/src/lib.rs"] {
        let text = std::fs::read_to_string(root().join(lib)).expect(lib);
        assert!(text.contains("#![forbid(unsafe_code)]"), "{lib}");
    }
}

/// `[dependencies]`-like tables of a manifest: the crate names they list.
fn dependency_names(manifest: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            in_deps = l.ends_with("dependencies]") && !l.contains("dev-dependencies");
            continue;
        }
        if in_deps && let Some((name, _)) = l.split_once('=') {
            let name = name.trim().trim_end_matches(".workspace").trim();
            if !name.is_empty() && !name.starts_with('#') {
                out.insert(name.to_string());
            }
        }
    }
    out
}

#[test]
fn crate_dependencies_run_down_the_graph() {
    let read = |p: &str| std::fs::read_to_string(root().join(p)).expect(p);
    let core = dependency_names(&read("crates/core/Cargo.toml"));
    let sources = dependency_names(&read("crates/sources/Cargo.toml"));
    assert!(core.contains("diskdoc-sources"), "{core:?}");
    let sys = dependency_names(&read("crates/sys/Cargo.toml"));
    let bin = dependency_names(&read("Cargo.toml"));
    assert!(
        core.contains("serde"),
        "the manifest reader is broken: {core:?}"
    );
    for no in [
        "libc",
        "nix",
        "io-uring",
        "dialoguer",
        "indicatif",
        "console",
        "signal-hook",
        "which",
        "sysctl",
        "diskdoc-sys",
        "diskdoc",
        "clap",
    ] {
        assert!(!core.contains(no), "diskdoc-core depends on {no}");
        assert!(!sources.contains(no), "diskdoc-sources depends on {no}");
    }
    assert!(
        !sources.contains("diskdoc-core"),
        "diskdoc-sources depends on diskdoc-core, the crate above it"
    );
    assert!(sys.contains("diskdoc-core"), "{sys:?}");
    for no in ["diskdoc", "clap", "dialoguer", "console"] {
        assert!(!sys.contains(no), "diskdoc-sys depends on {no}");
    }
    assert!(
        bin.contains("diskdoc-core") && bin.contains("diskdoc-sys"),
        "{bin:?}"
    );
    // No system crate reaches the binary except through diskdoc-sys.
    for no in [
        "libc",
        "nix",
        "io-uring",
        "signal-hook",
        "indicatif",
        "which",
        "sysctl",
    ] {
        assert!(
            !bin.contains(no),
            "the binary depends on {no} directly; go through diskdoc-sys"
        );
    }
    // The web page's module is the pure core and nothing else: no system crate, no
    // generated-glue crate (its loader is docs/web/diskdoc.js).
    let web = dependency_names(&read("crates/web/Cargo.toml"));
    assert_eq!(
        web.into_iter().collect::<Vec<_>>(),
        ["diskdoc-core"],
        "diskdoc-web depends on more than diskdoc-core"
    );
}

/// Items of diskdoc-core that stay `pub` although no other crate names them: each is reachable
/// through the signature or a field of an item the other crates use (a field of `DiskFacts`,
/// a parser's result, the error inside a public error), so `pub(crate)` would put a private
/// type in a public interface (the `private_interfaces` lint). The file under
/// crates/core/src, then the name. Everything else in core that no other crate names is
/// `pub(crate)` or private (lib.rs says which modules are `pub` and why).
const STAYS_PUB: &[&str] = &[
    // shell_time::parse, read by core's explain, returns them.
    "sources/shell_time.rs:TimeRun",
    // checksum::unstable_reads, read by core's explain, returns them.
    "sources/checksum.rs:Unstable",
    // app_file_error::parse, read by core's explain, returns them.
    "sources/app_file_error.rs:FileError",
    "answer.rs:MarkdownFiles",
    "checks/mod.rs:EvidenceRef",
    "checks/mod.rs:CheckInput",
    "explain/mod.rs:Ignored",
    "explain/mod.rs:ExplainError",
    "explain/recognize.rs:InlineSetting",
    "explain/recognize.rs:Recognized",
    "explain/segment.rs:InputProblem",
    "explain/segment.rs:Prepared",
    "facts/freebsd/device_state.rs:ControllerUnknown",
    "model.rs:PowerFacts",
    "model.rs:LbaFormat",
    "render.rs:MarkdownHeadline",
    "render.rs:MarkdownStyle",
    "report/compare.rs:Change",
    "report/compare.rs:FindingChange",
    "report/compare.rs:PredictionCheck",
    "report/compare.rs:Comparison",
    "report/envelope.rs:MemberJson",
    "report/envelope.rs:BenchmarkJson",
    "report/envelope.rs:LatencyJson",
    "report/envelope.rs:Envelope",
    "report/html.rs:Figure",
    "report/mod.rs:MessageSeverity",
    "report/summarize.rs:HostRow",
    "safety/blank.rs:Region",
    "safety/loops.rs:Alias",
    "safety/loops.rs:Chain",
    "sources/camcontrol_tags.rs:Tags",
    "sources/cryptsetup.rs:CryptsetupStatus",
    "sources/dmsetup.rs:DmTarget",
    "sources/fio.rs:FioDiskStat",
    "sources/luks_dump.rs:LuksHeader",
    "sources/hdparm.rs:HdparmIdentify",
    "sources/iozone.rs:IozoneRow",
    "sources/partition_table.rs:MbrEntry",
    "sources/partition_table.rs:WholeDiskFs",
    "sources/smartctl.rs:SmartctlReport",
    "sources/zfs_bench.rs:DatasetProps",
    "sources/zpool.rs:ZpoolScan",
    // Parsers' results that diskdoc-core reads through a `pub fn` of diskdoc-sources without
    // naming the type (diskdoc-sources is a crate of its own, so they cannot be pub(crate)).
    "sources/badblocks.rs:BadblocksRun",
    "sources/cryptsetup_benchmark.rs:CipherSpeed",
    "sources/dd_bs_test.rs:BsRow",
    "sources/dd_bs_test.rs:BsTest",
    "sources/ddrescue.rs:DdrescueStatus",
    "sources/diskdoc_report.rs:StatedFinding",
    "sources/diskscan.rs:DiskscanRun",
    "sources/f3.rs:F3Tool",
    "sources/f3.rs:F3Run",
    "sources/fio.rs:FioIoError",
    "sources/fio_mark.rs:MarkRow",
    "sources/inxi.rs:InxiDrive",
    "sources/kbench.rs:KbenchFigure",
    "sources/kernel_log.rs:LegacySataPort",
    "sources/kernel_log.rs:AhciPortLink",
    "sources/lpm_policy.rs:HostPolicy",
    "sources/lsscsi.rs:ScsiUnit",
    "sources/lsusb.rs:TreeRoot",
    "sources/lsusb.rs:TreeDevice",
    "sources/lsusb.rs:Tree",
    "sources/mdadm_detail.rs:MdDetailMember",
    "sources/nvme_error_log.rs:ErrorEntry",
    "sources/omreport.rs:Omreport",
    "sources/openseachest.rs:SeaChest",
    "sources/pata_mode.rs:CableLimit",
    "sources/proc_ide.rs:IdeDrive",
    "sources/proc_ide.rs:ProcIde",
    "sources/provisioning_mode.rs:Provisioning",
    "sources/ps.rs:PsRow",
    "sources/raid_controller.rs:Task",
    "sources/raid_controller.rs:LogicalDrive",
    "sources/raid_controller.rs:PhysicalDrive",
    "sources/raid_log.rs:LoggedArray",
    "sources/rpi_config.rs:PcieConnector",
    "sources/sdparm.rs:Sdparm",
    "sources/sg_inq.rs:SgInq",
    "sources/sg_readcap.rs:SgReadcap",
    "sources/sg_vpd.rs:SgVpd",
    "sources/storcli.rs:Storcli",
    "sources/sysfs_values.rs:SysfsValue",
    "sources/udevadm.rs:UdevRecord",
    "sources/usb_devices.rs:UsbStorage",
    "sources/yabs.rs:MixedRun",
    "sources/zpool_list.rs:ListRow",
    "sources/zpool_list.rs:ListPool",
];

/// The `pub` items of one file: (line number, name), for `pub fn|struct|enum|const|static|
/// type|trait|mod NAME` at the start of a line (`pub const fn` is a fn). `pub(crate)`, fields
/// and `pub use` are not items here.
fn pub_items(src: &str) -> Vec<(usize, String)> {
    const KINDS: [&str; 8] = [
        "fn", "struct", "enum", "const", "static", "type", "trait", "mod",
    ];
    let mut out = Vec::new();
    for (no, line) in src.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix("pub ") else {
            continue;
        };
        let t: Vec<&str> = rest.split_whitespace().collect();
        let mut i = 0;
        while i + 1 < t.len()
            && ["const", "async", "unsafe"].contains(&t[i])
            && KINDS.contains(&t[i + 1])
        {
            i += 1;
        }
        if i + 1 >= t.len() || !KINDS.contains(&t[i]) {
            continue;
        }
        let name: String = t[i + 1].chars().take_while(|&c| ident_char(c)).collect();
        if !name.is_empty() {
            out.push((no + 1, name));
        }
    }
    out
}

/// Every identifier in the Rust sources of the crates above core (diskdoc-sys, the binary,
/// crates/web) and of the tests (not their fixtures, not this file, whose list would count).
fn names_outside_core() -> BTreeSet<String> {
    let r = root();
    let mut files = Vec::new();
    for dir in [
        "crates/sys/src",
        "crates/diskdoc",
        "crates/web/src",
        "tests",
    ] {
        rs_files(&r.join(dir), &mut files);
    }
    let this = r.join("tests/it/layering.rs");
    let fixtures = r.join("tests/fixtures");
    let mut words = BTreeSet::new();
    for f in files
        .iter()
        .filter(|f| **f != this && !f.starts_with(&fixtures))
    {
        let src = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for w in src.split(|c: char| !ident_char(c)) {
            if !w.is_empty() {
                words.insert(w.to_string());
            }
        }
    }
    words
}

/// `pub(crate)` by default in core: a `pub` item whose name appears in no other crate and no
/// test fails here, unless STAYS_PUB lists it; an entry of STAYS_PUB that is no longer such an
/// item fails too. A name is matched as a word anywhere (comments included), so a common name
/// (`new`, `parse`) used elsewhere lets an item through: the guard never fails wrongly, and
/// catches an item with a name of its own.
#[test]
fn every_pub_item_of_core_is_named_outside_core() {
    let words = names_outside_core();
    // diskdoc-sources' items are named outside their crate when diskdoc-core names them.
    let mut with_core = words.clone();
    let mut core_files = Vec::new();
    rs_files(&root().join("crates/core/src"), &mut core_files);
    for f in &core_files {
        let src = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for w in src.split(|c: char| !ident_char(c)) {
            if !w.is_empty() {
                with_core.insert(w.to_string());
            }
        }
    }
    let mut unused = Vec::new();
    let mut kept = BTreeSet::new();
    for (dir, outside) in [
        ("crates/core/src", &words),
        ("crates/sources/src", &with_core),
    ] {
        let src = root().join(dir);
        let mut files = Vec::new();
        rs_files(&src, &mut files);
        for f in &files {
            let rel = f
                .strip_prefix(&src)
                .unwrap_or(f)
                .to_string_lossy()
                .replace('\\', "/");
            let text =
                std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            for (line, name) in pub_items(&text) {
                if outside.contains(&name) {
                    continue;
                }
                let key = format!("{rel}:{name}");
                if STAYS_PUB.contains(&key.as_str()) {
                    kept.insert(key);
                } else {
                    unused.push(format!("{dir}/{rel}:{line}: {name}"));
                }
            }
        }
    }
    assert!(
        unused.is_empty(),
        "pub items of diskdoc-core or diskdoc-sources that no crate above them and no test names: \
         make them pub(crate) (or private), or, when a pub signature needs them, list them in \
         STAYS_PUB:\n{}",
        unused.join("\n")
    );
    let stale: Vec<&&str> = STAYS_PUB.iter().filter(|k| !kept.contains(**k)).collect();
    assert!(
        stale.is_empty(),
        "STAYS_PUB lists items that are no longer pub-and-unnamed-outside (named elsewhere now, \
         pub(crate), renamed or gone): remove them: {stale:?}"
    );
}

#[test]
fn pub_items_are_read_from_declaration_lines() {
    let src = "pub fn a() {}\n    pub const fn b() {}\npub const C: u8 = 1;\npub(crate) fn d() {}\n\
               pub struct E<T>(T);\n    pub f: u8,\npub use x::G;\npub mod h;\n";
    let got: Vec<String> = pub_items(src).into_iter().map(|(_, n)| n).collect();
    assert_eq!(got, ["a", "b", "C", "E", "h"]);
}
