//! Bounded-time mutation fuzzing of every entry point that reads untrusted input (issue 14):
//! `explain` on arbitrary bytes and on mutated real pastes, report/bundle loading (and the
//! replay pipeline behind it) on mutated JSON, every `sources/*` parser on mutated fixture
//! text, and the device-read decoders (MBR/EBR/GPT/BSD label, whole-disk filesystems, the
//! raw-device guard's signature table, ATA IDENTIFY words) on mutated sector images.
//!
//! Why in-tree and not `cargo fuzz`: cargo-fuzz needs a nightly toolchain and libFuzzer,
//! neither of which this project's offline CI has; bolero's default engine is proptest-like
//! random input without coverage feedback anyway. So this is a small mutational fuzzer of
//! our own (AFL-style byte and splice mutations plus number mutations aimed at the parsers'
//! arithmetic), seeded from the real fixtures, bounded by wall-clock time rather than a case
//! count, with every input that panics saved for replay.
//!
//! Overflow checks: `cargo test --release` turns them off, so a wrapping multiplication on a
//! crafted number would pass unseen. CI runs this file with `--profile fuzz` (Cargo.toml:
//! release optimisation, overflow-checks and debug-assertions on); in the plain release run
//! it is listed as ignored, never as passed. The test first proves overflow checks are live.
//!
//! Two modes, so that CI is deterministic and the search for new failures still goes on:
//! - **Replay (default, what CI runs)**: every file under tests/fixtures/fuzz-regressions/
//!   (inputs that once panicked, named <target>--<name>) first, then a fixed list of seeds
//!   (`FIXED_SEEDS`, which holds every seed that ever found a failure) with a fixed number of
//!   inputs per target and seed (DISKDOC_FUZZ_CASES, default `DEFAULT_CASES`). The same
//!   inputs every run, on any machine, whatever its speed: a red CI run is a real regression.
//! - **Campaign (outside CI)**: DISKDOC_FUZZ_SECONDS=N fuzzes for N seconds of wall time from a
//!   fresh seed (or DISKDOC_FUZZ_SEED=S). scripts/fuzz-campaign.sh runs it and copies what it
//!   finds into tests/fixtures/fuzz-regressions/, whence the replay mode checks it for good.
//!
//! Inputs that panicked are written to $CARGO_TARGET_TMPDIR/fuzz-failures/, named as the
//! regression corpus wants them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use diskdoc_core::explain::{Input, explain, render as explain_render};
use diskdoc_core::facts::DiskFacts;
use diskdoc_core::report::{json, load, markdown, prometheus, text};
use diskdoc_core::sources::*;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

// ------------------------------------------------------------------ random numbers

/// splitmix64 (Steele, Lea, Flood 2014): tiny, fast, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

// ------------------------------------------------------------------ mutations

/// Numbers at the edges a parser multiplies, narrows or negates.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "255",
    "65536",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999",
    "1e308",
    "1e309",
    "NaN",
    "-0",
    "0x7fffffff",
    "1.7976931348623157e308",
];

/// Units and separators the size and rate parsers act on.
const WORDS: &[&str] = &[
    "EiB", "TB", "k", "MB/s", "GB", " ", "\t", ":", "=", ",", "\n", "\r\n", "%", "(", ")", "[",
    "]", "/dev/", "sda", "ada0", "ata1", "0x", "\u{feff}", "\u{fffd}", "\"", "{", "}", "<", ">",
];

/// Integers of interest, written little- or big-endian into sector images.
const INTS: &[u64] = &[
    0,
    1,
    0x7f,
    0x80,
    0xff,
    0x7fff,
    0xffff,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x1_0000_0000,
    0x7fff_ffff_ffff_ffff,
    u64::MAX,
];

fn digit_run(b: &[u8], at: usize) -> (usize, usize) {
    let mut s = at.min(b.len());
    while s > 0 && b[s - 1].is_ascii_digit() {
        s -= 1;
    }
    let mut e = at.min(b.len());
    while e < b.len() && b[e].is_ascii_digit() {
        e += 1;
    }
    (s, e)
}

