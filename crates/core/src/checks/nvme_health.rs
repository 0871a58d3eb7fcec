//! `nvme-health`: the NVMe SMART / Health Information log (NVMe Base Specification 2.0,
//! Log Page 02h) says the drive is failing, worn out, read-only or logging media errors, or
//! the namespace uses 512-byte blocks where the drive offers 4096 (Identify Namespace LBA
//! Format list, Relative Performance). Sources: smartctl -j/-a, nvme-cli `nvme smart-log`,
//! FreeBSD `nvmecontrol logpage -p 2` (sources/nvme_smart.rs).

use crate::checks::common::{self, is_nvme};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{DiskFacts, Fact, NvmeHealth, SystemFacts};
use crate::sources::nvme_smart::warning_words;
use crate::sources::{ask, spec::Ask};

pub const ID: &str = "nvme-health";

pub(crate) struct NvmeHealthCheck;

impl Check for NvmeHealthCheck {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "NVMe health"
    }
    fn summary(&self) -> &'static str {
        "NVMe health log: critical warning bits, spare below threshold, endurance used up, media errors, read-only, 512 B format where 4096 B is offered"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        common::disks(sys)
            .filter(|d| is_nvme(d))
            .map(|d| check_disk(sys, d))
            .collect()
    }
}

fn ctrl(d: &DiskFacts) -> String {
    // The controller whose log gave the health (FreeBSD: facts::freebsd::device_state::
    // nvme_controller found it, never by unit), e.g. the key of `nvmecontrol logpage -p 2 nvme1`.
    if let Some(c) = d.nvme_health.sources().iter().find_map(|k| {
        k.rsplit(['/', ' '])
            .next()
            .and_then(crate::sources::block_recognisers::nvme_controller)
    }) {
        return c;
    }
    // nvme0n1 -> nvme0; otherwise the usual numbering, for the text of a command to run.
    crate::plan::device_state::nvme_controller(&d.name)
        .map(|c| c.trim_start_matches("/dev/").to_string())
        .unwrap_or_else(|| {
            let unit: String = d.name.chars().filter(|c| c.is_ascii_digit()).collect();
            format!("nvme{unit}")
        })
}

/// Problems in the log, worst first: (severity, sentence).
pub fn problems(h: &NvmeHealth) -> Vec<(Severity, String)> {
    let mut out = Vec::new();
    let cw = h.critical_warning.unwrap_or(0);
    if cw != 0 {
        let words = warning_words(cw);
        let sev = if cw & 0x09 != 0 {
            Severity::Critical
        } else {
            Severity::Warning
        };
        out.push((
            sev,
            format!(
                "the drive raises critical warning 0x{cw:02x}: {}",
                words.join("; ")
            ),
        ));
        if cw & 0x04 != 0 && h.percentage_used.is_some_and(|p| p >= 100) {
            out.push((
                Severity::Info,
                "some firmware (Samsung, per smartmontools issue 537) sets the reliability bit \
                 once Percentage Used reaches 100 %, with spare still above its threshold"
                    .to_string(),
            ));
        }
    }
    if let (Some(s), Some(t)) = (h.available_spare, h.spare_threshold)
        && t <= 100
        && s < t
    {
        out.push((
            Severity::Critical,
            format!("available spare is {s} %, below the drive's threshold of {t} %"),
        ));
    }
    if cw & 0x08 != 0 {
        out.push((
            Severity::Critical,
            "the media is read-only: every write fails".to_string(),
        ));
    }
    match h.percentage_used {
        Some(p) if p >= 100 => out.push((
            Severity::Warning,
            format!("Percentage Used is {p} %: the rated write endurance is used up"),
        )),
        Some(p) if p >= 90 => out.push((
            Severity::Notice,
            format!("Percentage Used is {p} %: close to the rated write endurance"),
        )),
        _ => {}
    }
    if let Some(m) = h.media_errors.filter(|m| *m > 0) {
        out.push((
            Severity::Warning,
            format!("{m} media and data integrity errors (unrecovered reads or writes)"),
        ));
    }
    if let Some(cur) = h.lba_formats.iter().find(|f| f.in_use)
        && cur.data_bytes < 4096
        && let Some(big) = h
            .lba_formats
            .iter()
            .find(|f| f.data_bytes == 4096 && !f.in_use)
    {
        let better =
            matches!((big.rel_perf, cur.rel_perf), (Some(b), Some(c)) if b.saturating_add(1) < c);
        // Relative Performance (NVMe Base 2.0 figure 276, RP: 0 best .. 3 degraded) is the
        // drive's own word on what a format costs: with 4096 B rated no better than the
        // format in use, switching buys nothing the drive admits to, so it is a remark, not
        // a problem (most client drives rate both "Best"). One step of that four-step scale
        // (WD's client drives ship 512 B "Good" beside 4096 B "Better") is a hint the drive
        // gives, not a cost anyone measured; a remark too, since the fix erases the namespace.
        out.push((
            if better {
                Severity::Notice
            } else {
                Severity::Info
            },
            format!(
                "the namespace uses {} B blocks while the drive offers 4096 B{}",
                cur.data_bytes,
                if better {
                    " and rates that format faster (lower Rel_Perf)"
                } else {
                    ""
                }
            ),
        ));
    }
    crate::sort::sort_by_key(&mut out, |x| std::cmp::Reverse(x.0));
    out
}

