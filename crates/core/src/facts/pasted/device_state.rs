//! What pasted PCIe, NVMe, md, busy and APM outputs prove (sources/block_recognisers.rs finds them): the facts
//! added to the pasted disks through the same parsers (crate::sources) and fact fields
//! (DiskFacts, SystemFacts::arrays) the live probe fills, with the pasted block as each
//! fact's source; and the answers to the NVMe link reads explain's command list asks for.

use super::whole_disk;
use crate::facts::{self, Fact, SystemFacts, Transport};
use crate::pasted::{Block, Line, Pasted, device_in_args};
use crate::sources;
use crate::sources::block_recognisers::{is_vdev_name, lba_formats, nvme_controller};
use crate::sources::{lspci, mdstat, nvme_smart, pciconf};

/// The pasted disk an NVMe controller's output is about: a disk of the paste on that
/// controller (Linux nvmeNnM; FreeBSD nvdN/ndaN when it is the only NVMe disk), else
/// Linux's first namespace name when the paste is from Linux (nvme-cli names controllers
/// nvmeN and their namespaces nvmeNnM, Documentation/nvme), else the placeholder disk.
fn nvme_disk(sys: &SystemFacts, ctrl: Option<&str>, linux_names: bool) -> String {
    let nvme_disks: Vec<&str> = sys
        .disks
        .iter()
        .map(|d| d.name.as_str())
        .filter(|n| n.starts_with("nvme") || n.starts_with("nvd") || n.starts_with("nda"))
        .collect();
    if let Some(c) = ctrl {
        let prefix = format!("{c}n");
        if let Some(d) = nvme_disks.iter().find(|n| {
            n.strip_prefix(prefix.as_str())
                .is_some_and(|r| !r.is_empty() && r.chars().all(|x| x.is_ascii_digit()))
        }) {
            return d.to_string();
        }
    }
    if let [only] = nvme_disks.as_slice() {
        return only.to_string();
    }
    if let (Some(c), true) = (ctrl, linux_names) {
        return format!("{c}n1");
    }
    // No NVMe disk named by any block, but the paste's benchmarks (hdparm -t, dd, fio) read
    // or write one NVMe namespace: an `lspci -vv -s 04:00.0` of the controller next to an
    // `hdparm -t /dev/nvme0n1` is about that namespace's disk.
    if nvme_disks.is_empty()
        && linux_names
        && let [ns] = benchmarked_nvme(sys).as_slice()
    {
        return ns.clone();
    }
    // FreeBSD names the namespace's disk nvdN or ndaN with its own unit number, which need
    // not be the controller's (nvd(4), nda(4)); a paste that names only the controller
    // (nvmecontrol, pciconf) gets a disk named after it rather than the placeholder.
    if let (Some(c), false) = (ctrl, linux_names)
        && sys.platform == crate::evidence::Platform::Freebsd
    {
        return c.to_string();
    }
    if let Some(p) = sys.disks.iter().find(|d| facts::is_pasted_disk(&d.name)) {
        return p.name.clone();
    }
    facts::PASTED_DISK.to_string()
}

/// The NVMe namespaces (whole disks, nvme0n1) the paste's benchmarks name as their input or
/// output device, once each.
fn benchmarked_nvme(sys: &SystemFacts) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for u in &sys.user_benchmarks {
        for dev in [&u.input, &u.output].into_iter().flatten() {
            let Some(n) = dev.strip_prefix("/dev/") else {
                continue;
            };
            let w = whole_disk(n);
            let ns = sources::kernel_log::nvme_controller_of(&w).is_some_and(|c| c != w);
            if ns && !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

fn disk<'a>(sys: &'a mut SystemFacts, name: &str, key: &str) -> Option<&'a mut facts::DiskFacts> {
    super::pasted_disk(sys, name, &format!("known only from the pasted {key}"))
}

fn mark_nvme(d: &mut facts::DiskFacts, key: &str) {
    if !d.transport.is_known() {
        d.transport = Fact::known(Transport::Nvme, key.to_string());
    }
}

