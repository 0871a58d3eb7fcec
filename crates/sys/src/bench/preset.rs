//! Presets users know: `cdm`, the four tests of CrystalDiskMark (and KDiskMark, which runs
//! them through fio) read and write, named as users quote them; `quick` and `default`, the
//! tests diskdoc ran before presets. Plus the fio equivalent of every job, as a command line
//! and as a job file, so a result can be checked with the tool everyone trusts.
//!
//! CrystalDiskMark 8 defaults (its "Default" profile, crystalmark.info "CrystalDiskMark 8"
//! manual): SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1; a 1 GiB test file; 5 s per
//! test. "Q" is the queue depth per thread (fio's iodepth), "T" the threads (fio's numjobs).
//! fio option names are those of the fio HOWTO (fio.readthedocs.io, "Job file parameters").

use super::TestName;
use super::error::MeasureError;
use super::plan::{GIB, KIB, MIB};
use super::runner::{Job, Op, Pattern};

/// Which set of tests `diskdoc bench` runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Preset {
    /// The tests `--tests` names (default: the read tests), normal budgets.
    #[default]
    Default,
    /// The same with halved budgets (what `--quick` did).
    Quick,
    /// The four CrystalDiskMark tests, read then write.
    Cdm,
}

/// Parse `--preset`.
pub fn parse_preset(s: &str) -> Result<Preset, MeasureError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "default" => Ok(Preset::Default),
        "quick" => Ok(Preset::Quick),
        "cdm" | "crystaldiskmark" | "kdiskmark" => Ok(Preset::Cdm),
        other => Err(MeasureError::UnknownPreset(other.to_string())),
    }
}

/// One CrystalDiskMark test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CdmTest {
    /// As CrystalDiskMark prints it: "SEQ1M Q8T1".
    pub name: &'static str,
    pub pattern: Pattern,
    pub block_size: u64,
    pub queue_depth: u32,
    pub threads: u32,
}

/// The four tests of CrystalDiskMark's default profile, in its order.
pub const CDM_TESTS: [CdmTest; 4] = [
    CdmTest {
        name: "SEQ1M Q8T1",
        pattern: Pattern::Sequential,
        block_size: MIB,
        queue_depth: 8,
        threads: 1,
    },
    CdmTest {
        name: "SEQ1M Q1T1",
        pattern: Pattern::Sequential,
        block_size: MIB,
        queue_depth: 1,
        threads: 1,
    },
    CdmTest {
        name: "RND4K Q32T1",
        pattern: Pattern::Random,
        block_size: 4 * KIB,
        queue_depth: 32,
        threads: 1,
    },
    CdmTest {
        name: "RND4K Q1T1",
        pattern: Pattern::Random,
        block_size: 4 * KIB,
        queue_depth: 1,
        threads: 1,
    },
];

/// The name of a test at any queue depth and thread count, CrystalDiskMark style:
/// "RND4K Q32T1", "SEQ128K Q2T4".
pub fn cdm_name(pattern: Pattern, block_size: u64, qd: u32, threads: u32) -> String {
    let kind = match pattern {
        Pattern::Sequential => "SEQ",
        Pattern::Random => "RND",
    };
    let size = if block_size >= MIB && block_size.is_multiple_of(MIB) {
        format!("{}M", block_size / MIB)
    } else {
        format!("{}K", block_size / KIB)
    };
    format!("{kind}{size} Q{qd}T{threads}")
}

/// The result name of a cdm job: "cdm-read" or "cdm-write". Kept apart from "seq-read",
/// "rand-read" and "bs-sweep", which the measured checks compare against device classes
/// (a Q8 read is not the QD1 zone read those checks expect).
pub fn cdm_test_name(op: Op) -> TestName {
    match op {
        Op::Read => TestName::CdmRead,
        Op::Write => TestName::CdmWrite,
    }
}

/// CrystalDiskMark's default test size.
pub const CDM_FILE: u64 = GIB;
/// CrystalDiskMark's default measure time per test.
pub const CDM_SECS: f64 = 5.0;

