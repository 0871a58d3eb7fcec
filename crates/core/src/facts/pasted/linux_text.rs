//! Linux facts from pasted text: the disks the pasted smartctl, hdparm, lsblk, fdisk,
//! sfdisk, cryptsetup and kernel-log outputs name, filled by the shared source parsers.

use super::{disk_mut, set_if_unknown};
use crate::model::{self, DeviceClass, Fact, Layer, LayerKind, SystemFacts, Transport};
use crate::pasted::Pasted;
use crate::sources;
use crate::sources as t;

/// Linux facts come from sysfs in a live run; a paste has none, so the disks are those the
/// pasted smartctl, hdparm, lsblk, fdisk, cryptsetup and dmesg outputs name, filled by the
/// shared source parsers (crate::sources) with the pasted blocks as sources.
pub(super) fn derive(sys: &mut SystemFacts, p: &Pasted) {
    for b in p.blocks {
        let key = b.key.clone();
        match b.tool {
            // The kernel's USB device list: a lone mass-storage device in it is the disk
            // pasted, on the driver and at the link speed the list shows.
            t if t.is(&sources::usb_devices::SPEC) => {
                let devs = t::usb_devices::parse(&b.text);
                if let [u] = devs.as_slice()
                    && let Some(d) = disk_mut(sys, crate::facts::PASTED_DISK)
                {
                    mark_usb(d, u.driver.as_deref().unwrap_or(""), &key);
                    if let Fact::Known { value, .. } = &mut d.controller
                        && value.usb_speed_mbps.is_none()
                    {
                        value.usb_speed_mbps = Some(u.speed_mbps);
                        if value.address.is_none() {
                            value.address = Some(format!("usb bus {} device {}", u.bus, u.dev));
                        }
                    }
                    if let Some(p) = &u.product {
                        set_if_unknown(&mut d.model, Some(p.clone()), &key);
                    }
                    d.notes
                        .push(format!("USB device list ({key}): \"{}\"", u.line));
                }
            }
            // `lsusb -t`: each mass-storage device in the tree is a disk behind a USB
            // bridge, on the driver and at the link speed the tree shows. A lone one is the
            // disk the rest of the paste names when it names exactly one (`hdparm -t
            // /dev/sdi` under the tree), else the disk you pasted; several get a
            // placeholder each (the tree names no block device; lsusb.py's does).
            t if t.is(&sources::lsusb::TREE_SPEC) => {
                let tree = t::lsusb::parse_tree(&b.text);
                let storage = tree.storage();
                let named = disks_named_by_others(p, &sources::lsusb::TREE_SPEC);
                for (i, u) in storage.iter().enumerate() {
                    let name = match (storage.len(), named.as_slice()) {
                        // lsusb.py's interface line names its block device.
                        _ if u.block.is_some() => u.block.clone().unwrap_or_default(),
                        (1, [one]) => one.clone(),
                        _ if i == 0 => crate::facts::PASTED_DISK.to_string(),
                        _ => format!("{}{}", crate::facts::PASTED_DISK, i + 1),
                    };
                    let Some(d) = disk_mut(sys, &name) else {
                        continue;
                    };
                    mark_usb(d, &u.driver, &key);
                    if let Fact::Known { value, .. } = &mut d.controller {
                        if value.usb_speed_mbps.is_none() {
                            value.usb_speed_mbps = Some(u.speed_mbps);
                        }
                        if value.address.is_none() {
                            value.address = u.usb_name().map(|n| format!("usb {n}"));
                        }
                        if value.description.is_none() {
                            value.description = u.id.clone();
                        }
                        // The host controller's driver is its root hub's ("Driver=
                        // xhci_hcd/1p": an xHCI host's USB 2 bus).
                        if value.driver.is_none() {
                            value.driver = tree.host_driver(u).map(str::to_string);
                        }
                        // The bridge chip by its ID (the `-v` line under the device, or the
                        // pasted kernel log's "usb 1-1.1: New USB device found, idVendor=
                        // 0bda, idProduct=9210" for the device the tree places at 1-1.1):
                        // a USB 3 bridge chip (sources::usb_devices::usb3_bridge_chip) on a
                        // high-speed link is one held at USB 2.
                        let chip = u
                            .vendor_product()
                            .or_else(|| {
                                let name = u.usb_name()?;
                                p.blocks
                                    .iter()
                                    .filter(|l| l.tool.is(&sources::kernel_log::LINUX_SPEC))
                                    .find_map(|l| t::kernel_log::usb_id_of(&name, &l.text))
                            })
                            .and_then(|(v, p)| t::usb_devices::usb3_bridge_chip(&v, &p));
                        if let Some(chip) = chip
                            && !value
                                .description
                                .as_deref()
                                .is_some_and(t::usb_devices::names_usb3)
                        {
                            value.description = Some(match value.description.take() {
                                Some(product) => format!("{product}, {chip}"),
                                None => chip.to_string(),
                            });
                        }
                    }
                    d.notes
                        .push(format!("USB device tree ({key}): \"{}\"", u.line));
                }
            }
            // A plain `lsusb`: a USB-to-SATA/NVMe bridge in it is the enclosure of the
            // disk the rest of the paste names when it names exactly one, else of the disk
            // you pasted (sources::lsusb::ListedDevice::storage_bridge). Other devices
            // (hubs, keyboards) say nothing of a disk.
            t if t.is(&sources::lsusb::LIST_SPEC) => {
                let list = t::lsusb::parse_list(&b.text);
                let bridges: Vec<(&t::lsusb::ListedDevice, String)> = list
                    .iter()
                    .filter_map(|u| u.storage_bridge().map(|n| (u, n)))
                    .collect();
                let [(u, chip)] = bridges.as_slice() else {
                    continue;
                };
                apply_bridge(
                    sys,
                    p,
                    &sources::lsusb::LIST_SPEC,
                    &key,
                    chip,
                    Some(format!("usb bus {} device {}", u.bus, u.dev)),
                    format!("USB device list ({key}): \"{}\"", u.line),
                );
            }
            // `lsusb -v`: a disk bridge in the descriptor dump (sources::lsusb::
            // Described::storage_bridge) is the enclosure of the disk the rest of the paste
            // names when it names exactly one, else of the disk you pasted.
            t if t.is(&sources::lsusb::DESC_SPEC) => {
                let devs = t::lsusb::parse_described(&b.text);
                let bridges: Vec<(&t::lsusb::Described, String)> = devs
                    .iter()
                    .filter_map(|u| u.storage_bridge().map(|n| (u, n)))
                    .collect();
                let [(u, chip)] = bridges.as_slice() else {
                    continue;
                };
                apply_bridge(
                    sys,
                    p,
                    &sources::lsusb::DESC_SPEC,
                    &key,
                    chip,
                    None,
                    format!("USB descriptors ({key}): \"{}\"", u.line),
                );
            }
            t if t.is_any(sources::SMART_REPORTS) => {
                if let Some(d) = b.device.as_deref().and_then(|dev| disk_mut(sys, dev)) {
                    t::smartctl::apply(d, &key, &b.text);
                    // Text output does not repeat the `-d TYPE` of its command line.
                    let usb = b.command.as_deref().and_then(|c| {
                        let w: Vec<&str> = c.split_whitespace().collect();
                        w.windows(2)
                            .find(|p| p.first().is_some_and(|x| *x == "-d" || *x == "--device"))
                            .and_then(|p| p.get(1).copied())
                            .or_else(|| w.iter().find_map(|x| x.strip_prefix("--device=")))
                    });
                    if usb.is_some_and(t::smartctl::is_usb_device_type) {
                        set_if_unknown(&mut d.transport, Some(Transport::Usb), &key);
                    }
                }
            }
            t if t.is(&sources::udevadm::SPEC) => {
                for r in t::udevadm::parse(&b.text) {
                    // Only whole disks: a partition's record says the same of its disk.
                    if r.prop("DEVTYPE").is_some_and(|v| v != "disk") {
                        continue;
                    }
                    let Some(name) = r.name.clone() else { continue };
                    let Some(d) = disk_mut(sys, &name) else {
                        continue;
                    };
                    set_if_unknown(&mut d.model, r.model(), &key);
                    if r.usb() {
                        set_if_unknown(&mut d.transport, Some(Transport::Usb), &key);
                    }
                }
            }
            t if t.is(&sources::hdparm::IDENTIFY_SPEC) => {
                let Some(h) = t::hdparm::parse_identify(&b.text) else {
                    continue;
                };
                let Some(dev) = h.device.clone().or_else(|| b.device.clone()) else {
                    continue;
                };
                let Some(d) = disk_mut(sys, &dev) else {
                    continue;
                };
                // The identify came from a bridge that does not pass ATA commands through
                // (sources::hdparm passthrough_failed): none of it is the drive's. The disk
                // sits behind a translating bridge, taken for USB storage, the common case (a
                // hardware RAID volume is the other, and its controller's lines say so).
                if h.passthrough_failed {
                    set_if_unknown(&mut d.transport, Some(Transport::Usb), &key);
                    continue;
                }
                set_if_unknown(&mut d.model, h.model.clone(), &key);
                set_if_unknown(&mut d.serial, h.serial.clone(), &key);
                set_if_unknown(&mut d.firmware, h.firmware.clone(), &key);
                set_if_unknown(&mut d.logical_sector_bytes, h.logical_sector_bytes, &key);
                set_if_unknown(&mut d.physical_sector_bytes, h.physical_sector_bytes, &key);
                set_if_unknown(&mut d.rotation_rpm, h.rotation_rpm, &key);
                set_if_unknown(&mut d.rotational, h.rotation_rpm.map(|r| r != 0), &key);
                set_if_unknown(
                    &mut d.class,
                    h.rotation_rpm.map(|r| {
                        if r == 0 {
                            DeviceClass::Ssd
                        } else {
                            DeviceClass::Hdd
                        }
                    }),
                    &key,
                );
                // `hdparm -i` shows no rotation rate (word 217 came with ATA8-ACS), but
                // the drives that predate it often say in word 0 that they have heads and
                // a spindle (sources::hdparm rotating_media).
                set_if_unknown(
                    &mut d.class,
                    h.rotating_media().filter(|r| *r).map(|_| DeviceClass::Hdd),
                    &key,
                );
                set_if_unknown(&mut d.link_drive_max_gbps, h.sata_max_gbps, &key);
                set_if_unknown(&mut d.ncq_supported, h.ncq_supported, &key);
                set_if_unknown(&mut d.ncq_drive_depth, h.queue_depth, &key);
                set_if_unknown(&mut d.write_cache_supported, h.write_cache_supported, &key);
                set_if_unknown(&mut d.write_cache_enabled, h.write_cache_enabled, &key);
                set_if_unknown(&mut d.trim_supported, h.trim_supported, &key);
                set_if_unknown(&mut d.size_bytes, h.size_bytes(), &key);
                set_if_unknown(&mut d.udma_drive_max, h.udma_max, &key);
                let sata = h.transport.as_deref().is_some_and(|x| x.contains("SATA"))
                    || !h.sata_gens.is_empty();
                set_if_unknown(&mut d.transport, sata.then_some(Transport::Sata), &key);
            }
            t if t.is(&sources::hdparm::WRITE_CACHE_SPEC) => {
                for w in t::hdparm::parse_write_cache(&b.text) {
                    let Some(d) = disk_mut(sys, &w.device) else {
                        continue;
                    };
                    // The state hdparm printed last is the drive's state now.
                    if let Some(on) = w.enabled.or(w.set_to) {
                        d.write_cache_enabled = Fact::known(on, key.clone());
                        set_if_unknown(&mut d.write_cache_supported, Some(true), &key);
                    }
                }
                // The settings block of plain `hdparm` / `hdparm -d` is classified with -W's
                // (it carries no other kind's marks): its using_dma read-back is the IDE
                // driver's DMA state.
                apply_ide_dma(sys, p, &b.text, b.device.as_deref(), &key);
            }
            // `hdparm -d0 -tT` (or `-d1 -t`) prints the using_dma read-back and the timings
            // under one "/dev/X:" header (hdparm.c handles the set flags, then the timings),
            // so the block is classified as a timing run; the read-back is still the state
            // the timings were measured in.
            t if t.is(&sources::hdparm::TIMING_SPEC) => {
                apply_ide_dma(sys, p, &b.text, b.device.as_deref(), &key)
            }
            t if t.is_any(&[&sources::lsblk::SPEC, &sources::lsblk::JSON_SPEC]) => {
                let devs = t::lsblk::parse(&b.text);
                let tops: Vec<String> = devs
                    .iter()
                    .filter(|x| x.depth == 0)
                    .map(|x| x.name.clone())
                    .collect();
                for name in tops {
                    if name.starts_with("loop")
                        || name.starts_with("sr")
                        || name.starts_with("fd")
                        || name.starts_with("zram")
                    {
                        continue;
                    }
                    if let Some(d) = disk_mut(sys, &name) {
                        t::lsblk::apply(d, &key, &devs);
                        // A bare listing names no cipher and no driver: its crypt row is
                        // worth raising where the cipher can cost throughput even with AES
                        // instructions, on flash (NVMe, or ROTA 0): dm-crypt's accelerated
                        // xts(aes) runs at some 1-2 GB/s per core, below an NVMe drive's
                        // 2-7 GB/s, while a hard disk's 100-250 MB/s is far below it
                        // (the encryption-layer check's own figures).
                        let flash = name.starts_with("nvme")
                            || d.transport.get() == Some(Transport::Nvme)
                            || d.rotational.get() == Some(false);
                        if !flash {
                            continue;
                        }
                        for l in t::lsblk::crypt_layers(&devs, &name, &key) {
                            if !d.layers.iter().any(|x| x.name == l.name) {
                                d.layers.push(l);
                            }
                        }
                    }
                }
            }
            t if t.is_any(&[&sources::fdisk::SPEC, &sources::sfdisk::SPEC]) => {
                let disks = if b.tool.is(&sources::sfdisk::SPEC) {
                    t::sfdisk::parse_dump(&b.text)
                } else {
                    t::fdisk::parse(&b.text)
                };
                for fd in disks {
                    // fdisk's session on a blank disk names no device in its own lines: the
                    // disk it describes is the one the paste is about.
                    let blank_session = fd.partitions.is_empty()
                        && fd.label.as_deref() == Some("dos")
                        && fd.size_bytes.is_some();
                    let Some(dev) =
                        fd.device.clone().or_else(|| b.device.clone()).or_else(|| {
                            blank_session.then(|| crate::facts::PASTED_DISK.to_string())
                        })
                    else {
                        continue;
                    };
                    let Some(d) = disk_mut(sys, &dev) else {
                        continue;
                    };
                    set_if_unknown(&mut d.logical_sector_bytes, fd.logical_sector_bytes, &key);
                    set_if_unknown(&mut d.physical_sector_bytes, fd.physical_sector_bytes, &key);
                    set_if_unknown(&mut d.size_bytes, fd.size_bytes, &key);
                    if fd.opt_io_bytes.is_some_and(bridge_optimal_io) {
                        d.notes.push(format!(
                            "fdisk's optimal I/O size of 0xFFFF blocks is a USB bridge's \
                             Block Limits answer ({key})"
                        ));
                        mark_usb(d, "", &key);
                    }
                    // fdisk prints "Alignment offset: N bytes" only when N is not zero
                    // (util-linux fdisk-list); with the sector-size line present and no such
                    // line, the offset is 0.
                    if fd.physical_sector_bytes.is_some() && !b.text.contains("Alignment offset") {
                        set_if_unknown(&mut d.alignment_offset_bytes, Some(0), &key);
                    }
                    let sector = fd.logical_sector_bytes.unwrap_or(512);
                    // An MBR entry of type EEh is the protective MBR of a GPT disk (UEFI 2.10
                    // section 5.2.3): it marks the disk as GPT and is no partition of it. Old
                    // fdisk lists only that entry (or a hybrid MBR's copies beside it), and a
                    // paste may hold the table without fdisk's "GPT detected" warning above.
                    let protective =
                        |p: &&sources::fdisk::FdiskPartition| p.type_id.as_deref() == Some("ee");
                    let gpt_protected = fd.partitions.iter().any(|p| protective(&p));
                    let parts: Vec<model::Partition> = fd
                        .partitions
                        .iter()
                        .filter(|p| !protective(p))
                        .filter_map(|p| {
                            let start = p.start?;
                            Some(model::Partition {
                                number: p.number.unwrap_or(0),
                                name: p.device.trim_start_matches("/dev/").to_string(),
                                start_sector: start,
                                size_sectors: p.sectors.unwrap_or(0),
                                sector_bytes: sector,
                                start_bytes: start.saturating_mul(u64::from(sector)),
                                type_name: p.type_name.clone(),
                                ..Default::default()
                            })
                        })
                        .collect();
                    if (!parts.is_empty() || blank_session) && !d.partition_table.is_known() {
                        let scheme = match fd.label.as_deref() {
                            Some("gpt") => "gpt",
                            _ if fd.gpt_detected || gpt_protected => "gpt",
                            _ => "mbr",
                        };
                        d.partition_table = Fact::known(
                            model::PartitionTable {
                                scheme: scheme.to_string(),
                                partitions: parts,
                                notes: fd.warnings.clone(),
                            },
                            key.clone(),
                        );
                    }
                }
            }
            // `blockdev --report`: each whole disk's logical sector and size, and its
            // partitions' starts (sysfs "start", 512-byte units) for the alignment check.
            t if t.is(&sources::blockdev::SPEC) => {
                let rows = t::blockdev::parse(&b.text);
                for r in rows.iter().filter(|r| r.start_512 == 0) {
                    let whole = crate::facts::device_names::whole_disk(&r.name);
                    if whole != r.name
                        || ["loop", "md", "dm-", "sr", "zram", "ram"]
                            .iter()
                            .any(|x| r.name.starts_with(x))
                    {
                        continue;
                    }
                    let parts: Vec<model::Partition> = rows
                        .iter()
                        .filter(|p| {
                            p.name != r.name
                                && crate::facts::device_names::whole_disk(&p.name) == r.name
                        })
                        .filter_map(|p| {
                            let sector = u64::from(r.logical_sector_bytes.max(1));
                            let start_bytes = p.start_512.checked_mul(512)?;
                            Some(model::Partition {
                                number: p
                                    .name
                                    .trim_start_matches(|c: char| !c.is_ascii_digit())
                                    .parse()
                                    .unwrap_or(0),
                                name: p.name.clone(),
                                start_sector: start_bytes / sector,
                                size_sectors: p.size_bytes / sector,
                                sector_bytes: r.logical_sector_bytes,
                                start_bytes,
                                ..Default::default()
                            })
                        })
                        .collect();
                    let Some(d) = disk_mut(sys, &r.name) else {
                        continue;
                    };
                    set_if_unknown(
                        &mut d.logical_sector_bytes,
                        Some(r.logical_sector_bytes),
                        &key,
                    );
                    set_if_unknown(&mut d.size_bytes, Some(r.size_bytes), &key);
                    if !parts.is_empty() && !d.partition_table.is_known() {
                        // The report names no partition scheme; the starts are what is read.
                        d.partition_table = Fact::known(
                            model::PartitionTable {
                                scheme: "unknown".to_string(),
                                partitions: parts,
                                notes: Vec::new(),
                            },
                            key.clone(),
                        );
                    }
                }
            }
            // A LUKS header (cryptsetup luksDump): the device it was read from carries the
            // encryption layer, the disk the command names, else the disk you pasted.
            t if t.is(&sources::luks_dump::SPEC) => {
                let dev = b.device.as_deref().map(|d| d.trim_start_matches("/dev/"));
                for h in t::luks_dump::parse(&b.text) {
                    let layer = h.to_layer(dev, &key);
                    let Some(d) = disk_mut(sys, dev.unwrap_or(crate::facts::PASTED_DISK)) else {
                        continue;
                    };
                    if !d.layers.iter().any(|l| l.name == layer.name) {
                        d.layers.push(layer);
                    }
                }
            }
            t if t.is(&sources::cryptsetup::SPEC) => {
                for c in t::cryptsetup::parse(&b.text) {
                    let Some(dev) = c.device.clone() else {
                        continue;
                    };
                    if dev.starts_with("/dev/loop") || dev.starts_with("/dev/mapper/") {
                        continue;
                    }
                    // A mapping on an md array (cryptsetup prints "device: /dev/md1"): the
                    // layer sits on the array's members, which the checks judge, not on the
                    // array node. The members the paste shows (an md layer naming the array),
                    // else the disk you pasted, with the array named as what it is on.
                    let below = dev.trim_start_matches("/dev/").to_string();
                    let on_array = below
                        .strip_prefix("md")
                        .is_some_and(|r| !r.is_empty() && r.chars().all(|ch| ch.is_ascii_digit()));
                    let targets: Vec<String> = if on_array {
                        let members: Vec<String> = sys
                            .disks
                            .iter()
                            .filter(|d| {
                                d.layers.iter().any(|l| {
                                    l.kind == Some(LayerKind::Md)
                                        && (l.name == below || l.on.contains(&below))
                                })
                            })
                            .map(|d| d.name.clone())
                            .collect();
                        if members.is_empty() {
                            vec![crate::facts::PASTED_DISK.to_string()]
                        } else {
                            members
                        }
                    } else {
                        vec![dev.clone()]
                    };
                    for target in targets {
                        let Some(d) = disk_mut(sys, &target) else {
                            continue;
                        };
                        if !d.layers.iter().any(|l| l.name == c.mapping) {
                            d.layers.push(Layer {
                                kind: Some(
                                    if c.crypt_type
                                        .as_deref()
                                        .is_some_and(|x| x.starts_with("LUKS"))
                                    {
                                        LayerKind::Luks
                                    } else {
                                        LayerKind::DmCrypt
                                    },
                                ),
                                name: c.mapping.clone(),
                                on: vec![below.clone()],
                                cipher: c.cipher.clone(),
                                key_bits: c.key_bits,
                                from: vec![key.clone()],
                                ..Default::default()
                            });
                        }
                    }
                }
            }
            _ => {}
        }
    }
    // Kernel log lines about each disk.
    let logs: Vec<(String, &str)> = p
        .blocks
        .iter()
        .filter(|b| b.tool.is(&sources::kernel_log::LINUX_SPEC))
        .map(|b| (b.key.clone(), b.text.as_str()))
        .collect();
    // A pasted kernel log is often all there is: its disks ("sd 0:0:0:0: [sda]", "I/O
    // error, dev sda") become disks, and a libata port with events that no named disk
    // claims ("ata1: hard resetting link" alone) becomes the disk on that port.
    let mut pcie_events: Vec<(&str, Vec<model::KernelEvent>)> = Vec::new();
    for (k, log) in &logs {
        // btrfs's print of a device's error counters after a failed bio ("bdev /dev/sdb1
        // errs: wr 2, rd 0, ...", sources::btrfs_stats::printk_stats): the same counters as
        // `btrfs device stats`, read the same way.
        super::drive_tools::btrfs_counters(
            sys,
            sources::btrfs_stats::printk_stats(log),
            k,
            &format!("named in the pasted kernel log ({k})"),
        );
        for name in t::kernel_log::disks_named(log) {
            if let Some(d) = disk_mut(sys, &name) {
                if d.notes.iter().all(|n| !n.contains("pasted kernel log")) {
                    d.notes
                        .push(format!("named in the pasted kernel log ({k})"));
                }
                // Removable media (flash sticks, card readers) report WCE=0 in the caching
                // mode page because they keep no volatile cache to switch on: the sd line's
                // "Write cache: disabled" is then no setting to change (sd.c
                // sd_read_cache_type only relays the page).
                // The SCSI scan line's INQUIRY names a hypervisor's disk ("Msft Virtual
                // Disk", "QEMU HARDDISK", "VMware Virtual disk"); an "ATA" vendor is libata's
                // translation and names nothing new.
                // A software SCSI target's vendor (LIO-ORG, IET, ...) on the scan line of the
                // same address names a network LUN, whose caching page is the target's.
                let inquiry = t::kernel_log::inquiry_of(&name, log);
                if let Some((vendor, model)) = &inquiry {
                    if crate::facts::linux::controller::looks_virtual(vendor, model) {
                        set_if_unknown(&mut d.vendor, Some(vendor.clone()), k);
                        set_if_unknown(&mut d.model, Some(model.clone()), k);
                        set_if_unknown(&mut d.class, Some(model::DeviceClass::Virtual), k);
                    } else if crate::sources::kernel_log::iscsi::is_software_target_vendor(vendor) {
                        set_if_unknown(&mut d.vendor, Some(vendor.clone()), k);
                        set_if_unknown(&mut d.model, Some(model.clone()), k);
                    }
                }
                // The old IDE driver's probe line names the drive ("hdc: MODEL, ATA DISK
                // drive").
                set_if_unknown(&mut d.model, t::kernel_log::ide_model_of(&name, log), k);
                // virtio-blk's and Xen blkfront's disks (vda, xvda) are the hypervisor's.
                if t::kernel_log::is_virtual_disk_name(&name) {
                    set_if_unknown(&mut d.class, Some(model::DeviceClass::Virtual), k);
                    if name.starts_with("vd") {
                        set_if_unknown(&mut d.transport, Some(Transport::Virtio), k);
                    }
                }
                // A network block device (rbd0, nbd0, drbd0: kernel_log::network_block_device)
                // is a volume served over the network: virtual, described by what serves it.
                if let Some(nbd) = t::kernel_log::network_block_device(&name) {
                    set_if_unknown(&mut d.class, Some(model::DeviceClass::Virtual), k);
                    set_if_unknown(
                        &mut d.controller,
                        Some(model::Controller {
                            description: Some(nbd.description().to_string()),
                            ..Default::default()
                        }),
                        k,
                    );
                }
                // A unit at a LUN other than 0 with no USB driver under it belongs to a
                // target that exports several (an array, an iSCSI or FC target, a
                // hypervisor's controller): its caching page speaks for the target, whose own
                // cache (battery-backed, or none by design: Longhorn's iSCSI volumes report
                // WCE=0 on purpose) sits behind it, so "Write cache: disabled" there is no
                // drive cache left off. A drive on a SATA or SAS port is always LUN 0.
                let target_lun = t::kernel_log::lun_of(&name, log).is_some_and(|l| l != 0)
                    && t::kernel_log::usb_driver_of(&name, log).is_none();
                if !t::kernel_log::is_removable(&name, log) && !target_lun {
                    set_if_unknown(
                        &mut d.write_cache_enabled,
                        t::kernel_log::write_cache_of(&name, log),
                        k,
                    );
                }
                if let Some(drv) = t::kernel_log::usb_driver_of(&name, log) {
                    mark_usb(d, drv, k);
                    // The USB device the disk is on names its bridge (two LUNs of one
                    // enclosure share it), and that device's serial is the disk's serial
                    // as udev and lsblk give it. A removable-media LUN is a card reader's
                    // slot or a stick, not a drive of a multi-bay enclosure: no bridge named.
                    if let Some((dev, serial)) = t::kernel_log::usb_device_of(&name, log) {
                        set_usb_speed(d, Some(&dev), log, k);
                        // How sd attached it: a fixed disk behind a bridge, or removable
                        // media (a stick, a card reader's slot).
                        let fixed = t::kernel_log::is_fixed_disk(&name, log);
                        let removable = t::kernel_log::is_removable(&name, log);
                        if let Fact::Known { value, .. } = &mut d.controller
                            && value.usb_removable.is_none()
                            && fixed != removable
                        {
                            value.usb_removable = Some(removable);
                        }
                        if let Fact::Known { value, .. } = &mut d.controller
                            && !t::kernel_log::is_removable(&name, log)
                            && value.address.is_none()
                            && value.usb_driver.is_some()
                        {
                            value.address = Some(format!("usb {dev}"));
                        }
                        set_if_unknown(&mut d.serial, serial, k);
                    }
                }
                // Power-management lines of the disk: stopped and started again and again
                // (power_log::disk_stop_start_cycles), or its USB device failing to enable
                // USB 3 link power states (power_log::usb_lpm_enable_failures).
                let dev = t::kernel_log::usb_device_of(&name, log).map(|x| x.0);
                let mut power = t::power_log::disk_stop_start_cycles(log, &name);
                power.extend(
                    t::power_log::usb_lpm_enable_failures(log)
                        .into_iter()
                        .filter(|(u, _)| dev.as_ref() == Some(u))
                        .map(|(_, l)| l),
                );
                if !power.is_empty() && !d.power.power_log.is_known() {
                    d.power.power_log = Fact::known(power, k.clone());
                }
            }
        }
        // A USB disk the log shows only by its USB lines (no "sd H:C:T:L: [sdX]"): the disk
        // you pasted, behind that USB driver.
        // A USB device the hub could not even enumerate (no SCSI disk appeared): the disk
        // you pasted, on a failing USB link.
        if t::kernel_log::disks_named(log).is_empty()
            && t::kernel_log::nvme_disks_named(log).is_empty()
        {
            let driver = t::kernel_log::usb_storage_driver(log);
            // The storage driver's USB device ("usb-storage 2-4:1.0"), when the log names
            // it: the lines of other USB devices (kernel_log::usb_line_on_path) are not the
            // disk's.
            let own = driver.as_ref().and_then(|(_, line)| {
                t::kernel_log::usb_device_in_line(line)
                    .or_else(|| t::kernel_log::usb_storage_device_by_address(log))
            });
            let mut failures = t::kernel_log::usb_enumeration_failures(log, k);
            // The disk's own SCSI lines on the USB driver's host ("sd 1:0:0:0:
            // uas_eh_abort_handler ..." names no /dev/sdX).
            if driver.is_some() {
                for e in t::kernel_log::usb_host_failures(log, k) {
                    if !failures.iter().any(|x| x.line == e.line) {
                        failures.push(e);
                    }
                }
            }
            // The USB link itself failing: repeated hub resets, the xHCI stream-ring error,
            // disconnects beside them (kernel_log::usb_link_failures).
            for e in t::kernel_log::usb_link_failures(log, k, driver.is_some()) {
                if !failures.iter().any(|x| x.line == e.line) {
                    failures.push(e);
                }
            }
            if let Some(dev) = &own {
                failures.retain(|e| t::kernel_log::usb_line_on_path(&e.line, dev));
            }
            // A USB device failing to enable USB 3 link power states, in a log with no
            // other disk: the disk you pasted, behind it.
            let lpm: Vec<String> = t::power_log::usb_lpm_enable_failures(log)
                .into_iter()
                .map(|(_, l)| l)
                .collect();
            if (driver.is_some() || !failures.is_empty() || !lpm.is_empty())
                && let Some(d) = disk_mut(sys, crate::facts::PASTED_DISK)
            {
                if !lpm.is_empty() && !d.power.power_log.is_known() {
                    d.power.power_log = Fact::known(lpm, k.clone());
                }
                match driver {
                    Some((drv, _)) => {
                        mark_usb(d, drv, k);
                        set_usb_speed(d, own.as_deref(), log, k);
                    }
                    None => set_if_unknown(&mut d.transport, Some(Transport::Usb), k),
                }
                d.kernel_events.extend(failures);
            }
        }
        // NVMe drives Intel RST hides behind the AHCI function (kernel_log::remapped_nvme):
        // no block device exists, so one disk stands for them, an NVMe drive whose
        // controller is that AHCI function in RAID mode, with no device node.
        if let Some((addr, n, line)) = t::kernel_log::remapped_nvme(log)
            && let Some(d) = super::pasted_disk(sys, crate::facts::RST_HIDDEN_NVME, k)
        {
            d.dev_path.clear();
            set_if_unknown(&mut d.class, Some(DeviceClass::Nvme), k);
            set_if_unknown(
                &mut d.controller,
                Some(model::Controller {
                    mode: Some(model::ControllerMode::Raid),
                    driver: Some("ahci".to_string()),
                    address: Some(addr),
                    description: Some(format!("Intel RST remapping, {n} NVMe: \"{line}\"")),
                    ..Default::default()
                }),
                k,
            );
        }
        // Lines that name no disk but are the pasted disk's: an HP Smart Array's sense lines
        // name the controller only (kernel_log::cciss_events), with no disk named; libata's
        // error-handler lines without their "ataN:" prefix name no port and no disk
        // (kernel_log::unprefixed_libata_events).
        let mut unnamed = t::kernel_log::unprefixed_libata_events(log, k);
        // An SD card that never came up has no block device (kernel_log::mmc::
        // unattached_init_failures).
        unnamed.extend(t::kernel_log::mmc::unattached_init_failures(log, k));
        // A host's errors pasted without any line of its card's disk (mmc::
        // unnamed_host_errors).
        unnamed.extend(t::kernel_log::mmc::unnamed_host_errors(log, k));
        if t::kernel_log::disks_named(log).is_empty()
            && t::kernel_log::nvme_disks_named(log).is_empty()
        {
            unnamed.extend(t::kernel_log::cciss_events(log, k));
            // An LSI/Broadcom SAS HBA's own lines (kernel_log::sas_hba_events).
            unnamed.extend(t::kernel_log::sas_hba_events(log, k));
        }
        if !unnamed.is_empty()
            && let Some(d) = disk_mut(sys, crate::facts::PASTED_DISK)
        {
            for e in unnamed {
                if !d.kernel_events.iter().any(|x| x.line == e.line) {
                    d.kernel_events.push(e);
                }
            }
        }
        // The iSCSI initiator's connection and session failures (kernel_log::iscsi): the
        // session's units are network volumes, and the failures theirs (else the disk you
        // pasted, when the log names no unit).
        let iscsi = t::kernel_log::iscsi::errors(log, k);
        if !iscsi.is_empty() {
            let mut units = t::kernel_log::iscsi::luns(log);
            if units.is_empty() {
                units.push(crate::facts::PASTED_DISK.to_string());
            }
            for name in units {
                if let Some(d) = disk_mut(sys, &name) {
                    set_if_unknown(&mut d.class, Some(model::DeviceClass::Virtual), k);
                    set_if_unknown(
                        &mut d.controller,
                        Some(model::Controller {
                            description: Some(t::kernel_log::iscsi::INITIATOR.to_string()),
                            ..Default::default()
                        }),
                        k,
                    );
                    for e in &iscsi {
                        if !d.kernel_events.iter().any(|x| x.line == e.line) {
                            d.kernel_events.push(e.clone());
                        }
                    }
                }
            }
        }
        // SD/MMC cards whose host failed to bring them back from runtime suspend
        // (kernel_log::mmc::runtime_pm_failures), for power-management: the card's block
        // device when the log ties it to the host, else the disk you pasted.
        let mut hosts: Vec<(String, Vec<String>)> = Vec::new();
        for (host, line) in t::kernel_log::mmc::runtime_pm_failures(log) {
            match hosts.iter_mut().find(|(h, _)| *h == host) {
                Some((_, lines)) => lines.push(line),
                None => hosts.push((host, vec![line])),
            }
        }
        for (host, lines) in hosts {
            let name = t::kernel_log::mmc::disk_of_host(log, &host)
                .unwrap_or_else(|| crate::facts::PASTED_DISK.to_string());
            if let Some(d) = disk_mut(sys, &name)
                && !d.power.power_log.is_known()
            {
                d.power.power_log = Fact::known(lines, k.clone());
            }
        }
        // NVMe drives the log reports trouble on: errors and timeouts of the controller or
        // its namespace, or the controller's resets after a power-saving state
        // (sources::power_log).
        for name in t::kernel_log::nvme_disks_named(log) {
            let ctrl = t::kernel_log::nvme_controller_of(&name).unwrap_or(&name);
            let power = t::power_log::nvme_power_lines(log, ctrl, &[]);
            if power.is_empty() && t::kernel_log::events_for(&name, log, k).is_empty() {
                continue;
            }
            if let Some(d) = disk_mut(sys, &name) {
                if d.notes.iter().all(|n| !n.contains("pasted kernel log")) {
                    d.notes
                        .push(format!("named in the pasted kernel log ({k})"));
                }
                // A controller that answers every Abort with Internal Error is an
                // emulated one (kernel_log::nvme_aborts_unimplemented): the disk is virtual.
                let class = if t::kernel_log::nvme_aborts_unimplemented(ctrl, log) {
                    model::DeviceClass::Virtual
                } else {
                    model::DeviceClass::Nvme
                };
                set_if_unknown(&mut d.class, Some(class), k);
                set_if_unknown(&mut d.transport, Some(Transport::Nvme), k);
                if !d.power.power_log.is_known() {
                    d.power.power_log = Fact::known(power, k.clone());
                }
            }
        }
        // PCI functions on a disk's path that did not come back to D0
        // (power_log::pci_power_up_failures): the disks the log names have lost them, or
        // the disk you pasted when it names none.
        let pci: Vec<String> = t::power_log::pci_power_up_failures(log)
            .into_iter()
            .map(|(_, l)| l)
            .collect();
        if !pci.is_empty() {
            let mut names = t::kernel_log::disks_named(log);
            names.extend(t::kernel_log::nvme_disks_named(log));
            names.retain(|n| sys.disks.iter().any(|d| d.name == *n));
            if names.is_empty() {
                names.push(crate::facts::PASTED_DISK.to_string());
            }
            for name in names {
                let Some(d) = disk_mut(sys, &name) else {
                    continue;
                };
                if let Fact::Known { value, .. } = &mut d.power.power_log {
                    for l in &pci {
                        if !value.contains(l) {
                            value.push(l.clone());
                        }
                    }
                } else {
                    d.power.power_log = Fact::known(pci.clone(), k.clone());
                }
            }
        }
        // An NVMe drive the log shows only by its PCI function reporting PCIe AER errors
        // ("nvme 0000:81:00.0: PCIe Bus Error: severity=Correctable, type=Physical Layer",
        // kernel_log::nvme_functions_with_aer), in a log that names no other disk: the disk
        // you pasted, with those reports (and its root port's, power_log::aer_lines) for
        // power-management, which reads AER errors on an NVMe drive's link.
        if t::kernel_log::disks_named(log).is_empty()
            && t::kernel_log::nvme_disks_named(log).is_empty()
            && let [addr] = t::kernel_log::nvme_functions_with_aer(log).as_slice()
        {
            let aer = t::power_log::aer_lines(log, std::slice::from_ref(addr));
            if !aer.is_empty()
                && let Some(d) = disk_mut(sys, crate::facts::PASTED_DISK)
            {
                set_if_unknown(&mut d.class, Some(model::DeviceClass::Nvme), k);
                set_if_unknown(&mut d.transport, Some(Transport::Nvme), k);
                if !d.power.power_log.is_known() {
                    d.power.power_log = Fact::known(aer, k.clone());
                }
            }
        }
        // A port whose IDENTIFY line says NCQ goes unused ("NCQ (not used)", "NCQ (depth
        // 0/32)") has a finding to give even without error lines.
        let mut ports = t::kernel_log::ports_with_events(log);
        // Errors on the PCIe link of the SATA controller concern every port the log shows
        // (kernel_log::pcie_path_failures), with or without errors of their own.
        let pcie = t::kernel_log::pcie_path_failures(log, k);
        if !pcie.is_empty() {
            for p in t::kernel_log::ports_in(log) {
                if !ports.contains(&p) {
                    ports.push(p);
                }
            }
        }
        for p in t::kernel_log::ports_in(log) {
            if !ports.contains(&p)
                && t::kernel_log::ncq_of_port(p, log).is_some_and(|(_, queued, _)| !queued)
            {
                ports.push(p);
            }
        }
        for port in ports {
            let claimed = sys
                .disks
                .iter()
                .any(|d| t::kernel_log::ata_port_guess(&d.name, log) == Some(port));
            let name = format!("ata{port}");
            if claimed {
                continue;
            }
            // A paste cut into several blocks by prose ("...followed by:") is one log: the
            // port's disk made from an earlier block gets this block's lines too.
            if let Some(d) = disk_mut(sys, &name) {
                d.kernel_events
                    .extend(t::kernel_log::events_for_port(port, log, k));
                mark_guest_port(d, log, k);
                continue;
            }
            let mut d = model::DiskFacts::new(&name, &format!("/dev/{name}"));
            d.notes.push(format!(
                "the disk on libata port {name}: the pasted kernel log ({k}) does not say which \
                 /dev/sdX it is (`ls -l /sys/block/ | grep {name}/` does)"
            ));
            d.kernel_events = t::kernel_log::events_for_port(port, log, k);
            set_if_unknown(&mut d.transport, Some(Transport::Sata), k);
            mark_guest_port(&mut d, log, k);
            sys.disks.push(d);
        }
        if !pcie.is_empty() {
            pcie_events.push((*log, pcie));
        }
        // A SATA disk on a port the log shows driven as an IDE channel
        // (kernel_log::legacy_sata_ports): its controller is in legacy IDE mode, on the disk
        // of that port (made when no named disk claims it).
        for lp in t::kernel_log::legacy_sata_ports(log) {
            let name = format!("ata{}", lp.port);
            if let Some(d) = port_disk(sys, log, lp.port, k) {
                set_if_unknown(&mut d.transport, Some(Transport::Sata), k);
                if !d.controller.is_known() {
                    d.controller = Fact::known(
                        model::Controller {
                            mode: Some(model::ControllerMode::LegacyIde),
                            driver: lp.driver.clone(),
                            address: Some(name.clone()),
                            ..Default::default()
                        },
                        k.to_string(),
                    );
                    d.notes.push(format!("{} (\"{}\")", lp.why, lp.line));
                }
            }
        }
        // A parallel-ATA disk held at UDMA/33 by its cable (sources::pata_mode): the disk on
        // that port, made when no named disk claims it.
        for c in t::pata_mode::cable_limits(log) {
            if let Some(d) = port_disk(sys, log, c.port, k) {
                set_if_unknown(&mut d.transport, Some(Transport::Pata), k);
                set_if_unknown(&mut d.model, c.mode.model.clone(), k);
                if !d.pata_mode.is_known() {
                    d.pata_mode = Fact::known(c.mode, k.clone());
                }
            }
        }
        // A disk on a parallel-ATA channel (kernel_log::pata_ports): its transport, for the
        // disk a named device claims only (no disk is made for a channel; a PATA disk with
        // nothing else in the log has no finding to give).
        for (port, _) in t::kernel_log::pata_ports(log) {
            if let Some(d) = sys
                .disks
                .iter_mut()
                .find(|d| t::kernel_log::ata_port_guess(&d.name, log) == Some(port))
            {
                set_if_unknown(&mut d.transport, Some(Transport::Pata), k);
            }
        }
        // The SATA link of the disk on each AHCI port (kernel_log::ahci_port_links), for the
        // disk a named device claims: its speed now, and the port's maximum when a port of
        // the same adapter reached the adapter's top speed. No disk is made for a bare port.
        for l in t::kernel_log::ahci_port_links(log) {
            if let Some(d) = sys
                .disks
                .iter_mut()
                .find(|d| t::kernel_log::ata_port_guess(&d.name, log) == Some(l.port))
            {
                set_if_unknown(&mut d.link_current_gbps, Some(l.current_gbps), k);
                set_if_unknown(&mut d.link_port_max_gbps, l.port_max_gbps, k);
            }
        }
    }
    // SD cards their host lost and found again within seconds (power_log::card_dropouts),
    // for power-management. The removal and the new attach may fall in two blocks that other
    // lines (a journal's user-space entries) cut apart: the paste's kernel lines are one log.
    if let Some((k, _)) = logs.first() {
        let all: Vec<&str> = logs.iter().map(|(_, l)| *l).collect();
        let all = all.join("\n");
        for (host, lines) in t::power_log::card_dropouts(&all) {
            let name = t::kernel_log::mmc::disk_of_host(&all, &host)
                .unwrap_or_else(|| crate::facts::PASTED_DISK.to_string());
            if let Some(d) = disk_mut(sys, &name)
                && !d.power.power_log.is_known()
            {
                d.power.power_log = Fact::known(lines, k.clone());
            }
        }
    }
    // libata's NCQ description of the disk's port (kernel_log::ncq_of_port); the last log
    // pasted is the drive's state now (a before/after paste), as the last line is in one.
    for d in &mut sys.disks {
        for (k, log) in logs.iter().rev() {
            let port = d
                .name
                .strip_prefix("ata")
                .and_then(|n| n.parse::<u32>().ok())
                .or_else(|| t::kernel_log::ata_port_guess(&d.name, log));
            // SATA link power management the drive failed to set up on that port
            // (sources::power_log), for power-management.
            if !d.power.power_log.is_known()
                && let Some(p) = port
            {
                let lpm = t::power_log::sata_lpm_failures(log, p);
                if !lpm.is_empty() {
                    d.power.power_log = Fact::known(lpm, k.clone());
                }
            }
            if let Some((supported, queued, depth)) =
                port.and_then(|p| t::kernel_log::ncq_of_port(p, log))
            {
                set_if_unknown(&mut d.ncq_supported, Some(supported), k);
                set_if_unknown(&mut d.ncq_active, Some(queued), k);
                set_if_unknown(&mut d.ncq_drive_depth, depth, k);
                if !queued && !d.ncq_off_cause.is_known() {
                    set_if_unknown(
                        &mut d.ncq_off_cause,
                        port.and_then(|p| t::kernel_log::ncq_off_cause(p, log)),
                        k,
                    );
                }
            }
        }
    }
    for d in &mut sys.disks {
        if !d.kernel_events.is_empty() {
            continue;
        }
        for (k, log) in &logs {
            let mut ev = t::kernel_log::events_for(&d.name, log, k);
            // A pasted log without the line that ties the port to the disk: the port by
            // libata's numbering (kernel_log::port_by_host_number), its lines added once.
            if t::kernel_log::ata_port_for(&d.name, log).is_none()
                && let Some(p) = t::kernel_log::ata_port_guess(&d.name, log)
            {
                for e in t::kernel_log::events_for_port(p, log, k) {
                    if !ev.iter().any(|x| x.line == e.line) {
                        ev.push(e);
                    }
                }
            }
            // The USB bus failing under the disk: the bridge's, so the disk is on USB.
            let usb = t::kernel_log::usb_path_failures(&d.name, log, k);
            if !usb.is_empty() && !ev.is_empty() {
                if !d.transport.is_known() {
                    d.transport = Fact::known(Transport::Usb, k.clone());
                }
                for e in usb {
                    if !ev.iter().any(|x| x.line == e.line) {
                        ev.push(e);
                    }
                }
            }
            for e in t::kernel_log::usb_device_resets(&d.name, log, k) {
                if !ev.iter().any(|x| x.line == e.line) {
                    ev.push(e);
                }
            }
            // An MMC card its host initialised again after its errors
            // (kernel_log::mmc::card_reinits).
            if !ev.is_empty() {
                for e in t::kernel_log::mmc::card_reinits(&d.name, log, k) {
                    if !ev.iter().any(|x| x.line == e.line) {
                        ev.push(e);
                    }
                }
            }
            d.kernel_events.extend(ev);
        }
    }
    // A crash in the storage completion path names no disk: it belongs to every disk the
    // same log names (kernel_log::storage_path_oops).
    for (k, log) in &logs {
        let oops = t::kernel_log::storage_path_oops(log);
        if oops.is_empty() {
            continue;
        }
        let named = t::kernel_log::disks_named(log);
        for d in sys.disks.iter_mut().filter(|d| named.contains(&d.name)) {
            for line in &oops {
                if !d.kernel_events.iter().any(|x| x.line == *line) {
                    d.kernel_events.push(model::KernelEvent {
                        kind: model::KernelEventKind::StoragePathOops,
                        line: line.clone(),
                        from: k.clone(),
                    });
                }
            }
        }
    }
    // The controller's PCIe errors, for each disk on one of its libata ports.
    for (log, pcie) in &pcie_events {
        for d in &mut sys.disks {
            let on_port = d
                .name
                .strip_prefix("ata")
                .is_some_and(|n| n.parse::<u32>().is_ok())
                || t::kernel_log::ata_port_guess(&d.name, log).is_some();
            if !on_port {
                continue;
            }
            for e in pcie {
                if !d.kernel_events.iter().any(|x| x.line == e.line) {
                    d.kernel_events.push(e.clone());
                }
            }
        }
    }
}

