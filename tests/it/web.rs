//! The web page answers as the binary does: every corpus entry (tests/fixtures/corpus and the
//! reviewed corpus's fixtures) goes through the WebAssembly build under Node, loaded as the
//! page loads it (tests/web/run-corpus.js), and through `diskdoc explain`; the JSON must be
//! the same byte for byte apart from `argv`, `diskdoc_version` and `captured_at_unix`, the
//! explain text identical, and the replay of the binary's JSON identical in the text and JSON
//! forms. Needs `scripts/build-web.sh` to have run and `node`; without them the test fails
//! under CI=true and says SKIP otherwise.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Why the wasm build cannot run here, if it cannot.
fn missing() -> Option<String> {
    let js = root().join("docs/web/diskdoc-wasm.js");
    if !js.is_file() {
        return Some(format!(
            "{} is missing: run scripts/build-web.sh",
            js.display()
        ));
    }
    match Command::new("node").arg("--version").output() {
        Ok(o) if o.status.success() => None,
        _ => Some("node is not installed (apt install nodejs)".to_string()),
    }
}

/// Every corpus text as (name, text): the scored corpus's entries (their text, or the
/// fixture they name) and the reviewed corpus's fixture files.
fn corpus_texts() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = crate::explain::corpus()
        .into_iter()
        .map(|e| (format!("corpus/{}", e.name), e.text.into_bytes()))
        .collect();
    let reviewed = root().join("tests/fixtures/corpus-reviewed");
    for p in support::txt_files(std::slice::from_ref(&reviewed)) {
        let rel = p.strip_prefix(&reviewed).expect("under corpus-reviewed");
        // fixtures/, fixtures-*/ and batch-N/fixtures/: the outputs; the rest is labels.
        if !rel
            .components()
            .any(|c| c.as_os_str().to_string_lossy().starts_with("fixtures"))
        {
            continue;
        }
        let bytes = std::fs::read(&p).expect("read a reviewed fixture");
        out.push((format!("corpus-reviewed/{}", rel.display()), bytes));
    }
    out
}

/// The run's own fields, which differ between any two runs: the command line, the version
/// (of the binary and of the bundle writer) and the capture time (JSON), and the capture
/// time the text report prints ("2026-12-03 08:37 UTC", maybe wrapped between date and
/// time). A replay of an explain report explains its text again, so it has a time of its
/// own.
fn mask(out: &str) -> String {
    let re = regex::Regex::new(
        r#"(?s)"argv": \[[^\]]*\]|"diskdoc_version": "[^"]*"|"captured_at_unix": [0-9]+|[0-9]{4}-[0-9]{2}-[0-9]{2}\s+[0-9]{2}:[0-9]{2} UTC"#,
    )
    .expect("regex");
    re.replace_all(out, |c: &regex::Captures| {
        let m = &c[0];
        match m.find("\": ") {
            Some(i) => format!("{}: MASKED", &m[..=i]),
            None => "TIME MASKED".to_string(),
        }
    })
    .into_owned()
}

struct Job {
    mode: &'static str,
    form: &'static str,
    /// The file both read; its path is the label both report.
    input: PathBuf,
    native: PathBuf,
    web: PathBuf,
}

fn native(job: &Job) -> i32 {
    let bin = env!("CARGO_BIN_EXE_diskdoc");
    let out = Command::new(bin)
        .args([job.mode, "--format", job.form])
        .arg(&job.input)
        .output()
        .expect("run diskdoc");
    std::fs::write(&job.native, &out.stdout).expect("write the native answer");
    // Errors (exit 2) are compared by message: the binary prints them on stderr.
    if out.status.code() == Some(2) {
        std::fs::write(&job.native, &out.stderr).expect("write the native error");
    }
    out.status.code().unwrap_or(-1)
}

