//! FreeBSD boot messages (/var/run/dmesg.boot, dmesg(8)): OS banner, CPU and Features2 (for
//! AESNI), storage controllers (atapci(4), ahci(4), mps(4), mpr(4), nvme(4), umass(4)), their
//! channels (ata(4), ahcich), and per-disk attach lines for ad(4) (FreeBSD <= 8), ada(4),
//! da(4), nvd(4) and nda(4).
//!
//! Lines printed concurrently by CAM can be glued together ("da2: 600.000MB/s transfersda3:
//! ..."), and pasted copies lose newlines; each line is split again before any disk or
//! controller name. When a buffer holds several boots, the last boot wins per device.

use std::collections::BTreeMap;

use super::geom_util::{leading_digits_f64, leading_digits_u64, unquote};

/// A controller or channel attach line: "atapci0: <Intel ICH7 UDMA100 controller> ... on pci0"
/// or "ahcich2: <AHCI channel> at channel 2 on ahci0".
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Attach {
    pub name: String,
    pub desc: Option<String>,
    /// The parent device ("pci0", "ahci0", "atapci1").
    pub parent: Option<String>,
    /// Port speed from "ahci0: AHCI v1.31 with 6 6Gbps ports".
    pub port_gbps: Option<f64>,
    /// The AHCI version the controller's VS register gives, from the same line ("1.31").
    pub ahci_version: Option<String>,
}

impl Attach {
    /// The emulator whose AHCI controller this is, known by what no real chip of the name
    /// reports. QEMU's q35 machine has one AHCI function, "ich9-ahci" (hw/ide/ich.c, PCI ID
    /// 8086:2922, which ahci(4) names "Intel ICH9 AHCI SATA controller"), with six ports
    /// (hw/ide/ich.c), and its register model (hw/ide/ahci.c ahci_reset) sets the version
    /// register to AHCI_VERSION_1_0 and CAP.ISS to Gen 1: "AHCI v1.00 with 6 1.5Gbps ports".
    /// Intel's ICH9 itself implements AHCI 1.2 with 3 Gb/s ports (Intel I/O Controller Hub 9
    /// datasheet, VS register 00010200h; a real ICH9M reads "AHCI v1.20 with 4 3Gbps
    /// ports"), so an ICH9 answering 1.00 at 1.5 Gb/s is QEMU's model of it.
    pub fn emulator(&self) -> Option<&'static str> {
        let ich9 = self.desc.as_deref().is_some_and(|d| d.contains("ICH9"));
        let v1_0 = self
            .ahci_version
            .as_deref()
            .and_then(leading_digits_f64)
            .is_some_and(|v| (v - 1.0).abs() < 0.001);
        let gen1 = self.port_gbps.is_some_and(|g| (g - 1.5).abs() < 0.001);
        (ich9 && v1_0 && gen1).then_some("QEMU's emulated ICH9 AHCI (q35)")
    }
}

/// What dmesg says about one disk.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DiskLines {
    pub name: String,
    /// The SIM from "ada0 at ahcich2 bus 0 scbus2 ..." ("ahcich2", "ata0", "mps0",
    /// "umass-sim0"), or the old ad(4) channel ("ata2" from "at ata2-master").
    pub sim: Option<String>,
    /// Inquiry text inside <...>.
    pub inquiry: Option<String>,
    /// "ATA-8 SATA 2.x device" / "Fixed Direct Access SPC-4 SCSI device" (text after <...>).
    pub standard: Option<String>,
    pub transfer_mbps: Option<f64>,
    /// "(SATA 2.x, UDMA6, PIO 8192bytes)" content.
    pub transfer_detail: Option<String>,
    pub command_queueing: bool,
    pub size_mb: Option<u64>,
    pub sectors: Option<u64>,
    pub sector_size: Option<u32>,
    pub serial: Option<String>,
    /// Old ad(4) mode token: "SATA300", "SATA150", "UDMA100", "WDMA2".
    pub ata_mode: Option<String>,
    pub quirks: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Dmesg {
    /// "FreeBSD 13.0-RELEASE-p5 #1: ..." (the last boot's banner).
    pub banner: Option<String>,
    /// "13.0-RELEASE-p5".
    pub release: Option<String>,
    pub cpu_model: Option<String>,
    /// Features2 flags of the last boot.
    pub features2: Vec<String>,
    pub controllers: BTreeMap<String, Attach>,
    pub disks: BTreeMap<String, DiskLines>,
    /// Number of boots seen (banners).
    pub boots: usize,
    /// "real memory  = 5368709120 (5120 MB)": installed RAM in bytes.
    pub real_memory_bytes: Option<u64>,
    /// The root file system the kernel mounts ([`root_spec`]): "ufs:/dev/ufs/BSDRPs1a".
    pub root_from: Option<String>,
}