/// The disk on a libata port of a guest's log (kernel_log::guest_evidence): the port is the
/// hypervisor's emulated SATA controller, so the disk on it is a virtual one.
fn mark_guest_port(d: &mut model::DiskFacts, log: &str, k: &str) {
    if let Some(line) = t::kernel_log::guest_evidence(log) {
        set_if_unknown(&mut d.class, Some(model::DeviceClass::Virtual), k);
        set_if_unknown(&mut d.transport, Some(Transport::Sata), k);
        d.notes.push(format!(
            "a virtual machine's port: the pasted kernel log ({k}) shows the guest (\"{line}\")"
        ));
    }
}

/// The disk on libata port `port`: the named disk the log ties to it, else the "ataN" disk,
/// made when there is none yet.
fn port_disk<'a>(
    sys: &'a mut SystemFacts,
    log: &str,
    port: u32,
    k: &str,
) -> Option<&'a mut model::DiskFacts> {
    let claimed = sys
        .disks
        .iter()
        .position(|d| t::kernel_log::ata_port_guess(&d.name, log) == Some(port));
    let name = format!("ata{port}");
    let i = match claimed.or_else(|| sys.disks.iter().position(|d| d.name == name)) {
        Some(i) => i,
        None => {
            let mut d = model::DiskFacts::new(&name, &format!("/dev/{name}"));
            d.notes.push(format!(
                "the disk on libata port {name}: the pasted kernel log ({k}) does not say which \
                 /dev/sdX it is"
            ));
            sys.disks.push(d);
            sys.disks.len() - 1
        }
    };
    sys.disks.get_mut(i)
}

