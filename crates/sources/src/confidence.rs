//! How sure a measured throughput is: a 95 % confidence interval of the mean rate from the
//! per-interval rates a test sampled, by the method of batch means (A. M. Law, "Simulation
//! Modeling and Analysis", 5th ed., section 9.5.3: consecutive samples of a steady process
//! are correlated, the means of longer batches of them much less), with Student's t
//! quantiles (NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.2, table of critical
//! values). The same interval decides when a test may stop: once it is narrow enough.
//!
//! Sampling noise is not all a short run gets wrong: a rate that drifts (a cache filling,
//! a device warming, a loop device's backing file moving in and out of the host's cache)
//! makes a one-second mean differ from a one-minute one, and batch means alone call a slow,
//! smooth drift "steady". So the interval also carries a drift term, the difference between
//! the mean rate of the second half and of the first half of the batches: a rate still
//! moving at that pace for as long again would move the mean by about that much. The two
//! are added in quadrature (independent sources of error), so a steady run keeps an
//! interval close to the sampling one and a drifting run cannot be called stable.
//!
//! A run's first moments are often unlike the rest (io_uring starting its worker threads, a
//! drive leaving a power state, read-ahead ramping up): left in, such a warm-up reads as
//! drift and keeps a steady device from ever being called stable. So a leading stretch
//! whose rate differs from the rest by more than the rest's own interval (and more than
//! [`WARMUP_MIN_PCT`]) is left out of the interval ([`Interval::warmup`] says how many
//! rates). The figure a result reports stays the whole run's bytes over its whole time (what
//! the kernel counted); [`half_width_pct`] states the interval around that figure, widened
//! by how far the warm-up moved it, so the figure +- the stated % still holds the settled
//! rate's interval.

/// The rates are grouped into at most this many consecutive batches (Law: 10 to 30 batches;
/// the fewest keeps each batch long, so its mean is least correlated with the next one's).
const BATCHES: usize = 10;

/// Fewest samples an interval is computed from: with two the t quantile is 12.7 and the
/// interval says nothing useful.
const MIN_SAMPLES: usize = 3;

/// A leading stretch is a warm-up only when its rate is off the rest's by more than this %
/// as well as by more than the rest's interval: smaller differences are inside what the stop
/// rule (+-3 %) accepts anyway, and a slow drift (under 3 % per tenth of the run) is drift,
/// kept in the interval's drift term, not a warm-up.
pub(crate) const WARMUP_MIN_PCT: f64 = 3.0;

/// Two-sided 95 % critical values of Student's t for 1..=30 degrees of freedom (NIST
/// e-Handbook 1.3.6.7.2, column 0.975).
const T_975: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

/// The 0.975 quantile of Student's t with `df` degrees of freedom: the table up to 30, above
/// it the first Cornish-Fisher term, z + (z^3 + z) / (4 df) with z = 1.95996 (within 0.002
/// of the exact value from 31 on). None for 0 degrees of freedom.
fn t_975(df: usize) -> Option<f64> {
    const Z: f64 = 1.959_964;
    match df {
        0 => None,
        1..=30 => T_975.get(df - 1).copied(),
        _ => Some(Z + (Z * Z * Z + Z) / (4.0 * df as f64)),
    }
}

/// The means of up to [`BATCHES`] equal batches of consecutive `rates`. With no more rates
/// than batches, each rate is its own batch; otherwise the batch length is
/// `len / BATCHES` and the earliest `len % BATCHES` rates (the start of the test, where a
/// warm-up would show) are left out.
fn batch_means(rates: &[f64]) -> Vec<f64> {
    if rates.len() <= BATCHES {
        return rates.to_vec();
    }
    let len = rates.len() / BATCHES;
    let skip = rates.len() % BATCHES;
    rates
        .get(skip..)
        .unwrap_or(&[])
        .chunks_exact(len)
        .map(|c| c.iter().sum::<f64>() / len as f64)
        .collect()
}

/// A 95 % confidence interval of the mean rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// The mean of the batch means (the rates' mean over the batches used).
    pub mean: f64,
    /// Half the interval's width, in the rates' unit: the mean is within +-this.
    pub half_width: f64,
    /// How many batch means it was computed from.
    pub batches: usize,
    /// The drift term inside `half_width`: second half's mean minus the first half's, in the
    /// rates' unit (negative: the rate fell during the run).
    pub drift: f64,
    /// Leading rates left out as a warm-up ([`settled`]); 0 when the start was like the rest.
    pub warmup: usize,
}

impl Interval {
    /// The half-width in % of the mean.
    pub fn half_width_pct(&self) -> f64 {
        self.half_width / self.mean * 100.0
    }
}