/// Budget per cdm test: `--budget`, else CrystalDiskMark's 5 s; quick halves it.
pub fn cdm_budget_ns(budget_secs: Option<f64>, quick: bool) -> u64 {
    budget_or(budget_secs, CDM_SECS, quick)
}

/// `budget_secs` when it is a positive number, else `default_secs`; halved when quick. In ns.
pub fn budget_or(budget_secs: Option<f64>, default_secs: f64, quick: bool) -> u64 {
    let s = budget_secs
        .filter(|t| t.is_finite() && *t > 0.0)
        .unwrap_or(default_secs);
    let ns = (s * 1e9) as u64;
    if quick { ns / 2 } else { ns }
}

/// The four cdm jobs for `op` over `[start, start + len)`. `logical` is the target's logical
/// sector: 4 KiB random I/O is raised to it on 4Kn devices. Writes run their whole budget
/// (no early stop: a drive's write cache makes the first seconds look stable) and stop at
/// `write_cap` bytes.
pub fn cdm_jobs(
    op: Op,
    start: u64,
    len: u64,
    logical: u64,
    budget_ns: u64,
    write_cap: u64,
) -> Vec<Job> {
    CDM_TESTS
        .iter()
        .map(|t| {
            let bs = t.block_size.max(logical);
            let name = cdm_name(t.pattern, bs, t.queue_depth, t.threads);
            let mut j = Job::new(cdm_test_name(op), &name, op, t.pattern, bs as usize);
            j.queue_depth = t.queue_depth;
            j.threads = t.threads;
            j.region_start = start;
            j.region_len = (len / bs * bs).max(bs);
            j.budget_ns = budget_ns;
            j.min_ns = match op {
                Op::Read => budget_ns / 3,
                Op::Write => budget_ns,
            };
            j.interval_ns = (budget_ns / 15).clamp(20_000_000, 250_000_000);
            if t.pattern == Pattern::Random {
                j.stable_window = 6;
            }
            if op == Op::Write {
                j.max_bytes = Some(write_cap.max(bs));
            }
            // Offsets (and written data) drawn afresh for every test of every run, as fio's
            // randrepeat=0 does and the fio lines say: with Job's fixed seed, RND4K Q1T1
            // rewrote exactly the blocks RND4K Q32T1 had just written, in the same order, and
            // every run repeated the last one's.
            j.seed = fresh_seed();
            j
        })
        .collect()
}

/// A seed no two calls share: std's per-process random hasher keys (RandomState, seeded
/// from the OS) over a per-call counter. Not for cryptography, only for offsets and data.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(CALLS.fetch_add(1, Ordering::Relaxed));
    h.finish()
}

/// fio's ioengine for a job: psync at QD1 (one pread/pwrite per I/O, like diskdoc's QD1
/// loop), io_uring above (what diskdoc uses; fio's `fixedbufs` and `registerfiles` match the
/// registered buffers and file).
fn fio_engine(job: &Job) -> &'static str {
    if job.queue_depth > 1 {
        "io_uring"
    } else {
        "psync"
    }
}

fn fio_rw(job: &Job) -> &'static str {
    match (job.op, job.pattern) {
        (Op::Read, Pattern::Sequential) => "read",
        (Op::Read, Pattern::Random) => "randread",
        (Op::Write, Pattern::Sequential) => "write",
        (Op::Write, Pattern::Random) => "randwrite",
    }
}

