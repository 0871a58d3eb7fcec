//! SVG charts for the HTML report (SVG 1.1, W3C Recommendation; drawn inline in the page and
//! valid on their own): a line chart with linear or logarithmic axes (zone curve, block-size
//! curve, latency percentiles) and a grid of measured values with bars (the CrystalDiskMark
//! layout: one row per test, read and write columns). Pure functions of the numbers given:
//! every coordinate goes through [`num`], so a NaN, an infinity or a value near `f64::MAX`
//! never reaches the file (it is left out, or drawn at the edge of the plot), and a chart with
//! nothing finite to draw is `None` for the caller to say so in words. Colours, fonts and
//! sizes are presentation attributes, not CSS, so a chart saved as its own .svg file looks
//! the same. Text from a device, a tool or a paste goes through [`for_html`] (the escaping
//! rules of XML text and attribute values are the HTML ones for these five characters).

use crate::sanitize::for_html as esc;

/// The coordinate system of every chart: 640 x 320 units, scaled to the page width by the
/// HTML (`width: 100%`), so the same chart reads at 1000 px and on a 400 px phone.
pub const WIDTH: f64 = 640.0;
/// The height of a line chart in the same units.
const HEIGHT: f64 = 320.0;

/// Plot area margins: room for the y tick labels on the left, the x tick labels and the
/// axis label below, the legend above.
const LEFT: f64 = 70.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 34.0;
const BOTTOM: f64 = 52.0;

/// Line colours, told apart also by people with the common red-green colour vision
/// deficiencies (the Okabe-Ito palette, Okabe and Ito 2008, "Color Universal Design").
const COLOURS: [&str; 8] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442",
];

/// How values map to positions along an axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scale {
    Linear,
    /// Powers of ten equally spaced: latencies from microseconds to seconds, block sizes
    /// from 512 B to 4 MiB. Values at or below 0 cannot be placed and are left out.
    Log,
}

/// One line of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    /// (x, y) in the units of the axes; non-finite points are left out.
    pub points: Vec<(f64, f64)>,
}

/// A line chart.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LineChart {
    /// The accessible name of the image (`<title>`, `aria-label`).
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_scale: Scale,
    pub y_scale: Scale,
    /// Named positions on the x axis (block sizes, percentile names) instead of numbers;
    /// empty: numeric ticks.
    pub x_ticks: Vec<(f64, String)>,
    /// The x range to show at least (the whole disk for a zone curve), when known.
    pub x_extent: Option<(f64, f64)>,
    pub series: Vec<Series>,
}

/// A number for an SVG attribute: one decimal, finite (a non-finite value, which the callers
/// below never pass, becomes 0 rather than "NaN").
pub fn num(v: f64) -> String {
    if v.is_finite() {
        let s = format!("{v:.1}");
        // "-0.0" reads oddly in a file a person may open.
        if s == "-0.0" { "0.0".to_string() } else { s }
    } else {
        "0.0".to_string()
    }
}