/// Add what the PCIe, NVMe, array, busy and power blocks of the paste prove to the facts. Runs after
/// `facts::derive` and the other pasted-text derivations, so the disks other blocks named
/// already exist; a fact the live capture keys already gave is never overwritten.
pub(super) fn derive(sys: &mut SystemFacts, p: &Pasted) {
    for b in p.blocks {
        let key = b.key.clone();
        match b.tool {
            t if t.is(&sources::block_recognisers::LSPCI_VV_SPEC) => {
                lspci_links(sys, b, &key);
                lspci_legacy_controller(sys, b, &key);
            }
            t if t.is(&sources::kernel_log::LINUX_SPEC) => dmesg_links(sys, b, &key),
            t if t.is(&sources::pciconf::LVC_SPEC) => pciconf_links(sys, b, &key),
            t if t.is(&sources::rpi_config::SPEC) => rpi_connector_link(sys, b, &key),
            t if t.is(&sources::block_recognisers::MDSTAT_SPEC)
                && (!sys.arrays.is_known() || sys.arrays.value().is_some_and(|v| v.is_empty())) =>
            {
                let arrays: Vec<facts::ArrayActivity> = mdstat::parse(&b.text)
                    .iter()
                    .map(|a| facts::arrays::md_activity(a, vec![key.clone()]))
                    .collect();
                sys.arrays = Fact::known(arrays, key.clone());
            }
            // A block under the live key was read by facts::arrays already; one without a
            // device (its "/dev/mdX:" header cut off) or from a paste judged FreeBSD went
            // under its `pasted:` key and is read here.
            t if t.is(&sources::mdadm_detail::SPEC)
                && !sys
                    .arrays
                    .value()
                    .is_some_and(|v| v.iter().any(|a| a.from.contains(&key))) =>
            {
                let mut arrays = match std::mem::replace(&mut sys.arrays, Fact::unknown("")) {
                    Fact::Known { value, .. } => value,
                    Fact::Unknown { .. } => Vec::new(),
                };
                for d in sources::mdadm_detail::parse(&b.text) {
                    let name = b.device.as_deref().or(d.device.as_deref());
                    let a = facts::arrays::md_detail_activity(&d, name, vec![key.clone()]);
                    facts::arrays::merge_md_detail(&mut arrays, a);
                }
                let from: Vec<String> = arrays.iter().flat_map(|a| a.from.iter().cloned()).fold(
                    Vec::new(),
                    |mut v, f| {
                        if !v.contains(&f) {
                            v.push(f);
                        }
                        v
                    },
                );
                sys.arrays = Fact::known_from(arrays, from);
            }
            t if t.is_any(&[
                &sources::nvme_smart::NVME_CLI_SPEC,
                &sources::nvme_get_log::SPEC,
                &sources::nvme_smart::SPEC,
            ]) =>
            {
                let Some(h) = nvme_smart::parse(&b.text) else {
                    continue;
                };
                let ctrl = b.device.as_deref().and_then(nvme_controller);
                let name = nvme_disk(sys, ctrl.as_deref(), !b.tool.is(&sources::nvme_smart::SPEC));
                let Some(d) = disk(sys, &name, &key) else {
                    continue;
                };
                mark_nvme(d, &key);
                // A health log the capture keys gave wins; one that holds only the LBA
                // formats of an id-ns block (no critical warning) takes the log and keeps
                // the formats.
                let formats_only = d
                    .nvme_health
                    .value()
                    .is_some_and(|v| v.critical_warning.is_none() && v.available_spare.is_none());
                if !d.nvme_health.is_known() || formats_only {
                    let mut h = h;
                    if let Fact::Known { value, .. } = &mut d.nvme_health
                        && h.lba_formats.is_empty()
                    {
                        h.lba_formats = std::mem::take(&mut value.lba_formats);
                    }
                    d.nvme_health = Fact::known(h, key.clone());
                }
            }
            t if t.is_any(&[
                &sources::block_recognisers::NVME_ID_NS_SPEC,
                &sources::block_recognisers::NVMECONTROL_IDENTIFY_SPEC,
            ]) =>
            {
                let formats = lba_formats(&b.text);
                if formats.is_empty() {
                    continue;
                }
                let ctrl = b.device.as_deref().and_then(nvme_controller);
                let name = nvme_disk(
                    sys,
                    ctrl.as_deref(),
                    b.tool.is(&sources::block_recognisers::NVME_ID_NS_SPEC),
                );
                let Some(d) = disk(sys, &name, &key) else {
                    continue;
                };
                mark_nvme(d, &key);
                match &mut d.nvme_health {
                    Fact::Known { value, .. } => {
                        if value.lba_formats.is_empty() {
                            value.lba_formats = formats;
                        }
                    }
                    f => {
                        // Only the formats are known: the rest of the log stays None, so
                        // nvme-health judges the format alone.
                        *f = Fact::known(
                            facts::NvmeHealth {
                                lba_formats: formats,
                                ..Default::default()
                            },
                            key.clone(),
                        )
                    }
                }
            }
            t if t.is(&sources::block_recognisers::LSBLK_D_SPEC) => {
                let devs = crate::sources::lsblk::parse(&b.text);
                for dev in devs.iter().filter(|x| x.depth == 0) {
                    if dev.name.starts_with("loop")
                        || dev.name.starts_with("sr")
                        || dev.name.starts_with("zram")
                    {
                        continue;
                    }
                    let name = dev.name.clone();
                    if let Some(d) = disk(sys, &name, &key) {
                        let before = d.trim.discard_max_bytes.get();
                        crate::sources::lsblk::apply(d, &key, &devs);
                        // The same disk at DISC-MAX 0B in one listing and not in another
                        // (before and after a replug or `modprobe -r uas; modprobe uas`):
                        // it takes discards, but sd.c sets the limit from what the device
                        // (its bridge) answers at each probe (sd_read_block_limits), so
                        // some probes leave it with none.
                        let now = dev
                            .discard_max
                            .as_deref()
                            .and_then(crate::sources::util::parse_human_size);
                        if let (Some(b), Some(n)) = (before, now)
                            && (b == 0) != (n == 0)
                            && !d.trim.discard_refused.is_known()
                        {
                            let said = dev.discard_max.clone().unwrap_or_default();
                            d.trim.discard_max_bytes = Fact::known(0, key.clone());
                            d.trim.discard_refused = Fact::known(
                                format!(
                                    "lsblk -D: DISC-MAX 0B in one listing, {} in another",
                                    if n == 0 { format!("{b} bytes") } else { said }
                                ),
                                key.clone(),
                            );
                        }
                    }
                }
                for (top, layer, parent, max) in
                    crate::sources::lsblk::discard_blocking_layers(&devs)
                {
                    if let Some(d) = disk(sys, &top, &key)
                        && !d.trim.layer_blocks_discard.is_known()
                    {
                        d.trim.layer_blocks_discard = Fact::known(
                            format!("{layer} DISC-MAX 0B on {parent} DISC-MAX {max}"),
                            key.clone(),
                        );
                    }
                }
            }
            t if t.is(&sources::hdparm::APM_SPEC) => {
                standby_timers(sys, b, &key);
                for (dev, level) in crate::sources::hdparm::parse_apm(&b.text) {
                    let dev = dev.or_else(|| b.device.clone());
                    let Some(dev) = dev else { continue };
                    // Outputs come in paste order: a later `hdparm -B` (after a set) is the
                    // drive's state now and replaces an earlier one.
                    if let Some(d) = disk(sys, &whole_disk(&dev), &key) {
                        d.power.apm_level = match level {
                            Some(l) => Fact::known(l, key.clone()),
                            None => Fact::unknown(format!("APM off or not supported ({key})")),
                        };
                    }
                }
            }
            // A settings run's " setting Advanced Power Management level to 0x01 (1)" and
            // " setting standby to 4 (20 seconds)" (hdparm -B/-S with -W in one call, or a
            // power script's), in a block classified by its write-caching lines.
            t if t.is(&sources::hdparm::WRITE_CACHE_SPEC) => {
                for (dev, level) in crate::sources::hdparm::parse_apm(&b.text) {
                    let Some(dev) = dev.or_else(|| b.device.clone()) else {
                        continue;
                    };
                    if let (Some(l), Some(d)) = (level, disk(sys, &whole_disk(&dev), &key)) {
                        d.power.apm_level = Fact::known(l, key.clone());
                    }
                }
                standby_timers(sys, b, &key);
            }
            t if t.is(&sources::hdparm::IDENTIFY_SPEC) => {
                let dev = b.device.clone();
                if let (Some(dev), Some(level)) =
                    (dev, crate::sources::hdparm::identify_apm(&b.text))
                    && let Some(d) = disk(sys, &whole_disk(&dev), &key)
                    && !d.power.apm_level.is_known()
                {
                    d.power.apm_level = Fact::known(level, key.clone());
                }
            }
            t if t.is(&sources::smartctl::SPEC) => {
                // An NVMe health log in a report proves an NVMe drive, even when the paste
                // starts at "SMART/Health Information (NVMe Log 0x02)" and names no node.
                if let Some(dev) = b.device.as_deref()
                    && let Some(d) = sys.disks.iter_mut().find(|d| {
                        d.name == whole_disk(dev.trim_start_matches("/dev/")) || d.name == dev
                    })
                {
                    // smartctl's text parser gives up on a report cut down to the health
                    // section (smartmontools#537's excerpt); the log is still read.
                    if !d.nvme_health.is_known()
                        && let Some(h) = nvme_smart::parse(&b.text)
                    {
                        d.nvme_health = Fact::known(h, key.clone());
                    }
                    if d.nvme_health.is_known() {
                        mark_nvme(d, &key);
                    }
                }
                // SMART 193 from a pasted text report (the live path reads the JSON). An
                // excerpt of bare attribute rows (`smartctl -A | grep Load_Cycle`) names no
                // device: it is the disk the paste speaks of.
                let named = b
                    .device
                    .as_deref()
                    .map(|dev| dev.trim_start_matches("/dev/"))
                    .map(|dev| match whole_disk(dev) {
                        w if w.is_empty() => dev.to_string(),
                        w => w,
                    });
                let lc = crate::sources::smartctl_attr::ata_raw(&b.text, 193);
                let d = match (named, lc) {
                    (_, None) => None,
                    // The placeholder of a report that names no node (explain's
                    // "/dev/pasted-disk") is made here when the facts have none yet.
                    (Some(name), Some(_)) if facts::is_pasted_disk(&name) => disk(sys, &name, &key),
                    (Some(name), Some(_)) => sys.disks.iter_mut().find(|d| d.name == name),
                    (None, Some(_)) => {
                        let name = sys
                            .disks
                            .iter()
                            .find(|d| facts::is_pasted_disk(&d.name))
                            .map_or_else(|| facts::PASTED_DISK.to_string(), |d| d.name.clone());
                        disk(sys, &name, &key)
                    }
                };
                if let (Some(d), Some(lc)) = (d, lc)
                    && !d.power.load_cycles.is_known()
                {
                    d.power.load_cycles = Fact::known(lc, key.clone());
                    if let Some(w) = crate::sources::smartctl_attr::watched(&b.text, 193) {
                        d.power.load_cycles_watched = Fact::known(w, key.clone());
                    }
                }
            }
            t if t.is(&sources::iostat::SPEC) => {
                iostat_busy(sys, &sources::iostat::parse(&b.text), &key)
            }
            // sar -d reads the same /proc/diskstats counters per interval (sources/sar.rs).
            t if t.is(&sources::sar::SPEC) => iostat_busy(sys, &sources::sar::parse(&b.text), &key),
            t if t.is(&sources::mc_top_disk::SPEC) => {
                drive_busy(sys, &sources::mc_top_disk::parse(&b.text), &key)
            }
            t if t.is(&sources::iotop::SPEC) => iotop_busy(sys, b, &key),
            t if t.is_any(&[
                &sources::block_recognisers::ZPOOL_GET_ASHIFT_SPEC,
                &sources::block_recognisers::ZDB_C_SPEC,
            ]) =>
            {
                vdev_ashift(sys, b, &key)
            }
            t if t.is(&sources::zpool_autotrim::SPEC) => pool_autotrim(sys, p, b, &key),
            _ => {}
        }
    }
    sysfs_link_answers(sys, p);
}