/// The fio options that reproduce `job` on `filename`, as (name, value) pairs in job-file
/// order; a value of "" is a flag.
pub fn fio_options(job: &Job, filename: &str, direct: bool) -> Vec<(&'static str, String)> {
    let threads = job.threads.max(1);
    let mut o: Vec<(&'static str, String)> = vec![
        ("filename", filename.to_string()),
        ("rw", fio_rw(job).into()),
        ("bs", job.block_size.to_string()),
        ("ioengine", fio_engine(job).into()),
        ("iodepth", job.queue_depth.max(1).to_string()),
        ("numjobs", threads.to_string()),
        ("direct", if direct { "1" } else { "0" }.into()),
        ("offset", job.region_start.to_string()),
    ];
    if threads > 1 && job.pattern == Pattern::Sequential {
        // diskdoc gives each sequential thread its own slice (runner::run_parallel).
        let slice = job.region_len / threads as u64;
        o.push(("size", slice.to_string()));
        o.push(("offset_increment", slice.to_string()));
    } else {
        o.push(("size", job.region_len.to_string()));
    }
    if let Some(m) = job.max_bytes {
        o.push(("io_size", (m / threads as u64).to_string()));
    }
    if job.queue_depth > 1 {
        o.push(("fixedbufs", String::new()));
        o.push(("registerfiles", String::new()));
        if job.force_async {
            // diskdoc's queue went through io_uring's worker threads (engine/uring.rs):
            // force_async=1 flags every SQE IOSQE_ASYNC as diskdoc did (HOWTO, io_uring).
            o.push(("force_async", "1".into()));
            // ...and submitted and reaped them in batches (engine::worker_batch), which
            // fio's iodepth_batch_submit and iodepth_batch_complete_min do (HOWTO); 1 is
            // fio's default for both.
            let batch = super::engine::worker_batch(job.queue_depth);
            if batch > 1 {
                o.push(("iodepth_batch_submit", batch.to_string()));
                o.push(("iodepth_batch_complete_min", batch.to_string()));
            }
        }
    }
    if job.fsync_each {
        o.push(("fsync", "1".into()));
    }
    if job.fsync_at_end {
        o.push(("end_fsync", "1".into()));
    }
    if job.pattern == Pattern::Random {
        // diskdoc draws offsets independently (no random map), like these two options.
        o.push(("norandommap", String::new()));
        o.push(("randrepeat", "0".into()));
    }
    if let Some(mem) = fio_iomem(job) {
        // diskdoc reads into buffers backed by huge pages (engine::AlignedBuf::for_io): one
        // physically contiguous segment per request. fio's default `mem=malloc` gives 4 KiB
        // pages, up to 256 segments per 1 MiB request, which a virtio disk under a loop
        // device splits: measured 2.46x apart on a loop device with direct I/O, 1.17x on
        // zram. fio cannot ask for transparent huge pages; `mmaphuge` (MAP_HUGETLB,
        // HOWTO "iomem") is its physically contiguous equivalent and needs reserved
        // hugetlbfs pages, which [`fio_notes`] names.
        o.push(("iomem", mem.into()));
    }
    if job.op == Op::Write {
        // diskdoc fills each buffer with random data once and then stamps a fresh 8-byte
        // word into every 4 KiB block before each write: incompressible, and no two blocks
        // alike for dedup. fio fills its buffers with random data at start too (HOWTO
        // "buffer_compress_percentage": random unless told otherwise). Its
        // scramble_buffers (on by default) is not the same work: it writes the I/O offset
        // and one timestamp into every 512 bytes (io_u.c small_content_scramble), and on a
        // compressing device (zram with lzo-rle, raw or under ext4) that made fio's writes
        // 1.4-3.1x slower than with scramble_buffers=0, where diskdoc's stamp costs
        // nothing measurable. So the line turns it off: both tools then write random,
        // incompressible buffers. Not refill_buffers either: regenerating a whole 1 MiB
        // buffer per I/O made fio CPU-bound (SEQ1M Q8T1 on ext4 over a loop device: fio
        // 3.4-4.2 GB/s with it, diskdoc 9.8-10 GB/s in the same runs).
        o.push(("scramble_buffers", "0".into()));
        // diskdoc writes over a file it laid out with data first. Without overwrite, fio
        // lays out nothing for a write job (filesetup.c: "unless specifically asked for
        // overwrite, let normal io extend it"): a new file is only fallocated, and every
        // timed write into its unwritten extents pays ext4's extent conversion. Measured on
        // ext4 over a loop device: fio's SEQ1M Q8T1 then ran at 137 MB/s with a 60 ms p50.
        // On a block device fio lays nothing out either way.
        o.push(("overwrite", "1".into()));
    }
    // fio's time values are integers with an optional unit suffix (HOWTO "Time").
    let ms = job.budget_ns / 1_000_000;
    o.push((
        "runtime",
        if ms.is_multiple_of(1000) {
            format!("{}", ms / 1000)
        } else {
            format!("{ms}ms")
        },
    ));
    // time_based makes fio run the whole runtime and ignore io_size (fio's backend.c
    // keep_running() returns true for time_based before it looks at io_size; checked with
    // fio 3.33: --io_size=64M --runtime=2 wrote 4.8 GiB with --time_based, 64 MiB without).
    // A diskdoc job with a size cap stops at whichever of budget and cap comes first, which
    // is fio's rule without time_based; only an uncapped job that never stops early is
    // time_based.
    if job.min_ns >= job.budget_ns && job.max_bytes.is_none() {
        o.push(("time_based", String::new()));
    }
    if threads > 1 {
        o.push(("group_reporting", String::new()));
    }
    if job.scratch {
        // diskdoc's scratch file has no name and is gone when the test ends; fio's, named in
        // the same directory and created at `size`, is removed when its job ends (HOWTO
        // "unlink"), so running the line leaves nothing behind either.
        o.push(("unlink", "1".into()));
    }
    o
}

