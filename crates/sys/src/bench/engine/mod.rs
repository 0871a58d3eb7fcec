//! I/O engines for the tests, shaped like fio's ioengine ops (open, queue/read/write, sync,
//! close): a direct-I/O engine over pread/pwrite (with io_uring for queue depths above one
//! where the kernel offers it) and a deterministic fake engine for unit tests.
//!
//! References: open(2) O_DIRECT alignment rules ("the length and address of the user-space
//! buffers and the file offset must all be multiples of the logical block size"), fcntl(2)
//! F_SETFL (Linux lets O_DIRECT be toggled on an open descriptor), pread(2), io_uring(7).

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// io_uring submission for queue depths above 1 (Linux); private to the direct engine, whose
/// buffers it borrows for as long as I/O is in flight.
#[cfg(target_os = "linux")]
mod uring;

/// Huge-page read buffers as mappings of their own (Linux; why not the heap: its docs).
#[cfg(target_os = "linux")]
mod mapped;

/// How to open a target.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenHow {
    pub write: bool,
    /// Create a new file: O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600. Fails if anything exists there.
    pub create_new: bool,
    /// Ask for O_DIRECT; the engine reports whether it got it.
    pub direct: bool,
    /// Open a block device exclusively (Linux: O_EXCL without O_CREAT fails with EBUSY while
    /// the device is mounted or held by dm/md; open(2)).
    pub exclusive: bool,
}

/// What the engine got when it opened a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenInfo {
    /// O_DIRECT is in effect (the filesystem or device accepted it).
    pub direct: bool,
    /// Size in bytes (device size; current length for a file).
    pub size: u64,
}

/// One finished queued I/O: the slot it used and the byte count or the errno.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Completion {
    pub slot: usize,
    pub result: Result<usize, i32>,
}

/// The operations a test needs from an engine. Buffers live in the engine ("slots") so the
/// hot loop never allocates.
pub trait Engine {
    fn name(&self) -> &'static str;
    fn open(&mut self, path: &Path, how: OpenHow) -> io::Result<OpenInfo>;
    /// Take a target that is already open (the raw-device test opens, checks and confirms
    /// one descriptor and writes through that same one; nothing is re-resolved by path).
    fn open_file(&mut self, _file: File, _how: OpenHow) -> io::Result<OpenInfo> {
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }
    /// Allocate `slots` buffers of `bytes` each, aligned for O_DIRECT, for the I/O `to` says
    /// (reads may use huge pages, writes never do: [`AlignedBuf::for_io_paged`]).
    fn setup_buffers(&mut self, slots: usize, bytes: usize, to: BufferUse) -> io::Result<()>;
    /// A slot's buffer (to fill before a write). Empty if the slot does not exist.
    fn buffer_mut(&mut self, slot: usize) -> &mut [u8];
    /// Positional read of `len` bytes into `slot` at `offset`; returns bytes read (0 at end).
    fn read_at(&mut self, slot: usize, len: usize, offset: u64) -> io::Result<usize>;
    fn write_at(&mut self, slot: usize, len: usize, offset: u64) -> io::Result<usize>;
    /// fsync(2): data and metadata on stable storage.
    fn sync(&mut self) -> io::Result<()>;
    /// Drop cached pages of a range (posix_fadvise DONTNEED) so a buffered read is cold.
    fn drop_cache(&mut self, offset: u64, len: u64) -> io::Result<()>;
    /// Monotonic time in ns; the fake engine returns its virtual clock.
    fn now_ns(&mut self) -> u64;
    /// Deepest queue the engine can keep in flight itself (1: synchronous only).
    fn max_queue_depth(&self) -> u32 {
        1
    }
    /// Queue a read (queue depth > 1); `flush_and_reap` submits it.
    fn queue_read(&mut self, _slot: usize, _len: usize, _offset: u64) -> io::Result<()> {
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }
    /// Queue a write of the slot's buffer (queue depth > 1); `flush_and_reap` submits it.
    fn queue_write(&mut self, _slot: usize, _len: usize, _offset: u64) -> io::Result<()> {
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }
    /// Reserve `len` bytes of a file target before it is written (posix_fallocate(3)), so
    /// random writes overwrite allocated blocks as in fio's laid-out files. Advisory.
    fn preallocate(&mut self, _len: u64) -> io::Result<()> {
        Ok(())
    }
    /// Submit what is queued and wait for at least `min` completions.
    fn flush_and_reap(&mut self, _min: usize, _out: &mut Vec<Completion>) -> io::Result<()> {
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }
    /// Whether queued I/O goes through io_uring's worker threads (IOSQE_ASYNC; uring::Ring).
    fn worker_threads(&self) -> bool {
        false
    }
    /// Hand queued I/O to io_uring's worker threads (IOSQE_ASYNC) or not, from the next
    /// submission on; false if this engine has no such choice.
    fn set_worker_threads(&mut self, _on: bool) -> bool {
        false
    }
    /// A second engine on the same open target, for one-thread-per-slot queueing.
    fn try_clone_engine(&self) -> Option<Box<dyn Engine + Send>> {
        None
    }
    fn close(&mut self);
}