impl Dmesg {
    /// The CPU advertises AES-NI (Features2 AESNI).
    pub fn aesni(&self) -> Option<bool> {
        if self.features2.is_empty() {
            None
        } else {
            Some(self.features2.iter().any(|f| f == "AESNI"))
        }
    }

    /// Walk parents from a SIM/channel up to the controller: "ahcich2" -> "ahci0",
    /// "ata2" -> "atapci1", "mps0" -> itself.
    pub fn controller_of(&self, sim: &str) -> Option<&Attach> {
        let mut cur = sim;
        for _ in 0..4 {
            let a = self.controllers.get(cur)?;
            if is_controller(&a.name) {
                return Some(a);
            }
            cur = a.parent.as_deref()?;
        }
        None
    }
}

/// Controller drivers (as opposed to channels or buses).
pub fn is_controller(name: &str) -> bool {
    let pre = name.trim_end_matches(|c: char| c.is_ascii_digit());
    matches!(
        pre,
        "atapci"
            | "ahci"
            | "mps"
            | "mpr"
            | "mpt"
            | "nvme"
            | "umass"
            | "mfi"
            | "mrsas"
            | "ciss"
            | "siis"
            | "mvs"
            | "isp"
            | "ahd"
            | "ahc"
            | "aac"
            | "hptrr"
            | "vtscsi"
            | "virtio_blk"
            // Hyper-V's synthetic SCSI (storvsc(4)) and VMware's paravirtual SCSI
            // (pvscsi(4), FreeBSD 13): SIMs of a hypervisor's disks, named in CAM's
            // "(da0:storvsc0:0:0:0)" prefixes.
            | "storvsc"
            | "pvscsi"
    )
}

/// Names before which a glued line is split.
const SPLIT_NAMES: &[&str] = &[
    "atapci", "ahcich", "ahci", "ada", "ad", "da", "nvd", "nda", "mps", "mpr", "nvme", "umass",
    "ata",
];

/// Re-split a line at every "<name><digits>: " or "<name><digits> at " that starts a new
/// message. A split needs whitespace (or "transfers", the word CAM glues to) before the
/// name, so "acd0:" or "scbus0" are not cut.
fn split_glued(line: &str) -> Vec<&str> {
    let mut cuts = vec![0usize];
    let bytes = line.as_bytes();
    let mut i = 1;
    while i < bytes.len() {
        let prev_ok = bytes.get(i - 1).is_some_and(|b| b.is_ascii_whitespace())
            || line.get(..i).is_some_and(|h| h.ends_with("transfers"));
        if prev_ok && let Some(len) = name_at(line.get(i..).unwrap_or("")) {
            cuts.push(i);
            i += len;
            continue;
        }
        i += 1;
    }
    let mut out = Vec::new();
    for (k, start) in cuts.iter().enumerate() {
        let end = cuts.get(k + 1).copied().unwrap_or(line.len());
        if let Some(s) = line.get(*start..end) {
            let s = s.trim();
            if !s.is_empty() {
                out.push(s);
            }
        }
    }
    out
}

/// Length of "<name><digits>" when followed by ": " or " at ".
fn name_at(s: &str) -> Option<usize> {
    let pre = SPLIT_NAMES.iter().find(|n| s.starts_with(*n))?;
    let rest = s.get(pre.len()..)?;
    let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let after = rest.get(digits..)?;
    (after.starts_with(": ") || after.starts_with(" at ")).then_some(pre.len() + digits)
}

/// The disk of a virtio_blk(4) device: the newbus device prints its attach and size lines
/// as "vtblkN" ("vtblk0: <VirtIO Block Adapter> on virtio_pci3", "vtblk0: 40960MB (83886080
/// 512 byte sectors)"), while the disk it creates is "vtbdN" (sys/dev/virtio/block/
/// virtio_blk.c: VTBLK_DISK_NAME "vtbd", d_unit the device's unit; vtblk_create_disk prints
/// the size line), the name GEOM, gpart and every tool use.
fn vtblk_disk(name: &str) -> Option<String> {
    let unit = name.strip_prefix("vtblk")?;
    (!unit.is_empty() && unit.bytes().all(|b| b.is_ascii_digit())).then(|| format!("vtbd{unit}"))
}