/// One to eight mutations of `seed`, sometimes spliced with `other`.
fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8], text: bool) -> Vec<u8> {
    let mut b = seed.to_vec();
    let n = 1 + rng.below(8);
    for _ in 0..n {
        let len = b.len();
        let p = rng.below(len + 1);
        match rng.below(if text { 12 } else { 9 }) {
            0 if len > 0 => b[p.min(len - 1)] ^= 1 << rng.below(8),
            1 if len > 0 => b[p.min(len - 1)] = rng.next() as u8,
            2 => {
                let end = (p + 1 + rng.below(64)).min(len);
                b.drain(p.min(end)..end);
            }
            3 if len > 0 => {
                // Duplicate a chunk somewhere else (repeated lines, repeated table entries).
                let s = rng.below(len);
                let e = (s + 1 + rng.below(512)).min(len);
                let chunk = b[s..e].to_vec();
                let at = rng.below(b.len() + 1);
                b.splice(at..at, chunk);
            }
            4 => b.truncate(p),
            5 if !other.is_empty() => {
                // Splice: our head, another seed's tail.
                let q = rng.below(other.len());
                b.truncate(p);
                b.extend_from_slice(&other[q..]);
            }
            6 => {
                // An integer of interest over the bytes at p (sector fields, counts, LBAs).
                let v = INTS[rng.below(INTS.len())];
                let w = [1usize, 2, 4, 8][rng.below(4)];
                let bytes = if rng.below(2) == 0 {
                    v.to_le_bytes()
                } else {
                    v.to_be_bytes()
                };
                let src = if bytes[0] == 0 && w < 8 {
                    &bytes[8 - w..]
                } else {
                    &bytes[..w]
                };
                for (i, x) in src.iter().enumerate() {
                    if let Some(t) = b.get_mut(p + i) {
                        *t = *x;
                    }
                }
            }
            7 => {
                let junk: Vec<u8> = (0..1 + rng.below(16)).map(|_| rng.next() as u8).collect();
                b.splice(p..p, junk);
            }
            8 if len > 0 => {
                // Zero a run: truncated reads, cleared fields.
                let e = (p + 1 + rng.below(512)).min(len);
                b[p.min(e)..e].fill(0);
            }
            9 => {
                // Replace the digit run nearest p with an edge number.
                let (s, e) = digit_run(&b, p);
                let num = NUMBERS[rng.below(NUMBERS.len())].as_bytes();
                b.splice(s..e, num.iter().copied());
            }
            10 => {
                let w = WORDS[rng.below(WORDS.len())].as_bytes();
                b.splice(p..p, w.iter().copied());
            }
            11 if len > 0 => {
                // Cut a line in two or join two (mail clients re-wrap).
                if let Some(nl) = b[p.min(len - 1)..].iter().position(|c| *c == b'\n') {
                    b[p.min(len - 1) + nl] = b' ';
                } else {
                    b.insert(p, b'\n');
                }
            }
            _ => {}
        }
    }
    b
}

// ------------------------------------------------------------------ corpora

/// Every text fixture up to 64 KiB (pastes, tool outputs, seeds, sysfs files), and every
/// file under tests/fixtures/corpus. JSON bundles are the JSON corpus instead.
fn text_corpus() -> Vec<Vec<u8>> {
    files_under(&fixtures(), &|p| {
        !p.components()
            .any(|c| c.as_os_str() == "bundles" || c.as_os_str() == "fuzz-regressions")
    })
    .into_iter()
    .filter_map(|p| std::fs::read(p).ok())
    .filter(|b| !b.is_empty() && b.len() <= 64 * 1024)
    .collect()
}