/// The link attributes the NVMe command list asks for, in the order it asks
/// (Documentation/ABI/testing/sysfs-bus-pci).
pub(crate) const LINK_FILES: [&str; 4] = [
    "current_link_speed",
    "max_link_speed",
    "current_link_width",
    "max_link_width",
];

/// The answer to `cat /sys/class/nvme/nvme0/device/{current_link_speed,...}` (one line per
/// file, in the order given; a shell expands the braces in that order): the NVMe drive's
/// own link, hop 0.
fn sysfs_link_answers(sys: &mut SystemFacts, p: &Pasted) {
    for c in p.commands.iter().filter(|c| c.typed && c.program == "cat") {
        let mut files: Vec<(String, &str)> = Vec::new();
        for w in c.text.split_whitespace().skip(1) {
            let Some(rest) = w.strip_prefix("/sys/class/nvme/") else {
                continue;
            };
            let Some((ctrl, attr)) = rest.split_once("/device/") else {
                continue;
            };
            let attrs: Vec<&str> = match attr.strip_prefix('{').and_then(|a| a.strip_suffix('}')) {
                Some(list) => list.split(',').collect(),
                None => vec![attr],
            };
            for a in attrs {
                if let Some(f) = LINK_FILES.iter().find(|f| **f == a) {
                    files.push((ctrl.to_string(), f));
                }
            }
        }
        let Some(ctrl) = files.first().map(|(c, _)| c.clone()) else {
            continue;
        };
        if nvme_controller(&ctrl).as_deref() != Some(ctrl.as_str()) {
            continue;
        }
        let answers: Vec<&Line> = p
            .lines
            .iter()
            .skip(c.idx.saturating_add(1))
            .take_while(|l| l.src == c.src)
            .filter(|l| !l.text.trim().is_empty())
            .take(files.len())
            .collect();
        let mut link = facts::PcieLink {
            address: format!("/sys/class/nvme/{ctrl}/device"),
            ..Default::default()
        };
        let mut any = false;
        for ((_, f), ans) in files.iter().zip(&answers) {
            let a = ans.text.trim();
            let width = || a.parse::<u32>().ok().filter(|w| (1..=32).contains(w));
            match *f {
                "current_link_speed" => link.current_gts = lspci::parse_gts(a),
                "max_link_speed" => link.max_gts = lspci::parse_gts(a),
                "current_link_width" => link.current_width = width(),
                _ => link.max_width = width(),
            }
            any = true;
        }
        if !any {
            continue;
        }
        let from = format!(
            "pasted:cat /sys/class/nvme/{ctrl}/device line {}",
            answers.first().map(|l| l.first).unwrap_or(0)
        );
        let name = nvme_disk(sys, Some(&ctrl), true);
        if let Some(d) = disk(sys, &name, &from) {
            mark_nvme(d, &from);
            if !d.pcie.is_known() {
                d.pcie = Fact::known(vec![link], from);
            }
        }
    }
}