fn disk_prefix(name: &str) -> bool {
    let pre = name.trim_end_matches(|c: char| c.is_ascii_digit());
    name.len() > pre.len() && matches!(pre, "ad" | "ada" | "da" | "nvd" | "nda")
}

/// Whether "name: rest" is ataraid(4)'s attach line of a volume it assembled from the
/// RAID metadata a motherboard's or add-in card's BIOS wrote on ordinary ATA disks (firmware
/// or "fake" RAID: NVIDIA MediaShield, Intel MatrixRAID, Promise FastTrak, ...): "ar0:
/// 238475MB <NVIDIA MediaShield ATA RAID0+1 array> status: READY" (sys/dev/ata/ata-raid.c
/// ata_raid_attach: "ar%d: %lluMB <%s %s%s> status: %s"). Only that shape counts: the name
/// ar(4) was also an old synchronous serial driver's.
pub(crate) fn is_ataraid_volume(name: &str, rest: &str) -> bool {
    name.strip_prefix("ar")
        .is_some_and(|u| !u.is_empty() && u.chars().all(|c| c.is_ascii_digit()))
        && rest.contains("MB <")
        && rest.contains("> status: ")
}

pub fn parse(text: &str) -> Dmesg {
    let mut d = Dmesg::default();
    for raw in text.lines() {
        let line = unquote(raw);
        // Banner: "FreeBSD 8.1-RELEASE #0: ..." (second word is the release).
        let is_banner = line.strip_prefix("FreeBSD ").is_some_and(|r| {
            r.split_whitespace()
                .next()
                .is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()) && v.contains('-'))
        });
        if is_banner {
            d.boots += 1;
            d.banner = Some(line.to_string());
            d.release = line.split_whitespace().nth(1).map(str::to_string);
            d.features2.clear();
            continue;
        }
        if let Some(r) = root_spec(line) {
            d.root_from = Some(r);
            continue;
        }
        if let Some(m) = line.strip_prefix("real memory") {
            d.real_memory_bytes = m
                .trim_start()
                .strip_prefix('=')
                .and_then(leading_digits_u64);
            continue;
        }
        if let Some(cpu) = line.strip_prefix("CPU: ") {
            // "Intel(R) Core(TM)2 Quad CPU Q9300 @ 2.50GHz (2500.11-MHz K8-class CPU)"
            let model = match cpu.rfind(" (") {
                Some(i) if cpu.ends_with("CPU)") => cpu.get(..i).unwrap_or(cpu),
                _ => cpu,
            };
            d.cpu_model = Some(model.trim().to_string());
            continue;
        }
        if let Some(f) = line.strip_prefix("Features2=") {
            if let (Some(a), Some(b)) = (f.find('<'), f.rfind('>'))
                && a < b
            {
                d.features2 = f
                    .get(a + 1..b)
                    .unwrap_or("")
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .collect();
            }
            continue;
        }
        for part in split_glued(line) {
            parse_part(part, &mut d);
        }
    }
    d
}