/// Every file below `dir` that `keep` accepts, sorted.
fn files_under(dir: &Path, keep: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if keep(&p) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every bundle fixture, and the report envelope each becomes (what replay and compare read).
fn json_corpus() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(fixtures().join("bundles"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    for p in paths {
        let t = std::fs::read_to_string(&p).unwrap();
        if let Ok(l) = load::parse("seed.json", &t) {
            out.push(json::render(&load::report_from_loaded(l, vec![])).into_bytes());
        }
        out.push(t.into_bytes());
    }
    out
}

/// Sector images: every device read the fixture bundles and the QEMU lab's evidence hold
/// (MBR/EBR/GPT tables as the probe stored them), real tables written by sfdisk(8) into a
/// scratch file (an MBR with an extended partition and its EBR chain, a GPT), and images
/// with signatures of the raw-device guard and a BSD label at the places the formats
/// define (crafted, see crates/sys/src/bench/safety.rs).
fn sector_corpus() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut files = files_under(&fixtures().join("bundles"), &|_| true);
    files.extend(files_under(&fixtures().join("qemu-sysfs"), &|p| {
        p.file_name().is_some_and(|n| n == "evidence.json")
    }));
    for f in files {
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(&std::fs::read(&f).unwrap()) else {
            continue;
        };
        let caps = v
            .pointer("/evidence/captures")
            .or_else(|| v.get("captures"))
            .and_then(|c| c.as_object());
        for (k, c) in caps.into_iter().flatten() {
            if k.starts_with("read:")
                && let Some(b) = c
                    .get("data")
                    .and_then(|d| d.as_str())
                    .and_then(diskdoc_core::evidence::hex_decode)
                && !b.is_empty()
            {
                out.push(b);
            }
        }
    }
    let real = out.len();
    out.extend(sfdisk_images());
    let patch = |places: &[(usize, &[u8])]| {
        let mut b = vec![0u8; 300 * 1024];
        for (at, m) in places {
            b[*at..*at + m.len()].copy_from_slice(m);
        }
        b
    };
    let disklabel = 0x8256_4557u32.to_le_bytes();
    for img in [
        patch(&[
            (512, &disklabel),
            (512 + 132, &disklabel),
            (512 + 138, &[8, 0]),
        ]),
        patch(&[(1080, &[0x53, 0xef])]),
        patch(&[(65536 + 1372, &0x1954_0119u32.to_le_bytes())]),
        patch(&[(1024, &0xF2F5_2010u32.to_le_bytes())]),
        patch(&[(65536 + 64, b"_BHRfS_M")]),
        patch(&[(4096 - 10, b"SWAPSPACE2")]),
        patch(&[(0, b"LUKS\xba\xbe")]),
        patch(&[(300 * 1024 - 512, b"GEOM::ELI\0")]),
    ] {
        out.push(img);
    }
    out.sort();
    out.dedup();
    assert!(real >= 5, "the fixtures hold only {real} device reads");
    out
}

/// Partition tables written by the real sfdisk into a file (no root, no device): an MBR
/// with a primary, an extended partition and two logicals (so an EBR chain), and a GPT.
/// Empty when sfdisk is not installed (CI installs fdisk, which carries it).
fn sfdisk_images() -> Vec<Vec<u8>> {
    let Ok(sfdisk) = which::which("sfdisk") else {
        eprintln!("fuzz: sfdisk not found; no sfdisk-written tables in the corpus");
        return Vec::new();
    };
    let dir = tempfile::tempdir().unwrap();
    let mut out = Vec::new();
    for (name, script) in [
        (
            "mbr",
            "label: dos\nstart=63, size=100, type=83\nstart=200, size=1200, type=5\n\
             start=263, size=50, type=83\nstart=400, size=100, type=82\n",
        ),
        (
            "gpt",
            "label: gpt\nstart=2048, size=2048, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B\n\
             start=4096, size=4096, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, name=root\n",
        ),
    ] {
        let img = dir.path().join(name);
        std::fs::write(&img, vec![0u8; 8 << 20]).unwrap();
        let mut child = std::process::Command::new(&sfdisk)
            .arg("--no-reread")
            .arg("--no-tell-kernel")
            .arg(&img)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(script.as_bytes())
                .unwrap();
        }
        let o = child.wait_with_output().unwrap();
        assert!(
            o.status.success(),
            "sfdisk {name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let b = std::fs::read(&img).unwrap();
        // The tables and EBRs live in the first sectors (GPT: LBA 0-33).
        out.push(b[..(1400 * 512).min(b.len())].to_vec());
    }
    out
}

// ------------------------------------------------------------------ targets

type Run = fn(&[u8]);

fn s(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn t_explain(b: &[u8]) {
    let inputs = [Input {
        label: "paste".into(),
        bytes: b.to_vec(),
    }];
    if let Ok(ex) = explain(&inputs) {
        let _ = explain_render::render_text(&ex);
        let _ = explain_render::render_markdown(&ex);
        let _ = explain_render::render_json(&ex);
        let _ = diskdoc_core::report::redact::redact_explanation(&ex);
    }
}

fn t_explain_two(b: &[u8]) {
    let cut = b.len() / 2;
    let inputs = [
        Input {
            label: "a".into(),
            bytes: b[..cut].to_vec(),
        },
        Input {
            label: "b".into(),
            bytes: b[cut..].to_vec(),
        },
    ];
    let _ = explain(&inputs).map(|ex| explain_render::render_text(&ex));
}

fn t_report_load(b: &[u8]) {
    let t = s(b);
    if let Ok(l) = load::parse("fuzz.json", &t) {
        let r = load::report_from_loaded(l, vec!["diskdoc".into(), "replay".into()]);
        let shared = r.shareable(true);
        let _ = text::render(&shared);
        let _ = markdown::render(&shared);
        let _ = json::render(&shared);
        let _ = prometheus::render(&r);
    }
}

/// Replay of a real bundle in which one capture (picked by the input's hash) answers with
/// the fuzzed text: every parser meets garbage in its own slot, behind facts::derive, the
/// checks and the renderers, as when a mailed-in bundle was edited or corrupted.
fn t_bundle_capture(b: &[u8]) {
    use diskdoc_core::evidence::{Capture, EvidenceBundle};
    static BUNDLES: std::sync::OnceLock<Vec<EvidenceBundle>> = std::sync::OnceLock::new();
    let bundles = BUNDLES.get_or_init(|| {
        files_under(&fixtures().join("bundles"), &|p| {
            p.extension().is_some_and(|x| x == "json")
        })
        .iter()
        .filter_map(|p| load::load(p).ok())
        .collect()
    });
    let h = fnv(b);
    let Some(mut bundle) = bundles.get(h as usize % bundles.len().max(1)).cloned() else {
        return;
    };
    let keys: Vec<String> = bundle.captures.keys().cloned().collect();
    if let Some(k) = keys.get((h >> 16) as usize % keys.len().max(1)) {
        bundle.captures.insert(
            k.clone(),
            Capture::Ok {
                data: s(b),
                stderr: String::new(),
                exit_code: Some(0),
                elapsed_ms: 0,
            },
        );
    }
    let Ok(json) = serde_json::to_string(&bundle) else {
        return;
    };
    t_report_load(json.as_bytes());
}

fn fnv(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, x| {
        (h ^ u64::from(*x)).wrapping_mul(0x100_0000_01b3)
    })
}

fn t_smartctl(b: &[u8]) {
    let t = s(b);
    let _ = smartctl::parse(&t);
    let mut d = DiskFacts::new("sda", "/dev/sda");
    smartctl::apply(&mut d, "k", &t);
    let _ = smartctl_attr::ata_raw(&t, 5);
    let _ = smartctl_attr::ata_raw(&t, 197);
}

fn t_kernel_log(b: &[u8]) {
    let t = s(b);
    let _ = kernel_log::events_for("sda", &t, "k");
    let _ = kernel_log::events_for("ada0", &t, "k");
    let _ = kernel_log::events_for_port(1, &t, "k");
    let _ = kernel_log::all_events(&t, "k");
    let _ = kernel_log::ata_port_for("sda", &t);
    let _ = kernel_log::ata_port_guess("sda", &t);
    let _ = kernel_log::write_cache_of("sda", &t);
    let _ = kernel_log::usb_driver_of("sda", &t);
    let _ = kernel_log::ports_with_events(&t);
    let _ = kernel_log::disks_named(&t);
    for l in t.lines() {
        let _ = kernel_log::classify(kernel_log::strip_prefixes(l));
    }
    let addrs = vec!["0000:01:00.0".to_string()];
    let _ = power_log::nvme_power_lines(&t, "nvme0", &addrs);
    let _ = power_log::aer_lines(&t, &addrs);
    let _ = dmesg::parse(&t);
}

fn t_benchmarks(b: &[u8]) {
    let t = s(b);
    let _ = dd::parse(&t);
    let _ = copy::parse(&t);
    let _ = fio::parse(&t);
    let _ = gstat::parse(&t);
    let _ = iostat::parse(&t);
    let _ = hdparm::parse_timing(&t);
}

fn t_linux_tools(b: &[u8]) {
    let t = s(b);
    let _ = hdparm::parse_identify(&t);
    let _ = hdparm::parse_write_cache(&t);
    let mut d = DiskFacts::new("sda", "/dev/sda");
    hdparm::apply_identify(&mut d, "k", &t);
    let devs = lsblk::parse(&t);
    lsblk::apply(&mut d, "k", &devs);
    let _ = fdisk::parse(&t);
    let _ = sfdisk::parse_list(&t);
    let _ = sfdisk::parse_dump(&t);
    let _ = cryptsetup::parse(&t);
    let _ = dmsetup::parse(&t);
    let _ = dmsetup::guess_dev_name(&t);
    let _ = lspci::parse(&t).iter().map(lspci::link).count();
    let _ = lspci::parse_gts(&t);
    let _ = mdstat::parse(&t);
    let _ = nvme_smart::parse(&t);
    // The paste helpers of issue 17's tools (sources/block_recognisers.rs).
    let _ = block_recognisers::lba_formats(&t);
    let _ = block_recognisers::pool_of_command(&t);
    let _ = block_recognisers::nvme_controller(&t);
    let _ = block_recognisers::nvme_header_device(&t);
    let _ = diskstats::find(&t, "sda");
    let (a, z) = (diskstats::parse_fields(&t), diskstats::find(&t, "sda"));
    if let (Some(a), Some(z)) = (a, z) {
        let _ = diskstats::busy(&a, &z, 1000);
        let _ = diskstats::busy(&z, &a, 0);
    }
    let _ = diskstats::proc_io_bytes(&t);
    let _ = mountinfo::parse_mountinfo(&t);
    let _ = mountinfo::unescape(&t);
    let _ = (
        lspci::recognize(&t),
        mdstat::recognize(&t),
        diskstats::recognize(&t),
    );
    let _ = nvme_smart::recognize(&t);
    let _ = ata_identify::parse_sysfs_id(&t);
}

fn t_zfs(b: &[u8]) {
    let t = s(b);
    for p in zpool::parse(&t) {
        let _ = p.vdevs.len();
    }
    for l in t.lines() {
        let _ = zpool::block_size_note(l);
    }
    let _ = zpool::pool_members(&t, zpool::DeviceNaming::FreeBsd);
    let _ = zpool::pool_members(&t, zpool::DeviceNaming::Linux);
    let _ = zpool_ashift::parse_vdev_props(&t);
    let _ = zpool_ashift::parse_zdb(&t);
    let rows = zfs_get::parse(&t);
    let _ = zfs_get::value(&rows, "tank", "recordsize");
}

fn t_freebsd_tools(b: &[u8]) {
    let t = s(b);
    let _ = camcontrol_devlist::parse(&t);
    let _ = camcontrol_identify::parse(&t);
    let _ = camcontrol_modepage::parse(&t);
    let _ = camcontrol_tags::parse(&t);
    let _ = diskinfo::parse(&t);
    let _ = geli::parse(&t);
    let _ = geom_disk::parse(&t);
    let _ = gpart_list::parse(&t);
    for blk in gpart_show::parse(&t) {
        let _ = blk;
    }
    let _ = gpart_show::ebr_name(&t, usize::MAX);
    let _ = gpart_show::provider_name(&t, "MBR", u32::MAX);
    let _ = pciconf::parse(&t);
    let _ = pciconf::links(&t);
    let m = mount_p::parse(&t);
    let _ = mount_p::zfs_datasets(&m);
    let _ = mount_p::mount_for_path(&m, "/usr/home/x");
    let kv = sysctl::parse(&t);
    let _ = sysctl::get(&kv, "kern.disks").map(sysctl::disk_names);
    let xml = confxml::parse(sysctl::bare_value(&t, "kern.geom.confxml"));
    let _ = xml.disk("ada0");
    let _ = geom_util::sata_gen_gbps(&t);
    let _ = geom_util::split_unit(&t);
    let _ = geom_util::hex_u32(&t);
}

/// Every source in the registry through its spec's own entry points: the parser, the
/// paste recogniser's start, member, update, clean and classify functions, and the device
/// helpers. The hand-listed targets above call the big parsers with their typed results;
/// this one reaches every tool the registry holds, a new module included, without a list
/// to keep up to date.
fn t_registry(b: &[u8]) {
    let t = s(b);
    let lines: Vec<&str> = t.lines().take(64).collect();
    let first = lines.first().copied().unwrap_or("");
    for spec in SPECS {
        if let Some(parse) = spec.parse {
            let _ = parse(&t);
        }
        let Some(p) = &spec.paste else { continue };
        let _ = (p.command)(first, &t);
        if let Some(f) = p.device {
            let _ = f(&t);
        }
        if let Some(f) = p.same_drive {
            let _ = f(&t, first);
        }
        if let Some(f) = p.owns {
            let _ = f(&t);
        }
        if let Some(f) = p.command_device {
            let _ = f(first);
        }
        if let Some(f) = p.live_device {
            let _ = f(first);
        }
        let r = p.family;
        let mut st = spec::BlockState::default();
        for i in 0..lines.len() {
            for (_, start) in r.starts {
                let _ = start(&lines[i..]);
            }
            let _ = (r.member)(lines[i], &st);
            if let Some(u) = r.update {
                u(lines[i], &mut st);
            }
            if let Some(c) = r.clean {
                let _ = c(lines[i]);
            }
            if let Some(a) = r.absorbs {
                let _ = a(r.name, lines[i]);
            }
        }
        let _ = (r.classify)(&t, Some(first));
        let _ = (r.classify)(&t, None);
    }
}

fn t_numbers(b: &[u8]) {
    let t = s(b);
    for w in t.split_whitespace().take(64) {
        let _ = util::parse_size(w);
        let _ = util::parse_human_size(w);
        let _ = util::leading_u64(w);
        let _ = util::leading_f64(w).and_then(geom_util::sata_gbps_from_mbps);
        let _ = geom_util::leading_digits_u64(w);
        let _ = geom_util::leading_digits_f64(w);
        let _ = util::unit_multiplier(w);
    }
    for l in t.lines().take(256) {
        let _ = util::kv(l);
        let _ = util::clean_line(l);
        let _ = util::parse_size(l);
        let _ = util::parse_human_size(l);
    }
    let _ = util::find_json(&t);
}

fn t_partition_tables(b: &[u8]) {
    for ls in [512u32, 4096, 0, 1, 520] {
        let _ = partition_table::parse(b, ls);
    }
    let _ = partition_table::mbr_entries(b);
    // EBR chains: an LBA maps onto one of the image's sectors, so pointers keep pointing
    // somewhere (loops included) instead of off the end at once.
    let sectors = (b.len() / 512).max(1);
    let read = |lba: u64| -> Option<Vec<u8>> {
        let i = usize::try_from(lba % sectors as u64).ok()? * 512;
        b.get(i..i + 512).map(<[u8]>::to_vec)
    };
    let _ = partition_table::logical_partitions(1, 512, read);
    let _ = partition_table::logical_partitions(u64::MAX, 4096, read);
    for (at, start) in [(0usize, 0u64), (512, 63), (8192, u64::MAX / 512)] {
        if let Some(label) = b.get(at..) {
            let _ = partition_table::parse_bsdlabel(label, start, 512);
            let _ = partition_table::parse_bsdlabel(label, start, 4096);
        }
    }
    let _ = partition_table::bsdlabel_location(u64::MAX, u32::MAX);
    let _ = partition_table::whole_disk_filesystem(b);
    let _ = partition_table::rename_filesystem(b, |l| format!("{l}-x"));
    let _ = partition_table::minimize(b);
    let _ = partition_table::gpt_names(b);
    let _ = partition_table::gpt_type_guids(b);
    let _ = partition_table::rename_gpt(b, |n| format!("{n}{n}"));
    let _ = partition_table::guid_string(b);
    let _ = diskdoc_core::evidence::hex_decode(&diskdoc_core::evidence::hex_encode_sparse(b));
}

fn t_signatures(b: &[u8]) {
    use diskdoc_sys::bench::safety;
    let size = b
        .get(..8)
        .map(|x| u64::from_le_bytes(x.try_into().unwrap_or([0; 8])))
        .unwrap_or(0);
    let cut = b.len().min(1 << 20);
    let (head, tail) = b.split_at(cut / 2);
    for sz in [size, b.len() as u64, 0, u64::MAX] {
        let _ = safety::find_signatures(head, tail, sz);
        let _ = safety::find_signatures(b, b, sz);
    }
    let t = s(b);
    let _ = safety::blkid_findings(&t, Some(8));
    let _ = safety::geom_children(&t, "ada0");
    let _ = safety::freebsd_occupancy(Some(&t), Some(&t), "ada0p1");
    let _ = safety::mounts_of_dev(&t, "7:0", "/dev/loop0");
}

fn t_ata_words(b: &[u8]) {
    // IDENTIFY DEVICE is 256 words (ACS-3 7.12.7); shorter and a little longer must not
    // panic either, a 300 KiB image only slows the round.
    let b = &b[..b.len().min(1024)];
    let words: Vec<u16> = b
        .chunks(2)
        .map(|c| u16::from_le_bytes([c[0], *c.get(1).unwrap_or(&0)]))
        .collect();
    let _ = ata_identify::from_words(&words);
    let text = ata_identify::format_sysfs_id(&words);
    let _ = ata_identify::parse_sysfs_id(&text);
}

fn t_hex(b: &[u8]) {
    let _ = diskdoc_core::evidence::hex_decode(&s(b));
}

#[derive(Clone, Copy, PartialEq)]
enum Corpus {
    Text,
    Json,
    Sectors,
    /// No seeds: random bytes, mostly printable (arbitrary text, not a mutated fixture).
    Random,
}

/// Every target: name, seed corpus, entry point.
fn targets() -> Vec<(&'static str, Corpus, Run)> {
    vec![
        ("explain", Corpus::Text, t_explain),
        ("explain-random", Corpus::Random, t_explain),
        ("explain-two-inputs", Corpus::Text, t_explain_two),
        ("explain-json", Corpus::Json, t_explain),
        ("report-load", Corpus::Json, t_report_load),
        ("bundle-capture", Corpus::Text, t_bundle_capture),
        ("sources-smartctl", Corpus::Text, t_smartctl),
        ("sources-kernel-log", Corpus::Text, t_kernel_log),
        ("sources-benchmarks", Corpus::Text, t_benchmarks),
        ("sources-linux-tools", Corpus::Text, t_linux_tools),
        ("sources-zfs", Corpus::Text, t_zfs),
        ("sources-freebsd-tools", Corpus::Text, t_freebsd_tools),
        ("sources-numbers", Corpus::Text, t_numbers),
        ("sources-registry", Corpus::Text, t_registry),
        ("partition-tables", Corpus::Sectors, t_partition_tables),
        ("signatures", Corpus::Sectors, t_signatures),
        ("ata-identify-words", Corpus::Text, t_ata_words),
        ("evidence-hex", Corpus::Text, t_hex),
    ]
}

// ------------------------------------------------------------------ the loop

thread_local! {
    static LAST_PANIC: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    static IN_TARGET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Run one input; the panic message if it panicked.
fn attempt(run: Run, input: &[u8]) -> Option<String> {
    IN_TARGET.with(|f| f.set(true));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(input)));
    IN_TARGET.with(|f| f.set(false));
    r.err()
        .map(|_| LAST_PANIC.with(|p| std::mem::take(&mut *p.borrow_mut())))
}