/// A disk behind a USB bridge, bound to USB storage driver `drv` (the log's `k` says so).
/// Whether an optimal I/O size (fdisk's "I/O size (minimum/optimal): 4096 bytes / 33553920
/// bytes", the kernel's queue/optimal_io_size) is 0xFFFF blocks of 512 bytes: the OPTIMAL
/// TRANSFER LENGTH field of the Block Limits VPD page (SBC-3 6.5.3) filled with its
/// largest 16-bit value, the answer of USB-SATA bridges' SCSI-ATA translation (Seagate
/// Expansion and Backup Plus enclosures, the JMS578 of the Odroid HC2, Samsung's T5). A
/// drive behind libata never reports it (libata's own Block Limits page,
/// drivers/ata/libata-scsi.c ata_scsiop_inq_b0, leaves the field 0), and Linux 5.4 stopped
/// believing the value ("some devices report an OPTIMAL TRANSFER LENGTH of 0xFFFF blocks",
/// drivers/scsi/sd.c sd_validate_opt_xfer_size, commit a83da8a4509d), so only older
/// kernels print it.
fn bridge_optimal_io(bytes: u64) -> bool {
    bytes == 0xFFFF * 512
}

/// The whole disks the paste's blocks of other tools than `spec` name, sorted, once each:
/// the candidates for a USB listing that names no block device.
fn disks_named_by_others(p: &Pasted, spec: &'static sources::spec::SourceSpec) -> Vec<String> {
    let mut named: Vec<String> = p
        .blocks
        .iter()
        .filter(|x| !x.tool.is(spec))
        .filter_map(|x| x.device.as_deref())
        .map(|dev| super::whole_disk_or(dev.trim_start_matches("/dev/")))
        .collect();
    crate::sort::sort(&mut named);
    named.dedup();
    named
}

