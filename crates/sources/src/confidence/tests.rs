use super::*;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn t_quantiles_follow_the_table_and_the_normal_limit() {
    assert_eq!(t_975(0), None);
    assert_eq!(t_975(1), Some(12.706));
    assert_eq!(t_975(9), Some(2.262));
    assert_eq!(t_975(30), Some(2.042));
    // Exact values: t(40) = 2.021, t(60) = 2.000, t(120) = 1.980 (NIST table).
    for (df, want) in [(40, 2.021), (60, 2.000), (120, 1.980)] {
        let got = t_975(df).unwrap();
        assert!(close(got, want, 0.002), "t({df}) = {got}, want {want}");
    }
    // Monotone falling towards z = 1.96.
    let mut last = f64::INFINITY;
    for df in 1..500 {
        let t = t_975(df).unwrap();
        assert!(t < last && t > 1.959, "df {df}: {t}");
        last = t;
    }
}

#[test]
fn batches_are_consecutive_and_drop_the_earliest_remainder() {
    let few = [1.0, 2.0, 3.0];
    assert_eq!(batch_means(&few), few.to_vec());
    // 23 rates: batches of 2, the first 3 left out.
    let rates: Vec<f64> = (0..23).map(f64::from).collect();
    let m = batch_means(&rates);
    assert_eq!(m.len(), BATCHES);
    assert_eq!(m[0], 3.5);
    assert_eq!(m[9], 21.5);
    assert_eq!(batch_means(&rates[..20]).len(), BATCHES);
}

#[test]
fn a_known_sample_gives_the_textbook_interval() {
    // Five rates: mean 100, sample sd sqrt(250/4) = 7.9057, se = 3.5355,
    // t(4) = 2.776 -> half-width 9.8146, i.e. +-9.81 %. The two halves (90, 110 and
    // 95, 105) have the same mean: no drift term.
    let rates = [90.0, 110.0, 100.0, 95.0, 105.0];
    let i = interval95(&rates).unwrap();
    assert!(close(i.mean, 100.0, 1e-9));
    assert!(close(i.half_width, 9.8146, 1e-3), "{i:?}");
    assert_eq!(i.batches, 5);
    assert_eq!(i.drift, 0.0);
    // The same rates in rising order: halves 92.5 and 107.5, a drift of 15 added in
    // quadrature: sqrt(9.8146^2 + 15^2) = 17.926.
    let rising = interval95(&[90.0, 95.0, 100.0, 105.0, 110.0]).unwrap();
    assert!(close(rising.drift, 15.0, 1e-9), "{rising:?}");
    assert!(close(rising.half_width, 17.926, 1e-3), "{rising:?}");
    assert!(close(half_width_pct(&rates).unwrap(), 9.8146, 1e-3));
    assert!(within(&rates, 10.0));
    assert!(!within(&rates, 9.0));
}

#[test]
fn more_samples_of_the_same_spread_narrow_the_interval() {
    // Alternating 97/103: a 3 % swing. Ten rates: batches are the rates themselves.
    let ten: Vec<f64> = (0..10)
        .map(|i| if i % 2 == 0 { 97.0 } else { 103.0 })
        .collect();
    let h10 = half_width_pct(&ten).unwrap();
    // sd = 3.162 (n - 1 = 9), se = 1.0, t(9) = 2.262; halves 99.4 and 100.6 (a drift
    // of 1.2 that is only the swing's phase): sqrt(2.262^2 + 1.2^2) = 2.5606.
    assert!(close(h10, 2.5606, 1e-3), "{h10}");
    // Forty rates: batches of 4 average the swing away entirely.
    let forty: Vec<f64> = (0..40)
        .map(|i| if i % 2 == 0 { 97.0 } else { 103.0 })
        .collect();
    assert!(half_width_pct(&forty).unwrap() < 1e-9);
    // A steady rate is known exactly.
    assert_eq!(half_width_pct(&[5.0; 7]), Some(0.0));
}

