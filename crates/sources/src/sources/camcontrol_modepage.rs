//! `camcontrol modepage DEV -m 8` (camcontrol(8); sbin/camcontrol/modeedit.c
//! modepage_write(): one "%s:  %d" line per field of the page as share/misc/scsi_modes
//! names them). Page 0x08 "Caching Page" (SBC-3 6.5.5) starts "IC, ABPF, CAP, DISC, SIZE,
//! WCE, MF, RCD": WCE 1 = write cache enabled, RCD 1 = read cache disabled. No public post
//! of this output was found; the fixture is built from that format and database.

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Caching {
    pub wce: Option<bool>,
    pub rcd: Option<bool>,
}

pub fn parse(text: &str) -> Caching {
    let mut c = Caching::default();
    for line in text.lines() {
        let Some((k, v)) = line.rsplit_once(':') else {
            continue;
        };
        let bit = match v.trim() {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        };
        // Older databases name the field "WCE", newer ones spell it out; accept both.
        let k = k.trim();
        if k == "WCE" || k.contains("(WCE)") || k.starts_with("WCE ") {
            c.wce = bit;
        } else if k == "RCD" || k.contains("(RCD)") || k.starts_with("RCD ") {
            c.rcd = bit;
        }
    }
    c
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

/// What the FreeBSD probe runs per SCSI disk: camcontrol(8) modepage -m 8, the caching page.
pub const ARGV: &[&str] = &["camcontrol", "modepage", "{disk}", "-m", "8"];

/// camcontrol(8) modepage -m 8: the SCSI caching page (WCE).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    fixture_dirs: &["freebsd-probe/camcontrol-modepage"],
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(ARGV)],
    parse: Some(|t| spec::found(parse(t))),
    // camcontrol(8) modepage: -m the page (8 caching, 0x1a power condition: SPC-4 7.5.13),
    // -e opens it in an editor and writes it back.
    asks: &[
        (spec::Ask::CamCachingPage, "camcontrol modepage {dev} -m 8"),
        (
            spec::Ask::CamEditCachingPage,
            "camcontrol modepage {dev} -m 8 -e",
        ),
        (
            spec::Ask::CamEditPowerPage,
            "camcontrol modepage {dev} -m 0x1a -e",
        ),
    ],
    ..spec::SourceSpec::named("camcontrol-modepage", "camcontrol modepage -m 8")
};

#[cfg(test)]
mod tests;