/// A tick label: plain decimals in the range people read (0.5, 250, 12000), powers of ten
/// written out as such, scientific notation beyond.
fn tick_label(v: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    let a = v.abs();
    if a == 0.0 {
        "0".to_string()
    } else if !(0.001..1e7).contains(&a) {
        format!("{v:.0e}")
    } else if a >= 10.0 || (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The smallest of 1, 2, 2.5, 5 and 10 times a power of ten that is at least `v` (v > 0).
/// The value itself when the rounded one is not finite (v near `f64::MAX`).
fn nice_step(v: f64) -> f64 {
    if !(v.is_finite() && v > 0.0) {
        return 1.0;
    }
    let exp = 10f64.powf(v.log10().floor());
    for m in [1.0, 2.0, 2.5, 5.0, 10.0] {
        let s = m * exp;
        if s.is_finite() && s >= v * (1.0 - 1e-12) {
            return s;
        }
    }
    v
}

/// An axis laid out: where values land and the ticks to draw.
#[derive(Debug, Clone, PartialEq)]
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
    ticks: Vec<(f64, String)>,
}

impl Axis {
    /// The transformed value (log10 on a log axis), None when it cannot be placed.
    fn t(log: bool, v: f64) -> Option<f64> {
        match (log, v.is_finite()) {
            (_, false) => None,
            (true, _) if v <= 0.0 => None,
            (true, _) => Some(v.log10()),
            (false, _) => Some(v),
        }
    }

    /// 0 at `lo`, 1 at `hi`, clamped; halves first, so `hi - lo` cannot overflow.
    fn frac(&self, v: f64) -> Option<f64> {
        let tv = Axis::t(self.log, v)?;
        let span = self.hi / 2.0 - self.lo / 2.0;
        if !(span.is_finite() && span > 0.0) {
            return Some(0.5);
        }
        let f = (tv / 2.0 - self.lo / 2.0) / span;
        f.is_finite().then_some(f.clamp(0.0, 1.0))
    }

    /// An axis over `values` (already filtered to placeable ones) and `extent`.
    fn fit(values: &[f64], scale: Scale, from_zero: bool, extent: Option<(f64, f64)>) -> Axis {
        let log = scale == Scale::Log;
        let mut ts: Vec<f64> = values.iter().filter_map(|v| Axis::t(log, *v)).collect();
        if let Some((a, b)) = extent {
            ts.extend([a, b].iter().filter_map(|v| Axis::t(log, *v)));
        }
        let min = ts.iter().copied().fold(f64::INFINITY, f64::min);
        let max = ts.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !(min.is_finite() && max.is_finite()) {
            return Axis {
                lo: 0.0,
                hi: 1.0,
                log,
                ticks: Vec::new(),
            };
        }
        if log {
            // Whole decades, within what an f64 holds (10^-300 .. 10^307).
            let lo = min.floor().clamp(-300.0, 306.0);
            let mut hi = max.ceil().clamp(-299.0, 307.0);
            if hi <= lo {
                hi = lo + 1.0;
            }
            let decades = (hi - lo) as usize;
            let every = decades.div_ceil(8).max(1);
            // Over one or two decades, 2 and 5 times each power too, so the axis is read.
            let steps: &[f64] = if decades <= 2 {
                &[1.0, 2.0, 5.0]
            } else {
                &[1.0]
            };
            let mut ticks = Vec::new();
            for i in (0..=decades).step_by(every) {
                let p = 10f64.powf(lo + i as f64);
                for m in steps {
                    let v = m * p;
                    if v.log10() <= hi + 1e-9 && v.is_finite() {
                        ticks.push((v, tick_label(v)));
                    }
                }
            }
            return Axis { lo, hi, log, ticks };
        }
        let lo = if from_zero { min.min(0.0) } else { min };
        let mut hi = max;
        if hi <= lo {
            hi = if lo == 0.0 { 1.0 } else { lo + lo.abs() };
        }
        // About five ticks at a round step; the top is the first tick at or above the data.
        // (hi - lo) / 5, from halves so that it cannot overflow.
        let step = nice_step((hi / 2.0 - lo / 2.0) / 2.5);
        let first = (lo / step).floor() * step;
        let mut ticks = Vec::new();
        let mut top = hi;
        for i in 0..=12 {
            let v = first + step * i as f64;
            if !v.is_finite() {
                break;
            }
            ticks.push((v, tick_label(v)));
            if v >= hi {
                top = v;
                break;
            }
        }
        let lo = if first.is_finite() { first.min(lo) } else { lo };
        Axis {
            lo,
            hi: top.max(hi),
            log,
            ticks,
        }
    }
}

/// The opening of a chart: the root element with its accessible name.
fn open(out: &mut String, title: &str, height: f64) {
    out.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" width=\"{}\" \
         height=\"{}\" role=\"img\" aria-label=\"{t}\" font-family=\"sans-serif\" \
         font-size=\"13\"><title>{t}</title>\n",
        num(WIDTH),
        num(height),
        num(WIDTH),
        num(height),
        t = esc(title),
    ));
}

/// A rectangle with the given extra attributes (fill, stroke).
fn rect(out: &mut String, (x, y, w, h): (f64, f64, f64, f64), extra: &str) {
    out.push_str(&format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {extra}/>\n",
        num(x),
        num(y),
        num(w),
        num(h)
    ));
}

/// A grid line from (x1, y1) to (x2, y2).
fn grid_line(out: &mut String, x1: f64, y1: f64, x2: f64, y2: f64) {
    out.push_str(&format!(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#dddddd\"/>\n",
        num(x1),
        num(y1),
        num(x2),
        num(y2)
    ));
}

/// `text` at (x, y) with the given anchor and extra attributes.
fn text(out: &mut String, x: f64, y: f64, anchor: &str, extra: &str, s: &str) {
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\"{extra}>{}</text>\n",
        num(x),
        num(y),
        esc(s)
    ));
}

