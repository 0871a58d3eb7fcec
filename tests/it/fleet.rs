//! Fleets. Findings as Prometheus metrics, checked by the real components: diskdoc writes the
//! textfile on a machine with a loop device (ext4) and a zram device, `promtool check
//! metrics` accepts it, Debian's prometheus-node-exporter serves it from its textfile
//! collector, a real Prometheus scrapes that node_exporter and answers queries for the
//! diskdoc series, and the shipped alert rules load (`promtool check rules`, the rules API)
//! and fire as intended (`promtool test rules`). Both servers are stopped by PID at the end,
//! also when an assertion fails (a Drop guard). And `summarize` over a directory of reports.
//!
//! Needs root (loop, zram), promtool, prometheus and prometheus-node-exporter. Without them
//! each test prints why it skips, unless CI=true, where a missing piece is a failure.

use crate::support;

use std::io::{Read, Write};

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::sh;

const BIN: &str = env!("CARGO_BIN_EXE_diskdoc");

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

fn have(tool: &str) -> bool {
    ["/usr/bin", "/usr/sbin", "/bin", "/sbin"]
        .iter()
        .any(|d| Path::new(d).join(tool).exists())
}

/// True when everything is there; otherwise skip (or fail under CI).
fn prerequisites(test: &str, tools: &[&str], root: bool) -> bool {
    let mut why = Vec::new();
    if root && !nix::unistd::geteuid().is_root() {
        why.push("not root".to_string());
    }
    for t in tools {
        if !have(t) {
            why.push(format!("{t} is not installed"));
        }
    }
    if why.is_empty() {
        return true;
    }
    if ci() {
        panic!("{test}: CI=true but {}", why.join(", "));
    }
    eprintln!("SKIPPED {test}: {}", why.join(", "));
    false
}

/// A loop device over a sparse image holding ext4, detached on drop.
struct Loop {
    dev: String,
    _dir: tempfile::TempDir,
}

impl Loop {
    fn ext4() -> Loop {
        let dir = tempfile::tempdir().expect("tempdir");
        let img = dir.path().join("disk.img");
        let f = std::fs::File::create(&img).expect("image");
        f.set_len(64 << 20).expect("size");
        sh(&["mkfs.ext4", "-q", "-F", img.to_str().expect("path")]);
        let dev = sh(&["losetup", "--find", "--show", img.to_str().expect("path")]);
        Loop { dev, _dir: dir }
    }
}

impl Drop for Loop {
    fn drop(&mut self) {
        let _ = Command::new("losetup").args(["-d", &self.dev]).status();
    }
}

/// A zram device of our own (hot_add), reset and removed on drop.
struct Zram(String);

impl Zram {
    fn new() -> Option<Zram> {
        if !Path::new("/sys/class/zram-control/hot_add").exists() {
            let _ = Command::new("modprobe").arg("zram").status();
        }
        let id = std::fs::read_to_string("/sys/class/zram-control/hot_add").ok()?;
        let id = id.trim().to_string();
        std::fs::write(format!("/sys/block/zram{id}/disksize"), "32M").ok()?;
        Some(Zram(id))
    }
}

impl Drop for Zram {
    fn drop(&mut self) {
        let _ = std::fs::write(format!("/sys/block/zram{}/reset", self.0), "1");
        let _ = std::fs::write("/sys/class/zram-control/hot_remove", &self.0);
    }
}

/// A server process, killed by PID on drop.
struct Server(Child, &'static str);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
        eprintln!("stopped {} (pid {})", self.1, self.0.id());
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// HTTP/1.0 GET on 127.0.0.1, body as text (None while the server is not up yet).
fn get(port: u16, path: &str) -> Option<String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut buf = String::new();
    s.read_to_string(&mut buf).ok()?;
    let (head, body) = buf.split_once("\r\n\r\n")?;
    head.starts_with("HTTP/1.").then(|| body.to_string())
}