/// What a job's buffers are for. Decided per job, not per descriptor: the cdm preset reads
/// and writes one scratch file through one read-write descriptor, and its reads need the same
/// huge-page buffers as a read of a device opened read-only (a 1 MiB read from 4 KiB pages is
/// 256 segments; a loop device takes at most 128 of 64 KiB per request, queue/max_segments
/// and max_segment_size, so it arrived there as two 512 KiB requests: /sys/block/loopN/stat).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufferUse {
    Reads,
    Writes,
}

/// A buffer whose used part starts on an `align` boundary: on the heap (over-allocate by
/// `align` and start at the first aligned byte), or, for huge-page read buffers on Linux, in
/// a mapping of its own ([`mapped`]).
#[derive(Debug, Default)]
pub struct AlignedBuf {
    raw: Vec<u8>,
    #[cfg(target_os = "linux")]
    map: Option<mapped::Mapping>,
    start: usize,
    len: usize,
}

impl AlignedBuf {
    pub fn new(len: usize, align: usize) -> AlignedBuf {
        let align = align.max(1);
        let raw = vec![0u8; len + align];
        let addr = raw.as_ptr() as usize;
        let start = (align - addr % align) % align;
        AlignedBuf {
            raw,
            #[cfg(target_os = "linux")]
            map: None,
            start,
            len,
        }
    }
    /// A buffer for direct I/O of `len` bytes. From HUGE_MIN up it starts on a 2 MiB boundary
    /// and asks for transparent huge pages (madvise(2) MADV_HUGEPAGE; the default THP mode on
    /// Debian is "madvise"), so a 1 MiB read is one physically contiguous DMA segment. In 4 KiB
    /// pages the same read is up to 256 segments: more than a virtio disk's max_segments (254
    /// here), so the block layer splits it, and the host walks one iovec per page. Measured on
    /// this machine's virtio disk (/sys/block/vda/stat deltas): fio's 1 MiB requests from a
    /// physically contiguous buffer were served in ~0.55 ms, from scattered pages in ~0.9 ms.
    /// Without THP (another mode, no memory) the buffer is still correct, only scattered.
    pub fn for_io(len: usize) -> AlignedBuf {
        AlignedBuf::for_io_paged(len, true)
    }
    /// [`AlignedBuf::for_io`] with huge pages only when `huge`: write buffers use ordinary
    /// 4 KiB pages, like fio's default `--mem=malloc`. On a
    /// layer that copies writes into a page cache below (a loop device over a file, a VM
    /// disk image cached by its host) a 1 MiB write from one physically contiguous buffer
    /// arrives as one multi-page segment, and (our reading of it; perf put the loop
    /// workers' time in ext4_block_write_begin) that cache then holds the region in large
    /// folios, into which every later 4 KiB write costs more. Measured with the cdm preset on ext4 on a loop device (THP "madvise" vs "never",
    /// back to back): RND4K Q32T1 26.2k vs 44.4k IOPS and Q1T1 17.7k vs 29.3k after the
    /// sequential tests had written through huge-page buffers, so one test changed the next
    /// one's conditions; with paged write buffers the random writes match fio's.
    ///
    /// On Linux a huge one is a mapping of its own, advised and faulted in before the test
    /// ([`mapped`]: from the heap it was in 4 KiB pages whenever malloc reused a block).
    pub fn for_io_paged(len: usize, huge: bool) -> AlignedBuf {
        if len < HUGE_MIN || !huge {
            return AlignedBuf::new(len, BUF_ALIGN);
        }
        #[cfg(target_os = "linux")]
        if let Ok(m) = mapped::Mapping::huge(len, HUGE_PAGE) {
            return AlignedBuf {
                map: Some(m),
                len,
                ..AlignedBuf::default()
            };
        }
        let span = len.div_ceil(HUGE_PAGE) * HUGE_PAGE;
        let mut b = AlignedBuf::new(span, HUGE_PAGE);
        advise_huge(b.as_mut_slice());
        b.len = len;
        b
    }
    /// The whole storage the used part lies in.
    fn storage(&self) -> &[u8] {
        #[cfg(target_os = "linux")]
        if let Some(m) = &self.map {
            return m.as_slice();
        }
        &self.raw
    }
    pub fn as_slice(&self) -> &[u8] {
        self.storage()
            .get(self.start..self.start + self.len)
            .unwrap_or(&[])
    }
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        let (s, l) = (self.start, self.len);
        #[cfg(target_os = "linux")]
        if let Some(m) = &mut self.map {
            return m.as_mut_slice().get_mut(s..s + l).unwrap_or(&mut []);
        }
        self.raw.get_mut(s..s + l).unwrap_or(&mut [])
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Transparent huge page size on x86_64 (and the 4 KiB-granule arm64 kernels).
const HUGE_PAGE: usize = 2 << 20;
/// Buffers from this size up get huge pages: a 256 KiB read in 4 KiB pages is 64 segments,
/// where splitting starts to matter; smaller ones would waste most of a 2 MiB page.
const HUGE_MIN: usize = 256 << 10;

/// Whether a read buffer of `len` bytes is backed by huge pages ([`AlignedBuf::for_io`];
/// write buffers never are): on Linux, from [`HUGE_MIN`] up. Elsewhere `advise_huge` does
/// nothing and every buffer is in ordinary pages. The fio equivalent of a test says the same.
pub fn huge_read_buffer(len: usize) -> bool {
    cfg!(target_os = "linux") && len >= HUGE_MIN
}

/// Advise the kernel to back `buf` with transparent huge pages. Advisory: failure (no THP in
/// this kernel, EINVAL) changes nothing but speed.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge(buf: &mut [u8]) {
    // SAFETY: madvise(MADV_HUGEPAGE) only sets a flag on the mappings that cover the range; it
    // neither reads nor writes the memory, nor changes its validity, and the range lies inside
    // a live allocation we own (madvise(2)).
    let _ = unsafe { libc::madvise(buf.as_mut_ptr().cast(), buf.len(), libc::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_buf: &mut [u8]) {}

/// How many I/Os a queue of `depth` hands to io_uring's worker threads per submission call
/// (at most; a reap submits what is queued), and how many completions it waits for per
/// reap, when it goes through those workers
/// (IOSQE_ASYNC; [`Engine::set_worker_threads`]): a quarter of the depth, at least one.
///
/// Why batch there and only there: a request flagged IOSQE_ASYNC is never tried in the
/// submitting call, so submitting it at once gains nothing; it only costs one
/// io_uring_enter(2) per I/O and, as the submitter then waits for a single completion, one
/// wake-up of the submitting thread per I/O, on the CPUs the workers copy on (zram: the
/// whole cost of an I/O is CPU). With a ring that defers completion work to the submitter
/// (IORING_SETUP_DEFER_TASKRUN), waiting for `n` completions wakes it once per `n`
/// (io_uring_enter(2), min_complete). A quarter keeps three quarters of the queue in flight
/// while the submitter refills: at RND4K Q32T1 on zram, batches of 8 (and 16) gave the most
/// IOPS and the fewest context switches per I/O (docs/benchmarks-vs-fio.md). fio's
/// `iodepth_batch_submit` and `iodepth_batch_complete_min` do the same, so the fio equivalent
/// of such a queue names this number. Devices the submitting call serves itself (a loop
/// device's worker, dm, NVMe) keep eager submission: there a batch delays the start of I/O
/// the device could already be doing (docs/benchmarks-vs-fio.md, "batched submission").
pub fn worker_batch(depth: u32) -> u32 {
    (depth / 4).max(1)
}

/// Alignment for O_DIRECT buffers: 4096 covers every logical and physical sector size in
/// use (512, 4096) and the page size that io_uring's fixed buffers like.
pub const BUF_ALIGN: usize = 4096;

/// The real engine: pread/pwrite on an O_DIRECT descriptor, io_uring for deeper queues.
pub struct DirectEngine {
    // Field order is drop order: the ring (which drains in-flight I/O) goes before the
    // buffers the kernel may still be writing into.
    #[cfg(target_os = "linux")]
    uring: Option<uring::Ring>,
    file: Option<File>,
    bufs: Vec<AlignedBuf>,
    epoch: super::tsc::Clock,
    /// Whether queue depths above 1 may use io_uring (copied into clones). Elsewhere there
    /// is no io_uring and a deeper queue always runs one thread per slot.
    use_uring: bool,
    /// Whether `bufs` were allocated with huge pages allowed (for reads; see
    /// [`AlignedBuf::for_io_paged`] for why write buffers are not).
    bufs_huge: bool,
}

impl Default for DirectEngine {
    fn default() -> Self {
        DirectEngine::new()
    }
}

impl DirectEngine {
    pub fn new() -> DirectEngine {
        DirectEngine {
            file: None,
            bufs: Vec::new(),
            epoch: super::tsc::Clock::start(),
            use_uring: true,
            bufs_huge: true,
            #[cfg(target_os = "linux")]
            uring: None,
        }
    }
    /// Never use io_uring (queue depth > 1 then runs one thread per slot).
    pub fn without_uring() -> DirectEngine {
        DirectEngine {
            use_uring: false,
            ..DirectEngine::new()
        }
    }
    fn file(&self) -> io::Result<&File> {
        self.file
            .as_ref()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotConnected, "target is not open"))
    }
    fn slot(&mut self, slot: usize, len: usize) -> io::Result<&mut [u8]> {
        self.bufs
            .get_mut(slot)
            .and_then(|b| b.as_mut_slice().get_mut(..len))
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no such buffer slot"))
    }
}

