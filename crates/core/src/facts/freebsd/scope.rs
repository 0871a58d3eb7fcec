//! `--device` on FreeBSD: the machine-wide captures (camcontrol devlist,
//! gpart, geli, kern.geom.confxml, dmesg, mount -p, zpool status and get autotrim, dev.*
//! sysctls) list every disk; with `--device` a report keeps only what is about that disk:
//! its partitions, the providers stacked on it (GELI .eli, labels, mirrors, pools with a
//! member on it), its pass(4) peer and its controller. Pure: it rewrites a bundle's
//! captures in place; the live probe applies it after collecting, `replay --device` before
//! re-deriving.
//!
//! A line (or a block: a gpart/geli "Geom name:" entry, a gpart show "=>" table, a confxml
//! <geom> element, a zpool status pool) is dropped when a name in it belongs to another
//! disk and none to this one; lines that name no disk (controllers, CPU, the OS) stay.
//! Which disk a name belongs to follows target.rs's provider walk (labels, .eli,
//! mirrors down to the disk), the CAM peripheral list (passN <-> adaN, camcontrol(8)
//! devlist) and pool membership (zpool status leaves; a dataset "pool/..." is its pool's).

use std::collections::BTreeMap;

use crate::evidence::{Capture, EvidenceBundle};
use crate::facts::freebsd::target::Names;
use crate::plan::{Item, freebsd as plan};
use crate::sources::{camcontrol_devlist, zpool};

/// How a capture's text splits into the units kept or dropped whole.
#[derive(Clone, Copy)]
enum Unit {
    Line,
    /// A block starts at a line whose trimmed text starts with this prefix.
    Block(&'static str),
    /// kern.geom.confxml: one <geom id=...> ... </geom> element.
    XmlGeom,
}

/// The machine-wide captures that list disks, and how each is cut.
const SCOPED: &[(Item, Unit)] = &[
    // -v output: a "scbusN on SIM bus 0:" header and its devices, then single lines.
    (plan::DEVLIST, Unit::Block("scbus")),
    (plan::DEVLIST, Unit::Line),
    (plan::GEOM_CONFXML, Unit::XmlGeom),
    (plan::DEV_AHCI, Unit::Line),
    (plan::DEV_AHCICH, Unit::Line),
    (plan::DEV_ATAPCI, Unit::Line),
    (plan::DEV_ATA, Unit::Line),
    (plan::GPART_SHOW, Unit::Block("=>")),
    (plan::GPART_LIST, Unit::Block("Geom name:")),
    (plan::GELI_LIST, Unit::Block("Geom name:")),
    // Pools without a member on the disk go whole; in a pool that has one, the other
    // disks' member rows go.
    (plan::ZPOOL_STATUS, Unit::Block("pool:")),
    (plan::ZPOOL_STATUS, Unit::Line),
    // One "pool<TAB>autotrim<TAB>value" row per pool.
    (plan::ZPOOL_AUTOTRIM, Unit::Line),
    (plan::DMESG_BOOT, Unit::Line),
    (plan::DMESG_RUNNING, Unit::Line),
    (plan::MOUNT_P, Unit::Line),
];

struct Owners<'a> {
    names: Names,
    /// pass(4) and other CAM peripherals -> their disk, from the devlist.
    periph: BTreeMap<String, String>,
    /// pool -> disks holding a member.
    pools: BTreeMap<String, Vec<String>>,
    /// Inquiry/model strings ("Corsair Survivor 3.0 000D") -> the disks that print them:
    /// lines such as "ugen1.3: <Corsair Survivor 3.0> at usbus1" name no disk but the model.
    models: BTreeMap<String, Vec<String>>,
    disk: &'a str,
}

impl Owners<'_> {
    /// The disk a name (a token of a capture) belongs to.
    fn owner(&self, tok: &str) -> Option<String> {
        let tok = tok.trim_start_matches("/dev/");
        if tok.is_empty() {
            return None;
        }
        if let Some(d) = self.periph.get(tok) {
            return Some(d.clone());
        }
        self.names.provider_disk(tok, 0)
    }

    /// (names something of this disk, names something of another disk).
    fn classify(&self, text: &str) -> (bool, bool) {
        let (mut ours, mut other) = (false, false);
        let seps = |c: char| c.is_whitespace() || "(),<>\"'=;[]{}".contains(c);
        for raw in text.split(seps) {
            let tok = raw.trim_end_matches([':', '.']);
            let mut hit = |d: &str| {
                if d == self.disk {
                    ours = true;
                } else {
                    other = true;
                }
            };
            if let Some(d) = self.owner(tok) {
                hit(&d);
                continue;
            }
            // A pool or a dataset ("zroot/usr/home"): its pool's disks.
            let pool = tok.split('/').next().unwrap_or(tok);
            if let Some(ds) = self.pools.get(pool) {
                if ds.iter().any(|d| d == self.disk) {
                    ours = true;
                } else if !ds.is_empty() {
                    other = true;
                }
            }
        }
        // A model string is weaker than a name: it decides only lines that name no disk.
        let named = ours || other;
        for (m, ds) in self.models.iter().filter(|_| !named) {
            if text.contains(m.as_str()) {
                if ds.iter().any(|d| d == self.disk) {
                    ours = true;
                } else {
                    other = true;
                }
            }
        }
        (ours, other)
    }

    fn keep(&self, text: &str) -> bool {
        let (ours, other) = self.classify(text);
        ours || !other
    }
}

