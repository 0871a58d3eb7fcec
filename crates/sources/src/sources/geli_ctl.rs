//! geli(8)'s own messages when a provider is set up or opened (FreeBSD lib/geom/eli/
//! geom_eli.c): `geli init` ends with "Metadata backup for provider /dev/da0 can be found in
//! /var/backups/da0.eli" (older releases: "Metadata backup can be found in ... and") and
//! "can be restored with the following command:" / "\t# geli restore /var/backups/da0.eli
//! /dev/da0" (`eli_init`); the passphrase prompts are "Enter new passphrase:", "Reenter new
//! passphrase:" and "Enter passphrase:"; a failure is printed by gctl as "geli: <message>."
//! ("geli: Wrong key for da0.", sys/geom/eli/g_eli_ctl.c `g_eli_ctl_attach`: the key or
//! passphrase given does not open the metadata). These are the key-management steps of
//! encrypting a disk: they say nothing of the disk's health or speed.

use crate::sources::spec;

/// What the messages show.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct GeliCtl {
    /// (provider, backup file) of each `geli init`.
    pub backups: Vec<(Option<String>, String)>,
    /// Each "geli: ..." error, without the prefix.
    pub errors: Vec<String>,
}

fn clean(raw: &str) -> &str {
    let mut s = raw.trim();
    while let Some(r) = s.strip_prefix('>') {
        s = r.trim_start();
    }
    s.trim_end()
}

/// "Metadata backup [for provider P] can be found in F[ and]".
fn backup(l: &str) -> Option<(Option<String>, String)> {
    let rest = l.strip_prefix("Metadata backup ")?;
    let (head, file) = rest.split_once("can be found in ")?;
    let provider = head
        .trim()
        .strip_prefix("for provider ")
        .map(|p| p.trim().to_string());
    let file = file.trim().trim_end_matches(" and").trim();
    (!file.is_empty()).then(|| (provider, file.to_string()))
}

/// "geli: Wrong key for da0." -> "Wrong key for da0".
fn error(l: &str) -> Option<&str> {
    let m = l.strip_prefix("geli: ")?.trim().trim_end_matches('.');
    (!m.is_empty()).then_some(m)
}

pub fn parse(text: &str) -> GeliCtl {
    let mut out = GeliCtl::default();
    for raw in text.lines() {
        let l = clean(raw);
        if let Some(b) = backup(l) {
            out.backups.push(b);
        } else if let Some(e) = error(l) {
            out.errors.push(e.to_string());
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn is_member(raw: &str) -> bool {
    let l = clean(raw);
    backup(l).is_some()
        || error(l).is_some()
        || l.starts_with("can be restored with the following command")
        || l.trim_start_matches('#')
            .trim_start()
            .starts_with("geli restore ")
        || [
            "Enter new passphrase:",
            "Reenter new passphrase:",
            "Enter passphrase:",
        ]
        .iter()
        .any(|p| l.starts_with(p))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "geli-ctl",
    starts: &[(40, |lines| {
        spec::on_first(lines, |l| {
            let c = clean(l);
            backup(c).is_some() || error(c).is_some() || c.starts_with("Enter new passphrase:")
        })
    })],
    member: |l, _| spec::Member::from(is_member(l)),
    tolerance: (2, 0),
    classify: |_, _| "geli-ctl",
    ..spec::Recogniser::NONE
};

/// geli init/attach messages: pasted beside a question, not captured by the probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    parse: Some(|t| {
        let r = parse(t);
        r.backups.len().saturating_add(r.errors.len())
    }),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        p == "geli" && !spec::starts_with_any(a.trim_start(), &["list", "status"])
    })),
    ..spec::SourceSpec::named("geli-ctl", "geli init / attach")
};

#[cfg(test)]
mod tests;
