//! Huge-page read buffers in memory of their own: one anonymous mapping per buffer, asked
//! for transparent huge pages before any byte of it is touched, then faulted in, outside
//! the timed loop. References: mmap(2), madvise(2) MADV_HUGEPAGE, munmap(2); the kernel's
//! Documentation/admin-guide/mm/transhuge.rst ("madvise" mode: only regions advised before
//! their first fault get huge pages).
//!
//! Why not the heap: a buffer taken from malloc is only huge when its pages are first
//! touched after the advice. glibc serves a large request from a mapping of its own at first,
//! but frees of such blocks raise its mmap threshold (mallopt(3), M_MMAP_THRESHOLD: "dynamic"),
//! so after the first test's buffers were freed the next test's came from the brk heap; and
//! calloc zeroes a reused heap block itself, touching its pages in 4 KiB before madvise can
//! ask for more. The cdm preset's SEQ1M Q1T1 read (the first job after the freed SEQ1M Q8T1
//! buffers) took its buffer from the heap that way; 1 MiB reads from zram into 4 KiB pages
//! took 1.45x as long as into a huge page, and in one comparison that line's p50 was 1.20x
//! fio's with hugetlbfs pages and equal to fio's with malloc buffers
//! (docs/benchmarks-vs-fio.md, 2026-12-07). A mapping of its own has no history.
#![allow(unsafe_code)]

use std::io;
use std::ptr::NonNull;

/// A 2 MiB-aligned anonymous mapping, advised for transparent huge pages and faulted in;
/// unmapped on drop.
#[derive(Debug)]
pub struct Mapping {
    ptr: NonNull<u8>,
    len: usize,
}

// SAFETY: the mapping is owned memory like a Vec's: nothing else holds its address (the
// io_uring registration that borrows it is dropped before it: DirectEngine's field order).
unsafe impl Send for Mapping {}
// SAFETY: shared access only reads through `as_slice`; writes need `&mut self`.
unsafe impl Sync for Mapping {}

impl Mapping {
    /// `len` bytes (rounded up to whole `align`s) starting on an `align` boundary (a power of
    /// two, a multiple of the page size), advised for huge pages and already faulted in.
    pub fn huge(len: usize, align: usize) -> io::Result<Mapping> {
        let span = len.max(1).div_ceil(align) * align;
        // Over-map by one alignment, then give back the unaligned head and the tail.
        let total = span + align;
        // SAFETY: a new private anonymous mapping at an address the kernel chooses; it
        // aliases nothing (mmap(2)).
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let addr = raw as usize;
        let start = addr.div_ceil(align) * align;
        let head = start - addr;
        let tail = total - head - span;
        // SAFETY: both ranges lie inside the mapping just made and outside [start, start +
        // span), which is all this Mapping keeps; page-aligned since mmap's address and
        // `align` are. A failed munmap leaves only a few unused pages mapped.
        unsafe {
            if head > 0 {
                libc::munmap(raw, head);
            }
            if tail > 0 {
                libc::munmap((start + span) as *mut libc::c_void, tail);
            }
        }
        // The mapping's aligned start (mmap never maps page 0).
        let ptr = NonNull::new(start as *mut u8).ok_or_else(|| io::Error::other("mmap: null"))?;
        // SAFETY: MADV_HUGEPAGE only sets a flag on the mapping; it neither reads nor writes
        // the memory (madvise(2)). Advisory: without THP (mode "never", EINVAL) the buffer is
        // still correct, only in 4 KiB pages.
        unsafe {
            libc::madvise(start as *mut libc::c_void, span, libc::MADV_HUGEPAGE);
        }
        let mut m = Mapping { ptr, len: span };
        // Fault it in now: the huge page's allocation and zeroing are then not part of the
        // first timed I/O, and the pages are chosen while the advice stands. One write per
        // 4 KiB page (after the first fault of a huge page, the rest are plain stores).
        for b in m.as_mut_slice().iter_mut().step_by(4096) {
            // SAFETY: a valid, aligned, exclusively borrowed byte of the mapping; volatile so
            // the store of a zero into zeroed memory is not optimised away.
            unsafe { std::ptr::write_volatile(b, 0) };
        }
        Ok(m)
    }

    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: ptr..ptr+len is a live mapping owned by self, readable and initialised
        // (anonymous memory reads as zeros).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as in as_slice, and &mut self makes this the only borrow.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `huge`, unmapped once; no slice of it outlives self.
        unsafe {
            libc::munmap(self.ptr.as_ptr().cast(), self.len);
        }
    }
}

/// The /proc/self/smaps entry that holds `addr`: its AnonHugePages in kB and whether it is
/// the brk heap (for tests).
#[cfg(test)]
pub(super) fn smaps_entry(addr: usize) -> Option<(u64, bool)> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    let mut inside = None;
    for line in smaps.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if let Some((a, b)) = first.split_once('-')
            && let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
        {
            inside = (a <= addr && addr < b).then(|| line.ends_with("[heap]"));
            continue;
        }
        if let Some(heap) = inside
            && let Some(v) = line.strip_prefix("AnonHugePages:")
        {
            let kb = v.trim().trim_end_matches("kB").trim().parse().ok()?;
            return Some((kb, heap));
        }
    }
    None
}

/// Whether transparent huge pages can back an advised mapping here, and the kernel's count
/// of huge-page faults that found no free huge page (for tests).
#[cfg(test)]
pub(super) fn thp_state() -> (bool, u64) {
    let mode =
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").unwrap_or_default();
    let on = mode.contains("[always]") || mode.contains("[madvise]");
    let fallback = std::fs::read_to_string("/proc/vmstat")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("thp_fault_fallback "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    (on, fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_is_aligned_zeroed_and_its_own_mapping() {
        let align = 2 << 20;
        let mut m = Mapping::huge((1 << 20) + 1, align).unwrap();
        assert_eq!(m.as_slice().as_ptr() as usize % align, 0);
        assert_eq!(m.as_slice().len(), align);
        assert!(m.as_slice().iter().all(|&b| b == 0));
        m.as_mut_slice()[align - 1] = 7;
        assert_eq!(m.as_slice()[align - 1], 7);
        let (kb, heap) = smaps_entry(m.as_slice().as_ptr() as usize).expect("listed in smaps");
        assert!(!heap, "a buffer of its own, not the brk heap");
        let (on, _) = thp_state();
        if !on {
            assert_eq!(kb, 0, "no huge pages where THP is off");
        }
    }
}
