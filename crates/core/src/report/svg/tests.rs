use super::*;

fn chart(points: Vec<(f64, f64)>, x: Scale, y: Scale) -> LineChart {
    LineChart {
        title: "t".into(),
        x_label: "x".into(),
        y_label: "y".into(),
        x_scale: x,
        y_scale: y,
        x_ticks: Vec::new(),
        x_extent: None,
        series: vec![Series {
            name: "s".into(),
            points,
        }],
    }
}

/// Every number in the attributes of `svg`: none is NaN or infinite, and each lies
/// within the chart's box (a little slack for text below the baseline).
fn numbers_in_range(svg: &str) {
    assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
    for attr in [
        " x=\"", " y=\"", " cx=\"", " cy=\"", " x1=\"", " x2=\"", " y1=\"", " y2=\"",
    ] {
        for part in svg.split(attr).skip(1) {
            let v: f64 = part
                .split('"')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{attr}{part}"));
            assert!((0.0..=700.0).contains(&v), "{attr}{v} in {svg}");
        }
    }
    for part in svg.split(" points=\"").skip(1) {
        for xy in part.split('"').next().unwrap_or("").split(' ') {
            for n in xy.split(',') {
                let v: f64 = n.parse().unwrap_or_else(|_| panic!("{xy}"));
                assert!((0.0..=WIDTH).contains(&v), "{v} in {svg}");
            }
        }
    }
}

#[test]
fn linear_axes_start_at_zero_with_round_ticks() {
    let svg = line_chart(&chart(
        vec![(0.0, 180.0), (250.0, 150.0), (500.0, 90.0)],
        Scale::Linear,
        Scale::Linear,
    ))
    .expect("drawn");
    numbers_in_range(&svg);
    assert_eq!(svg.matches("<circle").count(), 3);
    assert_eq!(svg.matches("<polyline").count(), 1);
    // y ticks 0..200 by 50 (180 rounds up to the next tick); x ticks by 100.
    for t in [">0<", ">50<", ">100<", ">150<", ">200<", ">500<"] {
        assert!(svg.contains(t), "{t} missing: {svg}");
    }
    assert!(
        !svg.contains(">250<"),
        "y stops at the first tick above 180"
    );
    // The highest point is the highest circle (smallest y) and lies inside the plot.
    let cy: Vec<f64> = svg
        .split("cy=\"")
        .skip(1)
        .filter_map(|p| p.split('"').next()?.parse().ok())
        .collect();
    assert!(cy[0] < cy[1] && cy[1] < cy[2], "{cy:?}");
    assert!(cy[0] >= TOP && cy[2] <= HEIGHT - BOTTOM, "{cy:?}");
}

#[test]
fn log_axes_use_decades_and_drop_what_they_cannot_place() {
    let svg = line_chart(&chart(
        vec![
            (512.0, 0.2),
            (4096.0, 2.0),
            (4194304.0, 400.0),
            (0.0, 5.0),
            (8.0, -1.0),
        ],
        Scale::Log,
        Scale::Log,
    ))
    .expect("drawn");
    numbers_in_range(&svg);
    // 0 on a log x axis and -1 on a log y axis cannot be placed: three points.
    assert_eq!(svg.matches("<circle").count(), 3);
    for t in [">0.1<", ">1<", ">10<", ">100<", ">1000<"] {
        assert!(svg.contains(t), "{t} missing: {svg}");
    }
}

#[test]
fn empty_and_unplaceable_data_draw_nothing() {
    assert_eq!(
        line_chart(&chart(vec![], Scale::Linear, Scale::Linear)),
        None
    );
    let bad = vec![
        (f64::NAN, 1.0),
        (1.0, f64::INFINITY),
        (f64::NEG_INFINITY, 2.0),
    ];
    assert_eq!(line_chart(&chart(bad, Scale::Linear, Scale::Linear)), None);
    assert_eq!(
        line_chart(&chart(vec![(1.0, 0.0)], Scale::Linear, Scale::Log)),
        None
    );
    let g = Grid {
        title: "t".into(),
        columns: vec![],
        rows: vec![],
    };
    assert_eq!(grid(&g), None);
}

