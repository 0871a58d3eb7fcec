//! io_uring queue for reads and writes at queue depth > 1 (Linux 5.1+; io_uring(7), io_uring_enter(2)).
//!
//! The only unsafe code of the bench: the kernel writes into user buffers after the
//! submission call returns, which the compiler cannot check. The invariants are kept here:
//! every queued buffer belongs to the engine's slot storage, which outlives the ring, and the
//! ring waits for every in-flight I/O before it is dropped.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;

use io_uring::{IoUring, opcode, types};

use super::Completion;

pub struct Ring {
    ring: IoUring,
    fd: i32,
    depth: u32,
    inflight: usize,
    queued: usize,
    /// The slot buffers and the target are registered with the kernel (io_uring_register(2)
    /// IORING_REGISTER_BUFFERS / _FILES): each read then skips pinning its pages and looking
    /// up the descriptor, the per-I/O work fio's `fixedbufs`/`registerfiles` options save.
    fixed: bool,
    /// Every SQE carries IOSQE_ASYNC ([`Ring::set_worker_threads`]); SQEs are then
    /// submitted `batch` at a time, the rest at the next reap, which waits for `batch`
    /// completions ([`super::worker_batch`]).
    workers: bool,
    batch: usize,
}

impl Ring {
    /// `bufs` are the engine's slot buffers, `(address, length)` each; registering them is
    /// an optimisation and falls back to plain reads if the kernel refuses (RLIMIT_MEMLOCK on
    /// kernels before 5.12, or a ring without registration support).
    pub fn new(file: &File, depth: u32, bufs: &[(*mut u8, usize)]) -> io::Result<Ring> {
        let entries = depth.next_power_of_two().max(2);
        // One thread submits and reaps (SINGLE_ISSUER), so completion work can wait until we
        // ask for events (DEFER_TASKRUN, Linux 6.1) and never interrupts the submitter
        // (COOP_TASKRUN, 5.19): fewer context switches per I/O. Older kernels refuse these
        // flags with EINVAL; then a plain ring is used (io_uring_setup(2)).
        let ring = IoUring::builder()
            .setup_coop_taskrun()
            .setup_single_issuer()
            .setup_defer_taskrun()
            .build(entries)
            .or_else(|_| IoUring::builder().setup_coop_taskrun().build(entries))
            .or_else(|_| IoUring::new(entries))?;
        let fd = file.as_raw_fd();
        let iovecs: Vec<libc::iovec> = bufs
            .iter()
            .map(|&(base, len)| libc::iovec {
                iov_base: base.cast(),
                iov_len: len,
            })
            .collect();
        let sub = ring.submitter();
        // SAFETY: the iovecs describe the engine's slot buffers, which stay allocated and in
        // place until this ring is dropped (DirectEngine drops the ring before it replaces or
        // frees them); the kernel pins them for the ring's lifetime.
        let buffers = !iovecs.is_empty()
            && iovecs.len() <= usize::from(u16::MAX)
            && unsafe { sub.register_buffers(&iovecs) }.is_ok();
        // READ_FIXED needs both; with the buffers alone, release them and use plain reads.
        let fixed = buffers && sub.register_files(&[fd]).is_ok();
        if buffers && !fixed {
            let _ = sub.unregister_buffers();
        }
        Ok(Ring {
            ring,
            fd,
            depth,
            inflight: 0,
            queued: 0,
            fixed,
            workers: false,
            batch: super::worker_batch(depth) as usize,
        })
    }

    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Flag every SQE from now on IOSQE_ASYNC ("always issue async",
    /// io_uring_sqe_set_flags(3)), or not: the request then goes straight to io_uring's
    /// worker pool (io-wq) instead of first being tried in the submitting call. fio's
    /// `force_async=1` (HOWTO, io_uring engine options) sets the same flag on every SQE. Why
    /// and when the runner turns it on: runner::choose_submission.
    ///
    /// With the workers on, queued SQEs wait in the ring for the next reap; switching them
    /// off submits what waits, so eager submission never leaves a request unsubmitted.
    pub fn set_worker_threads(&mut self, on: bool) -> io::Result<()> {
        if self.workers && !on && self.queued > 0 {
            self.ring.submit()?;
            self.inflight += self.queued;
            self.queued = 0;
        }
        self.workers = on;
        Ok(())
    }

    pub fn worker_threads(&self) -> bool {
        self.workers
    }

    pub fn queue_read(&mut self, slot: usize, buf: &mut [u8], offset: u64) -> io::Result<()> {
        let sqe = match u16::try_from(slot) {
            // Registered file index 0, registered buffer `slot` (the iovec order of `new`).
            Ok(index) if self.fixed => {
                opcode::ReadFixed::new(types::Fixed(0), buf.as_mut_ptr(), buf.len() as u32, index)
                    .offset(offset)
                    .build()
            }
            _ => opcode::Read::new(types::Fd(self.fd), buf.as_mut_ptr(), buf.len() as u32)
                .offset(offset)
                .build(),
        }
        .user_data(slot as u64);
        // SAFETY: `buf` is a slot buffer owned by the DirectEngine that owns this ring; the
        // engine drops the ring (which drains all in-flight I/O, see Drop) before it frees or
        // replaces its buffers, and the runner never reuses a slot until its completion was
        // reaped. The fd stays open for the ring's lifetime (the engine closes the ring first).
        unsafe { self.push(&sqe) }
    }

    /// Push one SQE. Without the worker threads it is submitted at once rather than with the
    /// other refills of one reap: a device served by a worker (loop, dm-crypt, network block
    /// devices) starts on each I/O as soon as its slot is free, which keeps the queue as full
    /// as the depth promises. Measured with scripts/bench-vs-fio.sh on a loop device: batched
    /// refills kept ~12 of 32 reads in flight, eager submission ~20 like fio (whose default
    /// iodepth_batch is 1); every free slot refilled and submitted with one
    /// io_uring_enter(2) at the reap gave RND4K Q32T1 0.37 and SEQ1M Q8T1 0.60 of matched
    /// fio there, eager submission 0.94 and 0.91 in the same rounds. With the worker threads
    /// (IOSQE_ASYNC) the request is never tried in the submitting call, so nothing starts
    /// sooner for being submitted alone: it waits in the ring until a batch is queued
    /// ([`super::worker_batch`] says why that pays on zram), or the next reap submits what
    /// waits, as fio's iodepth_batch_submit does. A batch at a time also when the queue is
    /// first filled: 32 requests handed to io-wq in one call found no idle worker each and
    /// started a worker per request (17 `iou-wrk` threads beside diskdoc in `ps` at RND4K
    /// Q32T1 on zram, 12 with batches of 8, fio's 5), threads that then compete with the
    /// submitter for the CPUs.
    ///
    /// # Safety
    /// The buffer `sqe` points to must stay valid (and, for a read, unaliased) until its
    /// completion is reaped; see the callers.
    unsafe fn push(&mut self, sqe: &io_uring::squeue::Entry) -> io::Result<()> {
        let sqe = if self.workers {
            sqe.clone().flags(io_uring::squeue::Flags::ASYNC)
        } else {
            sqe.clone()
        };
        // SAFETY: forwarded from the caller's contract (io_uring::SubmissionQueue::push).
        unsafe { self.ring.submission().push(&sqe) }
            .map_err(|_| io::Error::other("io_uring submission queue full"))?;
        self.queued += 1;
        if self.workers && self.queued < self.batch {
            return Ok(());
        }
        self.ring.submit()?;
        self.inflight += self.queued;
        self.queued = 0;
        Ok(())
    }

    /// Queue a write of `buf` at `offset`: WRITE_FIXED from the registered slot buffer when
    /// registration worked (fio's `fixedbufs`), else a plain IORING_OP_WRITE; submitted like
    /// reads ([`Ring::push`]).
    pub fn queue_write(&mut self, slot: usize, buf: &[u8], offset: u64) -> io::Result<()> {
        let sqe = match u16::try_from(slot) {
            Ok(index) if self.fixed => {
                opcode::WriteFixed::new(types::Fixed(0), buf.as_ptr(), buf.len() as u32, index)
                    .offset(offset)
                    .build()
            }
            _ => opcode::Write::new(types::Fd(self.fd), buf.as_ptr(), buf.len() as u32)
                .offset(offset)
                .build(),
        }
        .user_data(slot as u64);
        // SAFETY: as for `queue_read`: `buf` is a slot buffer owned by the engine that owns
        // this ring and outlives it; the kernel only reads it, and the runner neither refills
        // (stamps) nor reuses the slot until its completion was reaped.
        unsafe { self.push(&sqe) }
    }

    /// Submit what is queued and wait for `min` completions, or a batch of them when the
    /// queue goes through the worker threads ([`Ring::push`]); never for more than are out.
    pub fn submit_and_reap(&mut self, min: usize, out: &mut Vec<Completion>) -> io::Result<()> {
        let min = if self.workers {
            min.max(self.batch)
        } else {
            min
        };
        let want = min.min(self.inflight + self.queued);
        loop {
            match self.ring.submit_and_wait(want) {
                Ok(_) => break,
                Err(e) if e.raw_os_error() == Some(libc::EINTR) => continue,
                Err(e) => return Err(e),
            }
        }
        self.inflight += self.queued;
        self.queued = 0;
        for cqe in self.ring.completion() {
            let r = cqe.result();
            self.inflight = self.inflight.saturating_sub(1);
            out.push(Completion {
                slot: cqe.user_data() as usize,
                result: if r < 0 { Err(-r) } else { Ok(r as usize) },
            });
        }
        Ok(())
    }
}

impl Drop for Ring {
    fn drop(&mut self) {
        // Wait for everything in flight so the kernel never writes into freed memory.
        let mut sink = Vec::new();
        let mut guard = 0;
        while self.inflight + self.queued > 0 && guard < 1000 {
            if self
                .submit_and_reap(self.inflight + self.queued, &mut sink)
                .is_err()
            {
                break;
            }
            sink.clear();
            guard += 1;
        }
    }
}