/// A pasted `zpool get autotrim` on the disks of its pools: those whose ZFS layer names the
/// pool, or that a pasted zpool status lists as a member; a fact the live capture keys
/// already gave is kept.
fn pool_autotrim(sys: &mut SystemFacts, p: &Pasted, b: &Block, key: &str) {
    let rows = crate::sources::zpool_autotrim::parse(&b.text);
    let naming = match sys.platform {
        crate::evidence::Platform::Freebsd => crate::sources::zpool::DeviceNaming::FreeBsd,
        _ => crate::sources::zpool::DeviceNaming::Linux,
    };
    let statuses: Vec<&str> = p
        .blocks
        .iter()
        .filter(|s| s.tool.is(&sources::zpool::SPEC))
        .map(|s| s.text.as_str())
        .collect();
    for d in sys
        .disks
        .iter_mut()
        .filter(|d| !d.trim.zfs_autotrim.is_known())
    {
        let mut pools: Vec<String> = d
            .layers
            .iter()
            .filter(|l| l.kind == Some(facts::LayerKind::Zfs))
            .map(|l| l.name.clone())
            .collect();
        for t in &statuses {
            pools.extend(facts::zfs_trim::pools_on_disk(t, naming, &d.name));
        }
        let mine: Vec<facts::PoolAutotrim> = rows
            .iter()
            .filter(|r| pools.contains(&r.pool))
            .cloned()
            .collect();
        if !mine.is_empty() {
            d.trim.zfs_autotrim = Fact::known(mine, key.to_string());
        }
    }
}