fn save(name: &str, input: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures");
    let _ = std::fs::create_dir_all(&dir);
    let h = fnv(input);
    let p = dir.join(format!("{name}--{h:016x}"));
    let _ = std::fs::write(&p, input);
    p
}

/// Up to 8 KiB of random lines: printable ASCII with digits, words and units mixed in,
/// and now and then a raw byte.
fn random_text(rng: &mut Rng) -> Vec<u8> {
    let len = rng.below(8192);
    let mut b = Vec::with_capacity(len + 32);
    while b.len() < len {
        match rng.below(10) {
            0 => b.extend_from_slice(NUMBERS[rng.below(NUMBERS.len())].as_bytes()),
            1 => b.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes()),
            2 => b.push(rng.next() as u8),
            3 => b.push(b'\n'),
            _ => b.push(b' ' + (rng.below(95) as u8)),
        }
    }
    b
}

/// A single input slower than this is reported too (a hang is a denial of service).
const SLOW: Duration = Duration::from_secs(10);

struct Tally {
    runs: u64,
    failures: Vec<String>,
}

/// When a target's fuzzing stops: after a fixed number of inputs (deterministic, CI) or
/// after a wall-clock budget (campaigns).
#[derive(Clone, Copy)]
enum Stop {
    Cases(u64),
    Time(Duration),
}