#[test]
fn nan_infinite_and_huge_values_never_reach_the_svg() {
    for (x, y) in [
        (Scale::Linear, Scale::Linear),
        (Scale::Log, Scale::Log),
        (Scale::Linear, Scale::Log),
    ] {
        let pts = vec![
            (1.0, f64::MAX),
            (2.0, f64::NAN),
            (f64::MAX, 1.0),
            (3.0, f64::MIN_POSITIVE),
            (4.0, 1e-320),
            (5.0, f64::INFINITY),
            (-f64::MAX, 7.0),
        ];
        let svg = line_chart(&chart(pts, x, y)).expect("some point is placeable");
        numbers_in_range(&svg);
    }
    // One point alone: a marker, no line, axes around it.
    let svg = line_chart(&chart(vec![(5.0, 5.0)], Scale::Linear, Scale::Linear)).expect("drawn");
    numbers_in_range(&svg);
    assert_eq!(svg.matches("<circle").count(), 1);
    assert_eq!(svg.matches("<polyline").count(), 0);
    // All zero on a linear axis: drawn along the bottom.
    let svg = line_chart(&chart(
        vec![(0.0, 0.0), (0.0, 0.0)],
        Scale::Linear,
        Scale::Linear,
    ))
    .expect("drawn");
    numbers_in_range(&svg);
    let g = Grid {
        title: "t".into(),
        columns: vec!["Read".into(), "Write".into()],
        rows: vec![GridRow {
            label: "SEQ1M Q8T1".into(),
            cells: vec![
                Some(Cell {
                    value: f64::NAN,
                    shown: "n/a".into(),
                    note: String::new(),
                }),
                Some(Cell {
                    value: f64::MAX,
                    shown: "huge".into(),
                    note: String::new(),
                }),
            ],
        }],
    };
    let svg = grid(&g).expect("drawn");
    numbers_in_range(&svg);
}

#[test]
fn named_ticks_replace_numbers_and_thin_out_when_crowded() {
    let mut c = chart(
        (0..20).map(|i| (i as f64, 10.0 + i as f64)).collect(),
        Scale::Linear,
        Scale::Linear,
    );
    c.x_ticks = (0..20).map(|i| (i as f64, format!("T{i}"))).collect();
    let svg = line_chart(&c).expect("drawn");
    assert!(svg.contains(">T0<") && svg.contains(">T2<"), "{svg}");
    assert!(
        !svg.contains(">T1<"),
        "every other tick when 20 would crowd: {svg}"
    );
}

#[test]
fn grid_bars_scale_to_the_largest_cell() {
    let cell = |v: f64| {
        Some(Cell {
            value: v,
            shown: format!("{v:.2}"),
            note: String::new(),
        })
    };
    let g = Grid {
        title: "CDM".into(),
        columns: vec!["Read (MB/s)".into(), "Write (MB/s)".into()],
        rows: vec![
            GridRow {
                label: "SEQ1M Q8T1".into(),
                cells: vec![cell(500.0), cell(250.0)],
            },
            GridRow {
                label: "RND4K Q1T1".into(),
                cells: vec![cell(0.001), None],
            },
        ],
    };
    let svg = grid(&g).expect("drawn");
    numbers_in_range(&svg);
    let parts: Vec<&str> = svg.split("height=\"8.0\" fill=\"#43a047\"").collect();
    // Each part but the last ends with a bar's own attributes.
    let bars: Vec<f64> = parts[..parts.len() - 1]
        .iter()
        .map(|s| s.rsplit("width=\"").next().unwrap_or(""))
        .filter_map(|s| s.split('"').next()?.parse().ok())
        .collect();
    // The bar widths: full, half, and the 2-unit minimum for a tiny value.
    assert_eq!(bars.len(), 3, "{svg}");
    assert!((bars[0] / bars[1] - 2.0).abs() < 0.01, "{bars:?}");
    assert_eq!(bars[2], 2.0);
    assert!(svg.contains(">not run<"), "{svg}");
    assert!(svg.contains("viewBox=\"0 0 640.0 144.0\""), "{svg}");
}

#[test]
fn text_from_devices_is_escaped() {
    let mut c = chart(vec![(1.0, 1.0)], Scale::Linear, Scale::Linear);
    c.title = "<script>alert(1)</script>".into();
    c.series[0].name = "a\"b<".into();
    let svg = line_chart(&c).expect("drawn");
    assert!(!svg.contains("<script"), "{svg}");
    assert!(svg.contains("&lt;script&gt;"), "{svg}");
    assert!(svg.contains("a&quot;b&lt;"), "{svg}");
}

#[test]
fn tick_labels_read_as_numbers() {
    assert_eq!(tick_label(0.0), "0");
    assert_eq!(tick_label(250.0), "250");
    assert_eq!(tick_label(0.25), "0.25");
    assert_eq!(tick_label(1e12), "1e12");
    assert_eq!(tick_label(f64::NAN), "");
    assert_eq!(num(f64::NAN), "0.0");
    assert_eq!(num(-0.0001), "0.0");
    assert_eq!(nice_step(180.0), 200.0);
    assert_eq!(nice_step(21.0), 25.0);
    assert_eq!(nice_step(f64::MAX), f64::MAX);
}