/// The top-level vdevs' ashift of a pasted `zpool get ashift POOL all-vdevs` or `zdb -C`
/// on the ZFS layers of the disks they name (ZFS allocates in the top-level vdev's ashift,
/// sources::zpool_ashift). Leaves a disk's known ashift alone; records a ZFS layer on a
/// disk the output names when the paste has none yet.
fn vdev_ashift(sys: &mut SystemFacts, b: &Block, key: &str) {
    use crate::sources::zpool_ashift;
    let pool = b.device.clone().unwrap_or_else(|| {
        b.text
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("name: '")?
                    .strip_suffix('\'')
                    .map(str::to_string)
            })
            .unwrap_or_else(|| "the pasted pool".to_string())
    });
    // (disk-ish leaf name, ashift of its top-level vdev)
    let mut leaves: Vec<(String, u32)> = Vec::new();
    if b.tool.is(&sources::block_recognisers::ZDB_C_SPEC) {
        for top in zpool_ashift::parse_zdb(&b.text) {
            let Some(a) = top.ashift else { continue };
            for p in &top.paths {
                // /dev/mapper/X (dm-crypt, LVM) and /dev/disk/by-*/X are not disks.
                if p.starts_with("/dev/mapper/") || p.starts_with("/dev/disk/") {
                    continue;
                }
                let base = p.rsplit('/').next().unwrap_or(p);
                leaves.push((base.to_string(), a));
            }
        }
    } else {
        // Rows in order: a top-level vdev row ("raidz2-0", "mirror-1") is followed by its
        // leaves; a leaf row outside any is itself a top-level vdev (a single-disk vdev).
        let mut top: Option<u32> = None;
        for (name, a) in zpool_ashift::parse_vdev_props(&b.text) {
            if is_vdev_name(&name) {
                top = Some(a);
            } else if let Some(t) = top {
                leaves.push((name, t));
            } else {
                leaves.push((name, a));
            }
        }
    }
    for (leaf, a) in leaves {
        if !(9..=16).contains(&a) {
            continue;
        }
        let disk = whole_disk(&leaf);
        if disk.is_empty() {
            continue;
        }
        let known = sys.disks.iter().any(|d| d.name == disk);
        // A leaf named by-id, by label or by GPT label is no disk name diskdoc can tie; the
        // kernel names of Linux and FreeBSD disks are.
        const DISK_PREFIXES: [&str; 10] = [
            "sd", "vd", "xvd", "hd", "nvme", "ada", "da", "nvd", "nda", "ad",
        ];
        let kernel_name = DISK_PREFIXES.iter().any(|p| {
            disk.strip_prefix(p)
                .is_some_and(|r| r.chars().next().is_some_and(|c| c.is_ascii_alphanumeric()))
        });
        let Some(d) = (if known || (kernel_name && device_in_args(&leaf).is_some()) {
            super::pasted_disk(sys, &disk, &format!("known only from the pasted {key}"))
        } else {
            None
        }) else {
            continue;
        };
        match d
            .layers
            .iter_mut()
            .find(|l| l.kind == Some(facts::LayerKind::Zfs))
        {
            Some(l) => {
                if l.ashift.is_none() {
                    l.ashift = Some(a);
                    l.from.push(key.to_string());
                }
            }
            None => d.layers.push(facts::Layer {
                kind: Some(facts::LayerKind::Zfs),
                name: pool.clone(),
                on: vec![leaf.clone()],
                ashift: Some(a),
                from: vec![key.to_string()],
                ..Default::default()
            }),
        }
    }
}