fn wait_for(what: &str, secs: u64, mut f: impl FnMut() -> Option<String>) -> String {
    let t0 = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(secs),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

fn diskdoc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN).args(args).output().expect("run diskdoc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn promtool_metrics(text: &str) {
    let mut p = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("promtool");
    p.stdin
        .take()
        .expect("stdin")
        .write_all(text.as_bytes())
        .expect("write");
    let out = p.wait_with_output().expect("promtool");
    // promtool exits 0 when the exposition parses; lint remarks go to stdout/stderr with
    // status 3 ("lint"), parse errors with 1.
    assert!(
        out.status.success(),
        "promtool check metrics: {}{}\n{text}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn rules_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("contrib/prometheus/diskdoc-alerts.yml")
}

#[test]
#[cfg_attr(
    not(any(diskdoc_ci, diskdoc_root)),
    ignore = "needs root and real devices (loop, zram, tmux): runs as root or with CI=true"
)]
fn textfile_scraped_by_node_exporter_and_prometheus() {
    let tools = [
        "promtool",
        "prometheus",
        "prometheus-node-exporter",
        "losetup",
        "mkfs.ext4",
    ];
    if !prerequisites(
        "textfile_scraped_by_node_exporter_and_prometheus",
        &tools,
        true,
    ) {
        return;
    }
    let lo = Loop::ext4();
    let zram = Zram::new();
    assert!(
        zram.is_some() || !ci(),
        "CI=true but no zram device could be added"
    );
    let textdir = tempfile::tempdir().expect("tempdir");
    let prom = textdir.path().join("diskdoc.prom");

    // One run over the whole machine, as the timer unit does: the loop and zram devices are
    // among the disks. Exit 0 or 1 (findings) both mean the run worked.
    let (code, _, err) = diskdoc(&[
        "check",
        "--format",
        "prometheus",
        "--output",
        prom.to_str().expect("path"),
    ]);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    let text = std::fs::read_to_string(&prom).expect("the .prom file");
    let loop_name = lo.dev.trim_start_matches("/dev/");
    assert!(
        text.contains(&format!("diskdoc_disk_info{{device=\"{loop_name}\"")),
        "{text}"
    );
    if let Some(z) = &zram {
        assert!(text.contains(&format!("device=\"zram{}\"", z.0)), "{text}");
    }
    assert!(text.contains("diskdoc_run_success 1\n"), "{text}");
    assert!(text.contains("# TYPE diskdoc_finding gauge"), "{text}");
    // Nothing but the .prom file is left in the collector's directory.
    let names: Vec<_> = std::fs::read_dir(textdir.path())
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    promtool_metrics(&text);

    // A replayed bundle with problem findings renders and validates too (finding = 1).
    let bundle = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/bundles/linux-piix-ide-sata-hdd.json");
    let (_, replayed, err) = diskdoc(&[
        "replay",
        bundle.to_str().expect("path"),
        "--format",
        "prometheus",
    ]);
    assert!(
        replayed.contains(
            "diskdoc_finding{check=\"write-cache-disabled\",device=\"sda\",severity=\"warning\",verdict=\"problem\"} 1"
        ),
        "{replayed}{err}"
    );
    promtool_metrics(&replayed);
    // Every fixture bundle renders to exposition promtool accepts.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bundles");
    for e in std::fs::read_dir(&dir).expect("bundles") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "json") {
            let (_, text, err) = diskdoc(&[
                "replay",
                p.to_str().expect("path"),
                "--format",
                "prometheus",
            ]);
            assert!(
                text.contains("diskdoc_run_success"),
                "{}: {err}",
                p.display()
            );
            promtool_metrics(&text);
        }
    }

    // node_exporter with only the textfile collector, on a free loopback port.
    let ne_port = free_port();
    let ne = Server(
        Command::new("prometheus-node-exporter")
            .arg(format!("--web.listen-address=127.0.0.1:{ne_port}"))
            .arg("--collector.disable-defaults")
            .arg("--collector.textfile")
            .arg(format!(
                "--collector.textfile.directory={}",
                textdir.path().display()
            ))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start node_exporter"),
        "prometheus-node-exporter",
    );
    let scraped = wait_for("node_exporter /metrics", 20, || {
        get(ne_port, "/metrics").filter(|b| b.contains("diskdoc_"))
    });
    // node_exporter sorts the labels of what it serves.
    assert!(
        scraped.lines().any(|l| l.starts_with("diskdoc_disk_info{")
            && l.contains(&format!("device=\"{loop_name}\""))),
        "{scraped}"
    );
    // node_exporter reports a textfile it could not parse as an error gauge.
    assert!(
        scraped.lines().any(|l| l == "node_textfile_scrape_error 0"),
        "node_exporter could not read the textfile:\n{scraped}"
    );

    // Prometheus scraping that node_exporter every second, with the shipped rules.
    let work = tempfile::tempdir().expect("tempdir");
    let cfg = work.path().join("prometheus.yml");
    std::fs::write(
        &cfg,
        format!(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n  - {}\n\
             scrape_configs:\n  - job_name: node\n    static_configs:\n      - targets: ['127.0.0.1:{ne_port}']\n",
            rules_file().display()
        ),
    )
    .expect("config");
    let p_port = free_port();
    let _prom = Server(
        Command::new("prometheus")
            .arg(format!("--config.file={}", cfg.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                work.path().join("data").display()
            ))
            .arg(format!("--web.listen-address=127.0.0.1:{p_port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start prometheus"),
        "prometheus",
    );
    let answer = wait_for("a scraped diskdoc_finding in Prometheus", 60, || {
        get(p_port, "/api/v1/query?query=diskdoc_finding")
            .filter(|b| b.contains("\"status\":\"success\"") && b.contains("\"check\":"))
    });
    let v: serde_json::Value = serde_json::from_str(&answer).expect("query JSON");
    let series = v["data"]["result"].as_array().cloned().unwrap_or_default();
    assert!(!series.is_empty(), "{answer}");
    assert!(
        series.iter().all(|s| s["metric"]["job"] == "node"),
        "{answer}"
    );
    let info = wait_for("diskdoc_disk_info of the loop device", 30, || {
        get(
            p_port,
            &format!("/api/v1/query?query=diskdoc_disk_info%7Bdevice%3D%22{loop_name}%22%7D"),
        )
        .filter(|b| b.contains(loop_name))
    });
    assert!(info.contains("\"value\""), "{info}");
    let rules = wait_for("the diskdoc rules evaluated", 30, || {
        get(p_port, "/api/v1/rules").filter(|b| {
            b.contains("DiskdocWarningFinding")
                && b.contains("\"lastEvaluation\"")
                && !b.contains("0001-01-01")
        })
    });
    assert!(rules.contains("\"health\":\"ok\""), "{rules}");
    assert!(!rules.contains("\"health\":\"err\""), "{rules}");
    eprintln!(
        "scraped sample:\n{}",
        scraped
            .lines()
            .filter(|l| l.starts_with("diskdoc_finding") || l.starts_with("diskdoc_disk_info"))
            .take(8)
            .collect::<Vec<_>>()
            .join("\n")
    );
    drop(ne);
}

