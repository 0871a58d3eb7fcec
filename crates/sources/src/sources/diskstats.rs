//! Linux block I/O counters: `/proc/diskstats` ("8 0 sda 1234 ...") and the per-device
//! `/sys/block/X/stat` (the same fields without major, minor and name). Field meanings:
//! Documentation/admin-guide/iostats.rst and Documentation/block/stat.rst: 1 reads
//! completed, 3 sectors read, 4 ms reading, 5 writes completed, 7 sectors written, 8 ms
//! writing, 9 I/Os in flight, 10 ms doing I/O (io_ticks), 11 weighted ms doing I/O; kernels
//! 4.18+ add 4 discard fields and 5.5+ 2 flush fields (optional here). Sectors are 512 B.
//!
//! Also `/proc/PID/io` (Documentation/filesystems/proc.rst: read_bytes / write_bytes, the
//! bytes this process caused to be fetched from or sent to the storage layer).

use crate::model::BusySample;

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DiskStat {
    pub reads: u64,
    pub sectors_read: u64,
    pub read_ms: u64,
    pub writes: u64,
    pub sectors_written: u64,
    pub write_ms: u64,
    pub in_flight: u64,
    pub io_ticks_ms: u64,
    pub time_in_queue_ms: u64,
}

/// The eleven (or more) counters of one device.
pub fn parse_fields(s: &str) -> Option<DiskStat> {
    let v: Vec<u64> = s
        .split_whitespace()
        .map(|t| t.parse::<u64>().ok())
        .collect::<Option<Vec<u64>>>()?;
    if v.len() < 11 {
        return None;
    }
    let g = |i: usize| v.get(i).copied().unwrap_or(0);
    Some(DiskStat {
        reads: g(0),
        sectors_read: g(2),
        read_ms: g(3),
        writes: g(4),
        sectors_written: g(6),
        write_ms: g(7),
        in_flight: g(8),
        io_ticks_ms: g(9),
        time_in_queue_ms: g(10),
    })
}

/// The counters of `name` in /proc/diskstats.
pub fn find(text: &str, name: &str) -> Option<DiskStat> {
    text.lines().find_map(|l| {
        let mut it = l.split_whitespace();
        let (_maj, _min, n) = (it.next()?, it.next()?, it.next()?);
        if n != name {
            return None;
        }
        parse_fields(&it.collect::<Vec<_>>().join(" "))
    })
}

/// What happened between two samples `interval_ms` apart. None when a counter went
/// backwards (device removed and re-added, counter wrap) or the interval is 0.
pub fn busy(a: &DiskStat, b: &DiskStat, interval_ms: u64) -> Option<BusySample> {
    if interval_ms == 0 {
        return None;
    }
    let d = |x: u64, y: u64| y.checked_sub(x);
    let ios = d(a.reads, b.reads)?.checked_add(d(a.writes, b.writes)?)?;
    let sectors =
        d(a.sectors_read, b.sectors_read)?.checked_add(d(a.sectors_written, b.sectors_written)?)?;
    let ticks = d(a.io_ticks_ms, b.io_ticks_ms)?;
    let queue = d(a.time_in_queue_ms, b.time_in_queue_ms)?;
    let svc = d(a.read_ms, b.read_ms)?.checked_add(d(a.write_ms, b.write_ms)?)?;
    let iv = interval_ms as f64;
    Some(BusySample {
        interval_ms,
        util_pct: ((ticks as f64) * 100.0 / iv).min(100.0),
        avg_queue: queue as f64 / iv,
        await_ms: (ios > 0).then(|| svc as f64 / ios as f64),
        ios,
        bytes: sectors.checked_mul(512)?,
        top: Vec::new(),
        pasted: false,
    })
}

/// read_bytes + write_bytes of a /proc/PID/io.
pub fn proc_io_bytes(text: &str) -> Option<u64> {
    let mut r = None;
    let mut w = None;
    for l in text.lines() {
        if let Some(v) = l.strip_prefix("read_bytes:") {
            r = v.trim().parse::<u64>().ok();
        } else if let Some(v) = l.strip_prefix("write_bytes:") {
            w = v.trim().parse::<u64>().ok();
        }
    }
    r?.checked_add(w?)
}

/// Whether the text is /proc/diskstats (for `explain`): "MAJ MIN name" and 11+ numbers.
pub fn recognize(text: &str) -> bool {
    text.lines()
        .filter(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            t.len() >= 14
                && t.first().is_some_and(|x| x.parse::<u32>().is_ok())
                && t.get(1).is_some_and(|x| x.parse::<u32>().is_ok())
                && parse_fields(&t.get(3..).unwrap_or(&[]).join(" ")).is_some()
        })
        .count()
        >= 2
}

#[cfg(test)]
mod tests;