/// The disks an lspci function's link is about: an NVMe controller is the NVMe disk's own
/// link (tied to the one NVMe disk of the paste, or to the namespace the command's `-s`
/// names no further); a SATA/RAID/SAS controller is the link of the disks behind it when
/// the paste has exactly one such controller.
/// hdparm -S timers a block set (sources::hdparm::parse_standby): the drive's own standby
/// timer, which power-management reads like a mode page's STANDBY_Z (the drive stops its
/// spindle after that much idle time; ATA/ACS STANDBY and IDLE commands' Count field).
fn standby_timers(sys: &mut SystemFacts, b: &Block, key: &str) {
    for (dev, ms, line) in crate::sources::hdparm::parse_standby(&b.text) {
        let Some(dev) = dev.or_else(|| b.device.clone()) else {
            continue;
        };
        if let Some(d) = disk(sys, &whole_disk(&dev), key) {
            d.power.drive_timers = Fact::known(
                vec![crate::model::DriveTimer {
                    condition: "Standby (hdparm -S)".to_string(),
                    enabled: true,
                    timer_ms: ms,
                    spins_down: true,
                    line,
                }],
                key.to_string(),
            );
        }
    }
}

fn lspci_links(sys: &mut SystemFacts, b: &Block, key: &str) {
    let all = lspci::parse(&b.text);
    let devs: Vec<lspci::LspciDevice> = all.iter().filter(|d| d.has_link()).cloned().collect();
    // A headerless excerpt (LnkCap/LnkSta only) is the device the command selected, and
    // NVMe is what people paste it for; with an NVMe disk in the paste it is that one.
    let nvme: Vec<&lspci::LspciDevice> = devs
        .iter()
        .filter(|d| d.description.starts_with("Non-Volatile memory controller"))
        .collect();
    let other: Vec<&lspci::LspciDevice> = devs
        .iter()
        .filter(|d| d.is_storage() && !d.description.starts_with("Non-Volatile"))
        .collect();
    let unnamed: Vec<&lspci::LspciDevice> = devs.iter().filter(|d| d.address.is_empty()).collect();
    let set = |sys: &mut SystemFacts, name: &str, d: &lspci::LspciDevice, nvme: bool| {
        if let Some(disk) = disk(sys, name, key) {
            if nvme {
                mark_nvme(disk, key);
            }
            if !disk.pcie.is_known() {
                // The port above it when the listing holds it (a whole `lspci -vv`): its
                // LnkCap is the other end's capability (hop 1). lspci marks no port's LnkSta.
                let mut links = vec![lspci::link(d)];
                if let Some(p) = lspci::port_above(&all, d) {
                    links.push(crate::model::PcieLink {
                        hop: 1,
                        marked_downgraded: false,
                        ..lspci::link(p)
                    });
                }
                disk.pcie = Fact::known(links, key.to_string());
            }
        }
    };
    // A SoC's root port names the machine when nothing else did (facts::soc reads it): the
    // Raspberry Pi 4 / CM4's "BCM2711 PCIe Bridge" (pci.ids 14e4:2711).
    if !sys.cpu_model.is_known()
        && all.iter().any(|d| {
            d.description.starts_with("PCI bridge:")
                && (d.description.contains("BCM2711") || d.description.contains("[14e4:2711]"))
        })
    {
        sys.cpu_model = Fact::known(
            "Broadcom BCM2711 (named by its PCIe root port)".to_string(),
            key.to_string(),
        );
    }
    if let [one] = nvme.as_slice() {
        let name = nvme_disk(sys, None, true);
        set(sys, &name, one, true);
    } else if nvme.is_empty()
        && other.is_empty()
        && let [one] = unnamed.as_slice()
    {
        let name = nvme_disk(sys, None, true);
        set(sys, &name, one, true);
    }
    if let [one] = other.as_slice() {
        let names: Vec<String> = sys
            .disks
            .iter()
            .filter(|d| !d.is_nvme())
            .map(|d| d.name.clone())
            .collect();
        for n in names {
            set(sys, &n, one, false);
        }
    }
}

/// One SATA controller lspci shows in legacy IDE mode ([`lspci::LspciDevice::sata_in_ide_mode`])
/// is the controller of the paste's SATA disks: each non-NVMe disk another block named, or
/// the disk the paste is about when none is named (an `lspci | grep -i sata` answer alone).
/// With two or more storage controllers in the listing the disk's own is not known, and
/// nothing is said; a controller another block gave is never replaced.
fn lspci_legacy_controller(sys: &mut SystemFacts, b: &Block, key: &str) {
    let devs = lspci::parse(&b.text);
    let sata: Vec<&lspci::LspciDevice> = devs
        .iter()
        .filter(|d| d.is_storage() && !d.description.starts_with("Non-Volatile"))
        .collect();
    let [one] = sata.as_slice() else { return };
    if !one.sata_in_ide_mode() {
        return;
    }
    let mut names: Vec<String> = sys
        .disks
        .iter()
        .filter(|d| !d.is_nvme())
        .map(|d| d.name.clone())
        .collect();
    if names.is_empty() {
        names.push(
            sys.disks
                .iter()
                .find(|d| facts::is_pasted_disk(&d.name))
                .map_or_else(|| facts::PASTED_DISK.to_string(), |d| d.name.clone()),
        );
    }
    for n in names {
        if let Some(d) = disk(sys, &n, key) {
            if !d.controller.is_known() {
                d.controller = Fact::known(
                    facts::Controller {
                        mode: Some(facts::ControllerMode::LegacyIde),
                        driver: one.driver.clone(),
                        description: Some(one.description.clone()),
                        address: Some(one.address.clone()).filter(|a| !a.is_empty()),
                        ..Default::default()
                    },
                    key.to_string(),
                );
            }
            if !d.transport.is_known() {
                d.transport = Fact::known(Transport::Sata, key.to_string());
            }
        }
    }
}