/// Turn O_DIRECT on for an open descriptor (fcntl(2) F_SETFL). EINVAL means the filesystem
/// does not support it (tmpfs before Linux 6.6, some FUSE filesystems).
fn set_direct(file: &File) -> io::Result<()> {
    use nix::fcntl::{FcntlArg, OFlag, fcntl};
    let flags = fcntl(file, FcntlArg::F_GETFL).map_err(io::Error::from)?;
    let flags = OFlag::from_bits_truncate(flags) | OFlag::O_DIRECT;
    fcntl(file, FcntlArg::F_SETFL(flags)).map_err(io::Error::from)?;
    Ok(())
}

fn target_size(file: &File) -> io::Result<u64> {
    use std::io::{Seek, SeekFrom};
    // lseek(SEEK_END) gives a block device's size on Linux and FreeBSD and a file's length,
    // without an ioctl.
    let mut f = file;
    let end = f.seek(SeekFrom::End(0))?;
    f.seek(SeekFrom::Start(0))?;
    Ok(end)
}

impl Engine for DirectEngine {
    fn name(&self) -> &'static str {
        "direct"
    }

    fn open(&mut self, path: &Path, how: OpenHow) -> io::Result<OpenInfo> {
        use std::os::unix::fs::OpenOptionsExt;
        let mut oo = std::fs::OpenOptions::new();
        oo.read(true).write(how.write);
        if how.create_new {
            // create_new = O_CREAT|O_EXCL; O_NOFOLLOW so a planted symlink is not followed.
            oo.create_new(true)
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW);
        } else if how.exclusive {
            // O_EXCL without O_CREAT on a block device: EBUSY while it is mounted or held
            // (open(2), Linux 2.6+). The raw-device test opens through bench::rawdev instead.
            oo.custom_flags(libc::O_EXCL);
        }
        let file = oo.open(path)?;
        self.open_file(file, how)
    }

    fn open_file(&mut self, file: File, how: OpenHow) -> io::Result<OpenInfo> {
        let direct = how.direct && set_direct(&file).is_ok();
        let size = target_size(&file)?;
        self.file = Some(file);
        self.epoch = super::tsc::Clock::start();
        Ok(OpenInfo { direct, size })
    }

    fn setup_buffers(&mut self, slots: usize, bytes: usize, to: BufferUse) -> io::Result<()> {
        #[cfg(target_os = "linux")]
        {
            // Drain and drop the ring before the buffers it points into change.
            self.uring = None;
        }
        let huge = to == BufferUse::Reads;
        if self.bufs.len() != slots
            || self.bufs.first().map(|b| b.len()) != Some(bytes)
            || self.bufs_huge != huge
        {
            self.bufs_huge = huge;
            self.bufs = (0..slots)
                .map(|_| AlignedBuf::for_io_paged(bytes, huge))
                .collect();
        }
        #[cfg(target_os = "linux")]
        {
            if slots > 1
                && self.use_uring
                && let Some(f) = &self.file
            {
                let bufs: Vec<(*mut u8, usize)> = self
                    .bufs
                    .iter_mut()
                    .map(|b| {
                        let s = b.as_mut_slice();
                        (s.as_mut_ptr(), s.len())
                    })
                    .collect();
                self.uring = uring::Ring::new(f, slots as u32, &bufs).ok();
            }
        }
        Ok(())
    }

    fn buffer_mut(&mut self, slot: usize) -> &mut [u8] {
        match self.bufs.get_mut(slot) {
            Some(b) => b.as_mut_slice(),
            None => &mut [],
        }
    }

    #[inline]
    fn read_at(&mut self, slot: usize, len: usize, offset: u64) -> io::Result<usize> {
        let file = self
            .file
            .as_ref()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotConnected, "target is not open"))?;
        let buf = self
            .bufs
            .get_mut(slot)
            .and_then(|b| b.as_mut_slice().get_mut(..len))
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no such buffer slot"))?;
        file.read_at(buf, offset)
    }

    #[inline]
    fn write_at(&mut self, slot: usize, len: usize, offset: u64) -> io::Result<usize> {
        self.slot(slot, len)?;
        let file = self.file()?;
        let buf = self
            .bufs
            .get(slot)
            .and_then(|b| b.as_slice().get(..len))
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no such buffer slot"))?;
        file.write_at(buf, offset)
    }

    fn sync(&mut self) -> io::Result<()> {
        self.file()?.sync_all()
    }

    fn drop_cache(&mut self, offset: u64, len: u64) -> io::Result<()> {
        #[cfg(any(target_os = "linux", target_os = "freebsd"))]
        {
            use nix::fcntl::{PosixFadviseAdvice, posix_fadvise};
            let f = self.file()?;
            posix_fadvise(
                f,
                offset as libc::off_t,
                len as libc::off_t,
                PosixFadviseAdvice::POSIX_FADV_DONTNEED,
            )
            .map_err(io::Error::from)?;
        }
        let _ = (offset, len);
        Ok(())
    }

    #[inline]
    fn now_ns(&mut self) -> u64 {
        self.epoch.now_ns()
    }

    fn max_queue_depth(&self) -> u32 {
        #[cfg(target_os = "linux")]
        if let Some(r) = &self.uring {
            return r.depth();
        }
        1
    }

    fn queue_read(&mut self, slot: usize, len: usize, offset: u64) -> io::Result<()> {
        #[cfg(target_os = "linux")]
        if let (Some(r), Some(b)) = (self.uring.as_mut(), self.bufs.get_mut(slot)) {
            let buf = b.as_mut_slice().get_mut(..len).ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidInput, "length beyond buffer")
            })?;
            return r.queue_read(slot, buf, offset);
        }
        let _ = (slot, len, offset);
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }

    fn queue_write(&mut self, slot: usize, len: usize, offset: u64) -> io::Result<()> {
        #[cfg(target_os = "linux")]
        if let (Some(r), Some(b)) = (self.uring.as_mut(), self.bufs.get(slot)) {
            let buf = b.as_slice().get(..len).ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidInput, "length beyond buffer")
            })?;
            return r.queue_write(slot, buf, offset);
        }
        let _ = (slot, len, offset);
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }

    fn preallocate(&mut self, len: u64) -> io::Result<()> {
        #[cfg(any(target_os = "linux", target_os = "freebsd"))]
        {
            // posix_fallocate(3); EINVAL/EOPNOTSUPP on filesystems without it (ZFS, tmpfs on
            // old kernels): the writes then allocate as they go, which is only slower.
            let f = self.file()?;
            nix::fcntl::posix_fallocate(f, 0, len as libc::off_t).map_err(io::Error::from)?;
        }
        let _ = len;
        Ok(())
    }

    fn flush_and_reap(&mut self, min: usize, out: &mut Vec<Completion>) -> io::Result<()> {
        #[cfg(target_os = "linux")]
        if let Some(r) = self.uring.as_mut() {
            return r.submit_and_reap(min, out);
        }
        let _ = (min, out);
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }

    fn worker_threads(&self) -> bool {
        #[cfg(target_os = "linux")]
        if let Some(r) = &self.uring {
            return r.worker_threads();
        }
        false
    }

    fn set_worker_threads(&mut self, on: bool) -> bool {
        #[cfg(target_os = "linux")]
        if let Some(r) = self.uring.as_mut() {
            // A submission that fails here leaves the requests queued and the mode as it
            // was; the next flush_and_reap submits them again and reports the error.
            let _ = r.set_worker_threads(on);
            return true;
        }
        let _ = on;
        false
    }

    fn try_clone_engine(&self) -> Option<Box<dyn Engine + Send>> {
        let f = self.file.as_ref()?.try_clone().ok()?;
        Some(Box::new(DirectEngine {
            file: Some(f),
            bufs: Vec::new(),
            epoch: self.epoch,
            // A clone with one slot never builds a ring (setup_buffers needs slots > 1); a
            // thread of a T>1 job with QD>1 gets its own ring like one of fio's numjobs.
            use_uring: self.use_uring,
            bufs_huge: self.bufs_huge,
            #[cfg(target_os = "linux")]
            uring: None,
        }))
    }

    fn close(&mut self) {
        #[cfg(target_os = "linux")]
        {
            self.uring = None;
        }
        self.file = None;
    }
}