fn parse_part(part: &str, d: &mut Dmesg) {
    // A file system's report of a request its disk failed names the disk's provider
    // ("g_vfs_done():ada0p2[READ(...)]error = 5", kernel_log::bsd_fs_io_error): the disk is
    // there even when the paste holds no attach line of it.
    if let Some((name, _)) = super::kernel_log::bsd_fs_io_error(part)
        && disk_prefix(&name)
    {
        disk(d, &name);
        return;
    }
    // A CAM path tag names the disk's SIM too: "(ada3:ata2:0:1:0): READ_DMA. ACB: ..."
    // (cam_xpt.c xpt_print_path: periph, SIM, bus, target, lun). The attach line, when the
    // log has one, is kept.
    if let Some(tag) = part.trim_start().strip_prefix('(')
        && let Some((path, _)) = tag.split_once("):")
        && let [periph, sim, _, _, _] = path.split(':').collect::<Vec<_>>()[..]
        && disk_prefix(periph)
        && is_cam_sim(sim)
    {
        let e = disk(d, periph);
        if e.sim.is_none() {
            e.sim = Some(sim.to_string());
        }
        return;
    }
    // Disks whose driver is a newbus child of the controller print the bus's attach line,
    // "mfisyspd0 on mfi0" (sys/dev/mfi/mfi_syspd.c: DRIVER_MODULE(mfisyspd, mfi)), with
    // "numa-domain N" before "on" on NUMA machines (kern/subr_bus.c bus_print_child_footer).
    if let Some((name, rest)) = part.split_once(" on ")
        && name.split_whitespace().next().is_some_and(|n| {
            let pre = n.trim_end_matches(|c: char| c.is_ascii_digit());
            pre == "mfisyspd" && n.len() > pre.len()
        })
        && let Some(parent) = rest.split_whitespace().next()
    {
        let n = name.split_whitespace().next().unwrap_or(name);
        disk(d, n).sim = Some(parent.to_string());
        return;
    }
    // "ada0 at ahcich2 bus 0 scbus2 target 0 lun 0"
    if let Some((name, rest)) = part.split_once(" at ")
        && disk_prefix(name)
        && !name.contains(':')
    {
        // "ad4 at ata2-master" (ataraid member lines) names the channel too.
        let word = rest.split_whitespace().next().unwrap_or("");
        let sim = word
            .strip_suffix("-master")
            .or_else(|| word.strip_suffix("-slave"))
            .unwrap_or(word);
        if !sim.is_empty() {
            let e = disk(d, name);
            e.sim = Some(sim.to_string());
        }
        return;
    }
    let Some((name, rest)) = part.split_once(':') else {
        return;
    };
    let name = name.trim();
    let rest = rest.trim();
    if let Some(vtbd) = vtblk_disk(name) {
        parse_disk_line(&vtbd, rest, d);
    } else if disk_prefix(name) || is_ataraid_volume(name, rest) {
        parse_disk_line(name, rest, d);
    } else if let Some(i) = rest.find("Gbps ports") {
        // "AHCI v1.31 with 6 6Gbps ports, Port Multiplier supported"
        let speed = rest
            .get(..i)
            .and_then(|h| h.split_whitespace().last())
            .and_then(leading_digits_f64);
        let version = rest
            .split_whitespace()
            .skip_while(|w| *w != "AHCI")
            .nth(1)
            .and_then(|w| w.strip_prefix('v'))
            .map(str::to_string);
        if let Some(a) = d.controllers.get_mut(name) {
            a.port_gbps = speed;
            a.ahci_version = version;
        }
    } else if let Some(body) = rest.strip_prefix('<') {
        // Controller/channel attach: "<desc> ... on parent" or "at channel N on parent".
        let pre = name.trim_end_matches(|c: char| c.is_ascii_digit());
        if pre.len() == name.len() || name.contains(char::is_whitespace) {
            return;
        }
        let (desc, after) = match body.find('>') {
            Some(i) => (body.get(..i).unwrap_or(""), body.get(i + 1..).unwrap_or("")),
            None => (body, ""),
        };
        let parent = after
            .rsplit_once(" on ")
            .and_then(|(_, p)| p.split_whitespace().next())
            .map(str::to_string);
        d.controllers.insert(
            name.to_string(),
            Attach {
                name: name.to_string(),
                desc: Some(desc.trim().to_string()),
                parent,
                port_gbps: None,
                ahci_version: None,
            },
        );
    }
}

/// A SIM instance name as a CAM path prints it: letters then a unit ("ahcich2", "ata2",
/// "umass-sim0", "mpr0").
fn is_cam_sim(s: &str) -> bool {
    let pre = s.trim_end_matches(|c: char| c.is_ascii_digit());
    !pre.is_empty()
        && pre.len() < s.len()
        && pre
            .chars()
            .all(|c| c.is_ascii_lowercase() || c == '-' || c == '_')
}

fn disk<'a>(d: &'a mut Dmesg, name: &str) -> &'a mut DiskLines {
    d.disks
        .entry(name.to_string())
        .or_insert_with(|| DiskLines {
            name: name.to_string(),
            ..Default::default()
        })
}