/// A Raspberry Pi 5 config.txt that enables the external PCIe connector
/// (sources::rpi_config): the connector is the root port above the drive on it, one lane
/// wide, set to the generation the lines give (2 by default) and able to run Gen 3. That is
/// the port's link (hop 1) of the paste's one NVMe disk, or of the pasted disk the paste is
/// about when it names none; the drive's own capability stays unknown (no LnkCap of it).
/// The current speed is the setting: the link trains to the lower of the two ends (PCIe
/// Base spec 4.2.6), and every NVMe drive supports Gen 2 and more. A link another block
/// gave (lspci, sysfs) is never replaced.
fn rpi_connector_link(sys: &mut SystemFacts, b: &Block, key: &str) {
    use sources::rpi_config;
    let Some(c) = rpi_config::parse(&b.text) else {
        return;
    };
    let (Some(now), Some(max)) = (
        rpi_config::gen_gts(c.gen_set),
        rpi_config::gen_gts(rpi_config::CONNECTOR_MAX_GEN),
    ) else {
        return;
    };
    let name = nvme_disk(sys, None, true);
    if let Some(d) = disk(sys, &name, key) {
        if c.nvme_alias {
            mark_nvme(d, key);
        }
        if !d.pcie.is_known() {
            let port = crate::model::PcieLink {
                address: rpi_config::CONNECTOR_ADDRESS.to_string(),
                hop: 1,
                current_gts: Some(now),
                max_gts: Some(max),
                current_width: Some(rpi_config::CONNECTOR_WIDTH),
                max_width: Some(rpi_config::CONNECTOR_WIDTH),
                marked_downgraded: false,
            };
            d.pcie = Fact::known(vec![port], key.to_string());
        }
    }
}

/// The PCI core's "available PCIe bandwidth, limited by ..." line of an NVMe function
/// (sources::kernel_log::nvme_pcie_limits): the link of the paste's NVMe disk when the log
/// shows one such function; of the controller's first namespace when the driver's "pci
/// function" line names the controller and the paste names no NVMe disk.
fn dmesg_links(sys: &mut SystemFacts, b: &Block, key: &str) {
    let limits = sources::kernel_log::nvme_pcie_limits(&b.text);
    let [one] = limits.as_slice() else {
        return;
    };
    let ctrl = sources::kernel_log::nvme_controller_at(&b.text, &one.address);
    let name = nvme_disk(sys, ctrl.as_deref(), true);
    if let Some(d) = disk(sys, &name, key) {
        mark_nvme(d, key);
        if !d.pcie.is_known() {
            d.pcie = Fact::known(vec![one.clone()], key.to_string());
        }
    }
}

/// FreeBSD `pciconf -lvc`: an nvmeN function's link is the link of its namespace's disk.
fn pciconf_links(sys: &mut SystemFacts, b: &Block, key: &str) {
    let links = pciconf::links(&b.text);
    let nvme: Vec<&(String, facts::PcieLink)> = links
        .iter()
        .filter(|(n, _)| n.starts_with("nvme"))
        .collect();
    for (ctrl, l) in &nvme {
        let name = if nvme.len() == 1 {
            nvme_disk(sys, Some(ctrl), false)
        } else {
            // Several controllers: a disk of the paste tied to this one (same unit, the
            // usual single-namespace numbering), else a disk named after the controller.
            let unit = ctrl.trim_start_matches("nvme");
            match sys
                .disks
                .iter()
                .find(|d| d.name == format!("nvd{unit}") || d.name == format!("nda{unit}"))
            {
                Some(d) => d.name.clone(),
                None => ctrl.clone(),
            }
        };
        if let Some(d) = disk(sys, &name, key) {
            mark_nvme(d, key);
            if !d.pcie.is_known() {
                d.pcie = Fact::known(vec![l.clone()], key.to_string());
            }
        }
    }
}

