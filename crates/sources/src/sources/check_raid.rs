//! The check_raid monitoring plugin's verdict (Nagios/Icinga, glensc/nagios-plugin-check_raid
//! bin/check_raid.pl): "STATUS: plugin:[message]; plugin:[message]", one bracketed message
//! per RAID tool it ran (arcconf, areca, cciss, hpacucli/hpssacli/ssacli, megacli, mdstat,
//! tw_cli, ...), each the plugin's own summary of its tool's output:
//! - arcconf: "Logical Device 0(data):Degraded", "Logical device #0: Rebuild: In Progress 36%";
//! - areca: "Array#1(data): Rebuilding";
//! - cciss: "Volume 0 (RAID 1): OK";
//! - hpacucli: "Array A(OK)[LUN1:Interim Recovery Mode]";
//! - megacli: "Volumes(2): OS:Optimal,DATA:Degraded;";
//! - mdstat: "md0(203.81 MiB raid1):_U (recovery:3.6% 12K/sec ETA: 259.6min)";
//! - tw_cli: "u0(RAID-1): REBUILDING 98%";
//!
//! and the drives as "Drives(N): a,b=Online c=Failed" groups (arcconf names drives by their
//! serial numbers, tw_cli by port, areca by slot, megacli by slot under "Devices(N):").

use crate::sources::raid_controller::{
    ControllerReport, LogicalDrive, PhysicalDrive, Task, logical_state, physical_state,
};
use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(VERDICT, r"^(OK|WARNING|CRITICAL|UNKNOWN): (\w[\w-]*):\[");
crate::rx!(
    SEGMENT,
    r"(?:^(?:OK|WARNING|CRITICAL|UNKNOWN): |; )(\w[\w-]*):\["
);
crate::rx!(
    ARCCONF_LD,
    r"Logical Device (\d+)(?:\(([^)]*)\))?:\s*([A-Za-z][A-Za-z ]*)"
);
crate::rx!(
    ARCCONF_TASK,
    r"(?i:logical device) #(\d+): ([\w/ ]+?): In Progress (\d+(?:\.\d+)?)%"
);
crate::rx!(ARECA_SET, r"Array#(\d+)\(([^)]*)\): ([A-Za-z]+)");
crate::rx!(
    CCISS_VOL,
    r"Volume (\d+) \(([^)]*\)?)\): ([A-Za-z][A-Za-z ]*)"
);
crate::rx!(HP_ARRAY, r"Array ([A-Z]{1,2})\(([^)]*)\)\[([^\]]*)\]");
crate::rx!(MEGACLI_VOLS, r"Volumes\(\d+\): ([^;]*)");
crate::rx!(
    MD,
    r"(md\d+)\(([^)]*)\):(?:F:[^:]*:)?([U_]+|OK)(?: \((\w+)[:=]([\w.]+)%?)?"
);
crate::rx!(
    TW_UNIT,
    r"(u\d+)\(([^)]*)\): ([A-Z][A-Z-]*)(?: (\d+(?:\.\d+)?)%)?"
);
crate::rx!(
    DRIVES,
    r"(?:Drives|Devices|Drive Assignment)\(?\d*\)?: ([^;\]]*)"
);

/// The bracketed message of each plugin: (plugin, message).
fn segments(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for c in SEGMENT.captures_iter(line) {
        let (Some(name), Some(whole)) = (c.get(1), c.get(0)) else {
            continue;
        };
        // The message runs to the matching "]" (messages nest brackets: "[LUN1:OK]").
        let rest = line.get(whole.end()..).unwrap_or("");
        let mut depth = 1usize;
        let mut end = rest.len();
        for (i, ch) in rest.char_indices() {
            match ch {
                '[' => depth = depth.saturating_add(1),
                ']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push((
            name.as_str().to_string(),
            rest.get(..end).unwrap_or("").to_string(),
        ));
    }
    out
}

fn ld(name: String, level: Option<String>, state: &str, line: &str) -> LogicalDrive {
    LogicalDrive::from_state(name, level, state, line)
}

