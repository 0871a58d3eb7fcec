//! `camcontrol epc DEV -c status` (FreeBSD sbin/camcontrol/epc.c, `epc_getmode` and the
//! status printing after it): an ATA drive's power-management features and the power state
//! it is in, from IDENTIFY and CHECK POWER MODE (ACS-3 7.3):
//! "APM: NOT Supported, NOT Enabled", "EPC: Supported, Enabled",
//! "Low Power Standby NOT Supported", "Set EPC Power Source NOT Supported",
//! "Current power state: PM0:Active or PM1:Idle(0xff)". EPC enabled is how such drives
//! ship; the timers that could hurt are in `camcontrol epc DEV -c list` (or the drive's
//! power-condition log), not in this status, so the status alone shows no problem.

use crate::sources::spec;

/// What the status says.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct EpcStatus {
    /// (supported, enabled) of "APM:" and "EPC:".
    pub apm: Option<(bool, bool)>,
    pub epc: Option<(bool, bool)>,
    /// "PM0:Active or PM1:Idle", with the CHECK POWER MODE count (0xff).
    pub power_state: Option<String>,
}

fn clean(raw: &str) -> &str {
    raw.trim().trim_start_matches('>').trim()
}

/// "Supported, NOT Enabled" -> (true, false).
fn flags(v: &str) -> Option<(bool, bool)> {
    let (s, e) = v.split_once(',')?;
    let s = s.trim();
    let e = e.trim();
    let sup = match s {
        "Supported" => true,
        "NOT Supported" => false,
        _ => return None,
    };
    let en = match e {
        "Enabled" => true,
        "NOT Enabled" => false,
        _ => return None,
    };
    Some((sup, en))
}

pub fn parse(text: &str) -> Option<EpcStatus> {
    let mut s = EpcStatus::default();
    for raw in text.lines() {
        let l = clean(raw);
        if let Some(v) = l.strip_prefix("APM:") {
            s.apm = flags(v);
        } else if let Some(v) = l.strip_prefix("EPC:") {
            s.epc = flags(v);
        } else if let Some(v) = l.strip_prefix("Current power state:") {
            s.power_state = Some(v.trim().to_string());
        }
    }
    (s.apm.is_some() || s.epc.is_some() || s.power_state.is_some()).then_some(s)
}

// ---- the source spec (see sources::spec) ----

fn is_member(l: &str) -> bool {
    let l = clean(l);
    (l.starts_with("APM:") || l.starts_with("EPC:")) && flags(l.get(4..).unwrap_or("")).is_some()
        || l.starts_with("Low Power Standby ")
        || l.starts_with("Set EPC Power Source ")
        || l.starts_with("Current power state:")
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "camcontrol-epc",
    starts: &[(40, |lines| {
        let Some(first) = lines.first().map(|l| clean(l)) else {
            return spec::Start::No;
        };
        let head = (first.starts_with("APM:") || first.starts_with("EPC:")) && is_member(first);
        spec::Start::from(head && lines.get(1).is_some_and(|n| is_member(n)))
    })],
    member: |l, _| spec::Member::from(is_member(l)),
    tolerance: (0, 0),
    classify: |_, _| "camcontrol-epc",
    ..spec::Recogniser::NONE
};

/// `camcontrol epc -c status`: pasted beside a question, not captured by the probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    parse: Some(|t| usize::from(parse(t).is_some())),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        p == "camcontrol" && a.trim_start().starts_with("epc")
    })),
    ..spec::SourceSpec::named("camcontrol-epc", "camcontrol epc -c status")
};

#[cfg(test)]
mod tests;