fn parse_disk_line(name: &str, rest: &str, d: &mut Dmesg) {
    let e = disk(d, name);
    // Old ad(4): "ad4: 238475MB <HDT722525DLA380 V44OA96A> at ata2-master SATA300"
    if let Some(mb) = rest
        .find("MB <")
        .and_then(|i| leading_digits_u64(rest.get(..i)?))
    {
        e.size_mb = Some(mb);
        if let Some((inq, after)) = bracketed(rest) {
            e.inquiry = Some(inq);
            let toks: Vec<&str> = after.split_whitespace().collect();
            if let Some(pos) = toks.iter().position(|t| *t == "at") {
                if let Some(ch) = toks.get(pos + 1) {
                    let chan = ch.split('-').next().unwrap_or(ch);
                    e.sim = Some(chan.to_string());
                }
                e.ata_mode = toks.get(pos + 2).map(|s| s.to_string());
            }
        }
        return;
    }
    if rest.starts_with('<') {
        if let Some((inq, after)) = bracketed(rest) {
            e.inquiry = Some(inq);
            let std = after.trim();
            if !std.is_empty() {
                e.standard = Some(std.to_string());
            }
        }
        return;
    }
    if let Some(i) = rest.find("MB/s transfers") {
        e.transfer_mbps = leading_digits_f64(rest.get(..i).unwrap_or(""));
        let after = rest.get(i..).unwrap_or("");
        if let (Some(a), Some(b)) = (after.find('('), after.find(')'))
            && a < b
        {
            e.transfer_detail = after.get(a + 1..b).map(|s| s.trim().to_string());
        }
        if after
            .to_ascii_lowercase()
            .contains("command queueing enabled")
        {
            e.command_queueing = true;
        }
        return;
    }
    if rest.eq_ignore_ascii_case("Command Queueing enabled") {
        e.command_queueing = true;
        return;
    }
    if let Some(s) = rest.strip_prefix("Serial Number") {
        let s = s.trim();
        if !s.is_empty() && !s.starts_with("...") {
            e.serial = Some(s.to_string());
        }
        return;
    }
    if let Some(q) = rest.strip_prefix("quirks=") {
        e.quirks = Some(q.to_string());
        return;
    }
    // "ada0: 244198MB (500118192 512 byte sectors)" / "(... 512 byte sectors: 255H 63S/T ...)"
    if let Some(i) = rest.find("MB (")
        && let Some(mb) = leading_digits_u64(rest.get(..i).unwrap_or(""))
    {
        e.size_mb = Some(mb);
        let inner = rest.get(i + 4..).unwrap_or("");
        let toks: Vec<&str> = inner.split_whitespace().collect();
        e.sectors = toks.first().and_then(|t| t.parse().ok());
        e.sector_size = toks.get(1).and_then(|t| t.parse().ok());
    }
}

/// Whether a controller's attach description is an NVMe over Fabrics host's: "nvme0:
/// <Fabrics: nqn.2014-08.org.nvmexpress:...>" (sys/dev/nvmf/host/nvmf.c prints "Fabrics: "
/// and the subsystem NQN).
pub fn is_fabrics(desc: &str) -> bool {
    desc.trim_start().starts_with("Fabrics: ")
}

/// Whether CAM's transfer detail of an ATA disk names SATA without a revision:
/// "SATA, UDMA5, PIO 8192bytes" (sys/cam/ata/ata_xpt.c ata_announce_periph prints "SATA, "
/// when the SIM reports no CTS_SATA_VALID_REVISION, "SATA 2.x, " when it does).
pub fn sata_without_revision(detail: &str) -> bool {
    detail.trim_start().starts_with("SATA,")
}

/// The USB link speed (Mb/s) a umass(4) disk's "daN: 40.000MB/s transfers" line stands for.
/// umass(4) measures nothing: its XPT_PATH_INQ answer sets CAM's base transfer speed to a
/// constant chosen by usbd_get_speed() (sys/dev/usb/storage/umass.c:
/// UMASS_SUPER_TRANSFER_SPEED 400000 kB/s for SuperSpeed, UMASS_HIGH_TRANSFER_SPEED 40000 for
/// high speed, UMASS_FULL_TRANSFER_SPEED 1000 for full and low speed; a FLOPPY_SPEED quirk
/// gives 20), and da(4) prints it as "%d.%03dMB/s transfers". So 400.000 means a SuperSpeed
/// (5 Gb/s) link, 40.000 a USB 2 high-speed (480 Mb/s) link and 1.000 a full-speed (12 Mb/s)
/// one, whatever the device itself could do. Anything else (the floppy figure, a SATA rate)
/// says nothing about the USB link.
pub fn umass_link_mbps(transfer_mbps: f64) -> Option<f64> {
    const TABLE: [(f64, f64); 3] = [(400.0, 5000.0), (40.0, 480.0), (1.0, 12.0)];
    TABLE
        .iter()
        .find(|(mb, _)| (transfer_mbps - mb).abs() < 0.0005)
        .map(|(_, link)| *link)
}

/// The root file system a boot log mounts: vfs_mountroot.c's "Trying to mount root from
/// ufs:/dev/ufs/BSDRPs1a [ro]..." (vfs_mountroot_parse, FSTYPE:DEVICE) or its wait for the
/// device, "mountroot: waiting for device /dev/ufs/BSDRPs1a..." (parse_mount_dev_present's
/// caller), which names the device alone (freebsd-src sys/kern/vfs_mountroot.c).
pub(crate) fn root_spec(line: &str) -> Option<String> {
    let rest = line
        .strip_prefix("Trying to mount root from ")
        .or_else(|| line.strip_prefix("mountroot: waiting for device "))?;
    let spec = rest.split_whitespace().next()?.trim_end_matches('.');
    (!spec.is_empty()).then(|| spec.to_string())
}