/// A deterministic engine for unit tests: a virtual clock, a latency model
/// (`base_ns + bytes * ns_per_byte`, scaled down by up to `parallel` queued I/Os), optional
/// periodic slow I/Os, and injected faults.
#[derive(Debug, Clone)]
pub struct FakeEngine {
    pub size: u64,
    pub base_ns: u64,
    pub ns_per_byte: f64,
    /// How many queued I/Os the fake device serves at once.
    pub parallel: u32,
    /// With worker threads on (set_worker_threads), queued I/Os take 1/this of their time
    /// (a device that does its work in the submitting call, served by several workers);
    /// 0: the fake offers no such choice.
    pub workers_speedup: f64,
    pub workers: bool,
    /// About one I/O in `slow_every` (chosen by a hash of the I/O count) takes `slow_ns`.
    pub slow_every: u64,
    pub slow_ns: u64,
    /// Reads covering this offset fail with EIO.
    pub eio_at: Option<u64>,
    /// Writes fail with ENOSPC once this many bytes were written.
    pub enospc_after: Option<u64>,
    /// After this many I/Os every I/O fails with ENODEV (device removed).
    pub gone_after_ios: Option<u64>,
    /// Whether O_DIRECT is "supported".
    pub supports_direct: bool,
    pub clock_ns: u64,
    pub ios: u64,
    pub written: u64,
    pub syncs: u64,
    pub opened: bool,
    bufs: Vec<Vec<u8>>,
    queued: Vec<(usize, usize, u64, u64)>,
}

