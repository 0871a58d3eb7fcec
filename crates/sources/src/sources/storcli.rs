//! Broadcom (LSI/Avago) StorCLI and its Dell build perccli: `storcli /c0 show [all]`,
//! `storcli /c0/vall show [all]`, `storcli /c0/eall/sall show [all]`, `... show rebuild`.
//! Reference: the StorCLI reference manual and the legends the tool prints under its tables:
//! virtual drive states Optl (optimal), Dgrd (degraded), Pdgd (partially degraded), OfLn
//! (offline), Rec (recovery); drive states Onln, Offln, UGood, UBad (unconfigured bad),
//! Rbld (rebuild), Failed, Msng (missing), GHS/DHS (hot spares); the Cache column joins the
//! read policy (R, NR, Ra), the write policy (WB write back, AWB always write back, WT write
//! through) and the I/O policy (C, D): "RWBD", "NRWTD", "RaAWBD", or "NR,WB" in perccli2's
//! CurrentCache column.
//!
//! Tables read: the VD LIST / "Virtual Drives" table ("DG/VD TYPE State Access Consist Cache
//! ..." rows "0/0 RAID5 Dgrd RW Yes RWBD - ON 40.017 TB data1"), the TOPOLOGY table (" 0 0
//! 9 0:9 12 DRIVE Failed N 3.637 TB ..."), the PD LIST / "Drive Information" table
//! ("0:9 12 Failed 0 3.637 TB SATA HDD ..."), a drive's detail section ("Drive /c0/e8/s6 State
//! :" with "Media Error Count = 0", "Predictive Failure Count = 0", "S.M.A.R.T alert flagged by
//! drive = No") and the rebuild progress table ("/c0/e32/s4 3 In progress -"). A write policy
//! of WT where the controller would write back (a failed or charging BBU/CacheVault, or no
//! cache protection) makes every write wait for the drives: the classic slow RAID. A VD's
//! properties (`/cx/vx show all`) give what it was set to: "Write Cache(initial setting) =
//! WriteBack" under a WT Cache column is the controller's fallback, not the owner's choice.

use crate::sources::raid_controller::{
    CacheOff, ControllerReport, LogicalDrive, PhysicalDrive, Task, write_through,
};
use crate::sources::spec;
use crate::sources::util::clean_line;

// "0/0   RAID5 Dgrd  RW     Yes     RWBD  -   ON  40.017 TB data1"
crate::rx!(
    VD_ROW,
    r"^\s*(\d+/\d+)\s+(RAID\d*|Cac\d*|JBOD|NytroCache\S*)\s+(\S+)\s+(\S+)\s+(?:(Yes|No)\s+)?(\S+)"
);
// " 0 0   9   0:9      12  DRIVE Failed N   3.637 TB ..." (DG Arr Row EID:Slot DID Type State)
crate::rx!(
    TOPO_DRIVE,
    r"^\s*\d+\s+\S+\s+\S+\s+(\d*:\d+)\s+\d+\s+DRIVE\s+(\S+)"
);
// " 0 -   -   -        -   RAID5 Dgrd   N  40.017 TB" (the drive group's own row)
crate::rx!(
    TOPO_GROUP,
    r"^\s*(\d+)\s+(\S+)\s+-\s+-\s+-\s+(RAID\d*)\s+(\S+)"
);
// "0:9      12 Failed  0 3.637 TB SATA HDD ...", "268:1   258 Conf  Online  0 893.75 GiB ..."
crate::rx!(
    PD_ROW,
    r"^\s*(\d*:\d+)\s+\d+\s+(\S+)\s+(?:(\S+)\s+)?(?:\d+|-|F)\s+[\d.]+\s+[KMGTP]i?B\b"
);
// "Drive /c0/e8/s6 State :", "Drive /c0/s2 :"
crate::rx!(DRIVE_HEAD, r"^\s*Drive (/c\d+(?:/e\d+)?/s\d+)\b");
crate::rx!(KV, r"^\s*([A-Za-z][\w .()/'-]*?)\s*=\s*(.*?)\s*$");
// "/c0/e32/s4         3 In progress -"
crate::rx!(
    REBUILD_ROW,
    r"^\s*(/c\d+(?:/e\d+)?/s\d+)\s+(\d{1,3})\s+In progress\b"
);
crate::rx!(VD_HEADER, r"^\s*DG/VD\s+TYPE\s+State\b");
crate::rx!(PD_HEADER, r"^\s*EID:Slt\s+(?:DID|PID)\s+State\b");
crate::rx!(TOPO_HEADER, r"^\s*DG\s+Arr\s+Row\s+EID:Slot\b");
crate::rx!(
    LEGEND,
    r"(?:Dgrd=Degraded|Onln-Online|Onln=Online|UBad-Unconfigured Bad|OfLn=OffLine|DHS-Dedicated Hot Spare)"
);
crate::rx!(
    CLI_VERSION,
    r"^\s*(?:CLI Version|Controller|Status|Description)\s*="
);