/// Whether a root file system spec ([`root_spec`]) is on a disk: not a CD image
/// (cd9660), a network or memory file system, which no USB disk of the log would hold.
pub fn root_on_disk(spec: &str) -> bool {
    ![
        "cd9660:",
        "nfs:",
        "tmpfs:",
        "/dev/md",
        "/dev/iso9660/",
        "/dev/cd",
    ]
    .iter()
    .any(|p| spec.starts_with(p) || spec.contains(&format!(":{p}")))
}

/// Whether da(4)'s "quirks=0x3<NO_SYNC_CACHE,NO_6_BYTE>" line carries NO_SYNC_CACHE
/// (scsi_da.c prints softc->quirks with DA_Q_BIT_STRING, bit 1 "NO_SYNC_CACHE"). On a umass
/// disk it means the device failed the SYNCHRONIZE CACHE command FreeBSD sends when it
/// attaches (sys/dev/usb/storage/usb_msctest.c usb_msc_auto_quirk adds
/// UQ_MSC_NO_SYNC_CACHE, and umass(4) then answers every later flush itself without
/// passing it on), or is listed in usb_quirk.c for it.
pub fn no_sync_cache(quirks: &str) -> bool {
    let names = quirks
        .split_once('<')
        .map(|(_, r)| r.split('>').next().unwrap_or(""))
        .unwrap_or("");
    // da(4) prints the names with %b; a bare number is ada(4)'s or a cut line, whose bit 0
    // (ada's 4K) means something else.
    names.split(',').any(|n| n.trim() == "NO_SYNC_CACHE")
}

/// Text inside the first <...> (tolerating a stray '<' as the closing mark, as in seed 003
/// "<ATA TOSHIBA DT01ACA3 ABB0< Fixed Direct Access"), and what follows.
fn bracketed(s: &str) -> Option<(String, &str)> {
    let body = s
        .strip_prefix('<')
        .or_else(|| s.find('<').and_then(|i| s.get(i + 1..)))?;
    let end = body.find(['>', '<'])?;
    Some((
        body.get(..end)?.trim().to_string(),
        body.get(end + 1..).unwrap_or(""),
    ))
}

// ---- the source spec (see sources::spec) ----
use crate::sources::kernel_log::{LINUX_DMESG_BARE, LINUX_PREFIX};
use crate::sources::spec;