pub(super) fn mark_usb(d: &mut model::DiskFacts, drv: &str, k: &str) {
    set_if_unknown(&mut d.transport, Some(Transport::Usb), k);
    if !d.controller.is_known() {
        d.controller = Fact::known(
            model::Controller {
                usb_driver: (!drv.is_empty()).then(|| drv.to_string()),
                ..Default::default()
            },
            k.to_string(),
        );
    }
}

/// A lone USB disk bridge an lsusb output shows (`spec`): the enclosure of the disk the
/// rest of the paste names when it names exactly one, else of the disk you pasted.
fn apply_bridge(
    sys: &mut SystemFacts,
    p: &Pasted,
    spec: &'static sources::spec::SourceSpec,
    key: &str,
    chip: &str,
    address: Option<String>,
    note: String,
) {
    let name = match disks_named_by_others(p, spec).as_slice() {
        [one] => one.clone(),
        _ => crate::facts::PASTED_DISK.to_string(),
    };
    let Some(d) = disk_mut(sys, &name) else {
        return;
    };
    mark_usb(d, "", key);
    if let Fact::Known { value, .. } = &mut d.controller {
        if value.address.is_none() {
            value.address = address;
        }
        if value.description.is_none() {
            value.description = Some(chip.to_string());
        }
    }
    d.notes.push(note);
}

