//! A listing of the SATA hosts' link power management policies, as people paste it:
//! `cat /sys/class/scsi_host/host*/link_power_management_policy` (one value a line) or
//! `grep . /sys/class/scsi_host/host*/link_power_management_policy` ("PATH:value"). The
//! values are libata's names of its policies (drivers/ata/libata-sata.c
//! ata_lpm_policy_names; Documentation/ABI/testing/sysfs-class-scsi_host): "max_performance"
//! (no link power saving), "medium_power", "med_power_with_dipm", "min_power_with_partial",
//! "min_power", and "keep_firmware_settings". The aggressive ones make the link sleep between
//! commands; some drives and controllers fail to wake (COMRESET failures, link resets), which
//! is the power-management check's case, read from the policy and the kernel log together.

use crate::sources::spec;
use crate::sources::util::clean_line;

/// libata's policy names (ata_lpm_policy_names), longest first so a prefix never wins.
const POLICIES: &[&str] = &[
    "min_power_with_partial",
    "keep_firmware_settings",
    "med_power_with_dipm",
    "max_performance",
    "medium_power",
    "min_power",
];

/// One host's policy: the host when the line names its path ("host3"), and the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostPolicy {
    pub host: Option<String>,
    pub policy: String,
    pub line: String,
}

/// The policy a line shows: the bare value, or "PATH:value" with the attribute's path.
fn policy_of(raw: &str) -> Option<HostPolicy> {
    let l = clean_line(raw);
    let l = l.trim();
    let (host, value) = match l.rsplit_once(':') {
        Some((path, v)) if path.ends_with("link_power_management_policy") => {
            let host = path
                .split('/')
                .find(|p| p.starts_with("host") && p[4..].chars().all(|c| c.is_ascii_digit()))
                .map(str::to_string);
            (host, v.trim())
        }
        Some(_) => return None,
        None => (None, l),
    };
    POLICIES.contains(&value).then(|| HostPolicy {
        host,
        policy: value.to_string(),
        line: l.to_string(),
    })
}

/// Every host's policy in the text, in order.
pub fn parse(text: &str) -> Vec<HostPolicy> {
    text.lines().filter_map(policy_of).collect()
}

/// The one policy every listed host has, when they all have the same one.
pub fn uniform(hosts: &[HostPolicy]) -> Option<&str> {
    let first = hosts.first()?.policy.as_str();
    hosts.iter().all(|h| h.policy == first).then_some(first)
}

/// A listing starts at a policy line followed by another (one bare word alone could be
/// any word), or at a line that names the attribute's path.
fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let Some(p) = policy_of(first) else {
        return spec::Start::No;
    };
    let next = lines.get(1).is_some_and(|n| policy_of(n).is_some());
    spec::Start::from(p.host.is_some() || next)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "lpm-policy",
    starts: &[(68, start)],
    member: |t, _| spec::Member::from(policy_of(t).is_some()),
    classify: |_, _| "lpm-policy",
    ..spec::Recogniser::NONE
};

/// The hosts' link power management policies, pasted (the live probe reads the same files
/// per host, sources::sysfs::lpm_policy).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        (p == "cat" || p == "grep") && a.contains("link_power_management_policy")
    })),
    ..spec::SourceSpec::named("lpm-policy", "link_power_management_policy listing")
};

#[cfg(test)]
mod tests;
