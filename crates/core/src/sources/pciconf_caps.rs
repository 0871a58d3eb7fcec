//! `pciconf -lvc` (pciconf(8) -c): under each "nameN@pciD:B:S:F:" device line, the
//! PCI-Express capability prints "link xW(xMW) speed S(MS)", current(maximum) link width
//! and speed in GT/s (sys/dev/pci: Link Status and Link Capabilities registers, PCIe Base
//! spec 7.5.3.8 and 7.5.3.6). Only the device's own capability is shown, so each link is
//! hop 0 (the port above is another entry, not tied to it here).

use crate::model::PcieLink;
use crate::sources::util::{clean_line, leading_f64, leading_u64};

/// "x4(x4)" / "8.0(8.0)" -> (current, maximum).
fn pair<T>(s: &str, f: impl Fn(&str) -> Option<T>) -> (Option<T>, Option<T>) {
    let (a, b) = s.split_once('(').unwrap_or((s, ""));
    (f(a), f(b.trim_end_matches(')')))
}

/// Every device with a link line: (driver name like "nvme0", selector, link).
pub fn parse(text: &str) -> Vec<(String, PcieLink)> {
    let mut out = Vec::new();
    let mut cur: Option<(String, String)> = None;
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if !line.starts_with(' ')
            && let Some((name, rest)) = t.split_once('@')
            && rest.starts_with("pci")
            && !name.contains(char::is_whitespace)
        {
            let sel = rest
                .split_whitespace()
                .next()
                .unwrap_or("")
                .trim_end_matches(':');
            cur = Some((name.to_string(), sel.to_string()));
            continue;
        }
        let Some(rest) = t.strip_prefix("link ") else {
            continue;
        };
        let Some((name, sel)) = cur.clone() else {
            continue;
        };
        let mut l = PcieLink {
            address: format!("{name}@{sel}"),
            ..Default::default()
        };
        let tk: Vec<&str> = rest.split_whitespace().collect();
        for (i, w) in tk.iter().enumerate() {
            if let Some(x) = w.strip_prefix('x') {
                let (c, m) = pair(x, |s| {
                    leading_u64(s.trim_start_matches('x')).and_then(|v| u32::try_from(v).ok())
                });
                l.current_width = c.filter(|v| (1..=32).contains(v));
                l.max_width = m.filter(|v| (1..=32).contains(v));
            } else if *w == "speed"
                && let Some(v) = tk.get(i + 1)
            {
                let (c, m) = pair(v, leading_f64);
                l.current_gts = c.filter(|g| *g > 0.0 && *g <= 256.0);
                l.max_gts = m.filter(|g| *g > 0.0 && *g <= 256.0);
            }
        }
        out.push((name, l));
    }
    out
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

/// pciconf(8) -lc: the PCI-Express link of each function.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(&["pciconf", "-lc"])],
    parse: Some(|t| parse(t).len()),
    ..spec::SourceSpec::named("pciconf-lc", "pciconf -lc")
};

#[cfg(test)]
mod tests {
    #[test]
    fn link_line() {
        // Layout of pciconf(8) -c output (usr.sbin/pciconf/cap.c cap_express); values
        // constructed for the test.
        let t = "nvme0@pci0:1:0:0:\tclass=0x010802 rev=0x00 hdr=0x00 vendor=0x144d\n\
                 \x20   cap 10[70] = PCI-Express 2 endpoint max data 256(256) FLR RO NS\n\
                 \x20                max read 512\n\
                 \x20                link x1(x4) speed 5.0(8.0) ASPM L1(L1)\n\
                 ahci0@pci0:0:23:0:\tclass=0x010601\n";
        let v = super::parse(t);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].0, "nvme0");
        assert_eq!(v[0].1.address, "nvme0@pci0:1:0:0");
        assert_eq!((v[0].1.current_width, v[0].1.max_width), (Some(1), Some(4)));
        assert_eq!((v[0].1.current_gts, v[0].1.max_gts), (Some(5.0), Some(8.0)));
        assert!(super::parse("link x4(x4)").is_empty());
    }
}