/// At most `max` characters, with an ellipsis when cut (a legend entry or a grid label).
fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('\u{2026}');
        t
    }
}

/// Draw a line chart; None when no series has a point that can be placed on both axes.
pub(crate) fn line_chart(c: &LineChart) -> Option<String> {
    let placeable = |p: &(f64, f64)| {
        Axis::t(c.x_scale == Scale::Log, p.0).is_some()
            && Axis::t(c.y_scale == Scale::Log, p.1).is_some()
    };
    let pts: Vec<(f64, f64)> = c
        .series
        .iter()
        .flat_map(|s| s.points.iter().copied())
        .filter(placeable)
        .collect();
    if pts.is_empty() {
        return None;
    }
    let mut xs: Vec<f64> = pts.iter().map(|p| p.0).collect();
    xs.extend(c.x_ticks.iter().map(|t| t.0));
    let ys: Vec<f64> = pts.iter().map(|p| p.1).collect();
    let mut x = Axis::fit(&xs, c.x_scale, false, c.x_extent);
    if !c.x_ticks.is_empty() {
        // Named positions are the data's own (block sizes): the axis spans exactly them,
        // with a little room at each end for the markers, not whole decades.
        let t: Vec<f64> = xs
            .iter()
            .filter_map(|v| Axis::t(c.x_scale == Scale::Log, *v))
            .collect();
        let (min, max) = (
            t.iter().copied().fold(f64::INFINITY, f64::min),
            t.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        );
        let pad = (max / 2.0 - min / 2.0) / 20.0;
        if min.is_finite() && max.is_finite() && pad.is_finite() && pad > 0.0 {
            x.lo = min - pad;
            x.hi = max + pad;
        }
        // Named ticks; every other one when they would crowd (about 48 units each).
        let room = ((WIDTH - LEFT - RIGHT) / 48.0).max(1.0) as usize;
        let every = c.x_ticks.len().div_ceil(room).max(1);
        x.ticks = c.x_ticks.iter().step_by(every).cloned().collect();
    }
    let y = Axis::fit(&ys, c.y_scale, true, None);
    let (pw, ph) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let px = |v: f64| x.frac(v).map(|f| LEFT + f * pw);
    let py = |v: f64| y.frac(v).map(|f| TOP + ph - f * ph);

    let mut out = String::new();
    open(&mut out, &c.title, HEIGHT);
    rect(
        &mut out,
        (LEFT, TOP, pw, ph),
        "fill=\"#ffffff\" stroke=\"#888888\"",
    );
    for (v, label) in &y.ticks {
        let Some(yy) = py(*v) else { continue };
        grid_line(&mut out, LEFT, yy, LEFT + pw, yy);
        text(&mut out, LEFT - 6.0, yy + 4.0, "end", "", label);
    }
    for (v, label) in &x.ticks {
        let Some(xx) = px(*v) else { continue };
        grid_line(&mut out, xx, TOP, xx, TOP + ph);
        text(&mut out, xx, TOP + ph + 16.0, "middle", "", label);
    }
    text(
        &mut out,
        LEFT + pw / 2.0,
        HEIGHT - 10.0,
        "middle",
        "",
        &c.x_label,
    );
    text(
        &mut out,
        14.0,
        TOP + ph / 2.0,
        "middle",
        &format!(" transform=\"rotate(-90 14.0 {})\"", num(TOP + ph / 2.0)),
        &c.y_label,
    );
    // The legend above the plot, left to right; names cut so eight fit.
    let named = c.series.len() > 1 || c.series.iter().any(|s| !s.name.is_empty());
    let mut lx = LEFT;
    for (i, s) in c.series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let points: Vec<(f64, f64)> = s
            .points
            .iter()
            .filter(|p| placeable(p))
            .filter_map(|p| Some((px(p.0)?, py(p.1)?)))
            .collect();
        if points.len() >= 2 {
            let list: Vec<String> = points
                .iter()
                .map(|(a, b)| format!("{},{}", num(*a), num(*b)))
                .collect();
            out.push_str(&format!(
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" \
                 stroke-width=\"2\"/>\n",
                list.join(" ")
            ));
        }
        for (a, b) in &points {
            out.push_str(&format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{colour}\"/>\n",
                num(*a),
                num(*b)
            ));
        }
        if named && lx < WIDTH - 40.0 {
            let name = cut(&s.name, 14);
            rect(
                &mut out,
                (lx, 10.0, 10.0, 10.0),
                &format!("fill=\"{colour}\""),
            );
            text(&mut out, lx + 14.0, 19.0, "start", "", &name);
            lx += 14.0 + 7.0 * name.chars().count() as f64 + 16.0;
        }
    }
    out.push_str("</svg>\n");
    Some(out)
}