/// The rules file is valid and its alerts fire (and stay quiet) as documented.
/// Every report with measurements, replayed as Prometheus text, passes `promtool check
/// metrics` (latency quantiles are a summary, never a gauge with the reserved `quantile`
/// label): the bundles with read and write results under tests/fixtures, in every kind.
#[test]
fn every_prometheus_output_with_measurements_passes_promtool() {
    if !prerequisites(
        "every_prometheus_output_with_measurements_passes_promtool",
        &["promtool"],
        false,
    ) {
        return;
    }
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut checked = 0;
    let mut with_latency = 0;
    for dir in ["bench-link", "bundles"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures.join(dir))
            .expect("fixture dir")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for f in files {
            let (code, out, err) =
                diskdoc(&["replay", "--format", "prometheus", &f.display().to_string()]);
            assert!(
                code == 0 || code == 1,
                "{}: exit {code}: {err}",
                f.display()
            );
            promtool_metrics(&out);
            checked += 1;
            with_latency += usize::from(out.contains("diskdoc_bench_latency_seconds_count"));
        }
    }
    assert!(checked >= 10, "only {checked} bundles found");
    assert!(
        with_latency >= 1,
        "no bundle with latency samples: the summary was not exercised"
    );
}

/// What a user runs, live: `bench` on a real loop device printed as Prometheus exposition,
/// its evidence bundle replayed, and `check` of the same device. promtool accepts all
/// three; the measured latencies are a summary (`quantile` samples with their `_sum` and
/// `_count`), which promtool refuses on a gauge ("non-summary metrics should not have
/// quantile label", exit 3), the defect every bench report had.
#[test]
#[cfg_attr(
    not(any(diskdoc_ci, diskdoc_root)),
    ignore = "needs root and real devices (loop, zram, tmux): runs as root or with CI=true"
)]
fn a_live_bench_and_check_of_a_loop_device_pass_promtool() {
    if !prerequisites(
        "a_live_bench_and_check_of_a_loop_device_pass_promtool",
        &["promtool", "losetup", "mkfs.ext4"],
        true,
    ) {
        return;
    }
    let lo = Loop::ext4();
    let name = lo.dev.trim_start_matches("/dev/").to_string();
    let dir = tempfile::tempdir().expect("tempdir");
    let bundle = dir.path().join("bench.json");
    let (code, text, err) = diskdoc(&[
        "bench",
        "--device",
        &lo.dev,
        "--tests",
        "seq",
        "--format",
        "prometheus",
        "--evidence-out",
        bundle.to_str().expect("path"),
    ]);
    assert!(code == 0 || code == 1, "bench exit {code}: {err}");
    assert!(
        text.contains("# TYPE diskdoc_bench_latency_seconds summary\n"),
        "{text}"
    );
    for q in ["0.5", "0.99"] {
        assert!(
            text.lines()
                .any(|l| l.starts_with("diskdoc_bench_latency_seconds{")
                    && l.contains(&format!("device=\"{name}\""))
                    && l.contains(&format!("quantile=\"{q}\""))),
            "no {q} quantile for {name}: {text}"
        );
    }
    assert!(
        text.contains(&format!(
            "diskdoc_bench_latency_seconds_count{{device=\"{name}\""
        )),
        "{text}"
    );
    promtool_metrics(&text);

    let (code, replayed, err) = diskdoc(&[
        "replay",
        "--format",
        "prometheus",
        bundle.to_str().expect("path"),
    ]);
    assert!(code == 0 || code == 1, "replay exit {code}: {err}");
    assert!(
        replayed.contains(&format!(
            "diskdoc_bench_latency_seconds_count{{device=\"{name}\""
        )),
        "{replayed}"
    );
    promtool_metrics(&replayed);

    let (code, checked, err) = diskdoc(&["check", "--device", &lo.dev, "--format", "prometheus"]);
    assert!(code == 0 || code == 1, "check exit {code}: {err}");
    assert!(
        checked.contains(&format!("diskdoc_disk_info{{device=\"{name}\"")),
        "{checked}"
    );
    promtool_metrics(&checked);
}