fn summary_line(h: &NvmeHealth) -> String {
    let mut v = Vec::new();
    if let Some(c) = h.critical_warning {
        v.push(format!("critical_warning=0x{c:02x}"));
    }
    if let Some(s) = h.available_spare {
        v.push(format!("available_spare={s}%"));
    }
    if let Some(t) = h.spare_threshold {
        v.push(format!("spare_threshold={t}%"));
    }
    if let Some(p) = h.percentage_used {
        v.push(format!("percentage_used={p}%"));
    }
    if let Some(m) = h.media_errors {
        v.push(format!("media_errors={m}"));
    }
    if let Some(t) = h.temperature_c {
        v.push(format!("temperature={t}C"));
    }
    if let Some(f) = h.lba_formats.iter().find(|f| f.in_use) {
        v.push(format!("lba_format={}B", f.data_bytes));
    }
    v.join(" ")
}

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    let c = ctrl(d);
    let Fact::Known { value: h, .. } = &d.nvme_health else {
        let how = match sys.platform {
            Platform::Freebsd => format!(
                "run diskdoc as root with smartmontools installed so `{}` \
                 (the controller, not {}) or `nvmecontrol logpage -p 2 {c}` can be read",
                ask(Ask::SmartReport, &format!("/dev/{c}")),
                d.name
            ),
            _ => format!(
                "run diskdoc as root with smartmontools (`apt install smartmontools`) or \
                 nvme-cli (`apt install nvme-cli`) so `{}` or `nvme smart-log \
                 /dev/{c}` can be read",
                ask(Ask::SmartJson, &d.dev_path)
            ),
        };
        return common::unknown(
            ID,
            d,
            format!("NVMe health of {} unknown", d.name),
            "The NVMe SMART/Health log (log page 02h)",
            &common::why(&d.nvme_health),
            &how,
        );
    };
    let line = summary_line(h);
    let cite = |f: Finding| common::cite(f, &d.nvme_health, line.clone());
    let ps = problems(h);
    let Some((worst, _)) = ps.first().cloned() else {
        return cite(
            common::pass(ID, d, "NVMe health log clean").explain(format!(
                "No critical warning, spare {} (threshold {}), {} of the rated endurance \
                 used, {} media errors.",
                h.available_spare
                    .map(|s| format!("{s} %"))
                    .unwrap_or("unknown".into()),
                h.spare_threshold
                    .map(|s| format!("{s} %"))
                    .unwrap_or("unknown".into()),
                h.percentage_used
                    .map(|s| format!("{s} %"))
                    .unwrap_or("unknown".into()),
                h.media_errors
                    .map(|s| s.to_string())
                    .unwrap_or("unknown".into()),
            )),
        );
    };
    if worst == Severity::Info {
        let remarks: Vec<&str> = ps.iter().map(|(_, t)| t.as_str()).collect();
        return cite(
            common::pass(ID, d, format!("{}: NVMe health log clean", d.name))
                .explain(format!("Remarks, none a problem: {}.", remarks.join("; "))),
        );
    }
    let only_format = ps
        .iter()
        .all(|(s, t)| *s <= Severity::Notice && t.contains("B blocks"));
    let title = if only_format {
        format!("{}: namespace formatted with 512-byte blocks", d.name)
    } else {
        format!("{}: the NVMe health log reports trouble", d.name)
    };
    let mut expl = String::from("The drive's own health log says: ");
    expl.push_str(
        &ps.iter()
            .map(|(_, t)| t.as_str())
            .collect::<Vec<_>>()
            .join("; "),
    );
    expl.push_str(". ");
    if !only_format {
        expl.push_str(
            "A drive in this state retries reads, remaps blocks and may slow or refuse \
             writes; back up its data first. ",
        );
    } else {
        expl.push_str(
            "512-byte blocks cost some drives throughput on small writes; reformatting to \
             4096 B erases the namespace. ",
        );
    }
    let mut f = Finding::new(ID, &d.name, Verdict::Problem, worst, title)
        .explain(expl)
        .confidence(Confidence::Medium)
        .impact(if only_format { 0.1 } else { 0.6 });
    f = cite(f);
    for x in fixes(sys.platform, d, &c, only_format) {
        f = f.fix(x);
    }
    f
}