impl FakeEngine {
    /// A device of `size` bytes reading at `mb_s` MB/s with `base_us` of latency per I/O.
    pub fn new(size: u64, base_us: u64, mb_s: f64) -> FakeEngine {
        FakeEngine {
            size,
            base_ns: base_us * 1000,
            ns_per_byte: 1000.0 / mb_s.max(0.001),
            parallel: 1,
            workers_speedup: 0.0,
            workers: false,
            slow_every: 0,
            slow_ns: 0,
            eio_at: None,
            enospc_after: None,
            gone_after_ios: None,
            supports_direct: true,
            clock_ns: 0,
            ios: 0,
            written: 0,
            syncs: 0,
            opened: false,
            bufs: Vec::new(),
            queued: Vec::new(),
        }
    }

    fn service_ns(&self, len: usize) -> u64 {
        // Slow I/Os fall pseudo-randomly (a hash of the I/O count), so intervals differ.
        let mut h = self.ios;
        if self.slow_every > 0 && super::random::wyrand(&mut h).is_multiple_of(self.slow_every) {
            return self.slow_ns;
        }
        self.base_ns + (len as f64 * self.ns_per_byte) as u64
    }

    fn check(&mut self, write: bool, len: usize, offset: u64) -> io::Result<()> {
        self.ios += 1;
        if matches!(self.gone_after_ios, Some(n) if self.ios > n) {
            return Err(io::Error::from_raw_os_error(libc::ENODEV));
        }
        if !write {
            if let Some(bad) = self.eio_at
                && bad >= offset
                && bad < offset + len as u64
            {
                self.clock_ns += 30_000_000;
                return Err(io::Error::from_raw_os_error(libc::EIO));
            }
        } else if let Some(cap) = self.enospc_after
            && self.written + len as u64 > cap
        {
            return Err(io::Error::from_raw_os_error(libc::ENOSPC));
        }
        Ok(())
    }
}