/// The logical drives one plugin's message names.
fn logical(plugin: &str, msg: &str, line: &str) -> Vec<LogicalDrive> {
    let mut out = Vec::new();
    let g = |c: &regex::Captures<'_>, i: usize| c.get(i).map_or("", |m| m.as_str()).to_string();
    for c in ARCCONF_LD.captures_iter(msg) {
        let name = match g(&c, 2) {
            n if n.is_empty() => format!("Logical Device {}", g(&c, 1)),
            n => format!("Logical Device {}({n})", g(&c, 1)),
        };
        out.push(ld(name, None, &g(&c, 3), line));
    }
    // arcconf's task line names the device by number: its progress goes to that device.
    for c in ARCCONF_TASK.captures_iter(msg) {
        let (_, task) = logical_state(&g(&c, 2));
        let pct = g(&c, 3)
            .parse::<f64>()
            .ok()
            .filter(|p| (0.0..=100.0).contains(p));
        let prefix = format!("Logical Device {}", g(&c, 1));
        if let Some(d) = out
            .iter_mut()
            .find(|d| d.name == prefix || d.name.starts_with(&format!("{prefix}(")))
        {
            d.task = d.task.or(task);
            d.percent = d.percent.or(pct);
        }
    }
    for c in ARECA_SET.captures_iter(msg) {
        out.push(ld(
            format!("Array#{}({})", g(&c, 1), g(&c, 2)),
            None,
            &g(&c, 3),
            line,
        ));
    }
    for c in CCISS_VOL.captures_iter(msg) {
        out.push(ld(
            format!("Volume {}", g(&c, 1)),
            Some(g(&c, 2)),
            &g(&c, 3),
            line,
        ));
    }
    for c in HP_ARRAY.captures_iter(msg) {
        for lun in g(&c, 3).split(", ") {
            if let Some((n, st)) = lun.split_once(':') {
                out.push(ld(format!("Array {} {n}", g(&c, 1)), None, st, line));
            }
        }
    }
    if plugin == "megacli" {
        for c in MEGACLI_VOLS.captures_iter(msg) {
            for v in g(&c, 1).split(',') {
                if let Some((n, st)) = v.rsplit_once(':')
                    && !n.contains("Cache")
                {
                    out.push(ld(n.trim().to_string(), None, st, line));
                }
            }
        }
    }
    for c in MD.captures_iter(msg) {
        let status = g(&c, 3);
        let action = g(&c, 4);
        let task = match action.as_str() {
            "recovery" => Some(Task::Recovery),
            "resync" => Some(Task::Resync),
            "check" => Some(Task::Check),
            "reshape" => Some(Task::Reshape),
            _ => None,
        };
        out.push(LogicalDrive {
            name: g(&c, 1),
            level: g(&c, 2).split_whitespace().last().map(str::to_string),
            degraded: status.contains('_'),
            task,
            percent: g(&c, 5)
                .parse::<f64>()
                .ok()
                .filter(|p| (0.0..=100.0).contains(p)),
            state: status,
            line: line.to_string(),
            ..Default::default()
        });
    }
    for c in TW_UNIT.captures_iter(msg) {
        let mut d = ld(g(&c, 1), Some(g(&c, 2)), &g(&c, 3), line);
        if d.task.is_some() {
            d.percent = g(&c, 4)
                .parse::<f64>()
                .ok()
                .filter(|p| (0.0..=100.0).contains(p));
        }
        out.push(d);
    }
    out
}