// "VD0 Properties :" (the VD number, not the drive group).
crate::rx!(VD_PROPS, r"^\s*VD(\d+) Properties\s*:");

/// What a storcli output says: the controller report, with the virtual drives in
/// write-through and the cache protection's state when shown (BBU / CacheVault "State" or
/// "Status": "Optimal", "Failed", "Degraded", "Learning", ... as printed).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Storcli {
    pub report: ControllerReport,
}

fn vd_state_words(s: &str) -> &str {
    match s {
        "Optl" => "Optimal",
        "Dgrd" => "Degraded",
        "Pdgd" => "Partially Degraded",
        "OfLn" => "Offline",
        "Rec" => "Recovery",
        other => other,
    }
}

fn pd_state_words(s: &str) -> &str {
    match s {
        "Onln" => "Online",
        "Offln" => "Offline",
        "UBad" => "Unconfigured(bad)",
        "UGood" => "Unconfigured(good)",
        "Rbld" => "Rebuild",
        "Msng" => "Missing",
        other => other,
    }
}

fn physical(out: &mut ControllerReport, address: &str, state: &str, line: &str) {
    let words = pd_state_words(state);
    let mut d = PhysicalDrive::from_state(address, words, line);
    // A drive the controller lost from its group is out of service too.
    if state == "Msng" {
        d.failed = true;
    }
    match out.physical.iter_mut().find(|p| p.address == address) {
        Some(p) => {
            p.failed |= d.failed;
            p.rebuilding |= d.rebuilding;
        }
        None => out.physical.push(d),
    }
}

