//! Small ASCII charts for the text and Markdown reports: one horizontal bar per value, scaled
//! to the largest, so a zone curve or a block-size sweep reads at a glance in a mail client.
//! Only `#`, `|`, spaces and digits are used: safe under "> " quoting and in any font.

use crate::evidence::BenchResult;
use crate::units;

/// One bar: a label and a value (with its printed form).
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub shown: String,
}

/// Render bars as lines no wider than `width` columns, each starting with `indent` spaces.
/// Labels longer than 16 characters are cut (the table above the chart has them in full).
pub fn bars(bars: &[Bar], indent: usize, width: usize) -> Vec<String> {
    let label_w = bars
        .iter()
        .map(|b| b.label.chars().count().min(16))
        .max()
        .unwrap_or(0);
    let shown_w = bars
        .iter()
        .map(|b| b.shown.chars().count())
        .max()
        .unwrap_or(0);
    // indent + label + " |" + bar + " " + shown
    let fixed = indent + label_w + 2 + 1 + shown_w;
    let bar_w = width.saturating_sub(fixed).clamp(4, 40);
    let max = bars
        .iter()
        .map(|b| b.value)
        .filter(|v| v.is_finite())
        .fold(0.0_f64, f64::max);
    bars.iter()
        .map(|b| {
            let n = if max > 0.0 && b.value.is_finite() && b.value > 0.0 {
                // At least one mark for any non-zero value, so "tiny" is not read as "none".
                (((b.value / max) * bar_w as f64).round() as usize).clamp(1, bar_w)
            } else {
                0
            };
            let label: String = b.label.chars().take(16).collect();
            format!(
                "{:indent$}{label:<label_w$} |{}{} {:>shown_w$}",
                "",
                "#".repeat(n),
                " ".repeat(bar_w - n),
                b.shown,
            )
            .trim_end()
            .to_string()
        })
        .collect()
}

/// Throughput bars for results of one test (zone curve, block-size sweep), in MB/s.
pub fn throughput(results: &[&BenchResult], indent: usize, width: usize) -> Vec<String> {
    let v: Vec<Bar> = results
        .iter()
        .map(|r| Bar {
            label: r.label.clone(),
            value: r.bytes_per_sec,
            shown: units::mb_number(r.bytes_per_sec),
        })
        .collect();
    bars(&v, indent, width)
}

/// IOPS bars for results of one random-I/O test (qd1 against qd32 shows whether queueing
/// helps).
pub fn iops(results: &[&BenchResult], indent: usize, width: usize) -> Vec<String> {
    let v: Vec<Bar> = results
        .iter()
        .map(|r| Bar {
            label: r.label.clone(),
            value: r.iops,
            shown: if r.iops.is_finite() {
                format!("{:.0}", r.iops)
            } else {
                "n/a".into()
            },
        })
        .collect();
    bars(&v, indent, width)
}

/// Latency percentile bars of one result (p50, p90, p99, p99.9, max), in milliseconds.
/// None when the result has no latency summary.
pub fn latency(result: &BenchResult, indent: usize, width: usize) -> Option<Vec<String>> {
    let l = result.latency.as_ref()?;
    let v: Vec<Bar> = [
        ("p50", l.p50_ns),
        ("p90", l.p90_ns),
        ("p99", l.p99_ns),
        ("p99.9", l.p999_ns),
        ("max", l.max_ns),
    ]
    .iter()
    .map(|(label, ns)| Bar {
        label: label.to_string(),
        value: *ns as f64,
        shown: units::duration_ns(*ns),
    })
    .collect();
    Some(bars(&v, indent, width))
}

#[cfg(test)]
mod tests;