/// The 95 % confidence interval of the mean of `rates` (bytes/s per interval, in time
/// order), or None with fewer than [`MIN_SAMPLES`] rates, a rate that is not a finite
/// number, or a mean that is not positive.
pub fn interval95(rates: &[f64]) -> Option<Interval> {
    if rates.len() < MIN_SAMPLES || rates.iter().any(|r| !r.is_finite()) {
        return None;
    }
    let whole = plain_interval(rates)?;
    let warmup = settled(rates, &whole);
    if warmup == 0 {
        return Some(whole);
    }
    let rest = plain_interval(rates.get(warmup..)?)?;
    Some(Interval { warmup, ..rest })
}

/// How many leading rates are a warm-up: the first tenth of the run (rounded up), when
/// there are more rates than [`BATCHES`] (fewer leave no rest to judge it against), if its
/// mean is off the rest's by more than the rest's half-width and [`WARMUP_MIN_PCT`] of it,
/// and the rest is level (its own drift under half that difference: a steady slope over the
/// whole run is drift, and stays in the interval as such). One stretch at most: a run whose second tenth still differs is not settled, and its
/// interval keeps the difference (as drift). `whole` is the interval of all the rates: a
/// run already known within [`WARMUP_MIN_PCT`] has no warm-up worth leaving out.
fn settled(rates: &[f64], whole: &Interval) -> usize {
    if rates.len() <= BATCHES || whole.half_width_pct() <= WARMUP_MIN_PCT {
        return 0;
    }
    let lead = rates.len().div_ceil(BATCHES);
    let (Some(head), Some(rest)) = (rates.get(..lead), rates.get(lead..)) else {
        return 0;
    };
    let Some(after) = plain_interval(rest) else {
        return 0;
    };
    let head_mean = head.iter().sum::<f64>() / head.len() as f64;
    let off = (head_mean - after.mean).abs();
    if off > after.half_width
        && off > after.mean * WARMUP_MIN_PCT / 100.0
        && after.drift.abs() * 2.0 < off
    {
        lead
    } else {
        0
    }
}

/// [`interval95`] of all of `rates`, no warm-up left out.
fn plain_interval(rates: &[f64]) -> Option<Interval> {
    if rates.len() < MIN_SAMPLES {
        return None;
    }
    let means = batch_means(rates);
    let n = means.len();
    let mean = means.iter().sum::<f64>() / n as f64;
    if mean.is_nan() || mean <= 0.0 {
        return None;
    }
    // Sample variance (n - 1) of the batch means; the standard error of their mean is
    // sqrt(var / n).
    let var = means.iter().map(|m| (m - mean) * (m - mean)).sum::<f64>() / (n - 1) as f64;
    let sampling = t_975(n - 1)? * (var / n as f64).sqrt();
    let drift = drift(&means)?;
    let half_width = sampling.hypot(drift);
    half_width.is_finite().then_some(Interval {
        mean,
        half_width,
        batches: n,
        drift,
        warmup: 0,
    })
}

/// The mean of the second half of `means` minus the mean of the first half (an odd middle
/// one left out); None for fewer than two.
fn drift(means: &[f64]) -> Option<f64> {
    let half = means.len() / 2;
    if half == 0 {
        return None;
    }
    let first = means.get(..half)?;
    let second = means.get(means.len() - half..)?;
    Some((second.iter().sum::<f64>() - first.iter().sum::<f64>()) / half as f64)
}

/// The "+-x %" a result is quoted with: the half-width of [`interval95`] around the mean of
/// all the rates (the whole run's rate, which the result reports), in % of that mean. With a
/// warm-up left out, the interval's centre (the settled rate) is not the reported figure, so
/// the distance between the two is added: the reported figure +- this % holds the whole
/// settled interval.
pub fn half_width_pct(rates: &[f64]) -> Option<f64> {
    let i = interval95(rates)?;
    let all = rates.iter().sum::<f64>() / rates.len() as f64;
    if all.is_nan() || all <= 0.0 {
        return None;
    }
    let pct = (i.half_width + (i.mean - all).abs()) / all * 100.0;
    pct.is_finite().then_some(pct)
}

/// The stop rule: the interval the result will state ([`half_width_pct`]) is known and at
/// most `max_pct` % of the figure. A warm-up left out weighs by the share of the run it took
/// (a tenth of the rates, so a tenth of its difference) instead of by the drift it made
/// between the halves (a fifth), and a run stops only when the figure it reports holds.
pub fn within(rates: &[f64], max_pct: f64) -> bool {
    half_width_pct(rates).is_some_and(|h| h <= max_pct)
}

#[cfg(test)]
mod tests;