#[test]
fn too_little_or_broken_input_has_no_interval() {
    assert_eq!(interval95(&[]), None);
    assert_eq!(interval95(&[1.0, 2.0]), None);
    assert_eq!(interval95(&[0.0, 0.0, 0.0]), None);
    assert_eq!(interval95(&[1.0, f64::NAN, 2.0]), None);
    assert_eq!(interval95(&[1.0, f64::INFINITY, 2.0]), None);
    assert!(!within(&[1.0, 2.0], 100.0));
}

/// A deterministic noise series: `n` rates around `mean`, each off by up to +-`pct` %
/// (a linear congruential generator, Knuth MMIX constants: the same every run).
fn noisy(n: usize, mean: f64, pct: f64) -> Vec<f64> {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let u = (x >> 11) as f64 / (1u64 << 53) as f64; // 0..1
            mean * (1.0 + pct / 100.0 * (2.0 * u - 1.0))
        })
        .collect()
}

fn covers(i: &Interval, x: f64) -> bool {
    (i.mean - i.half_width..=i.mean + i.half_width).contains(&x)
}

#[test]
fn a_steady_rate_with_small_noise_is_stable_and_covered() {
    // 40 intervals within +-2 % of 100: known within +-3 %, and the interval holds 100.
    let rates = noisy(40, 100.0, 2.0);
    let i = interval95(&rates).unwrap();
    assert!(i.half_width_pct() < 3.0, "{i:?}");
    assert!(i.half_width_pct() > 0.0, "{i:?}");
    assert!(covers(&i, 100.0), "{i:?}");
    assert!(within(&rates, 3.0));
}

#[test]
fn a_noisy_rate_is_wide_but_covers_the_truth() {
    // +-30 % per interval over 12 intervals: not stable, but honest about it.
    let rates = noisy(12, 100.0, 30.0);
    let i = interval95(&rates).unwrap();
    assert!(i.half_width_pct() > 3.0, "{i:?}");
    assert!(covers(&i, 100.0), "{i:?}");
    assert!(!within(&rates, 3.0));
}

#[test]
fn a_linear_drift_is_never_stable_and_the_interval_reaches_where_it_went() {
    // 1000 falling by 0.5 per interval over 40: every batch mean differs from the next by
    // only 2 (0.2 %), which batch means alone call steady (+-0.7 %). The drift term
    // (second half minus first half: -10) widens it past the end rate, 980.5.
    let rates: Vec<f64> = (0..40).map(|k| 1000.0 - 0.5 * f64::from(k)).collect();
    let i = interval95(&rates).unwrap();
    assert!(close(i.drift, -10.0, 1e-9), "{i:?}");
    assert!(i.half_width >= 10.0, "{i:?}");
    assert!(covers(&i, 980.5), "{i:?}");
    // A rising one the same.
    let up: Vec<f64> = rates.iter().rev().copied().collect();
    assert!(close(interval95(&up).unwrap().drift, 10.0, 1e-9));
    // A 4 % drift is not "within 3 %", whatever the noise.
    let drift4: Vec<f64> = (0..40).map(|k| 100.0 - 0.2 * f64::from(k)).collect();
    assert!(!within(&drift4, 3.0), "{:?}", interval95(&drift4));
}

#[test]
fn one_stalled_interval_widens_the_interval_around_the_steady_rate() {
    // 39 intervals at 100 and one stall at 10 (another process's I/O, a GC pause).
    let mut rates = vec![100.0; 40];
    rates[25] = 10.0;
    let i = interval95(&rates).unwrap();
    // The mean falls by 90 / 40 = 2.25; the interval is wider than that and still holds
    // the steady rate.
    assert!(close(i.mean, 97.75, 1e-9), "{i:?}");
    assert!(i.half_width > 2.25, "{i:?}");
    assert!(covers(&i, 100.0), "{i:?}");
    assert!(!within(&rates, 3.0), "{i:?}");
}