/// The drives of "Drives(N): a,b=Online c=Failed" groups whose state is a failure.
fn physical(msg: &str, line: &str) -> Vec<PhysicalDrive> {
    let mut out = Vec::new();
    for c in DRIVES.captures_iter(msg) {
        let list = c.get(1).map_or("", |m| m.as_str());
        // Groups are "names=State" separated by blanks; a state may hold blanks
        // ("Dedicated Hot-Spare for logical device 1"), so split at each "=" instead.
        let parts: Vec<&str> = list.split('=').collect();
        for i in 0..parts.len().saturating_sub(1) {
            let names = parts
                .get(i)
                .map(|p| p.rsplit(' ').next().unwrap_or(p))
                .unwrap_or("");
            let state = parts
                .get(i.saturating_add(1))
                .map(|s| match s.rfind(' ') {
                    Some(k) if i.saturating_add(2) < parts.len() => s.get(..k).unwrap_or(s),
                    _ => s,
                })
                .unwrap_or("")
                .trim()
                .trim_end_matches(',');
            let (failed, predictive_failure, rebuilding) = physical_state(state);
            let degraded_member = state.eq_ignore_ascii_case("DEGRADED");
            if !(failed || predictive_failure || rebuilding || degraded_member) {
                continue;
            }
            for n in drive_names(names) {
                out.push(PhysicalDrive {
                    address: n,
                    state: state.to_string(),
                    failed: failed || degraded_member,
                    predictive_failure,
                    rebuilding,
                    line: line.to_string(),
                    ..Default::default()
                });
            }
        }
    }
    out
}

// arcconf's plugin names a drive without a serial by "channel,device(T:L)": "0,1(1:0)".
crate::rx!(CHANNEL_DEVICE, r"\d+,\d+\(\d+:\d+\)");

/// The drive names of one "a,b,c" group, arcconf's "0,1(1:0)" kept whole.
fn drive_names(names: &str) -> Vec<String> {
    let mut out: Vec<String> = CHANNEL_DEVICE
        .find_iter(names)
        .map(|m| m.as_str().to_string())
        .collect();
    let rest = CHANNEL_DEVICE.replace_all(names, "");
    out.extend(
        rest.split(',')
            .filter(|n| !n.is_empty())
            .map(str::to_string),
    );
    out
}

/// Every verdict line of the text, read together.
pub fn parse(text: &str) -> ControllerReport {
    let mut out = ControllerReport::default();
    for raw in text.lines() {
        let l = clean_line(raw);
        let t = l.trim();
        if !VERDICT.is_match(t) {
            continue;
        }
        for (plugin, msg) in segments(t) {
            out.logical.extend(logical(&plugin, &msg, t));
            out.physical.extend(physical(&msg, t));
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "check-raid",
    starts: &[(63, |l| {
        spec::on_first(l, |t| VERDICT.is_match(clean_line(t).trim()))
    })],
    member: |t, _| spec::Member::from(VERDICT.is_match(clean_line(t).trim())),
    classify: |_, _| "check-raid",
    ..spec::Recogniser::NONE
};

/// The serial numbers arcconf's plugin lists as drive names ("Drives: WD-WCAW3636,
/// 3KS5ABTV0000970648ZZ=Online"): a name with letters and digits, not a port, slot or
/// channel number ("p0", "0:5", "1I-1-1", "16").
fn drive_serials(text: &str) -> Vec<spec::Found> {
    let mut out = Vec::new();
    for raw in text.lines() {
        let l = clean_line(raw);
        let t = l.trim();
        if !VERDICT.is_match(t) {
            continue;
        }
        for c in DRIVES.captures_iter(t) {
            let list = c.get(1).map_or("", |m| m.as_str());
            for group in list.split('=') {
                let names = group.rsplit(' ').next().unwrap_or(group);
                for n in names.split(',') {
                    let n = n.trim();
                    let letters = n.chars().filter(|c| c.is_ascii_alphabetic()).count();
                    let digits = n.chars().filter(|c| c.is_ascii_digit()).count();
                    let port = n.len() <= 4 || n.contains(':') || n.matches('-').count() >= 2;
                    if !port && letters > 0 && digits > 0 && n.len() >= 6 {
                        out.push(spec::Found::sure(spec::SecretKind::Serial, n));
                    }
                }
            }
        }
    }
    out
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        p == "check_raid" || p == "check_raid.pl"
    })),
    programs: &[
        spec::Program::new("check_raid", |_| true),
        spec::Program::new("check_raid.pl", |_| true),
    ],
    secrets: &[spec::Secret::Scan(drive_serials)],
    ..spec::SourceSpec::named("check-raid", "check_raid monitoring plugin")
};

#[cfg(test)]
mod tests;