/// Run `jobs` natively (one process per input) while Node runs the same jobs through the
/// wasm build: the exit statuses of both, in order.
fn run_both(jobs: &[Job], dir: &Path, name: &str) -> (Vec<i32>, Vec<i32>) {
    let web = start_web(jobs, dir, name);
    // Two threads: a process per input spends much of its time starting.
    let half = jobs.len().div_ceil(2).max(1);
    let native: Vec<i32> = std::thread::scope(|s| {
        let hs: Vec<_> = jobs
            .chunks(half)
            .map(|c| s.spawn(move || c.iter().map(native).collect::<Vec<i32>>()))
            .collect();
        hs.into_iter()
            .flat_map(|h| h.join().expect("a native thread"))
            .collect()
    });
    (native, web_answers(web))
}

/// Start the wasm build on `jobs` under Node (one process for all); [`web_answers`] waits.
fn start_web(jobs: &[Job], dir: &Path, name: &str) -> (std::process::Child, PathBuf) {
    let list: Vec<serde_json::Value> = jobs
        .iter()
        .map(|j| {
            serde_json::json!({
                "mode": j.mode,
                "form": j.form,
                "label": j.input.display().to_string(),
                "input": j.input,
                "output": j.web,
            })
        })
        .collect();
    let jobs_file = dir.join(format!("{name}.jobs.json"));
    let status_file = dir.join(format!("{name}.statuses.json"));
    std::fs::write(&jobs_file, serde_json::to_string(&list).expect("jobs")).expect("write");
    let child = Command::new("node")
        .arg(root().join("tests/web/run-corpus.js"))
        .arg(&jobs_file)
        .arg(&status_file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run node");
    (child, status_file)
}

fn web_answers((child, status_file): (std::process::Child, PathBuf)) -> Vec<i32> {
    let out = child.wait_with_output().expect("wait for node");
    assert!(
        out.status.success(),
        "run-corpus.js failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{}", String::from_utf8_lossy(&out.stdout).trim());
    serde_json::from_str(&std::fs::read_to_string(status_file).expect("statuses")).expect("json")
}

/// Compare two answers; the first difference, or None.
fn differs(job: &Job, native_code: i32, web_code: i32) -> Option<String> {
    let n = String::from_utf8_lossy(&std::fs::read(&job.native).expect("native")).into_owned();
    let w = String::from_utf8_lossy(&std::fs::read(&job.web).expect("web")).into_owned();
    let (n, w) = (mask(&n), mask(&w));
    // The web build says "diskdoc: ..." as the binary does on stderr.
    if native_code == web_code && n == w {
        return None;
    }
    let line = n
        .lines()
        .zip(w.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(n.lines().count().min(w.lines().count()));
    Some(format!(
        "{} {} {}: exit {native_code} vs web {web_code}; first difference at line {}:\n  native: {:?}\n  web:    {:?}",
        job.mode,
        job.form,
        job.input.display(),
        line + 1,
        n.lines().nth(line).unwrap_or("<end>"),
        w.lines().nth(line).unwrap_or("<end>"),
    ))
}

fn jobs_for(dir: &Path, inputs: &[PathBuf], mode: &'static str, form: &'static str) -> Vec<Job> {
    inputs
        .iter()
        .enumerate()
        .map(|(i, p)| Job {
            mode,
            form,
            input: p.clone(),
            native: dir.join(format!("{i}.{mode}.{form}.native")),
            web: dir.join(format!("{i}.{mode}.{form}.web")),
        })
        .collect()
}

#[test]
fn the_wasm_build_answers_every_corpus_entry_as_the_binary_does() {
    if !support::capable("web::the_wasm_build_answers_...", missing().as_deref()) {
        println!("SKIP: web: the wasm build was not compared with the binary");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path();
    let mut inputs = Vec::new();
    for (i, (name, bytes)) in corpus_texts().into_iter().enumerate() {
        // One file per entry, named after it, so both read the same bytes under one label.
        // Cut to 150 characters: the corpus' long fixture names (batch 28 has paths of more
        // than 250 bytes) would pass the 255-byte limit of a file name (ENAMETOOLONG); the
        // index in front keeps the names apart.
        let flat: String = name.replace('/', "__").chars().take(150).collect();
        let p = dir.join(format!("{i:03}-{flat}"));
        std::fs::write(&p, bytes).expect("write an entry");
        inputs.push(p);
    }
    assert!(inputs.len() >= 300, "only {} corpus entries", inputs.len());
    let started = std::time::Instant::now();
    // Every entry as JSON; the explain text (the console reply) of every tenth: the JSON
    // holds every finding, and each form costs a whole run of both builds.
    let mut jobs = jobs_for(dir, &inputs, "explain", "json");
    let tenth: Vec<PathBuf> = inputs.iter().step_by(10).cloned().collect();
    jobs.extend(jobs_for(dir, &tenth, "explain", "text"));
    let (mut native_codes, mut web_codes) = run_both(&jobs, dir, "explain");
    // Replay what the binary wrote (a report as a poster would attach it): every report as
    // JSON, every tenth as the text report (what the page's mail reply is).
    let reports: Vec<PathBuf> = jobs[..inputs.len()]
        .iter()
        .zip(&native_codes)
        .filter(|(_, code)| **code != 2)
        .map(|(j, _)| j.native.clone())
        .collect();
    let mut replays = jobs_for(dir, &reports, "replay", "json");
    let tenth: Vec<PathBuf> = reports.iter().step_by(10).cloned().collect();
    replays.extend(jobs_for(dir, &tenth, "replay", "text"));
    // And the evidence bundles of tests/fixtures/bundles, as saved by `--evidence-out`.
    let bundles = root().join("tests/fixtures/bundles");
    let mut saved: Vec<PathBuf> = std::fs::read_dir(&bundles)
        .expect("bundles")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    saved.sort();
    let n_bundles = saved.len();
    replays.extend(jobs_for(&dir.join("b"), &saved, "replay", "json"));
    std::fs::create_dir_all(dir.join("b")).expect("mkdir");
    let (n, w) = run_both(&replays, dir, "replay");
    native_codes.extend(n);
    web_codes.extend(w);
    jobs.extend(replays);
    let secs = started.elapsed().as_secs_f64();
    assert_eq!(web_codes.len(), jobs.len());
    let diffs: Vec<String> = jobs
        .iter()
        .zip(native_codes.iter().zip(&web_codes))
        .filter_map(|(j, (n, w))| differs(j, *n, *w))
        .collect();
    let answered = native_codes.iter().filter(|c| **c == 0 || **c == 1).count();
    println!(
        "web: {} corpus entries and {n_bundles} bundles, {} answers compared ({answered} with \
         findings or none, the rest errors), {} differ, in {secs:.1} s",
        inputs.len(),
        jobs.len(),
        diffs.len()
    );
    assert!(
        diffs.is_empty(),
        "{} of {} answers differ:\n{}",
        diffs.len(),
        jobs.len(),
        diffs
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        answered >= jobs.len() / 2,
        "too few real answers: {answered}"
    );
}

#[test]
fn masking_hides_only_the_runs_own_fields() {
    let a = "{\n  \"argv\": [\n    \"/x/diskdoc\",\n    \"explain\"\n  ],\n  \"diskdoc_version\": \"0.1.0\",\n  \"captured_at_unix\": 1700000000,\n  \"exit_status\": 1\n}";
    let b = "{\n  \"argv\": [\n    \"diskdoc-web\"\n  ],\n  \"diskdoc_version\": \"9\",\n  \"captured_at_unix\": 5,\n  \"exit_status\": 1\n}";
    assert_eq!(mask(a), mask(b));
    assert_ne!(
        mask(a),
        mask(&b.replace("\"exit_status\": 1", "\"exit_status\": 0"))
    );
    let t = "Evidence  assembled from pasted text by diskdoc 0.1.0, 2026-12-03\n            08:37 UTC, 1 sources";
    assert_eq!(mask(t), mask(&t.replace("08:37", "09:01")));
    assert_ne!(mask(t), mask(&t.replace("1 sources", "2 sources")));
}
