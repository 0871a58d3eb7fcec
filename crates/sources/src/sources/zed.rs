//! The ZFS Event Daemon's notifications (its mail, or the same text pasted from a log), as
//! openzfs cmd/zed/zed.d writes them: statechange-notify.sh ("The number of I/O errors
//! associated with a ZFS device exceeded acceptable levels. ZFS has marked the device as
//! faulted." for FAULTED, the checksum-error text and "degraded." for DEGRADED, "ZFS has
//! detected that a device was removed." for REMOVED), the older io-notify.sh/checksum-notify
//! ("ZFS has detected an io error:" / "a checksum error:" with the vdev's " cksum:", "read:"
//! and " write:" counts), data-notify.sh ("ZFS has detected a data error:") and
//! scrub_finish-notify.sh ("ZFS has finished a scrub:" / "a resilver:", then `zpool status`).
//! Each body goes on with "key: value" lines (eid, class, state, host, time, vtype, vpath,
//! vguid, pool), and all-syslog.sh logs every event as "eid=N class=C pool='P' vdev=V
//! vdev_state=S".

use crate::sources::{spec, util};

/// One notification.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Event {
    /// The sentence the notification opens with.
    pub headline: String,
    /// "statechange", "io", "checksum", "data", "scrub_finish", "resilver_finish".
    pub class: Option<String>,
    /// The vdev's state: DEGRADED, FAULTED, REMOVED.
    pub state: Option<String>,
    /// The vdev's path (/dev/sdb1, a by-id link).
    pub vpath: Option<String>,
    pub pool: Option<String>,
    pub cksum: Option<u64>,
    pub read: Option<u64>,
    pub write: Option<u64>,
}

impl Event {
    /// ZED says ZFS took the device out of use over its errors: the statechange texts for
    /// FAULTED (I/O errors) and DEGRADED (checksum errors). REMOVED is a device gone.
    pub fn faulted_for_errors(&self) -> bool {
        matches!(self.state.as_deref(), Some("FAULTED" | "DEGRADED"))
            && (self
                .headline
                .contains("errors associated with a ZFS device")
                || self.class.as_deref() == Some("statechange"))
    }
}

crate::rx!(
    HEADLINE,
    r"^(?:The number of (?:I/O|checksum) errors associated with a ZFS device|ZFS has detected (?:that a device was removed|an? \w+ error:)|ZFS has finished an? (?:scrub|resilver):)"
);
// The rest of a headline, wrapped by the script's echo lines.
crate::rx!(
    WRAP,
    r"^(?:exceeded acceptable levels\.|acceptable levels\. ZFS has marked|degraded\.$)"
);
crate::rx!(
    KEY,
    r"^(impact|eid|class|state|host|time|vtype|vpath|vphys|vguid|devid|vdev|pool|cksum|read|write|error|objid):\s*(.*)$"
);
crate::rx!(
    SUBJECT,
    r"^(?:Subject:\s*)?ZFS (?:device fault for pool|\w+ error for|\w+ event for) \S+ on \S+"
);
crate::rx!(
    SYSLOG,
    r"\beid=(\d+) class=(\w+)(?: pool(?:_guid)?='?([^' ]+)'?)?(?: vdev(?:_guid)?=(\S+))?"
);
crate::rx!(VSTATE, r"\bvdev_state=(\w+)");

fn clean(l: &str) -> String {
    util::clean_line(l).trim().to_string()
}

/// The notifications of a paste, in order.
pub fn parse(text: &str) -> Vec<Event> {
    let mut out: Vec<Event> = Vec::new();
    for raw in text.lines() {
        let t = clean(raw);
        if HEADLINE.is_match(&t) {
            out.push(Event {
                headline: t.clone(),
                ..Event::default()
            });
            continue;
        }
        if let Some(c) = SYSLOG.captures(&t) {
            let s = |i: usize| c.get(i).map(|m| m.as_str().to_string());
            out.push(Event {
                headline: t.clone(),
                class: s(2),
                pool: s(3),
                vpath: s(4),
                state: VSTATE
                    .captures(&t)
                    .and_then(|c| c.get(1))
                    .map(|m| m.as_str().to_string()),
                ..Event::default()
            });
            continue;
        }
        let Some(e) = out.last_mut() else { continue };
        if WRAP.is_match(&t) && e.headline.len() < 240 {
            e.headline = format!("{} {t}", e.headline);
            continue;
        }
        let Some(c) = KEY.captures(&t) else { continue };
        let (Some(k), Some(v)) = (c.get(1), c.get(2)) else {
            continue;
        };
        let v = v.as_str().trim();
        let n = || util::leading_u64(v);
        match k.as_str() {
            "class" => e.class = Some(v.to_string()),
            "state" => e.state = Some(v.to_ascii_uppercase()),
            "vpath" | "vdev" => e.vpath = Some(v.to_string()),
            "pool" => e.pool = Some(v.split_whitespace().next().unwrap_or(v).to_string()),
            "cksum" => e.cksum = n(),
            "read" => e.read = n(),
            "write" => e.write = n(),
            _ => {}
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

const FINISH: u32 = 1;

fn is_key(t: &str) -> bool {
    KEY.is_match(t)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "zed",
    starts: &[(35, |l| {
        spec::on_first(l, |t| {
            let t = clean(t);
            HEADLINE.is_match(&t) || SUBJECT.is_match(&t) || SYSLOG.is_match(&t)
        })
    })],
    member: |l, st| {
        let t = clean(l);
        // A scrub or resilver notice ends where its `zpool status` begins ("  pool:").
        if st.has(FINISH) {
            return spec::Member::from(
                KEY.captures(&t)
                    .and_then(|c| c.get(1))
                    .is_some_and(|k| matches!(k.as_str(), "eid" | "class" | "host" | "time")),
            );
        }
        spec::Member::from(
            HEADLINE.is_match(&t) || WRAP.is_match(&t) || is_key(&t) || SYSLOG.is_match(&t),
        )
    },
    update: Some(|l, st| {
        if clean(l).starts_with("ZFS has finished") {
            st.mark(FINISH);
        }
    }),
    tolerance: (1, 0),
    classify: |_, _| "zed",
    ..spec::Recogniser::NONE
};

/// ZED's notifications (zed.rc's ZED_EMAIL_ADDR mail, the syslog lines of all-syslog.sh):
/// the vdevs ZFS faulted or degraded over their errors.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        matches!(p, "grep" | "egrep" | "cat") || (p == "journalctl" && a.contains("zed"))
    })),
    ..spec::SourceSpec::named("zed", "ZFS event daemon notifications")
};

#[cfg(test)]
mod tests;