/// One cell of a [`Grid`]: the value its bar is scaled by, as shown, and a smaller second
/// line (the IOPS under a MB/s).
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub value: f64,
    pub shown: String,
    pub note: String,
}

/// One row of a [`Grid`]: its label ("SEQ1M Q8T1") and a cell per column (None: not run).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct GridRow {
    pub label: String,
    pub cells: Vec<Option<Cell>>,
}

/// A table of measured values with a bar in each cell, scaled to the largest value of the
/// grid: CrystalDiskMark's window (tests down, read and write across).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Grid {
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<GridRow>,
}

const ROW_H: f64 = 56.0;
const HEAD_H: f64 = 28.0;
const LABEL_W: f64 = 150.0;

/// Draw a grid; None when it has no row or no column.
pub fn grid(g: &Grid) -> Option<String> {
    if g.rows.is_empty() || g.columns.is_empty() {
        return None;
    }
    let max = g
        .rows
        .iter()
        .flat_map(|r| r.cells.iter().flatten())
        .map(|c| c.value)
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold(0.0_f64, f64::max);
    let ncol = g.columns.len() as f64;
    let col_w = (WIDTH - LABEL_W - 8.0) / ncol;
    let height = HEAD_H + ROW_H * g.rows.len() as f64 + 4.0;
    let mut out = String::new();
    open(&mut out, &g.title, height);
    for (j, name) in g.columns.iter().enumerate() {
        let x = LABEL_W + 8.0 + col_w * j as f64;
        text(
            &mut out,
            x + col_w / 2.0,
            HEAD_H - 9.0,
            "middle",
            " font-weight=\"bold\"",
            name,
        );
    }
    for (i, row) in g.rows.iter().enumerate() {
        let y = HEAD_H + ROW_H * i as f64;
        rect(
            &mut out,
            (0.0, y + 2.0, LABEL_W, ROW_H - 4.0),
            "rx=\"4\" fill=\"#2e7d32\"",
        );
        text(
            &mut out,
            LABEL_W / 2.0,
            y + ROW_H / 2.0 + 5.0,
            "middle",
            " fill=\"#ffffff\" font-weight=\"bold\" font-size=\"15\"",
            &cut(&row.label, 16),
        );
        for j in 0..g.columns.len() {
            let x = LABEL_W + 8.0 + col_w * j as f64;
            let (bx, by, bw, bh) = (x + 2.0, y + 2.0, col_w - 8.0, ROW_H - 4.0);
            rect(
                &mut out,
                (bx, by, bw, bh),
                "fill=\"#f4f4f4\" stroke=\"#999999\"",
            );
            let Some(cell) = row.cells.get(j).and_then(Option::as_ref) else {
                text(
                    &mut out,
                    bx + bw - 10.0,
                    by + bh / 2.0 + 6.0,
                    "end",
                    " fill=\"#777777\" font-size=\"16\"",
                    "not run",
                );
                continue;
            };
            let f = if max > 0.0 && cell.value.is_finite() && cell.value > 0.0 {
                (cell.value / max).clamp(0.0, 1.0)
            } else {
                0.0
            };
            if f > 0.0 {
                // The meter along the bottom of the cell, at least 2 units so a tiny value
                // is not read as none.
                rect(
                    &mut out,
                    (bx + 1.0, by + bh - 9.0, ((bw - 2.0) * f).max(2.0), 8.0),
                    "fill=\"#43a047\"",
                );
            }
            text(
                &mut out,
                bx + bw - 10.0,
                by + 26.0,
                "end",
                " font-size=\"22\" font-weight=\"bold\"",
                &cell.shown,
            );
            if !cell.note.is_empty() {
                text(
                    &mut out,
                    bx + 8.0,
                    by + 26.0,
                    "start",
                    " fill=\"#555555\" font-size=\"11\"",
                    &cell.note,
                );
            }
        }
    }
    out.push_str("</svg>\n");
    Some(out)
}

#[cfg(test)]
mod tests;