/// Split `text` into units (each with its line endings) and keep the ones about the disk.
fn filter(o: &Owners, text: &str, unit: Unit) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut units: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut in_geom = 0usize;
    for l in lines {
        let t = l.trim();
        let starts = match unit {
            Unit::Line => true,
            Unit::Block(p) => t.starts_with(p),
            // "<geom ref=.../>" inside a provider is a reference, not an element.
            Unit::XmlGeom => in_geom == 0 && t.starts_with("<geom id="),
        };
        if starts && !cur.is_empty() {
            units.push(std::mem::take(&mut cur));
        }
        if let Unit::XmlGeom = unit {
            if t.starts_with("<geom id=") {
                in_geom = in_geom.saturating_add(1);
            }
            cur.push_str(l);
            // geom_dump.c prints "</geom>" on a line of its own; a one-line paste ends
            // the element on the same line.
            if t.ends_with("</geom>") {
                in_geom = in_geom.saturating_sub(1);
                if in_geom == 0 {
                    units.push(std::mem::take(&mut cur));
                }
            }
            continue;
        }
        cur.push_str(l);
    }
    if !cur.is_empty() {
        units.push(cur);
    }
    units
        .into_iter()
        .filter(|u| match unit {
            // Outside <geom> elements (the <mesh>/<class> frame) nothing is dropped.
            Unit::XmlGeom if !u.trim_start().starts_with("<geom id=") => true,
            _ => o.keep(u),
        })
        .collect()
}

/// Keep in `b`'s machine-wide captures only what is about `disk` (a kern.disks name).
pub fn scope_to_disk(b: &mut EvidenceBundle, disk: &str) {
    let names = Names::gather(b);
    let mut periph = BTreeMap::new();
    if let Some(t) = b.data(&plan::DEVLIST.key("")) {
        for dev in camcontrol_devlist::parse(t).devices {
            if let Some(d) = dev.disk() {
                for p in &dev.periphs {
                    periph.insert(p.clone(), d.to_string());
                }
            }
        }
    }
    // SIMs that serve one disk only (umass-sim0 of a USB stick) belong to it; shared
    // ones (mps0, ahci0) are controllers and stay. Models likewise, with the part before
    // the firmware word too ("Corsair Survivor 3.0" of "<Corsair Survivor 3.0 000D>").
    let mut models: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if let Some(t) = b.data(&plan::DMESG_BOOT.key("")) {
        let dm = crate::sources::dmesg::parse(t);
        let mut sims: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (name, l) in &dm.disks {
            if let Some(sim) = &l.sim {
                sims.entry(sim.clone()).or_default().push(name.clone());
            }
            if let Some(inq) = &l.inquiry {
                let inq = inq.trim();
                let short = inq.rsplit_once(' ').map_or(inq, |(a, _)| a);
                for m in [inq, short] {
                    // Short strings ("ATA") would match everywhere.
                    if m.len() >= 8 {
                        models.entry(m.to_string()).or_default().push(name.clone());
                    }
                }
            }
        }
        for (sim, ds) in sims {
            if let [only] = ds.as_slice() {
                periph.insert(sim.replace("umass-sim", "umass"), only.clone());
                periph.insert(sim, only.clone());
            }
        }
    }
    let mut pools: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if let Some(t) = b.data(&plan::ZPOOL_STATUS.key("")) {
        for p in zpool::pool_members(t, zpool::DeviceNaming::FreeBsd) {
            let mut ds: Vec<String> = p
                .leaves
                .iter()
                .filter_map(|l| names.provider_disk(l, 0))
                .collect();
            crate::sort::sort(&mut ds);
            ds.dedup();
            pools.insert(p.name, ds);
        }
    }
    let o = Owners {
        names,
        periph,
        pools,
        models,
        disk,
    };
    let mut edits: Vec<(String, Capture)> = Vec::new();
    for (item, unit) in SCOPED {
        let k = item.key("");
        let Some(mut c) = b.get(&k).cloned() else {
            continue;
        };
        if let Capture::Ok { data, stderr, .. } = &mut c {
            let kept = filter(&o, data, *unit);
            let kept_err = filter(&o, stderr, Unit::Line);
            if kept != *data || kept_err != *stderr {
                *data = kept;
                *stderr = kept_err;
                // Now, not after the loop: a capture cut twice (devlist: blocks, then
                // lines) reads its first cut.
                b.captures.insert(k.to_string(), c);
            }
        }
    }
    // kern.disks: the one disk asked about.
    let kd = plan::KERN_DISKS.key("");
    if let Some(mut c) = b.get(&kd).cloned()
        && let Capture::Ok { data, .. } = &mut c
    {
        *data = disk.to_string();
        edits.push((kd.to_string(), c));
    }
    for (k, c) in edits {
        b.captures.insert(k, c);
    }
}