/// fio's buffer memory for `job`: `mmaphuge` where diskdoc's buffers are huge pages (reads
/// of [`super::engine::huge_read_buffer`] size, on Linux), else fio's default (None).
fn fio_iomem(job: &Job) -> Option<&'static str> {
    (job.op == Op::Read && super::engine::huge_read_buffer(job.block_size)).then_some("mmaphuge")
}

/// Huge pages fio's `--iomem=mmaphuge` allocates for `job`: per thread, iodepth buffers of
/// the block size plus one page of O_DIRECT alignment slack, rounded up to whole 2 MiB
/// pages (fio's init.c rounds orig_buffer_size up to hugepage-size).
pub fn fio_huge_pages(job: &Job) -> Option<u64> {
    fio_iomem(job)?;
    const PAGE: u64 = 2 << 20;
    let per_thread = (job.block_size as u64)
        .checked_mul(u64::from(job.queue_depth.max(1)))?
        .checked_add(4096)?;
    per_thread
        .div_ceil(PAGE)
        .checked_mul(u64::from(job.threads.max(1)))
}

/// A job's name for fio: the label with spaces replaced ("SEQ1M-Q8T1-read").
fn fio_name(job: &Job) -> String {
    let op = match job.op {
        Op::Read => "read",
        Op::Write => "write",
    };
    format!("{}-{op}", job.label.replace([' ', '=', '/'], "-"))
}

/// Quote a value for a POSIX shell when it needs it.
fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-=:,+@".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The fio command line equivalent to `job` on `filename`.
pub fn fio_command(job: &Job, filename: &str, direct: bool) -> String {
    let mut s = format!("fio --name={}", shell_word(&fio_name(job)));
    for (k, v) in fio_options(job, filename, direct) {
        if v.is_empty() {
            s.push_str(&format!(" --{k}"));
        } else {
            s.push_str(&format!(" --{k}={}", shell_word(&v)));
        }
    }
    s
}

/// A fio job file running `jobs` one after another (`stonewall`), each on its file.
pub fn fio_jobfile(jobs: &[(Job, String, bool)]) -> String {
    let mut s = String::from(
        "; fio job file written by diskdoc: the same tests, run with `fio FILE`.\n\
         ; Each section waits for the previous one (stonewall), as diskdoc runs them.\n\
         [global]\nstonewall\n",
    );
    for (job, file, direct) in jobs {
        s.push_str(&format!("\n[{}]\n", fio_name(job)));
        for (k, v) in fio_options(job, file, *direct) {
            if v.is_empty() {
                s.push_str(&format!("{k}\n"));
            } else {
                s.push_str(&format!("{k}={v}\n"));
            }
        }
    }
    s
}