/// The IDE driver's DMA state from every `using_dma` read-back of an hdparm block
/// (sources::hdparm::parse_dma). A read-back above the first "/dev/X:" header belongs to
/// the block's device (its command line's), else to the one device the paste's hdparm
/// outputs name, if they name only one. A read-back of 0 (off) is kept over a later "on":
/// the disk ran in PIO for whatever was measured while it was off (hdparm -d0 then -tT),
/// and a driver that leaves DMA off by default is the setup to fix, even once `hdparm -d1`
/// switched it on by hand (controller-legacy-mode names that fix).
fn apply_ide_dma(
    sys: &mut SystemFacts,
    p: &Pasted,
    text: &str,
    block_dev: Option<&str>,
    key: &str,
) {
    let sole = sole_hdparm_device(p);
    for (dev, dma) in t::hdparm::parse_dma(text) {
        let Some(d) = dev
            .as_deref()
            .or(block_dev)
            .or(sole.as_deref())
            .and_then(|n| disk_mut(sys, n))
        else {
            continue;
        };
        if dma.on && d.ide_dma.value().is_some_and(|x| !x.on) {
            continue;
        }
        d.ide_dma = Fact::known(dma, key.to_string());
    }
}

/// The one device the paste's hdparm blocks name (their "/dev/X:" headers or the device
/// of their command lines); None when they name none or several.
fn sole_hdparm_device(p: &Pasted) -> Option<String> {
    let mut devs: Vec<&str> = p
        .blocks
        .iter()
        .filter(|b| b.tool.spec().id.starts_with("hdparm"))
        .filter_map(|b| {
            b.device.as_deref().or_else(|| {
                b.command
                    .as_deref()?
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix("/dev/"))
            })
        })
        .collect();
    devs.sort_unstable();
    devs.dedup();
    match devs.as_slice() {
        [one] => Some(one.to_string()),
        _ => None,
    }
}

