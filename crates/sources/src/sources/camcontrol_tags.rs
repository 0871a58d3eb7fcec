//! `camcontrol tags DEV -v` (camcontrol(8); sbin/camcontrol/camcontrol.c tagcontrol(),
//! FreeBSD 12-15): the XPT_GDEV_STATS counters of the device, each line prefixed with the
//! CAM path string: "(pass0:ahcich0:0:0:0): dev_openings  31". Without -v it prints only
//! "device openings: N", which is `dev_openings + dev_active`: the number of commands CAM
//! lets the device have queued, i.e. the queue depth in use (1 when tagged queueing is off).
//! Newer camcontrol prints "allocated" and "queued" where older ones printed
//! "devq_openings" and "devq_queued" (a real FreeBSD 13.0 Hyper-V output is in
//! tests/fixtures/freebsd-probe/camcontrol-tags); the counters diskdoc reads kept their names.
//! A pasted output is its own source (explain), not kernel log lines, although its lines
//! start with the same CAM path as a CAM error message.

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tags {
    pub dev_openings: Option<u32>,
    pub dev_active: Option<u32>,
    pub mintags: Option<u32>,
    pub maxtags: Option<u32>,
    /// The non-verbose form's "device openings: N".
    pub device_openings: Option<u32>,
}

impl Tags {
    /// Queue depth in use: dev_openings + dev_active (camcontrol's own sum), checked.
    pub fn depth(&self) -> Option<u32> {
        match (self.dev_openings, self.dev_active) {
            (Some(o), Some(a)) => o.checked_add(a),
            _ => self.device_openings,
        }
    }
}

pub fn parse(text: &str) -> Tags {
    let mut t = Tags::default();
    for line in text.lines() {
        // Drop the "(pass0:ahcich0:0:0:0): " path prefix.
        let body = match line.trim().strip_prefix('(') {
            Some(rest) => rest.split_once("): ").map(|(_, b)| b).unwrap_or(rest),
            None => line.trim(),
        };
        if let Some(v) = body.strip_prefix("device openings:") {
            t.device_openings = v.trim().parse().ok();
            continue;
        }
        let mut f = body.split_whitespace();
        let (Some(k), Some(v)) = (f.next(), f.next()) else {
            continue;
        };
        let v: Option<u32> = v.parse().ok();
        match k {
            "dev_openings" => t.dev_openings = v,
            "dev_active" => t.dev_active = v,
            "mintags" => t.mintags = v,
            "maxtags" => t.maxtags = v,
            _ => {}
        }
    }
    t
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

/// What the FreeBSD probe runs per CAM disk: camcontrol(8) tags -v, the queue counters.
pub const ARGV: &[&str] = &["camcontrol", "tags", "{disk}", "-v"];

// "(pass0:ahcich0:0:0:0): dev_openings  31" (the CAM path string, cam_path_string(), then
// one XPT_GDEV_STATS counter) or "(pass3:ata0:0:0:0): device openings: 1" without -v.
crate::rx!(
    TAGS_LINE,
    r"^\s*\(([a-z]+)(\d+):[\w-]+:\d+:\d+:-?\w+\): (?:dev_openings|dev_active|devq_openings|devq_queued|allocated|queued|held|mintags|maxtags)\s+-?\d+\s*$|^\s*\(([a-z]+)(\d+):[\w-]+:\d+:\d+:-?\w+\): device openings: \d+\s*$"
);

/// The disk a line's CAM path names, when it is not the passthrough device camcontrol
/// opens (cam_open_device() resolves ada0 to its pass(4) peer, whose name it prints).
fn path_disk(text: &str) -> Option<String> {
    let c = TAGS_LINE.captures(text.lines().next()?)?;
    let (p, u) = match (c.get(1).or(c.get(3)), c.get(2).or(c.get(4))) {
        (Some(p), Some(u)) => (p.as_str(), u.as_str()),
        _ => return None,
    };
    (p != "pass").then(|| format!("{p}{u}"))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "camcontrol-tags",
    // Before FreeBSD dmesg (sources::dmesg), whose CAM error lines start the same way.
    starts: &[(45, |l| spec::on_first(l, |t| TAGS_LINE.is_match(t)))],
    member: |t, _| spec::Member::from(TAGS_LINE.is_match(t)),
    tolerance: (1, 0),
    classify: |_, _| "camcontrol-tags",
    ..spec::Recogniser::NONE
};

/// camcontrol(8) tags -v: the device openings (queue depth).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    fixture_dirs: &["freebsd-probe/camcontrol-tags"],
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(ARGV)],
    pasted_as: Some(spec::Live::Cmd(ARGV)),
    paste: Some(spec::Paste {
        device: Some(path_disk),
        one_drive: true,
        ..spec::Paste::new(&RECOGNISER, |p, t| p == "camcontrol" && t.contains("tags"))
    }),
    parse: Some(|t| spec::found(parse(t))),
    // camcontrol(8) tags: -v the device's openings and queue counters, -N the number of
    // tags (openings) CAM may use.
    asks: &[
        (spec::Ask::CamTags, "camcontrol tags {dev} -v"),
        (spec::Ask::CamSetTags, "camcontrol tags {dev} -N"),
    ],
    ..spec::SourceSpec::named("camcontrol-tags", "camcontrol tags")
};

#[cfg(test)]
mod tests;
