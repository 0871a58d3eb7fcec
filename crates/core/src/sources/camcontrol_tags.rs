//! `camcontrol tags DEV -v` (camcontrol(8); sbin/camcontrol/camcontrol.c tagcontrol(),
//! FreeBSD 12-15): the XPT_GDEV_STATS counters of the device, each line prefixed with the
//! CAM path string: "(pass0:ahcich0:0:0:0): dev_openings  31". Without -v it prints only
//! "device openings: N", which is `dev_openings + dev_active`: the number of commands CAM
//! lets the device have queued, i.e. the queue depth in use (1 when tagged queueing is off).
//! No public post of this output was found; the fixture is built from these printf formats.

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

/// camcontrol(8) tags -v: the device openings (queue depth).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    fixture_dirs: &["freebsd-probe/camcontrol-tags"],
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(&["camcontrol", "tags", "{disk}", "-v"])],
    parse: Some(|t| spec::found(parse(t))),
    ..spec::SourceSpec::named("camcontrol-tags", "camcontrol tags")
};

#[cfg(test)]
mod tests {
    #[test]
    fn verbose_and_short() {
        let t = super::parse(
            "(pass0:ahcich0:0:0:0): dev_openings  30\n(pass0:ahcich0:0:0:0): dev_active    2\n(pass0:ahcich0:0:0:0): devq_openings 30\n(pass0:ahcich0:0:0:0): devq_queued   0\n(pass0:ahcich0:0:0:0): held          0\n(pass0:ahcich0:0:0:0): mintags       2\n(pass0:ahcich0:0:0:0): maxtags       255\n",
        );
        assert_eq!(t.depth(), Some(32));
        assert_eq!(t.maxtags, Some(255));
        let s = super::parse("(pass3:ata0:0:0:0): device openings: 1\n");
        assert_eq!(s.depth(), Some(1));
        assert_eq!(super::parse("junk").depth(), None);
    }
}