pub fn parse(text: &str) -> Storcli {
    let mut out = Storcli::default();
    let r = &mut out.report;
    let mut detail: Option<String> = None;
    let mut cache_section = false;
    // The VD whose "VDn Properties" section is being read.
    let mut props: Option<String> = None;
    for raw in text.lines() {
        let l = clean_line(raw);
        let t = l.trim();
        if let Some(c) = VD_ROW.captures(&l) {
            let name = format!("VD {}", c.get(1).map_or("", |m| m.as_str()));
            let level = c.get(2).map(|m| m.as_str().to_string());
            let state = c.get(3).map_or("", |m| m.as_str());
            let mut ld = LogicalDrive::from_state(name.clone(), level, vd_state_words(state), t);
            if state == "Rec" {
                ld.task = Some(Task::Recovery);
            }
            if !r.logical.iter().any(|x| x.name == ld.name) {
                r.logical.push(ld);
            }
            let cache = c.get(6).map_or("", |m| m.as_str());
            if write_through(cache) == Some(true) && !r.cache_off.iter().any(|w| w.name == name) {
                r.cache_off.push(CacheOff {
                    name,
                    line: t.to_string(),
                    why: Some(format!("Cache column {cache}")),
                    ..Default::default()
                });
            }
            continue;
        }
        if let Some(c) = TOPO_DRIVE.captures(&l) {
            let a = c.get(1).map_or("", |m| m.as_str());
            physical(r, a, c.get(2).map_or("", |m| m.as_str()), t);
            continue;
        }
        if let Some(c) = TOPO_GROUP.captures(&l) {
            let name = format!("DG {}", c.get(1).map_or("", |m| m.as_str()));
            let state = c.get(4).map_or("", |m| m.as_str());
            // The group's state repeats its virtual drives'; keep it only when no VD row
            // says so (a TOPOLOGY table pasted alone).
            if !r.logical.iter().any(|x| x.name == name) && state != "Optl" {
                let level = c.get(3).map(|m| m.as_str().to_string());
                r.logical.push(LogicalDrive::from_state(
                    name,
                    level,
                    vd_state_words(state),
                    t,
                ));
            }
            continue;
        }
        if let Some(c) = PD_ROW.captures(&l) {
            let a = c.get(1).map_or("", |m| m.as_str());
            // perccli2 prints "Conf Online": the second word is the drive's status.
            let s1 = c.get(2).map_or("", |m| m.as_str());
            let s2 = c.get(3).map_or("", |m| m.as_str());
            let state = if matches!(s1, "Conf" | "UConf") {
                s2
            } else {
                s1
            };
            physical(r, a, state, t);
            continue;
        }
        if let Some(c) = REBUILD_ROW.captures(&l) {
            let a = c.get(1).map_or("", |m| m.as_str()).to_string();
            let pct = c.get(2).and_then(|m| m.as_str().parse::<f64>().ok());
            let mut ld = LogicalDrive::from_state(format!("rebuild onto {a}"), None, "Rebuild", t);
            ld.task = Some(Task::Recovery);
            ld.degraded = true;
            ld.percent = pct.filter(|p| (0.0..=100.0).contains(p));
            r.logical.push(ld);
            continue;
        }
        if let Some(c) = DRIVE_HEAD.captures(&l) {
            detail = c.get(1).map(|m| m.as_str().to_string());
            continue;
        }
        if let Some(c) = VD_PROPS.captures(&l) {
            props = c.get(1).map(|m| format!("/{}", m.as_str()));
            continue;
        }
        if t.starts_with("BBU_Info")
            || t.starts_with("Cachevault_Info")
            || t.starts_with("BBU :")
            || t.starts_with("Cachevault_Info :")
        {
            cache_section = true;
            continue;
        }
        if cache_section {
            // "CVPM02 Optimal 21C - 2016/09/18 ..." / "iBBU Failed ..." under "Model State ...".
            let w: Vec<&str> = t.split_whitespace().collect();
            if let [_, state, ..] = w.as_slice()
                && !t.starts_with("Model")
                && !t.starts_with('-')
                && state.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            {
                r.cache_protection = Some(state.to_string());
                cache_section = false;
            }
        }
        let Some(c) = KV.captures(&l) else { continue };
        let k = c.get(1).map_or("", |m| m.as_str()).trim();
        let v = c.get(2).map_or("", |m| m.as_str()).trim();
        match (k, detail.as_deref()) {
            ("Media Error Count", Some(a)) => {
                let n = v.parse::<u64>().ok();
                drive_counter(r, a, t, |d| d.media_errors = n);
            }
            ("Predictive Failure Count", Some(a)) => {
                let n = v.parse::<u64>().ok();
                drive_counter(r, a, t, |d| {
                    d.predictive_count = n;
                    if n.is_some_and(|n| n > 0) {
                        d.predictive_failure = true;
                    }
                });
            }
            ("S.M.A.R.T alert flagged by drive", Some(a)) if v.eq_ignore_ascii_case("yes") => {
                drive_counter(r, a, t, |d| d.predictive_failure = true);
            }
            ("BBU Status" | "Cachevault Status" | "CacheVault Status", _)
                if r.cache_protection.is_none() =>
            {
                r.cache_protection = Some(v.to_string());
            }
            ("Write Cache(initial setting)", _) if write_through(v) == Some(false) => {
                let vd = props.as_deref().unwrap_or("/");
                for w in r.cache_off.iter_mut().filter(|w| w.name.ends_with(vd)) {
                    w.fallback = true;
                    w.why = Some(format!(
                        "{}, initial setting {v}",
                        w.why.take().unwrap_or_default()
                    ));
                }
            }
            _ => {}
        }
    }
    out
}

/// The detail section's drive ("/c0/e8/s6") by its table address ("8:6"), made when the
/// tables did not list it.
fn drive_counter(
    r: &mut ControllerReport,
    path: &str,
    line: &str,
    f: impl FnOnce(&mut PhysicalDrive),
) {
    let mut e = "";
    let mut s = "";
    for part in path.split('/') {
        if let Some(x) = part.strip_prefix('e') {
            e = x;
        } else if let Some(x) = part.strip_prefix('s') {
            s = x;
        }
    }
    let address = format!("{e}:{s}");
    if !r.physical.iter().any(|p| p.address == address) {
        r.physical.push(PhysicalDrive {
            address: address.clone(),
            line: line.trim().to_string(),
            ..Default::default()
        });
    }
    if let Some(d) = r.physical.iter_mut().find(|p| p.address == address) {
        f(d);
        if d.line.is_empty() || d.has_problem() {
            d.line = line.trim().to_string();
        }
    }
}