/// `n` rates of `noisy` around 100 whose first `lead` are at `start` instead.
fn warming(n: usize, lead: usize, start: f64) -> Vec<f64> {
    let mut rates = noisy(n, 100.0, 1.0);
    for r in rates.iter_mut().take(lead) {
        *r = start;
    }
    rates
}

#[test]
fn a_slow_start_is_left_out_of_the_interval_and_weighs_by_its_share() {
    // 100 intervals: the first 4 at 60 (io_uring's workers starting), then 100 +- 1 %.
    // The first tenth (10 rates, mean 84) is the warm-up; the settled interval is tight
    // around 100.
    let rates = warming(100, 4, 60.0);
    let i = interval95(&rates).unwrap();
    assert_eq!(i.warmup, 10, "{i:?}");
    assert!(close(i.mean, 100.0, 0.5), "{i:?}");
    assert!(covers(&i, 100.0), "{i:?}");
    // Left in, the slow start is a drift between the halves of 3.2 and the run would
    // not be called stable.
    let plain = plain_interval(&rates).unwrap();
    assert!(plain.half_width_pct() > 3.0, "{plain:?}");
    // The stated figure is the whole run's rate (98.4): its +- % reaches the settled
    // rate, and it is within 3 %, so the run may stop.
    let all = rates.iter().sum::<f64>() / rates.len() as f64;
    let stated = half_width_pct(&rates).unwrap();
    assert!(
        all * (1.0 + stated / 100.0) >= i.mean + i.half_width,
        "{stated}"
    );
    assert!(stated <= 3.0, "{stated}");
    assert!(within(&rates, 3.0));
    // Forty intervals with the same 4 slow ones: the warm-up is a tenth of the run, so the
    // figure is 4 % under the settled rate and the run goes on.
    let short = warming(40, 4, 60.0);
    assert_eq!(interval95(&short).unwrap().warmup, 4);
    assert!(!within(&short, 3.0), "{:?}", half_width_pct(&short));
}

#[test]
fn a_fast_start_is_a_warm_up_too() {
    // A cache answering the first reads: 150 for 3 intervals of 60, then 100.
    let rates = warming(60, 3, 150.0);
    let i = interval95(&rates).unwrap();
    assert_eq!(i.warmup, 6, "{i:?}");
    assert!(covers(&i, 100.0), "{i:?}");
    assert!(i.mean < 101.0, "{i:?}");
}

#[test]
fn drift_noise_and_a_short_series_have_no_warm_up() {
    // A slope is not a warm-up: the rest of the run still moves.
    let drift4: Vec<f64> = (0..40).map(|k| 100.0 - 0.2 * f64::from(k)).collect();
    assert_eq!(interval95(&drift4).unwrap().warmup, 0);
    // Noise whose first tenth happens to be low is not one either: it is within the
    // rest's interval, or under 3 %.
    for pct in [1.0, 2.0, 30.0] {
        let rates = noisy(40, 100.0, pct);
        assert_eq!(interval95(&rates).unwrap().warmup, 0, "+-{pct} %");
    }
    // Ten rates or fewer leave no rest to judge a start by.
    let mut ten = vec![100.0; 10];
    ten[0] = 50.0;
    assert_eq!(interval95(&ten).unwrap().warmup, 0);
    // A steady run has nothing to leave out.
    assert_eq!(interval95(&[100.0; 30]).unwrap().warmup, 0);
    // A stall in the middle is not a warm-up (the interval widens, as above).
    let mut stall = vec![100.0; 40];
    stall[25] = 10.0;
    assert_eq!(interval95(&stall).unwrap().warmup, 0);
}

#[test]
fn a_drifting_rate_stays_uncertain() {
    // A device that slows steadily (a cache filling): 1000 down to 800 over 20 samples.
    // Batch means keep the drift in the spread, so the interval stays wide.
    let drift: Vec<f64> = (0..20).map(|i| 1000.0 - 10.0 * f64::from(i)).collect();
    let h = half_width_pct(&drift).unwrap();
    assert!(h > 3.0, "{h}");
}