fn fixes(platform: Platform, d: &DiskFacts, c: &str, only_format: bool) -> Vec<Fix> {
    let dev = &d.dev_path;
    let (read, format) = match platform {
        Platform::Linux => (
            vec![
                format!(
                    "`sudo {}` and `sudo nvme error-log /dev/{c}`",
                    ask(Ask::SmartExtended, &format!("/dev/{c}"))
                ),
                format!("`sudo nvme fw-log /dev/{c}`: compare with the vendor's latest firmware"),
            ],
            vec![
                format!("`sudo nvme id-ns -H {dev} | grep 'LBA Format'` lists the formats"),
                format!("Back up, then `sudo nvme format {dev} --lbaf=1` (the 4096 B index)"),
            ],
        ),
        Platform::Freebsd => (
            vec![
                format!("`nvmecontrol logpage -p 2 {c}` and `nvmecontrol logpage -p 1 {c}`"),
                format!(
                    "`{}` (the controller node)",
                    ask(Ask::SmartExtended, &format!("/dev/{c}"))
                ),
            ],
            vec![
                format!("`nvmecontrol identify -n 1 {c}` lists the LBA formats"),
                format!("Back up, then `nvmecontrol format -f 1 {c}ns1` (the 4096 B index)"),
            ],
        ),
        Platform::Unknown => return Vec::new(),
    };
    if only_format {
        return vec![Fix {
            platform,
            summary: "reformat the namespace to 4096-byte blocks".into(),
            steps: format,
            risk: "formatting erases every byte on the namespace; the boot loader and \
                   partition table must be recreated"
                .into(),
        }];
    }
    let mut steps = vec!["Back up the data now".to_string()];
    steps.extend(read);
    steps.push("Replace the drive (warranty claims cite these log values)".into());
    vec![Fix {
        platform,
        summary: "save the data and replace the drive".into(),
        steps,
        risk: "a drive that is read-only or out of spare can stop answering at any time".into(),
    }]
}

#[cfg(test)]
mod tests;
