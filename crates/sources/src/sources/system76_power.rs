//! system76-power (pop-os/system76-power), the power-profile daemon of Pop!_OS and System76
//! laptops, as people paste it when a profile switch complains. Its client prints "setting
//! power profile to Battery" (Balanced, Performance), then, when the daemon's profile
//! setters failed, the daemon's D-Bus error: "daemon returned an error message: "Errors
//! found when setting profile:" (or, from busctl/gdbus, "org.freedesktop.DBus.Error.Failed:
//! Errors found when setting profile:") with one "- failed to set ..." line per setter
//! (src/errors.rs ProfileError: "failed to set scsi host profiles: failed to set link time
//! power management policy min_power on host0: No such file or directory (os error 2)",
//! "failed to set backlight profiles", "failed to set pci device profiles" ...).
//!
//! The SCSI-host setter writes every /sys/class/scsi_host/host*/link_power_management_policy
//! (libata's names, sources::lpm_policy): a host that is not an AHCI port (a USB storage or
//! NVMe-less virtual host) has no such file (ENOENT), and a port whose controller lacks
//! link power management refuses it (EOPNOTSUPP, libata-sata.c
//! ata_scsi_lpm_store). The policy stays what it was: the daemon's noise, not a disk fault
//! (the maintainers call it expected, pop-os/system76-power issues 265 and 477).

use crate::sources::{spec, util};

/// One setter's failure.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SetterError {
    /// What the setter was setting ("scsi host profiles", "backlight profiles").
    pub setter: String,
    /// The link power management policy and host, when the SCSI-host setter says which.
    pub lpm: Option<(String, String)>,
    /// The strerror text with Rust's "(os error N)" ("No such file or directory (os error 2)").
    pub error: String,
}

crate::rx!(CLIENT, r"^setting power profile to \w+\s*$");
crate::rx!(
    ERRORS,
    r#"^(?:daemon returned an error message: "?|org\.freedesktop\.DBus\.Error\.Failed: |Error: )?Errors found when setting profile:\s*$"#
);
crate::rx!(SETTER, r"^[-*] failed to set ([\w /-]+?): (.+?)\x22?\s*$");
crate::rx!(
    LPM,
    r"^failed to set link time power management policy (\w+) on (host\d+): (.+)$"
);

fn clean(l: &str) -> String {
    util::clean_line(l)
        .trim()
        .trim_matches('`')
        .trim()
        .to_string()
}

/// The setters' failures the paste lists.
pub(crate) fn parse(text: &str) -> Vec<SetterError> {
    text.lines()
        .filter_map(|raw| {
            let t = clean(raw);
            let c = SETTER.captures(&t)?;
            let setter = c.get(1)?.as_str().to_string();
            let rest = c.get(2)?.as_str();
            let (lpm, error) = match LPM.captures(rest) {
                Some(l) => (
                    Some((
                        l.get(1)?.as_str().to_string(),
                        l.get(2)?.as_str().to_string(),
                    )),
                    l.get(3)?.as_str().to_string(),
                ),
                None => (None, rest.to_string()),
            };
            Some(SetterError { setter, lpm, error })
        })
        .collect()
}

// ---- the source spec (see sources::spec) ----

fn is_member(l: &str) -> bool {
    let t = clean(l);
    (t.is_empty() && !l.trim().is_empty())
        || CLIENT.is_match(&t)
        || ERRORS.is_match(&t)
        || SETTER.is_match(&t)
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first().map(|l| clean(l)) else {
        return spec::Start::No;
    };
    spec::Start::from(CLIENT.is_match(&first) || ERRORS.is_match(&first))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "system76-power",
    starts: &[(126, start)],
    member: |l, _| spec::Member::from(is_member(l)),
    tolerance: (1, 1),
    classify: |_, _| "system76-power",
    ..spec::Recogniser::NONE
};

/// system76-power's profile-switch errors: pasted beside a question, not probed.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "system76-power",
    "system76-power profile errors",
    Some(crate::evidence::Platform::Linux),
    &RECOGNISER,
    parse: |t| {
        let n = parse(t).len();
        if n > 0 { n } else { t.lines().filter(|l| is_member(l)).count() }
    },
    secrets: &[],
    // "system76-power profile battery".
    args: |_| true,
);

#[cfg(test)]
mod tests;
