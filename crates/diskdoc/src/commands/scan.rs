//! `diskdoc scan`: probe and print the facts per disk (the console form; `--format
//! markdown|json` print the report, see commands/mod.rs `emit`).

use diskdoc_core::facts::{Fact, SystemFacts};
use diskdoc_core::report::text::WIDTH;
use diskdoc_core::units::bytes_iec1;

fn show<T: std::fmt::Display>(f: &Fact<T>) -> String {
    match f {
        Fact::Known { value, .. } => value.to_string(),
        Fact::Unknown { why } => format!("unknown ({why})"),
    }
}

fn show_with<T>(f: &Fact<T>, fmt: impl Fn(&T) -> String) -> String {
    match f {
        Fact::Known { value, .. } => fmt(value),
        Fact::Unknown { why } => format!("unknown ({why})"),
    }
}

/// Human-readable facts, one block per disk.
pub fn render_facts(sys: &SystemFacts) -> String {
    let mut s = String::new();
    // Kernel and CPU names can be long ("6.18.44-fc-v1147", "Intel(R) Xeon(R) Processor"):
    // the line wraps like every other line of the text, within WIDTH.
    let head = format!(
        "{} {} on {}",
        show(&sys.os_name),
        show(&sys.os_release),
        show(&sys.cpu_model)
    );
    for l in diskdoc_core::units::wrap_words(&head, "", 2, WIDTH, true) {
        s.push_str(&l);
        s.push('\n');
    }
    // Unconfigured loop and zram devices (size 0) are only counted: a machine has dozens.
    let empty = |d: &&diskdoc_core::facts::DiskFacts| {
        d.size_bytes.get() == Some(0)
            && matches!(
                d.class.get(),
                Some(
                    diskdoc_core::facts::DeviceClass::Loop | diskdoc_core::facts::DeviceClass::Ram
                )
            )
    };
    let hidden: Vec<&str> = sys
        .disks
        .iter()
        .filter(|d| sys.disks.len() > 1 && empty(d))
        .map(|d| d.name.as_str())
        .collect();
    for d in sys
        .disks
        .iter()
        .filter(|d| !hidden.contains(&d.name.as_str()))
    {
        s.push_str(&format!("\n{} ({})\n", d.name, d.dev_path));
        let rows: Vec<(&str, String)> = vec![
            ("class", show_with(&d.class, |c| c.label().to_string())),
            ("model", show(&d.model)),
            ("firmware", show(&d.firmware)),
            (
                "size",
                show_with(&d.size_bytes, |b| format!("{b} bytes ({})", bytes_iec1(*b))),
            ),
            (
                "sectors",
                format!(
                    "logical {}, physical {}, alignment offset {}",
                    show(&d.logical_sector_bytes),
                    show(&d.physical_sector_bytes),
                    show(&d.alignment_offset_bytes)
                ),
            ),
            ("rotational", show(&d.rotational)),
            (
                "rotation rate",
                show_with(&d.rotation_rpm, |r| {
                    if *r == 0 {
                        "non-rotating".into()
                    } else {
                        format!("{r} rpm")
                    }
                }),
            ),
            (
                "transport",
                show_with(&d.transport, |t| format!("{t:?}").to_lowercase()),
            ),
            (
                "controller",
                show_with(&d.controller, |c| {
                    let mut parts = Vec::new();
                    if let Some(m) = c.mode {
                        parts.push(format!("{m:?}"));
                    }
                    if let Some(dr) = &c.driver {
                        parts.push(format!("driver {dr}"));
                    }
                    if let Some(cl) = c.pci_class {
                        parts.push(format!("class 0x{cl:06x}"));
                    }
                    if let Some(desc) = &c.description {
                        parts.push(desc.clone());
                    }
                    parts.join(", ")
                }),
            ),
            (
                "SATA link",
                format!(
                    "current {}, drive max {}, port max {}",
                    show_with(&d.link_current_gbps, |g| format!("{g:.1} Gb/s")),
                    show_with(&d.link_drive_max_gbps, |g| format!("{g:.1} Gb/s")),
                    show_with(&d.link_port_max_gbps, |g| format!("{g:.1} Gb/s"))
                ),
            ),
            (
                "NCQ",
                format!(
                    "supported {}, drive depth {}, queue depth in use {}",
                    show(&d.ncq_supported),
                    show(&d.ncq_drive_depth),
                    show(&d.queue_depth)
                ),
            ),
            (
                "write cache",
                format!(
                    "supported {}, enabled {}",
                    show(&d.write_cache_supported),
                    show(&d.write_cache_enabled)
                ),
            ),
            ("scheduler", show(&d.scheduler)),
            (
                "partitions",
                show_with(&d.partition_table, |t| {
                    let parts: Vec<String> = t
                        .partitions
                        .iter()
                        .map(|p| {
                            format!("{} start {} ({} B)", p.name, p.start_sector, p.start_bytes)
                        })
                        .collect();
                    format!("{} [{}]", t.scheme, parts.join("; "))
                }),
            ),
        ];
        for (k, v) in rows {
            s.push_str(&format!("  {k:<14} {v}\n"));
        }
        for l in &d.layers {
            let kind = l
                .kind
                .map_or("unknown".to_string(), |k| format!("{k:?}").to_lowercase());
            let mut extra = Vec::new();
            if let Some(n) = &l.display_name {
                extra.push(n.clone());
            }
            if let Some(lv) = &l.level {
                extra.push(lv.clone());
            }
            if let Some(c) = &l.cipher {
                extra.push(match l.key_bits {
                    Some(b) => format!("{c} {b}-bit key"),
                    None => c.clone(),
                });
            }
            if let Some(i) = &l.crypto_impl {
                extra.push(format!("driver {i}"));
            }
            let extra = if extra.is_empty() {
                String::new()
            } else {
                format!(" ({})", extra.join(", "))
            };
            s.push_str(&format!(
                "  {:<14} {} {kind} on {}{extra}\n",
                "layer",
                l.name,
                l.on.join(",")
            ));
        }
        if let Fact::Known { value: t, .. } = &d.partition_table {
            for p in t.partitions.iter().filter(|p| !p.children.is_empty()) {
                for c in &p.children {
                    s.push_str(&format!(
                        "  {:<14} {} in {} start {} ({} B)\n",
                        "label entry", c.name, p.name, c.start_sector, c.start_bytes
                    ));
                }
            }
            for n in &t.notes {
                s.push_str(&format!("  {:<14} {n}\n", "table note"));
            }
        }
        for n in &d.notes {
            s.push_str(&format!("  {:<14} {n}\n", "note"));
        }
        for m in &d.mounts {
            s.push_str(&format!(
                "  {:<14} {} on {} ({})\n",
                "mount", m.source, m.mountpoint, m.fstype
            ));
        }
    }
    if !hidden.is_empty() {
        let more = hidden.len().saturating_sub(6);
        s.push_str(&format!(
            "\n{} unconfigured loop/zram devices (size 0) not shown\n(the JSON lists them):\n  {}{}\n",
            hidden.len(),
            hidden[..hidden.len().min(6)].join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
    fit_rows(&s)
}

/// The facts are a report: every line within its 72 columns, a long `  key   value` row
/// wrapped under its value column (17: two spaces, the 14-column key, one space).
fn fit_rows(text: &str) -> String {
    const VALUE: usize = 17;
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let is_row = line.starts_with("  ") && line.get(VALUE - 1..VALUE) == Some(" ");
        if line.chars().count() <= WIDTH || !is_row {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let (key, value) = line.split_at(VALUE);
        for l in diskdoc_core::report::text::wrap(value, key, VALUE, WIDTH) {
            out.push_str(&l);
            out.push('\n');
        }
    }
    out
}
