//! Latency histogram and throughput statistics for the read/write tests.
//!
//! The histogram is log-linear in the style of HdrHistogram (Gil Tene): values below
//! 2^SUB_BITS are counted exactly; above, each power of two is split into 2^(SUB_BITS-1)
//! equal buckets, so any recorded value is reported within 1/2^(SUB_BITS-1) (< 1 %) of the
//! truth at a fixed memory cost, whatever the range (1 ns .. 584 years).

use super::LatencySummary;

/// Sub-bucket bits: 128 exact values, then 64 buckets per octave (relative error < 1.6 %).
const SUB_BITS: u32 = 7;
const SUB_COUNT: u64 = 1 << SUB_BITS;
const HALF: u64 = SUB_COUNT / 2;
/// Octaves above the exact range: values up to 2^64.
const BUCKETS: usize = (SUB_COUNT + (64 - SUB_BITS as u64) * HALF) as usize;

/// A log-linear latency histogram in nanoseconds.
#[derive(Debug, Clone)]
pub struct Histogram {
    counts: Vec<u64>,
    n: u64,
    sum: u128,
    min: u64,
    max: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram::new()
    }
}

impl Histogram {
    pub fn new() -> Histogram {
        Histogram {
            counts: vec![0; BUCKETS],
            n: 0,
            sum: 0,
            min: u64::MAX,
            max: 0,
        }
    }

    /// Bucket index of a value.
    #[inline]
    fn index(v: u64) -> usize {
        if v < SUB_COUNT {
            return v as usize;
        }
        // msb >= SUB_BITS here. Keep the top SUB_BITS bits: the leading 1 plus SUB_BITS-1
        // mantissa bits; the octave picks the block.
        let msb = 63 - v.leading_zeros();
        let shift = msb + 1 - SUB_BITS;
        let mantissa = (v >> shift) - HALF; // 0..HALF
        (SUB_COUNT + (shift as u64 - 1) * HALF + mantissa) as usize
    }

    /// Smallest value that falls in bucket `i` and the bucket's width.
    fn bucket_low(i: usize) -> (u64, u64) {
        let i = i as u64;
        if i < SUB_COUNT {
            return (i, 1);
        }
        let k = i - SUB_COUNT;
        let shift = k / HALF + 1;
        let mantissa = k % HALF + HALF;
        (mantissa << shift, 1u64 << shift)
    }

    #[inline]
    pub fn record(&mut self, v: u64) {
        let i = Histogram::index(v);
        if let Some(c) = self.counts.get_mut(i) {
            *c += 1;
        }
        self.n += 1;
        self.sum += v as u128;
        if v < self.min {
            self.min = v;
        }
        if v > self.max {
            self.max = v;
        }
    }

    pub fn count(&self) -> u64 {
        self.n
    }

    pub fn merge(&mut self, other: &Histogram) {
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a += *b;
        }
        self.n += other.n;
        self.sum += other.sum;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    /// The value at quantile `q` (0..=1): the midpoint of the bucket holding the
    /// ceil(q*n)-th smallest sample, clamped to the exact min and max.
    pub fn quantile(&self, q: f64) -> u64 {
        if self.n == 0 {
            return 0;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.n as f64).ceil() as u64).max(1);
        let mut seen = 0u64;
        for (i, c) in self.counts.iter().enumerate() {
            seen += *c;
            if seen >= rank {
                let (low, width) = Histogram::bucket_low(i);
                let mid = low + (width - 1) / 2;
                return mid.clamp(self.min, self.max);
            }
        }
        self.max
    }

    pub fn mean(&self) -> u64 {
        if self.n == 0 {
            0
        } else {
            (self.sum / self.n as u128) as u64
        }
    }

    pub fn summary(&self) -> Option<LatencySummary> {
        if self.n == 0 {
            return None;
        }
        Some(LatencySummary {
            min_ns: self.min,
            mean_ns: self.mean(),
            p50_ns: self.quantile(0.50),
            p90_ns: self.quantile(0.90),
            p99_ns: self.quantile(0.99),
            p999_ns: self.quantile(0.999),
            max_ns: self.max,
        })
    }
}

/// Coefficient of variation (standard deviation / mean, in %) of a series; None for fewer
/// than two values or a zero mean.
pub fn cv_pct(xs: &[f64]) -> Option<f64> {
    if xs.len() < 2 {
        return None;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if mean <= 0.0 {
        return None;
    }
    // Sample standard deviation (n-1): the intervals are a sample of the device's behaviour.
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    Some(var.sqrt() / mean * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_below_128_and_bounded_error_above() {
        for v in 0..128u64 {
            assert_eq!(Histogram::index(v), v as usize);
        }
        // Every bucket's range round-trips: low and low+width-1 map back to it.
        for i in 0..BUCKETS - 1 {
            let (low, width) = Histogram::bucket_low(i);
            assert_eq!(Histogram::index(low), i, "low of {i}");
            assert_eq!(Histogram::index(low + (width - 1)), i, "high of {i}");
        }
        for v in [1_000u64, 4_000, 123_456, 8_000_000, 15_000_000_000] {
            let mut h = Histogram::new();
            h.record(v);
            h.record(v + 1);
            let q = h.quantile(0.5);
            let err = (q as f64 - v as f64).abs() / v as f64;
            assert!(err < 0.016, "{v} -> {q}");
        }
        assert_eq!(Histogram::index(u64::MAX), BUCKETS - 1);
    }

    #[test]
    fn percentiles_of_a_known_distribution() {
        let mut h = Histogram::new();
        // 1..=1000 microseconds, one each.
        for us in 1..=1000u64 {
            h.record(us * 1000);
        }
        let s = h.summary().unwrap();
        assert_eq!(s.min_ns, 1_000);
        assert_eq!(s.max_ns, 1_000_000);
        assert_eq!(s.mean_ns, 500_500);
        for (got, want) in [
            (s.p50_ns, 500_000.0),
            (s.p90_ns, 900_000.0),
            (s.p99_ns, 990_000.0),
            (s.p999_ns, 999_000.0),
        ] {
            assert!(
                ((got as f64) - want).abs() / want < 0.016,
                "{got} vs {want}"
            );
        }
    }

    #[test]
    fn merge_adds_counts() {
        let mut a = Histogram::new();
        let mut b = Histogram::new();
        a.record(10);
        b.record(30);
        b.record(20);
        a.merge(&b);
        assert_eq!(a.count(), 3);
        assert_eq!(a.summary().unwrap().min_ns, 10);
        assert_eq!(a.summary().unwrap().max_ns, 30);
        assert_eq!(a.quantile(0.5), 20);
        assert!(Histogram::new().summary().is_none());
    }

    #[test]
    fn coefficient_of_variation() {
        assert_eq!(cv_pct(&[5.0]), None);
        assert_eq!(cv_pct(&[0.0, 0.0]), None);
        let cv = cv_pct(&[90.0, 110.0]).unwrap();
        assert!((cv - 14.142).abs() < 0.01, "{cv}");
    }
}