// "mfisyspd0 on mfi0": the newbus attach line of a drive mfi(4) passes through
// (sys/dev/mfi/mfi_syspd.c), the only line that ties it to its controller. virtio_blk(4)
// prints its attach and capacity lines under the adapter's name ("vtblk0: <VirtIO Block
// Adapter> on virtio_pci0", "vtblk0: 25600MB (52428800 512 byte sectors)": sys/dev/virtio/
// block/virtio_blk.c, device_printf in vtblk_create_disk), a name only FreeBSD's driver
// gives ([`vtblk_disk`] maps it to the disk vtbdN).
// The root mount's own lines are FreeBSD's alone (sys/kern/vfs_mountroot.c: "Root mount
// waiting for: CAM usbus0" while a subsystem holds the root mount, "Trying to mount root
// from ufs:/dev/ada0p2 [rw]...", "mountroot: waiting for device /dev/...").
// GEOM classes log under their class name ("GEOM_ELI: Device ada0p4.eli created.",
// "GEOM_MIRROR: Device gm0 launched (2/2).": the G_ELI_DEBUG/G_MIRROR_DEBUG macros of
// sys/geom/*/g_*.h print "GEOM_<CLASS>", "[level]" above level 0, then ": "), the core
// as "GEOM: " (sys/geom/part/g_part.c, geom_subr.c).
crate::rx!(
    BSD_DMESG_START,
    r"^(?:GEOM(?:_[A-Z0-9]+)?(?:\[\d+\])?: \S|(?:ata|ada|ad|atapci|ahci|ahcich|da|mps|mpr|mpt|nvd|nda|nvme|ar|acd|cd|siis|siisch|mvs|mvsch|umass|aac|ciss|isp|mfi|mrsas|twa|twe|hptrr|arcmsr|pass|ses|mmcsd|sdhci|sdda|mfisyspd|mfid|vtblk)\d+: |ugen\d+\.\d+: <|Copyright \(c\) .*The FreeBSD Project|FreeBSD \d+\.\d+-\S+ #|---<<BOOT>>---|[a-z]+\d+ at [a-z_-]+\d+ bus \d+ scbus\d+ |mfisyspd\d+ on mfi\d+|Root mount waiting for:|Trying to mount root from \S+|mountroot: waiting for device |\((?:ada|da|pass|probe|cd|ses)\d+:[\w-]+:\d+:\d+:-?\d+\): )"
);
// A label before a controller's attach line ("Controller: atapci0: ..."), or a sentence
// that quotes a disk's or volume's capacity line after a comma, semicolon or colon ("Our
// case was raid 0+1, ar0: 953877MB <nVidia MediaShield RAID0+1 (stripe 64 KB)> status:
// READY"): the capacity lines of the disk drivers ("ada0: 238475MB (488397168 512 byte
// sectors)", scsi_da.c/ata_da.c dadone/adaregister; ataraid(4)'s "ar%d: %lluMB <%s %s%s>
// status: %s", sys/dev/ata/ata-raid.c ata_raid_attach) have a shape no prose has. Group 1
// is the kernel's line.
crate::rx!(
    BSD_DMESG_PREFIXED,
    r"^(?:[A-Z][a-z]+: ((?:atapci|ahci)\d+: .*)|[A-Za-z][^:<>]{0,80}?[,;:]\s+((?:ada|ad|da|nvd|nda|ar|mfid|vtbd|vtblk|mmcsd|sdda)\d+: \d+MB [(<].*))$"
);
crate::rx!(
    BSD_DMESG_MEMBER,
    r"^(?:[a-z_][\w.-]*\d+(?:\.\d+)?: |error=[0-9a-fA-F]{1,2}<|[a-z_]+\d+(?:\.\d+)? (?:at|on) |\(|\s|Copyright|FreeBSD|CPU: |real memory|avail memory|usable memory|Timecounter|ACPI|kbd\d|Trying to mount|Root mount|mountroot: |GEOM|SMP|Event timer|Timecounters|WARNING|random|Waiting|Autoloading|MADT|APIC|VT\(|Features|Origin|Hyperthreading|cpu\d|ioapic\d|Mounting|Dual Console|Starting|module_register|firmware|netmap|ZFS|lo\d|Security policy|Fast IPsec|\[)"
);

// A line of a CAM error report whose repeated "(ada0:ata0:0:0:0): " path the poster
// replaced with dots (cam_periph.c cam_periph_error prints the command, "CAM status:",
// "ATA status:", "RES:", "SCSI sense:" and "Retrying command" lines behind the path; the
// kernel_log reader gives them to the report above).
crate::rx!(
    CAM_ELIDED,
    r"^(?:\.{3,}|\x{2026})\s*(?:[A-Z0-9_()]+\. (?:ACB|CDB):|CAM status:|ATA status:|RES:|SCSI (?:status|sense):|Retrying command|Error \d+,)"
);

/// A FreeBSD kernel line behind a syslog prefix ("Oct 17 20:24:00 kernel: (ada0:ahcich4:
/// 0:0:0): lost device", /var/log/messages).
fn in_syslog(t: &str) -> bool {
    let lt = t.trim_start();
    LINUX_PREFIX.is_match(lt) && {
        let rest = LINUX_PREFIX.replace(lt, "");
        BSD_DMESG_START.is_match(&rest) && !LINUX_DMESG_BARE.is_match(&rest)
    }
}