/// The notes every result carries: "fio equivalent: fio --name=...", then what that line
/// needs to run as printed (reserved huge pages for `--iomem=mmaphuge`; fio fails with
/// "mmap: Cannot allocate memory" without them).
pub fn fio_notes(job: &Job, filename: &str, direct: bool) -> Vec<String> {
    let mut v = vec![format!(
        "fio equivalent: {}",
        fio_command(job, filename, direct)
    )];
    if let Some(n) = fio_huge_pages(job) {
        v.push(format!(
            "that fio line reads into huge pages as diskdoc does (--iomem=mmaphuge) and needs \
             {n} free hugetlbfs {} of 2 MiB (HugePages_Free in /proc/meminfo; as root: \
             sysctl vm.nr_hugepages={n}); diskdoc's own buffers use transparent huge pages, \
             which need no reservation",
            if n == 1 { "page" } else { "pages" }
        ));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_parse() {
        assert_eq!(parse_preset("cdm").ok(), Some(Preset::Cdm));
        assert_eq!(parse_preset(" Quick").ok(), Some(Preset::Quick));
        assert_eq!(parse_preset("default").ok(), Some(Preset::Default));
        assert_eq!(
            parse_preset("atto").map_err(|e| e.to_string()),
            Err(
                "unknown preset \"atto\"; use cdm (the CrystalDiskMark tests), quick or default"
                    .to_string()
            )
        );
    }

    #[test]
    fn cdm_jobs_are_the_four_tests_users_quote() {
        let js = cdm_jobs(Op::Write, 0, GIB, 512, 5_000_000_000, 4 * GIB);
        let names: Vec<&str> = js.iter().map(|j| j.label.as_str()).collect();
        assert_eq!(
            names,
            ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"]
        );
        assert!(js.iter().all(|j| j.test == TestName::CdmWrite));
        assert_eq!(js[0].queue_depth, 8);
        assert_eq!(js[2].block_size, 4096);
        assert_eq!(js[2].pattern, Pattern::Random);
        // Writes never stop early, reads may.
        assert!(js.iter().all(|j| j.min_ns == j.budget_ns));
        assert_eq!(js[0].max_bytes, Some(4 * GIB));
        // Every test draws its own offsets (fio's randrepeat=0), in every run.
        let again = cdm_jobs(Op::Write, 0, GIB, 512, 5_000_000_000, 4 * GIB);
        let mut seeds: Vec<u64> = js.iter().chain(&again).map(|j| j.seed).collect();
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), 8);
        let r = cdm_jobs(Op::Read, 0, GIB, 4096, 3_000_000_000, 0);
        assert!(
            r.iter()
                .all(|j| j.min_ns < j.budget_ns && j.max_bytes.is_none())
        );
        assert_eq!(r[0].test, TestName::CdmRead);
        // A 4Kn device: 4 KiB stays 4 KiB; an 8 KiB-sector device raises it.
        let big = cdm_jobs(Op::Read, 0, GIB, 8192, 1, 0);
        assert_eq!(big[3].label, "RND8K Q1T1");
        assert_eq!(
            cdm_name(Pattern::Sequential, 128 * KIB, 2, 4),
            "SEQ128K Q2T4"
        );
    }

    #[test]
    fn cdm_budgets() {
        assert_eq!(cdm_budget_ns(None, false), 5_000_000_000);
        assert_eq!(cdm_budget_ns(None, true), 2_500_000_000);
        assert_eq!(cdm_budget_ns(Some(2.0), false), 2_000_000_000);
        assert_eq!(cdm_budget_ns(Some(-1.0), false), 5_000_000_000);
    }

    #[test]
    fn fio_command_matches_the_job() {
        let js = cdm_jobs(Op::Write, 0, GIB, 512, 5_000_000_000, 2 * GIB);
        let c = fio_command(&js[2], "/mnt/x/.diskdoc scratch", true);
        assert!(c.starts_with("fio --name=RND4K-Q32T1-write "), "{c}");
        for want in [
            "--filename='/mnt/x/.diskdoc scratch'",
            "--rw=randwrite",
            "--bs=4096",
            "--ioengine=io_uring",
            "--iodepth=32",
            "--numjobs=1",
            "--direct=1",
            "--size=1073741824",
            "--io_size=2147483648",
            "--fixedbufs",
            "--norandommap",
            "--scramble_buffers=0",
            "--runtime=5",
            "--overwrite=1",
        ] {
            assert!(c.contains(want), "{want} missing in {c}");
        }
        // Capped writes stop at io_size or runtime, whichever comes first: fio does that only
        // without time_based.
        assert!(!c.contains("time_based"), "{c}");
        let mut uncapped = js[2].clone();
        uncapped.max_bytes = None;
        assert!(fio_command(&uncapped, "/f", true).ends_with(" --time_based"));
        let q1 = fio_command(&js[1], "/dev/sdb", false);
        assert!(
            q1.contains("--ioengine=psync") && q1.contains("--direct=0"),
            "{q1}"
        );
        assert!(!q1.contains("fixedbufs"), "{q1}");
        let mut t4 = js[0].clone();
        t4.threads = 4;
        let c4 = fio_command(&t4, "/f", true);
        assert!(c4.contains("--numjobs=4") && c4.contains("--offset_increment=268435456"));
        assert!(c4.contains("--group_reporting"), "{c4}");
        // force_async=1 only for a queue that went through io_uring's worker threads.
        assert!(!c.contains("force_async"), "{c}");
        let mut pooled = js[2].clone();
        pooled.force_async = true;
        let cp = fio_command(&pooled, "/f", true);
        assert!(cp.contains(" --registerfiles --force_async=1 "), "{cp}");
        // ...submitted and reaped in batches of a quarter of the queue, as diskdoc did.
        assert!(
            cp.contains(" --iodepth_batch_submit=8 --iodepth_batch_complete_min=8 "),
            "{cp}"
        );
        assert!(!c.contains("iodepth_batch"), "{c}");
        // A queue of 4 or less goes one at a time: fio's default, so nothing is said.
        let mut shallow = pooled.clone();
        shallow.queue_depth = 4;
        let cs = fio_command(&shallow, "/f", true);
        assert!(
            cs.contains("--force_async=1") && !cs.contains("iodepth_batch"),
            "{cs}"
        );
    }

    #[test]
    fn fio_lines_read_into_huge_pages_where_diskdoc_does() {
        let reads = cdm_jobs(Op::Read, 0, GIB, 512, 5_000_000_000, 0);
        let huge = cfg!(target_os = "linux");
        // 1 MiB reads: diskdoc's buffers are huge pages (on Linux), so fio's are too.
        let seq8 = fio_command(&reads[0], "/dev/zram1", true);
        assert_eq!(seq8.contains("--iomem=mmaphuge"), huge, "{seq8}");
        // 4 KiB reads and every write use ordinary pages on both sides.
        let rnd = fio_command(&reads[2], "/dev/zram1", true);
        assert!(!rnd.contains("iomem"), "{rnd}");
        let writes = cdm_jobs(Op::Write, 0, GIB, 512, 5_000_000_000, GIB);
        let w = fio_command(&writes[0], "/dev/zram1", true);
        assert!(
            !w.contains("iomem") && w.contains("--scramble_buffers=0"),
            "{w}"
        );
        if huge {
            // QD8: 8 MiB + one page of slack = 5 pages of 2 MiB; QD1: 1 page.
            assert_eq!(fio_huge_pages(&reads[0]), Some(5));
            assert_eq!(fio_huge_pages(&reads[1]), Some(1));
            let notes = fio_notes(&reads[0], "/dev/zram1", true);
            assert_eq!(notes.len(), 2, "{notes:?}");
            assert!(notes[1].contains("sysctl vm.nr_hugepages=5"), "{notes:?}");
        }
        assert_eq!(fio_huge_pages(&reads[2]), None);
        assert_eq!(fio_huge_pages(&writes[0]), None);
        assert_eq!(fio_notes(&writes[0], "/f", true).len(), 1);
        // A scratch file fio creates is removed by fio too; a device never is.
        assert!(!w.contains("unlink"), "{w}");
        let mut scratch = writes[0].clone();
        scratch.scratch = true;
        assert!(fio_command(&scratch, "/mnt/diskdoc-cdm.fio", true).ends_with(" --unlink=1"));
    }

    #[test]
    fn fio_lines_run_for_as_long_as_diskdoc_ran() {
        use super::super::{BenchResult, StopReason};
        let ran = |reason: StopReason, elapsed_ns: u64| BenchResult {
            stop_reason: reason,
            elapsed_ns,
            ..BenchResult::default()
        };
        // A zone read that stopped once its rate was known, 361.2 ms into a 1 s budget:
        // fio loops over the same region for the same 362 ms (without time_based it would
        // stop after one pass of the region).
        let mut zone = Job::new(
            TestName::SeqRead,
            "outer",
            Op::Read,
            Pattern::Sequential,
            MIB as usize,
        );
        zone.region_len = 227 * MIB;
        zone.budget_ns = 1_000_000_000;
        zone.min_ns = 330_000_000;
        let stable = zone
            .clone()
            .after_run(&ran(StopReason::Stable, 361_234_567));
        let c = fio_command(&stable, "/dev/zram1", true);
        assert!(c.ends_with(" --runtime=362ms --time_based"), "{c}");
        // Its budget spent: the whole budget, time_based too.
        let spent = zone
            .clone()
            .after_run(&ran(StopReason::Budget, 1_000_400_000));
        let c = fio_command(&spent, "/dev/zram1", true);
        assert!(c.ends_with(" --runtime=1 --time_based"), "{c}");
        // A random read the same: fio with norandommap ends after `size` bytes otherwise.
        let mut rand = zone.clone();
        rand.pattern = Pattern::Random;
        let c = fio_command(
            &rand.after_run(&ran(StopReason::Stable, 400_000_001)),
            "/dev/zram1",
            true,
        );
        assert!(c.ends_with(" --runtime=401ms --time_based"), "{c}");
        // A capped read (the buffered sweep step reads each byte once) keeps its cap: fio
        // stops at io_size or runtime, never time_based, which would ignore io_size.
        let mut capped = zone.clone();
        capped.max_bytes = Some(256 * MIB);
        let c = fio_command(
            &capped
                .clone()
                .after_run(&ran(StopReason::Stable, 200_000_000)),
            "/dev/zram1",
            false,
        );
        assert!(
            c.contains("--io_size=268435456") && c.ends_with(" --runtime=200ms"),
            "{c}"
        );
        let c = fio_command(
            &capped.after_run(&ran(StopReason::Size, 80_000_000)),
            "/dev/zram1",
            false,
        );
        assert!(c.ends_with(" --runtime=1"), "{c}");
        // Ended by an error or Ctrl-C: the line is the job as planned.
        for reason in [StopReason::Error, StopReason::Interrupted] {
            let c = fio_command(&zone.clone().after_run(&ran(reason, 5_000_000)), "/d", true);
            assert!(c.ends_with(" --runtime=1"), "{c}");
        }
    }

    #[test]
    fn fio_jobfile_has_one_section_per_job() {
        let js = cdm_jobs(Op::Read, 0, GIB, 512, 5_000_000_000, 0);
        let entries: Vec<(Job, String, bool)> = js
            .into_iter()
            .map(|j| (j, "/dev/sdb".to_string(), true))
            .collect();
        let f = fio_jobfile(&entries);
        assert_eq!(f.matches("\n[").count(), 5, "{f}");
        assert!(
            f.contains("[SEQ1M-Q8T1-read]\nfilename=/dev/sdb\nrw=read\n"),
            "{f}"
        );
        assert!(f.contains("stonewall"));
        assert!(!f.contains("time_based"), "reads may stop early: {f}");
    }
}