#[test]
fn alert_rules_check_and_fire() {
    if !prerequisites("alert_rules_check_and_fire", &["promtool"], false) {
        return;
    }
    let out = Command::new("promtool")
        .args(["check", "rules"])
        .arg(rules_file())
        .output()
        .expect("promtool");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let t = dir.path().join("test.yml");
    std::fs::write(
        &t,
        format!(
            r#"rule_files:
  - {rules}
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'diskdoc_finding{{check="write-cache-disabled",device="sda",severity="warning",verdict="problem",instance="h1"}}'
        values: '1x180'
      - series: 'diskdoc_finding{{check="media-errors",device="sdb",severity="critical",verdict="problem",instance="h1"}}'
        values: '1x10'
      - series: 'diskdoc_finding{{check="ncq-unavailable",device="sda",severity="warning",verdict="pass",instance="h1"}}'
        values: '0x180'
      - series: 'diskdoc_run_success{{instance="h1"}}'
        values: '1x180'
    alert_rule_test:
      - eval_time: 5m
        alertname: DiskdocCriticalFinding
        exp_alerts:
          - exp_labels:
              severity: critical
              check: media-errors
              device: sdb
              verdict: problem
              instance: h1
            exp_annotations:
              summary: "diskdoc: media-errors on h1 sdb"
              description: "diskdoc found a critical problem (media-errors) on sdb. Run `diskdoc check --device sdb` on the host for the explanation and the fix."
      - eval_time: 1h
        alertname: DiskdocWarningFinding
        exp_alerts: []
      - eval_time: 150m
        alertname: DiskdocWarningFinding
        exp_alerts:
          - exp_labels:
              severity: warning
              check: write-cache-disabled
              device: sda
              verdict: problem
              instance: h1
            exp_annotations:
              summary: "diskdoc: write-cache-disabled on h1 sda"
              description: "diskdoc found write-cache-disabled on sda; it slows the disk. Run `diskdoc check --device sda` on the host for the explanation and the fix."
      - eval_time: 150m
        alertname: DiskdocRunFailed
        exp_alerts: []
"#,
            rules = rules_file().display()
        ),
    )
    .expect("test file");
    let out = Command::new("promtool")
        .args(["test", "rules"])
        .arg(&t)
        .output()
        .expect("promtool");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `summarize` over a directory of reports of different kinds: evidence bundles (the
/// fixture bundles, which carry no host ID: one row each), a replayed JSON report, two
/// reports of one host that redaction named HOST-1 alike (one row, by host ID), a file that
/// is not a report and an earlier summary (both skipped with a note). The JSON is the
/// envelope (kind summarize), validates against the schema and replays to the same text.
#[test]
fn summarize_a_directory_of_reports() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bundles");
    let mut n = 0;
    for e in std::fs::read_dir(&fixtures).expect("fixtures") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "json") {
            std::fs::copy(&p, dir.path().join(p.file_name().expect("name"))).expect("copy");
            n += 1;
        }
    }
    let piix = fixtures.join("linux-piix-ide-sata-hdd.json");
    // One of them as a JSON report envelope instead of a bare bundle.
    let (code, report, err) =
        diskdoc(&["replay", piix.to_str().expect("path"), "--format", "json"]);
    assert!(code == 1, "{code} {err}");
    std::fs::write(dir.path().join("zz-report.json"), &report).expect("write");
    n += 1;
    // Two reports of one host, written at different times: the same host ID, HOST-1 both.
    let id = "0f0e0d0c0b0a49088706050403020100";
    let mut v: serde_json::Value = serde_json::from_str(&report).expect("report JSON");
    v["evidence"]["host_id"] = serde_json::json!(id);
    for (file, at) in [
        ("host-x-1.json", 1_700_000_000u64),
        ("host-x-2.json", 1_700_086_400),
    ] {
        v["evidence"]["captured_at_unix"] = serde_json::json!(at);
        std::fs::write(dir.path().join(file), v.to_string()).expect("write");
    }
    let hosts_expected = n + 1;
    std::fs::write(dir.path().join("notes.json"), "{\"todo\": 1}").expect("write");
    let d = dir.path().to_str().expect("path");

    let (code, text, err) = diskdoc(&["summarize", d]);
    assert_eq!(code, 1, "{err}");
    assert!(
        text.starts_with(&format!(
            "diskdoc summary of {} reports from {hosts_expected} hosts",
            n + 2
        )),
        "{text}"
    );
    assert!(text.lines().all(|l| l.chars().count() <= 72), "{text}");
    assert!(
        text.contains("host-x-1, host-x-2"),
        "one row for both: {text}"
    );
    assert!(err.contains("skipped notes.json"), "{err}");
    assert!(text.contains("skipped notes.json"), "{text}");

    let (code, json, err) = diskdoc(&["summarize", d, "--format", "json"]);
    assert_eq!(code, 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("summary JSON");
    assert_eq!(v["kind"], "summarize");
    assert_eq!(v["schema_version"], 4);
    if let Err(e) = support::schema::validate(&v) {
        panic!("the summary does not validate against `diskdoc schema`: {e}");
    }
    assert_eq!(v["members"].as_array().map(Vec::len), Some(n + 2));
    let hosts = v["summary"]["hosts"].as_array().expect("hosts");
    assert_eq!(hosts.len(), hosts_expected);
    assert_eq!(v["summary"]["reports_without_host_id"], n);
    let rank = |s: &str| {
        ["ok", "notice", "warning", "critical"]
            .iter()
            .position(|x| *x == s)
    };
    let worst: Vec<usize> = hosts
        .iter()
        .map(|h| rank(h["worst"].as_str().unwrap_or("")).expect("known severity"))
        .collect();
    assert!(
        worst.windows(2).all(|w| w[0] >= w[1]),
        "not worst first: {worst:?}"
    );
    // The bundle, the report made from it, and the host of two copies summarise alike.
    let of = |file: &str| {
        hosts
            .iter()
            .find(|h| {
                h["files"]
                    .as_array()
                    .is_some_and(|f| f.contains(&file.into()))
            })
            .map(|h| h["problems"].clone())
            .expect("host row")
    };
    assert_eq!(of("zz-report.json"), of("linux-piix-ide-sata-hdd.json"));
    assert_eq!(of("host-x-2.json"), of("linux-piix-ide-sata-hdd.json"));

    // An earlier summary in the directory is skipped, and the summary replays to the same
    // text (and JSON kind replay, derived as summarize).
    std::fs::write(dir.path().join("summary.json"), &json).expect("write");
    let (code2, text2, err2) = diskdoc(&["summarize", d]);
    assert_eq!(code2, 1, "{err2}");
    assert!(
        err2.contains("skipped summary.json: it is a summary itself"),
        "{err2}"
    );
    let saved = dir.path().join("summary.json");
    let (rc, replayed, rerr) = diskdoc(&["replay", saved.to_str().expect("path")]);
    assert_eq!(rc, 1, "{rerr}");
    assert_eq!(replayed, text, "replay of the summary");
    let (_, rj, _) = diskdoc(&["replay", saved.to_str().expect("path"), "--format", "json"]);
    let rv: serde_json::Value = serde_json::from_str(&rj).expect("replay JSON");
    assert_eq!(
        (rv["kind"].as_str(), rv["derived_as"].as_str()),
        (Some("replay"), Some("summarize"))
    );
    assert_eq!(rv["summary"], v["summary"]);
    drop(text2);

    let (_, md, _) = diskdoc(&["summarize", d, "--format", "markdown"]);
    assert_eq!(
        md.lines().filter(|l| l.starts_with("| ")).count(),
        hosts_expected + 1,
        "{md}"
    );
    // A directory without reports is a clear error, exit 2; so is one whose every file is
    // skipped.
    let empty = tempfile::tempdir().expect("tempdir");
    let (code, _, err) = diskdoc(&["summarize", empty.path().to_str().expect("path")]);
    assert_eq!(code, 2);
    assert!(err.contains("holds no .json report"), "{err}");
    std::fs::write(empty.path().join("x.json"), "[]").expect("write");
    let (code, _, err) = diskdoc(&["summarize", empty.path().to_str().expect("path")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no report to summarise"), "{err}");
}

/// Two live runs on this machine carry the same host ID, and it is the value systemd gives
/// for diskdoc's application ID (sd_id128_get_machine_app_specific(3)): the machine ID
/// itself never appears.
#[test]
fn live_reports_carry_the_anonymous_host_id_systemd_computes() {
    // Where diskdoc reads it (machine-id(5); D-Bus keeps a copy where systemd is absent).
    let machine = ["/etc/machine-id", "/var/lib/dbus/machine-id"]
        .iter()
        .map(|p| {
            std::fs::read_to_string(p)
                .unwrap_or_default()
                .trim()
                .to_string()
        })
        .find(|m| m.len() == 32)
        .unwrap_or_default();
    let machine = machine.as_str();
    let (_, a, err) = diskdoc(&["scan", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&a).unwrap_or_else(|e| panic!("{e}: {err}"));
    let id = v["evidence"]["host_id"].as_str().map(str::to_string);
    if machine.len() != 32 {
        // A container without a machine ID: the report must then carry no host ID at all
        // (checked), and there is nothing to compare with systemd (said).
        assert_eq!(id, None, "no machine ID, no host ID");
        eprintln!("SKIP the systemd cross-check: this machine has no /etc/machine-id");
        return;
    }
    let id = id.expect("a live report carries a host ID");
    assert!(
        !a.contains(machine),
        "the machine ID itself must not leave the machine"
    );
    let (_, b, _) = diskdoc(&["check", "--format", "json"]);
    let w: serde_json::Value = serde_json::from_str(&b).expect("check JSON");
    assert_eq!(w["evidence"]["host_id"].as_str(), Some(id.as_str()));
    if !have("systemd-id128") {
        eprintln!("SKIP the systemd cross-check: systemd-id128 is not installed");
        assert!(!ci(), "systemd-id128 is missing under CI");
        return;
    }
    let out = Command::new("systemd-id128")
        .args([
            "machine-id",
            "--app-specific=1c57132e5cb54c719f8f8bde99fd9c0e",
        ])
        .output()
        .expect("systemd-id128");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), id);
}