impl Engine for FakeEngine {
    fn name(&self) -> &'static str {
        "fake"
    }
    fn open(&mut self, _path: &Path, how: OpenHow) -> io::Result<OpenInfo> {
        self.opened = true;
        Ok(OpenInfo {
            direct: how.direct && self.supports_direct,
            size: self.size,
        })
    }
    fn open_file(&mut self, _file: File, how: OpenHow) -> io::Result<OpenInfo> {
        self.open(Path::new("/fake"), how)
    }
    fn setup_buffers(&mut self, slots: usize, bytes: usize, _to: BufferUse) -> io::Result<()> {
        self.bufs = vec![vec![0u8; bytes]; slots];
        Ok(())
    }
    fn buffer_mut(&mut self, slot: usize) -> &mut [u8] {
        match self.bufs.get_mut(slot) {
            Some(b) => b.as_mut_slice(),
            None => &mut [],
        }
    }
    fn read_at(&mut self, _slot: usize, len: usize, offset: u64) -> io::Result<usize> {
        self.check(false, len, offset)?;
        self.clock_ns += self.service_ns(len);
        Ok(len.min(self.size.saturating_sub(offset) as usize))
    }
    fn write_at(&mut self, _slot: usize, len: usize, offset: u64) -> io::Result<usize> {
        self.check(true, len, offset)?;
        self.clock_ns += self.service_ns(len);
        self.written += len as u64;
        Ok(len)
    }
    fn sync(&mut self) -> io::Result<()> {
        self.syncs += 1;
        self.clock_ns += self.base_ns;
        Ok(())
    }
    fn drop_cache(&mut self, _offset: u64, _len: u64) -> io::Result<()> {
        Ok(())
    }
    fn now_ns(&mut self) -> u64 {
        self.clock_ns
    }
    fn max_queue_depth(&self) -> u32 {
        256
    }
    fn queue_read(&mut self, slot: usize, len: usize, offset: u64) -> io::Result<()> {
        self.queued.push((slot, len, offset, 0));
        Ok(())
    }
    fn queue_write(&mut self, slot: usize, len: usize, offset: u64) -> io::Result<()> {
        self.queued.push((slot, len, offset, 1));
        Ok(())
    }
    fn flush_and_reap(&mut self, min: usize, out: &mut Vec<Completion>) -> io::Result<()> {
        // Serve the oldest queued I/Os; with k in flight the device overlaps up to `parallel`.
        let take = min.max(1).min(self.queued.len());
        let inflight = self.queued.len() as u64;
        let overlap = inflight.min(self.parallel.max(1) as u64);
        for _ in 0..take {
            let (slot, len, offset, write) = self.queued.remove(0);
            let r = self.check(write == 1, len, offset);
            let t = self.service_ns(len) / overlap;
            self.clock_ns += if self.workers && self.workers_speedup > 0.0 {
                (t as f64 / self.workers_speedup) as u64
            } else {
                t
            };
            if write == 1 && r.is_ok() {
                self.written += len as u64;
            }
            out.push(Completion {
                slot,
                result: match r {
                    Ok(()) => Ok(len.min(self.size.saturating_sub(offset) as usize)),
                    Err(e) => Err(e.raw_os_error().unwrap_or(libc::EIO)),
                },
            });
        }
        Ok(())
    }
    fn worker_threads(&self) -> bool {
        self.workers
    }
    fn set_worker_threads(&mut self, on: bool) -> bool {
        if self.workers_speedup > 0.0 {
            self.workers = on;
        }
        self.workers_speedup > 0.0
    }
    fn try_clone_engine(&self) -> Option<Box<dyn Engine + Send>> {
        // Same device model and virtual clock start; a fresh queue and I/O count.
        let mut c = self.clone();
        c.queued.clear();
        Some(Box::new(c))
    }
    fn close(&mut self) {
        self.opened = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worker_batches_are_a_quarter_of_the_queue() {
        assert_eq!(worker_batch(32), 8);
        assert_eq!(worker_batch(8), 2);
        assert_eq!(worker_batch(33), 8);
        // Shallow queues submit and reap one at a time, never zero.
        assert_eq!(worker_batch(4), 1);
        assert_eq!(worker_batch(3), 1);
        assert_eq!(worker_batch(1), 1);
        assert_eq!(worker_batch(0), 1);
    }

    #[test]
    fn worker_thread_queues_are_reaped_in_batches_and_never_left_unsubmitted() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("q");
        let data: Vec<u8> = (0..64u32 << 10).map(|i| (i / 4096) as u8).collect();
        std::fs::write(&p, &data).unwrap();
        let mut e = DirectEngine::new();
        e.open(&p, OpenHow::default()).unwrap();
        e.setup_buffers(8, 4096, BufferUse::Reads).unwrap();
        if e.max_queue_depth() < 8 || !e.set_worker_threads(true) {
            eprintln!("skipping: io_uring is not available here (io_uring_setup failed)");
            return;
        }
        for s in 0..8 {
            e.queue_read(s, 4096, s as u64 * 4096).unwrap();
        }
        // Each reap of the worker threads' queue returns at least a batch (2 of 8) or all that
        // are left, and every read lands in its own slot.
        let mut done = Vec::new();
        while done.len() < 8 {
            let mut out = Vec::new();
            let left = 8 - done.len();
            e.flush_and_reap(1, &mut out).unwrap();
            assert!(out.len() >= left.min(worker_batch(8) as usize), "{out:?}");
            done.extend(out);
        }
        for c in &done {
            assert_eq!(c.result, Ok(4096), "{c:?}");
            assert!(e.buffer_mut(c.slot).iter().all(|&b| b == c.slot as u8));
        }
        // Reads queued for the workers wait in the ring; switching to eager submission
        // submits them, so a reap of one at a time still gets all three.
        for s in 0..3 {
            e.queue_read(s, 4096, (s as u64 + 8) * 4096).unwrap();
        }
        assert!(e.set_worker_threads(false));
        let mut out = Vec::new();
        while out.len() < 3 {
            e.flush_and_reap(1, &mut out).unwrap();
        }
        assert!(out.iter().all(|c| c.result == Ok(4096)), "{out:?}");
        assert!(e.buffer_mut(2).iter().all(|&b| b == 10));
    }

    #[test]
    fn aligned_buffers_are_aligned() {
        for len in [512usize, 4096, 1 << 20] {
            let mut b = AlignedBuf::new(len, BUF_ALIGN);
            assert_eq!(b.as_slice().as_ptr() as usize % BUF_ALIGN, 0);
            assert_eq!(b.as_mut_slice().len(), len);
        }
    }

    #[test]
    fn io_buffers_of_a_mebibyte_start_on_a_huge_page() {
        for len in [HUGE_MIN, 1 << 20, (4 << 20) + 512] {
            let mut b = AlignedBuf::for_io(len);
            assert_eq!(b.as_slice().as_ptr() as usize % HUGE_PAGE, 0, "{len}");
            assert_eq!(b.len(), len);
            assert_eq!(b.as_mut_slice().len(), len);
        }
        // Write buffers stay in ordinary pages whatever their size (for_io_paged's reason).
        let paged = AlignedBuf::for_io_paged(1 << 20, false);
        assert_eq!(paged.as_slice().as_ptr() as usize % BUF_ALIGN, 0);
        assert_eq!(paged.len(), 1 << 20);
        let small = AlignedBuf::for_io(4096);
        assert_eq!(small.as_slice().as_ptr() as usize % BUF_ALIGN, 0);
        assert_eq!(small.len(), 4096);
    }

    /// The cdm preset's SEQ1M Q1T1 buffer came after the SEQ1M Q8T1 buffers were freed: glibc
    /// then served it from the brk heap (a freed block from a mapping of its own raises its
    /// mmap threshold), where a reused block is zeroed, in 4 KiB pages, before the advice.
    #[cfg(target_os = "linux")]
    #[test]
    fn read_buffers_are_huge_whatever_the_heap_did_before() {
        // The history of a cdm run: eight read buffers of the size freed (glibc raises its
        // threshold to their size), a large heap block used and freed (reused next).
        let q8: Vec<Vec<u8>> = (0..8).map(|_| vec![0u8; 4 << 20]).collect();
        drop(q8);
        // Just under the raised threshold: a heap block, touched (4 KiB pages), kept from the
        // top of the heap by the block after it, so it is reused rather than given back.
        let used = vec![1u8; (4 << 20) + 64];
        let keep = Box::new([3u8; 64]);
        drop(used);
        let (on, fallback_before) = mapped::thp_state();
        for _ in 0..4 {
            let b = AlignedBuf::for_io(1 << 20);
            let addr = b.as_slice().as_ptr() as usize;
            let (kb, heap) = mapped::smaps_entry(addr).expect("listed in /proc/self/smaps");
            assert!(!heap, "a read buffer in the brk heap");
            let (_, fallback) = mapped::thp_state();
            // No free 2 MiB page at all on this machine right now: the kernel counted it.
            if on && fallback == fallback_before {
                assert!(
                    kb >= 2048,
                    "read buffer in 4 KiB pages: AnonHugePages {kb} kB"
                );
            }
        }
        assert_eq!(keep[0], 3);
    }

    #[test]
    fn writes_use_paged_buffers_and_reads_huge_ones_on_one_descriptor() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("w");
        std::fs::write(&p, vec![0u8; 1 << 20]).unwrap();
        let mut e = DirectEngine::new();
        let write = OpenHow {
            write: true,
            ..OpenHow::default()
        };
        // One read-write descriptor, as the cdm preset's scratch file: the writes' buffers
        // are paged, and the reads' after them are reallocated with huge pages allowed.
        e.open(&p, write).unwrap();
        e.setup_buffers(2, 1 << 20, BufferUse::Writes).unwrap();
        assert!(!e.bufs_huge);
        assert_eq!(e.buffer_mut(1).len(), 1 << 20);
        e.setup_buffers(2, 1 << 20, BufferUse::Reads).unwrap();
        assert!(e.bufs_huge);
        assert_eq!(e.buffer_mut(0).as_ptr() as usize % HUGE_PAGE, 0);
        assert_eq!(e.read_at(1, 1 << 20, 0).unwrap(), 1 << 20);
        // And back: a write after the reads gets paged buffers again.
        e.setup_buffers(2, 1 << 20, BufferUse::Writes).unwrap();
        assert!(!e.bufs_huge);
        // A clone (one thread of a T>1 job) decides for itself when it sets up its buffers.
        let mut c = e.try_clone_engine().unwrap();
        c.setup_buffers(1, 1 << 20, BufferUse::Reads).unwrap();
        assert_eq!(c.buffer_mut(0).as_ptr() as usize % HUGE_PAGE, 0);
    }

    #[test]
    fn direct_engine_reads_a_file_positionally() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("data");
        let mut content = vec![0u8; 8192];
        content[4096] = 0xab;
        std::fs::write(&p, &content).unwrap();
        let mut e = DirectEngine::new();
        let info = e.open(&p, OpenHow::default()).unwrap();
        assert_eq!(info.size, 8192);
        assert!(!info.direct);
        e.setup_buffers(1, 4096, BufferUse::Reads).unwrap();
        assert_eq!(e.read_at(0, 4096, 4096).unwrap(), 4096);
        assert_eq!(e.buffer_mut(0)[0], 0xab);
        assert_eq!(e.read_at(0, 4096, 8192).unwrap(), 0);
        assert!(e.read_at(5, 4096, 0).is_err());
        e.close();
        assert!(e.read_at(0, 4096, 0).is_err());
    }

    #[test]
    fn create_new_refuses_an_existing_path_and_symlinks() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("exists");
        std::fs::write(&p, b"user data").unwrap();
        let how = OpenHow {
            write: true,
            create_new: true,
            direct: true,
            exclusive: false,
        };
        let err = DirectEngine::new().open(&p, how).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(dir.path().join("target"), &link).unwrap();
        assert!(DirectEngine::new().open(&link, how).is_err());
        assert!(!dir.path().join("target").exists());
        assert_eq!(std::fs::read(&p).unwrap(), b"user data");
    }

    #[test]
    fn fake_engine_is_deterministic_and_injects_faults() {
        let mut f = FakeEngine::new(1 << 20, 100, 100.0);
        f.eio_at = Some(8192);
        f.setup_buffers(1, 4096, BufferUse::Reads).unwrap();
        assert_eq!(f.read_at(0, 4096, 0).unwrap(), 4096);
        // 100 us + 4096 B at 100 MB/s = 40.96 us.
        assert_eq!(f.now_ns(), 100_000 + 40_960);
        let e = f.read_at(0, 4096, 8192).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::EIO));
        f.enospc_after = Some(4096);
        assert!(f.write_at(0, 4096, 0).is_ok());
        assert_eq!(
            f.write_at(0, 4096, 4096).unwrap_err().raw_os_error(),
            Some(libc::ENOSPC)
        );
    }
}