/// Linux `iostat -x`: the busiest report of each disk as its busy sample (%util is the
/// share of time with I/O in flight, the same io_ticks the live sample reads; sysstat
/// iostat.c). The first report is since boot, so a later one is preferred. `sar -d` rows
/// are the same samples (sar's last report is its Average block).
fn iostat_busy(sys: &mut SystemFacts, samples: &[crate::sources::iostat::IostatSample], key: &str) {
    let last_report = samples.iter().map(|s| s.report).max().unwrap_or(0);
    for s in samples.iter().filter(|s| s.report == last_report) {
        let Some(util) = s.busy_pct else { continue };
        let name = s.device.trim_start_matches("/dev/");
        if name.starts_with("loop")
            || name.starts_with("dm-")
            || name.starts_with("sr")
            || name.starts_with("scd")
            || name.starts_with("fd")
            || name.starts_with("pass")
            || name.starts_with("cd")
        {
            continue;
        }
        let whole = whole_disk(name);
        if whole != name {
            // A partition row: its disk has its own row.
            continue;
        }
        let Some(d) = sys.disks.iter_mut().find(|d| d.name == name) else {
            // Only disks the paste otherwise names, or busy ones, get a disk from iostat.
            if util < facts::BUSY_NOTICE_PCT {
                continue;
            }
            if let Some(d) = disk(sys, name, key) {
                d.busy = Fact::known(busy_of(s, util), key.to_string());
            }
            continue;
        };
        if !d.busy.is_known() {
            d.busy = Fact::known(busy_of(s, util), key.to_string());
        }
    }
}

/// Drives named by their mount path (MinIO's `mc support top disk`, sources::mc_top_disk):
/// each row is the drive's own iostat sample, so a drive busy at least BUSY_NOTICE_PCT of
/// the interval gets it as its busy sample under its path (a path is no partition name to
/// fold into a whole disk, so iostat_busy's device rules do not apply). A path printed
/// twice (a refreshed table pasted whole) keeps its last row.
fn drive_busy(sys: &mut SystemFacts, samples: &[crate::sources::iostat::IostatSample], key: &str) {
    for s in samples {
        let Some(util) = s.busy_pct.filter(|u| *u >= facts::BUSY_NOTICE_PCT) else {
            continue;
        };
        if let Some(d) = disk(sys, &s.device, key) {
            d.busy = Fact::known(busy_of(s, util), key.to_string());
        }
    }
}

/// iotop's tasks that waited for block I/O at least BUSY_NOTICE_PCT of the interval (its
/// IO column: taskstats blkio_delay_total, Documentation/accounting/delay-accounting.rst):
/// a disk that keeps its tasks waiting that long has more requests than it serves. The
/// busy sample's util_pct is the longest wait, its `top` the waiting tasks, longest first.
/// The disk is the one a waiting journal thread names ("jbd2/sda1-8" is on sda), else the
/// paste's only disk, else the placeholder.
fn iotop_busy(sys: &mut SystemFacts, b: &Block, key: &str) {
    let rows = sources::iotop::parse(&b.text);
    let mut waiting: Vec<&sources::iotop::IotopRow> = rows
        .iter()
        .filter(|r| r.io_wait_pct.is_some_and(|p| p >= facts::BUSY_NOTICE_PCT))
        .collect();
    waiting.sort_by(|a, b| {
        b.io_wait_pct
            .partial_cmp(&a.io_wait_pct)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let Some(util) = waiting.first().and_then(|r| r.io_wait_pct) else {
        return;
    };
    let name = waiting
        .iter()
        .find_map(|r| sources::iotop::thread_device(&r.command))
        .map(|dev| match whole_disk(dev) {
            w if w.is_empty() => dev.to_string(),
            w => w,
        })
        .or_else(|| match sys.disks.as_slice() {
            [only] => Some(only.name.clone()),
            _ => None,
        })
        .unwrap_or_else(|| facts::PASTED_DISK.to_string());
    let bytes = rows
        .iter()
        .map(|r| r.read_bytes_per_sec.saturating_add(r.write_bytes_per_sec))
        .fold(0u64, u64::saturating_add);
    let top = waiting
        .iter()
        .take(6)
        .map(|r| facts::IoProcess {
            pid: r.id,
            comm: r.command.clone(),
            bytes: r.read_bytes_per_sec.saturating_add(r.write_bytes_per_sec),
        })
        .collect();
    if let Some(d) = disk(sys, &name, key)
        && !d.busy.is_known()
    {
        d.busy = Fact::known(
            facts::BusySample {
                interval_ms: 1000,
                util_pct: util,
                avg_queue: 0.0,
                await_ms: None,
                ios: 0,
                bytes,
                top,
                pasted: true,
            },
            key.to_string(),
        );
    }
}

fn busy_of(s: &crate::sources::iostat::IostatSample, util: f64) -> facts::BusySample {
    // sar -d prints tps (reads and writes together) where iostat -x splits r/s and w/s.
    let ops = match (s.reads_per_sec, s.writes_per_sec) {
        (None, None) => s.transfers_per_sec.unwrap_or(0.0).max(0.0),
        (r, w) => r.unwrap_or(0.0).max(0.0) + w.unwrap_or(0.0).max(0.0),
    };
    facts::BusySample {
        // iostat's interval is not in its output; its rates are per second.
        interval_ms: 1000,
        util_pct: util.clamp(0.0, 100.0),
        avg_queue: s.queue_len.unwrap_or(0.0).clamp(0.0, 1e9),
        await_ms: s.await_ms,
        ios: ops.min(1e12) as u64,
        bytes: s.bytes_per_sec().unwrap_or(0.0).clamp(0.0, 1e18) as u64,
        top: Vec::new(),
        pasted: true,
    }
}