// ---- the source spec (see sources::spec) ----

fn is_table_rule(t: &str) -> bool {
    t.len() >= 10 && t.chars().all(|c| c == '-' || c == '=')
}

fn is_own(line: &str) -> bool {
    let l = clean_line(line);
    let t = l.trim();
    VD_ROW.is_match(&l)
        || TOPO_DRIVE.is_match(&l)
        || TOPO_GROUP.is_match(&l)
        || PD_ROW.is_match(&l)
        || REBUILD_ROW.is_match(&l)
        || DRIVE_HEAD.is_match(&l)
        || VD_HEADER.is_match(&l)
        || PD_HEADER.is_match(&l)
        || TOPO_HEADER.is_match(&l)
        || LEGEND.is_match(&l)
        || is_table_rule(t)
}

/// Every line of a storcli output that is not prose: "Key = Value" rows, section titles
/// ("VD LIST :", "/c0/v1 :"), legend lines with "|" and table rows.
fn is_member(line: &str) -> bool {
    let l = clean_line(line);
    let t = l.trim();
    is_own(line)
        || KV.is_match(&l)
        || (t.ends_with(" :") && t.len() < 60)
        || t.contains('|') && t.contains('=')
        || t.split_whitespace().count() >= 4
            && !t.ends_with('.')
            && t.chars().filter(|c| c.is_ascii_digit()).count() >= 2
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let l = clean_line(first);
    if VD_HEADER.is_match(&l)
        || PD_HEADER.is_match(&l)
        || TOPO_HEADER.is_match(&l)
        || REBUILD_ROW.is_match(&l)
    {
        return spec::Start::Yes;
    }
    // The "CLI Version = ..." / "Controller = 0" preamble, a table rule or a drive heading,
    // with a storcli table header or drive heading within the next lines.
    if CLI_VERSION.is_match(&l) || is_table_rule(l.trim()) || DRIVE_HEAD.is_match(&l) {
        let own = lines.iter().skip(1).take(12).any(|x| {
            let c = clean_line(x);
            VD_HEADER.is_match(&c)
                || PD_HEADER.is_match(&c)
                || TOPO_HEADER.is_match(&c)
                || DRIVE_HEAD.is_match(&c)
                || c.contains("Drive-ID   Progress%")
                || c.trim_start().starts_with("Product Name =")
        });
        return spec::Start::from(own);
    }
    spec::Start::No
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "storcli",
    starts: &[(61, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    // Sections are separated by one or two blank lines.
    tolerance: (3, 1),
    classify: |_, _| "storcli",
    ..spec::Recogniser::NONE
};

fn args(a: &str) -> bool {
    let a = a.trim_start();
    a.starts_with("/c") || a.starts_with("show") || a.starts_with("-v") || a.starts_with('/')
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).report.len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        matches!(
            p,
            "storcli" | "storcli64" | "perccli" | "perccli64" | "perccli2"
        )
    })),
    programs: &[
        spec::Program::new("storcli", args),
        spec::Program::new("storcli64", args),
        spec::Program::new("perccli", args),
        spec::Program::new("perccli64", args),
        spec::Program::new("perccli2", args),
    ],
    mention: Some(r"(?:storcli|perccli)(?:64|2)?\s+/c"),
    // "Serial Number = SP81928512", "SAS Address = 500605b00dd9c7b0", "WWN = 5000CCA0...",
    // "SN = P9HSY12W" (a drive's detail section).
    secrets: &[
        spec::Secret::After("sas address =", spec::SecretKind::Wwn),
        spec::Secret::After("wwn =", spec::SecretKind::Wwn),
        spec::Secret::After("sn =", spec::SecretKind::Serial),
        spec::Secret::After("serial number =", spec::SecretKind::Serial),
    ],
    ..spec::SourceSpec::named("storcli", "Broadcom StorCLI / Dell perccli")
};

#[cfg(test)]
mod tests;