/// The USB link speed of a disk's controller, when the controller is a USB one whose speed
/// no other output gave (the kernel's device list and `lsusb -t` come first), and whether
/// the kernel keeps the bridge off UAS (kernel_log::uas_ignored), from the log of USB
/// device `dev`. A bridge chip that only serves an M.2 slot (sources::usb_devices::m2_bridge_chip)
/// also says the disk is flash.
fn set_usb_speed(d: &mut model::DiskFacts, dev: Option<&str>, log: &str, k: &str) {
    if let Some(dev) = dev
        && d.controller.value().is_some_and(|c| c.usb_driver.is_some())
        && t::kernel_log::usb_id_of(dev, log)
            .is_some_and(|(v, p)| t::usb_devices::m2_bridge_chip(&v, &p))
    {
        set_if_unknown(&mut d.rotational, Some(false), k);
    }
    if let Fact::Known { value, .. } = &mut d.controller
        && value.usb_driver.is_some()
        && let Some(dev) = dev
    {
        if value.usb_speed_mbps.is_none() {
            value.usb_speed_mbps = t::kernel_log::usb_link_speed_of(dev, log);
        }
        // The USB host controller's driver (xhci_hcd, ehci-pci, ...): the controller the
        // bridge hangs off.
        if value.driver.is_none() {
            value.driver = t::kernel_log::usb_host_driver_of(dev, log);
        }
        if t::kernel_log::uas_ignored(dev, log) {
            value.usb_uas_ignored = Some(true);
        }
        if value.description.is_none() {
            value.description = t::kernel_log::usb_product_of(dev, log);
        }
        // An enclosure's own product string ("Ugreen Storage Device") rarely names the USB
        // generation; the bridge chip's ID does (sources::usb_devices::usb3_bridge_chip).
        if !value
            .description
            .as_deref()
            .is_some_and(t::usb_devices::names_usb3)
            && let Some(chip) = t::kernel_log::usb_id_of(dev, log)
                .and_then(|(v, p)| t::usb_devices::usb3_bridge_chip(&v, &p))
        {
            value.description = Some(match value.description.take() {
                Some(product) => format!("{product}, {chip}"),
                None => chip.to_string(),
            });
        }
    }
}