/// A kernel line as a blog, a mail or a console logger shows it: indented (a Markdown code
/// block) or behind a wall-clock stamp ("[2021-12-10 20:56:10] ahcich1: ..."); the stamp
/// must look like a date and time, so a bracketed word is kept.
fn bare(t: &str) -> &str {
    let t = t.trim_start();
    if let Some(r) = t.strip_prefix('[')
        && let Some(end) = r.find(']')
    {
        let stamp = r.get(..end).unwrap_or("");
        if stamp.len() >= 8
            && stamp.contains(':')
            && stamp
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '-' | ':' | ' ' | '.' | 'T'))
        {
            return r.get(end + 1..).unwrap_or("").trim_start();
        }
    }
    t
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "dmesg",
    // Syslog-prefixed lines before Linux's prefixed ones; bare lines after Linux's bare
    // "ata1: SATA link up" (sources::kernel_log), which FreeBSD would also match.
    starts: &[
        (230, |l| spec::on_first(l, in_syslog)),
        (250, |l| {
            spec::on_first(l, |t| {
                BSD_DMESG_START.is_match(bare(t))
                    || BSD_DMESG_PREFIXED.is_match(t)
                    // A disk driver's error report names a slice or partition ("ad0s1g:
                    // hard error reading fsbn ...", kernel_log::DISK_ERR_HEAD).
                    || super::kernel_log::DISK_ERR_HEAD.is_match(bare(t))
                    || super::kernel_log::BSD_FS_IO_ERROR.is_match(bare(t))
            })
        }),
    ],
    member: |t, _| {
        spec::Member::from(
            BSD_DMESG_START.is_match(bare(t))
                || super::kernel_log::DISK_ERR_HEAD.is_match(bare(t))
                || super::kernel_log::BSD_FS_IO_ERROR.is_match(bare(t))
                || super::kernel_log::DISK_ERR_TAIL.is_match(t.trim())
                || BSD_DMESG_PREFIXED.is_match(t)
                || (BSD_DMESG_MEMBER.is_match(t) && !LINUX_PREFIX.is_match(t))
                || CAM_ELIDED.is_match(t.trim_start())
                || in_syslog(t),
        )
    },
    tolerance: (2, 4),
    permissive: true,
    // A bare "ata3: SATA connect ..." inside a FreeBSD verbose boot is FreeBSD's.
    absorbs: Some(|other, t| other == "linux-dmesg" && !LINUX_PREFIX.is_match(t)),
    // "Controller: atapci0: Intel ICH7 UDMA100 controller" -> the dmesg part.
    clean: Some(|t| {
        BSD_DMESG_PREFIXED.captures(t).map(|c| {
            c.get(1)
                .or_else(|| c.get(2))
                .map(|m| m.as_str().to_string())
                .unwrap_or_default()
        })
    }),
    classify: |_, _| "dmesg",
    ..spec::Recogniser::NONE
};

/// GEOM's GPT class reading a table whose backup header is not at the provider's end:
/// "GEOM: vtbd0: the secondary GPT header is not in the last LBA." (freebsd-src
/// sys/geom/part/g_part_gpt.c, g_part_gpt_read, printed when the backup header's LBA is
/// below the provider's last sector; `gpart recover` moves it). Since FreeBSD 11 GEOM_PART
/// answers a provider that grew under a mounted table by resizing the table in memory
/// (kern.geom.part.auto_resize, sys/geom/part/g_part.c g_part_resize): "GEOM_PART: da0 was
/// automatically resized." with "Use `gpart commit da0` to save changes": the same grown
/// disk, its backup header still short of the end on the medium until the commit. One
/// message per disk, the disk in `partition`; a syslog or timestamp prefix is allowed.
pub fn gpt_backup_not_at_end(text: &str) -> Vec<crate::model::PartitionToolMessage> {
    const TAIL: &str = ": the secondary GPT header is not in the last LBA";
    const RESIZED: &str = " was automatically resized";
    let mut out: Vec<crate::model::PartitionToolMessage> = Vec::new();
    for raw in text.lines() {
        let b = super::log_prefix::strip_prefixes(raw).trim();
        let found = ["GEOM: ", "GEOM_PART: "].iter().find_map(|tag| {
            let i = b.find(tag)?;
            let rest = b.get(i + tag.len()..)?;
            let tail = if *tag == "GEOM: " { TAIL } else { RESIZED };
            rest.split_once(tail)
        });
        let Some((disk, _)) = found else {
            continue;
        };
        let disk = disk.trim();
        if disk.is_empty() || disk.contains(char::is_whitespace) {
            continue;
        }
        if out.iter().any(|m| m.partition.as_deref() == Some(disk)) {
            continue;
        }
        out.push(crate::model::PartitionToolMessage::gpt_backup_not_at_end(
            "GEOM", disk, b,
        ));
    }
    out
}

/// FreeBSD dmesg(8) and /var/run/dmesg.boot.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[
        spec::Live::File("/var/run/dmesg.boot"),
        spec::Live::Cmd(&["dmesg"]),
    ],
    pasted_as: Some(spec::Live::File("/var/run/dmesg.boot")),
    parse: Some(|t| spec::found(parse(t))),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        matches!(p, "dmesg" | "grep" | "egrep" | "journalctl" | "cat")
    })),
    programs: &[spec::Program::new("dmesg", spec::listing_args)],
    ..spec::SourceSpec::named("dmesg", "FreeBSD dmesg")
};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod gpt_backup_tests;