impl Stop {
    fn done(self, runs: u64, start: Instant) -> bool {
        match self {
            Stop::Cases(n) => runs >= n,
            Stop::Time(d) => start.elapsed() >= d,
        }
    }
}

/// Seeds CI replays, each with `DEFAULT_CASES` inputs per target. Every seed that ever found
/// a failure is added here (besides its input going to tests/fixtures/fuzz-regressions/).
const FIXED_SEEDS: &[u64] = &[
    1,
    0x5EED_D15C_D0C0_0001,
    // Found the multiply overflow in explain/critic.rs (gpart start * 512) on 2026-12-02.
    1_796_152_273_668_021_328,
    // Found the add overflow in sources/gpart_show.rs (BSD label letter of a pasted index
    // 4294967295) on 2026-12-06.
    1_796_534_974_082_659_683,
];

/// Inputs per target and fixed seed in the replay mode: 18 targets x 4 seeds x this many
/// (72,000 inputs). 4,000 took 347 s on this project's 2-core machine under a load of 7, so
/// this is well under a minute on an idle one.
const DEFAULT_CASES: u64 = 1000;

fn fuzz_one(name: &str, corpus: &[Vec<u8>], run: Run, stop: Stop, seed: u64, text: bool) -> Tally {
    let mut rng = Rng(seed
        ^ name
            .bytes()
            .fold(0u64, |h, b| h.rotate_left(5) ^ u64::from(b)));
    let mut tally = Tally {
        runs: 0,
        failures: Vec::new(),
    };
    let start = Instant::now();
    // The seeds themselves first (unmutated), then mutations until the budget is spent.
    let mut i = 0usize;
    while !stop.done(tally.runs, start) && tally.failures.len() < 5 {
        let input = if corpus.is_empty() {
            random_text(&mut rng)
        } else if i < corpus.len() {
            corpus[i].clone()
        } else {
            let a = &corpus[rng.below(corpus.len())];
            let b = &corpus[rng.below(corpus.len())];
            mutate(&mut rng, a, b, text)
        };
        i += 1;
        let t = Instant::now();
        let failed = attempt(run, &input);
        let took = t.elapsed();
        tally.runs += 1;
        if let Some(msg) = failed {
            let p = save(name, &input);
            tally
                .failures
                .push(format!("{name}: panicked: {msg} (input: {})", p.display()));
        } else if took > SLOW {
            let p = save(name, &input);
            tally.failures.push(format!(
                "{name}: one input took {took:?} (input: {})",
                p.display()
            ));
        }
    }
    tally
}

