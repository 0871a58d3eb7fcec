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
///
/// cap.c prints the capability on one line and wraps the rest at its own points, which
/// moved between releases: "link x1(x1)" ends the first line on some (FreeBSD 12's
/// "max data 128(512) FLR link x1(x1)" then "speed 2.5(2.5)" below), opens the third on
/// others. A mail client may wrap it again. So the PCI-Express capability's lines, up to
/// the next `cap`/`ecap` or device line, are read as one run of words.
pub fn parse(text: &str) -> Vec<(String, PcieLink)> {
    let mut out = Vec::new();
    // (name, selector, words of the PCI-Express capability so far, inside it)
    let mut cur: Option<(String, String, String, bool)> = None;
    let flush = |cur: &mut Option<(String, String, String, bool)>,
                 out: &mut Vec<(String, PcieLink)>| {
        if let Some((name, sel, words, _)) = cur.as_mut()
            && let Some(l) = link_of(words)
        {
            out.push((
                name.clone(),
                PcieLink {
                    address: format!("{name}@{sel}"),
                    ..l
                },
            ));
            words.clear();
        }
    };
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        if !line.starts_with([' ', '\t'])
            && let Some((name, rest)) = t.split_once('@')
            && rest.starts_with("pci")
            && !name.is_empty()
            && !name.contains(char::is_whitespace)
        {
            flush(&mut cur, &mut out);
            let sel = rest
                .split_whitespace()
                .next()
                .unwrap_or("")
                .trim_end_matches(':');
            cur = Some((name.to_string(), sel.to_string(), String::new(), false));
            continue;
        }
        let Some((_, _, words, inside)) = cur.as_mut() else {
            continue;
        };
        if t.starts_with("cap ") || t.starts_with("ecap ") {
            *inside = t.contains("PCI-Express");
        } else if !line.starts_with([' ', '\t'])
            && !t.starts_with("link ")
            && !t.starts_with("speed ")
        {
            // An unindented line that is not a wrapped tail ends the device.
            *inside = false;
        }
        if *inside {
            words.push(' ');
            words.push_str(t);
        }
    }
    flush(&mut cur, &mut out);
    out
}

/// "link x1(x4) speed 5.0(8.0)" anywhere in the capability's words.
fn link_of(words: &str) -> Option<PcieLink> {
    let tk: Vec<&str> = words.split_whitespace().collect();
    let mut l = PcieLink::default();
    let mut seen = false;
    for (i, w) in tk.iter().enumerate() {
        let next = tk.get(i + 1).copied().unwrap_or("");
        if *w == "link" && next.starts_with('x') {
            let (c, m) = pair(&next[1..], |s| {
                leading_u64(s.trim_start_matches('x')).and_then(|v| u32::try_from(v).ok())
            });
            l.current_width = c.filter(|v| (1..=32).contains(v));
            l.max_width = m.filter(|v| (1..=32).contains(v));
            seen = true;
        } else if *w == "speed" && next.starts_with(|c: char| c.is_ascii_digit()) {
            let (c, m) = pair(next, leading_f64);
            l.current_gts = c.filter(|g| *g > 0.0 && *g <= 256.0);
            l.max_gts = m.filter(|g| *g > 0.0 && *g <= 256.0);
            seen = true;
        }
    }
    seen.then_some(l)
}

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

    #[test]
    fn link_wrapped_after_the_capability_line() {
        // FreeBSD 12-era layout, where "link x1(x1)" ends the capability line and the speed
        // opens the next (a public `pciconf -lvc` of an I211 NIC, search store id
        // 66876573411, repository not resolved; excerpt).
        let t = "igb0@pci0:3:0:0:        class=0x020000 card=0x00008086 chip=0x15398086 rev=0x03 hdr=0x00\n\
                 \x20   vendor     = 'Intel Corporation'\n\
                 \x20   cap 05[50] = MSI supports 1 message, 64 bit, vector masks\n\
                 \x20   cap 10[a0] = PCI-Express 2 endpoint max data 128(512) FLR link x1(x1)\n\
                 \x20                speed 2.5(2.5) ASPM disabled(L0s/L1)\n\
                 \x20   ecap 0001[100] = AER 2 0 fatal 0 non-fatal 0 corrected\n";
        let v = super::parse(t);
        assert_eq!(v.len(), 1);
        assert_eq!((v[0].1.current_width, v[0].1.max_width), (Some(1), Some(1)));
        assert_eq!((v[0].1.current_gts, v[0].1.max_gts), (Some(2.5), Some(2.5)));
    }
}