fn workers() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(4)
}

/// Inputs that once panicked, replayed on every run (tests/fixtures/fuzz-regressions).
fn regressions() -> Vec<(String, Vec<u8>)> {
    let Ok(rd) = std::fs::read_dir(fixtures().join("fuzz-regressions")) else {
        return Vec::new();
    };
    let mut v: Vec<(String, Vec<u8>)> = rd
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            let target = n.split("--").next()?.to_string();
            Some((target, std::fs::read(e.path()).ok()?))
        })
        .collect();
    v.sort();
    v
}

#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "fuzzing needs overflow checks, which release turns off: .ci/run runs this file \
              with `cargo test --profile fuzz --test fuzz`"
)]
fn fuzz_every_untrusted_input_entry_point() {
    // A campaign when DISKDOC_FUZZ_SECONDS is set (fresh seed unless DISKDOC_FUZZ_SEED is);
    // otherwise the deterministic replay of the fixed seeds that CI runs.
    let seconds = std::env::var("DISKDOC_FUZZ_SECONDS")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v > 0.0);
    let given_seed = std::env::var("DISKDOC_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse::<u64>().ok());
    let cases = std::env::var("DISKDOC_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|n| *n > 0)
        .unwrap_or(DEFAULT_CASES);
    let (seeds, stop_for): (Vec<u64>, Box<dyn Fn(usize) -> Stop>) = match seconds {
        Some(total) => {
            let seed = given_seed.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            });
            eprintln!(
                "fuzz: campaign, seed {seed} (DISKDOC_FUZZ_SEED={seed} DISKDOC_FUZZ_SECONDS={total} \
                 repeats it as nearly as timing allows), {total} s"
            );
            (
                vec![seed],
                Box::new(move |n_targets| {
                    // Each worker takes jobs (one per target) in turn, so the wall time is
                    // the per-job time times the jobs a worker gets; with fewer targets than
                    // workers (DISKDOC_FUZZ_TARGETS), each job gets the whole budget.
                    let parallel = workers().min(n_targets).max(1) as f64;
                    Stop::Time(Duration::from_secs_f64(
                        total * parallel / n_targets.max(1) as f64,
                    ))
                }),
            )
        }
        None => {
            let seeds = given_seed.map_or_else(|| FIXED_SEEDS.to_vec(), |s| vec![s]);
            eprintln!(
                "fuzz: replay, seeds {seeds:?}, {cases} inputs per target and seed \
                 (deterministic; DISKDOC_FUZZ_SECONDS=N runs a fresh-seed campaign instead)"
            );
            (seeds, Box::new(move |_| Stop::Cases(cases)))
        }
    };

    // A panic inside a target is recorded quietly (it is reported with its input below);
    // any other panic (of this test itself) is printed as usual.
    let prev: std::sync::Arc<dyn Fn(&std::panic::PanicHookInfo<'_>) + Send + Sync> =
        std::sync::Arc::from(std::panic::take_hook());
    let chained = prev.clone();
    std::panic::set_hook(Box::new(move |info| {
        if !IN_TARGET.with(|f| f.get()) {
            return chained(info);
        }
        let loc = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        LAST_PANIC.with(|p| *p.borrow_mut() = format!("{msg}{loc}"));
    }));

    // Overflow checks must be on, or the fuzzing below cannot see an overflow.
    let wraps = attempt(
        |_| {
            let _ = std::hint::black_box(u64::MAX) + std::hint::black_box(1u64);
        },
        &[],
    );
    assert!(
        wraps.is_some_and(|m| m.contains("overflow")),
        "arithmetic overflow did not panic: run with --profile fuzz (or a debug build)"
    );

    let corpora: BTreeMap<u8, Vec<Vec<u8>>> = [
        (Corpus::Text as u8, text_corpus()),
        (Corpus::Json as u8, json_corpus()),
        (Corpus::Sectors as u8, sector_corpus()),
        (Corpus::Random as u8, Vec::new()),
    ]
    .into_iter()
    .collect();
    // DISKDOC_FUZZ_TARGETS=a,b narrows a campaign to those targets (a new reader's target can
    // then get the whole budget); the replay mode always runs every target.
    let only: Option<Vec<String>> = std::env::var("DISKDOC_FUZZ_TARGETS")
        .ok()
        .filter(|_| seconds.is_some())
        .map(|v| v.split(',').map(|t| t.trim().to_string()).collect());
    let all_targets = targets();
    let targets: Vec<_> = all_targets
        .iter()
        .copied()
        .filter(|(n, _, _)| only.as_ref().is_none_or(|o| o.iter().any(|t| t == n)))
        .collect();
    assert!(!targets.is_empty(), "DISKDOC_FUZZ_TARGETS names no target");
    let began = Instant::now();
    let mut failures = Vec::new();
    let regressions = regressions();
    // The corpus is committed; an empty one means the directory moved and nothing is replayed.
    assert!(
        !regressions.is_empty(),
        "tests/fixtures/fuzz-regressions/ is empty or missing: the inputs that once panicked are not replayed"
    );
    eprintln!(
        "fuzz: replaying {} inputs that once failed",
        regressions.len()
    );
    for (target, input) in regressions {
        let Some((_, _, run)) = all_targets.iter().find(|(n, _, _)| *n == target) else {
            failures.push(format!("regression file for unknown target {target}"));
            continue;
        };
        if let Some(msg) = attempt(*run, &input) {
            failures.push(format!("{target}: regression input panics again: {msg}"));
        }
    }

    let stop = stop_for(targets.len());
    let jobs: Vec<(&'static str, Corpus, Run, u64)> = seeds
        .iter()
        .flat_map(|&seed| targets.iter().map(move |&(n, c, r)| (n, c, r, seed)))
        .collect();
    let queue = Mutex::new(jobs);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|sc| {
        for _ in 0..workers() {
            sc.spawn(|| {
                loop {
                    let Some((name, corpus, run, seed)) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let c = &corpora[&(corpus as u8)];
                    let tally = fuzz_one(name, c, run, stop, seed, corpus != Corpus::Sectors);
                    results.lock().unwrap().push((name, tally));
                }
            });
        }
    });
    drop(std::panic::take_hook());
    std::panic::set_hook(Box::new(move |info| prev(info)));

    let results = results.into_inner().unwrap();
    let mut per_target: BTreeMap<&str, u64> = BTreeMap::new();
    let mut total_runs = 0;
    for (name, t) in &results {
        *per_target.entry(name).or_default() += t.runs;
        total_runs += t.runs;
        failures.extend(t.failures.iter().cloned());
    }
    for (name, runs) in &per_target {
        eprintln!("fuzz: {name:<22} {runs:>9} inputs");
    }
    eprintln!(
        "fuzz: {total_runs} inputs over {} targets in {:.1} s, {} failures",
        per_target.len(),
        began.elapsed().as_secs_f64(),
        failures.len()
    );
    assert_eq!(results.len(), targets.len() * seeds.len());
    assert!(
        results.iter().all(|(_, t)| t.runs > 0),
        "a target ran no input at all"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The mutator itself can fail: it must change inputs, and reach the edge numbers.
#[test]
fn the_mutator_changes_inputs_and_reaches_edge_numbers() {
    let mut rng = Rng(7);
    let seed = b"Sector size: 512 bytes\nCapacity: 1000204886016 bytes\n".to_vec();
    let mut changed = 0;
    let mut edge = false;
    for _ in 0..2000 {
        let m = mutate(&mut rng, &seed, b"other", true);
        changed += usize::from(m != seed);
        edge |= String::from_utf8_lossy(&m).contains("18446744073709551616");
    }
    assert!(changed > 1800, "{changed}");
    assert!(edge);
    assert!(mutate(&mut rng, &[], &[], false).len() <= 64);
}
