//! `virtual-or-bridged-device`: virtual disks (virtio, emulated QEMU/VMware/Hyper-V/cloud
//! disks), USB bridges (UAS vs Bulk-Only Transport) and RAID volumes, and which checks then
//! do not apply. References: USB Mass Storage Class Bulk-Only Transport 1.0 and USB
//! Attached SCSI (T10 UAS-2), Linux drivers/usb/storage (usb-storage, uas), FreeBSD umass(4),
//! virtio 1.1 section 5.2 (block device).

use crate::checks::common::{self, cite, emulated_by_model, is_virtual_disk};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{ControllerMode, DeviceClass, DiskFacts, KernelEventKind, SystemFacts};
use crate::sources::kernel_log::NetworkBlockDevice;
use crate::sources::{ask, ask_bare, spec::Ask};

pub const ID: &str = "virtual-or-bridged-device";

// The fix summaries checks::effect reads live in their own file, so that effect (which
// this check asks for measured rates) imports no file that imports it back.
pub(crate) mod fixes;
pub(crate) use fixes::{GROWN_DISK_FIX, HOST_FIX, SAME_SERIAL_FIX, UAS_FIX};

pub(crate) struct VirtualOrBridgedDevice;

impl Check for VirtualOrBridgedDevice {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "Device type"
    }
    fn summary(&self) -> &'static str {
        "virtual disk, USB bridge (UAS or slower BOT) or RAID volume: which checks apply"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        let mut out: Vec<Finding> = common::disks(sys).map(|d| check_disk(sys, d)).collect();
        out.extend(windows_share_runs(sys));
        out
    }
}

/// Model strings of bridge and RAID chips that answer IDENTIFY DEVICE themselves instead of
/// passing the drive's own data through: ASMedia names its chips with its vendor
/// designation "ASMT" (the ASM109x SATA RAID and port-multiplier bridges of dual-drive
/// enclosures report "ASMT109x- Safe", "- Fast" or "- Config" after their mode; the same
/// "ASMT" fills the vendor field of its USB bridges' SCSI INQUIRY, "da0: <ASMT 2115 0>"), and
/// JMicron-based RAID enclosures present a volume as "H/W RAID1" (smartmontools issue 216,
/// `smartctl -a` of a two-bay RAID1 enclosure: "Device Model: H/W RAID1", 5400 rpm; issue
/// 589: an ASM1092R enclosure in RAID mode overwrites the model and capacity of the first
/// drive). ASMedia makes no drives and a volume is no drive, so such a model is the chip's.
fn bridge_by_model(d: &DiskFacts) -> Option<String> {
    [d.model.value(), d.vendor.value()]
        .into_iter()
        .flatten()
        .find(|s| {
            let up = s.trim().to_ascii_uppercase();
            up.starts_with("ASMT") || up.contains("H/W RAID")
        })
        .map(|s| s.trim().to_string())
}

/// The physical block size of a drive's node when it is one no drive has: ATA drives
/// report 2^n logical sectors per physical one (ACS-3 IDENTIFY word 106), SCSI drives an
/// exponent (SBC-3 READ CAPACITY(16)), and every hard disk and SATA/SAS SSD made uses 512 or
/// 4096 bytes. A larger value on an sd/hd/ada/da node (131072 on a 750 GB disk) is what a
/// RAID controller, JBOD layer or bridge between them puts in its own answer (its stripe
/// or cache unit), not the drive's. NVMe namespaces (their NPWG), virtual and RAID volumes
/// (a stripe) and USB bridges are read elsewhere.
fn geometry_of_a_layer(d: &DiskFacts) -> Option<u32> {
    let phys = d.physical_sector_bytes.get().filter(|p| *p > 4096)?;
    let n = d.name.as_str();
    let sd = ["sd", "hd"]
        .iter()
        .filter_map(|p| n.strip_prefix(p))
        .any(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_lowercase()));
    let cam = ["ada", "da"]
        .iter()
        .filter_map(|p| n.strip_prefix(p))
        .any(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()));
    (sd || cam).then_some(phys)
}

/// A drive whose reported physical block size is a layer's ([`geometry_of_a_layer`]).
fn layer_geometry(d: &DiskFacts, phys: u32) -> Finding {
    let f = problem(
        d,
        Severity::Notice,
        format!(
            "{}: a physical block of {phys} bytes, which no drive has: a controller or bridge \
             answers for it",
            d.name
        ),
    )
    .explain(format!(
        "{} reports physical blocks of {phys} bytes. Drives have 512- or 4096-byte physical \
         sectors, so this value comes from what sits between the OS and the drive: a RAID \
         controller (also in its JBOD or pass-through mode), a SAS/SATA bridge or an \
         enclosure, which answers the capacity command itself. Tools that trust it go wrong: \
         ZFS refuses to replace a disk of the same pool (\"devices have different sector \
         alignment\") or picks a huge ashift, and alignment advice is off. Read the drive's \
         own sector sizes with `smartctl -i` through the controller; set ZFS's ashift by hand \
         (`-o ashift=12`); prefer a plain HBA.",
        d.name
    ))
    .confidence(Confidence::Medium);
    let f = cite(
        f,
        &d.physical_sector_bytes,
        format!("physical_block_size={phys}"),
    );
    cite_class(f, d)
}

/// A bridge or RAID chip answering for the drive ([`bridge_by_model`]): what diskdoc read is
/// the chip's.
fn bridge_identity(sys: &SystemFacts, d: &DiskFacts, model: &str) -> Finding {
    let dev = if d.dev_path.is_empty() {
        format!("/dev/{}", d.name)
    } else {
        d.dev_path.clone()
    };
    let f = problem(
        d,
        Severity::Notice,
        format!(
            "{}: a bridge chip answers for the drive (\"{model}\")",
            d.name
        ),
    )
    .explain(format!(
        "{} identifies itself as \"{model}\", the name of a USB/SATA bridge or RAID chip, not of \
         a drive: the chip answers the identify and SMART commands itself, so the model, \
         rotation rate, link speed and SMART values read here are the chip's (or made up by \
         it) and say nothing reliable about the drive behind it. Does not apply here: \
         {HW_CHECKS}, which would judge the chip. Its speed is set by the chip and its link \
         to the computer, not by the drive alone.",
        d.name
    ))
    .confidence(Confidence::Medium);
    let f = cite(f, &d.model, format!("model={model}"));
    let f = cite_class(f, d);
    if sys.platform == Platform::Unknown {
        return f;
    }
    f.fix(Fix {
        platform: sys.platform,
        summary: "read the drive itself, not the bridge".to_string(),
        steps: vec![
            format!(
                "`{}` asks the bridge to pass the commands through to the drive, where it \
                 can",
                ask(Ask::SmartSatIdentity, &dev)
            ),
            "Connect the drive directly to a SATA port (or M.2 slot) once to read its own \
             identity and SMART data; in a RAID or mirroring mode of the enclosure, use the \
             enclosure vendor's tool for each drive"
                .to_string(),
        ],
        risk: "none".to_string(),
    })
}

const HW_CHECKS: &str = "controller-legacy-mode, sata-link-below-max, ncq-unavailable, \
                         write-cache-disabled, media-errors and link-errors";

/// A disk the hypervisor provides costs nothing the guest can fix: the finding says which
/// checks do not apply (Problem, so reports list it) at Info, below the notice bar that
/// counts as a problem to act on (the severity follows what the bridge costs on
/// that system; a guest has no setting of its own to change).
const VM_SEVERITY: Severity = Severity::Info;

/// The kernel's error, timeout and reset lines of a virtual disk. A virtual disk has no
/// medium, cable or SATA PHY of its own: virtio-blk completes a request with the status the
/// host's device model returns (virtio 1.1 section 5.2.6, VIRTIO_BLK_S_IOERR), and an
/// emulated AHCI/IDE/NVMe controller times out when the emulator does not answer, so such
/// lines say the emulator or the host's storage failed the request.
pub(crate) fn virtual_trouble(d: &DiskFacts) -> Vec<&crate::facts::KernelEvent> {
    if !is_virtual_disk(d) {
        return Vec::new();
    }
    d.kernel_events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                KernelEventKind::MediumError
                    | KernelEventKind::IoTimeout
                    | KernelEventKind::IoError
                    | KernelEventKind::DeviceError
                    | KernelEventKind::CrcError
                    | KernelEventKind::LinkReset
                    | KernelEventKind::ComresetFailed
                    | KernelEventKind::TransportError
                    | KernelEventKind::StoragePathOops
            )
        })
        .collect()
}

/// A virtual disk's I/O error, timeout or reset lines: no drive sits behind it, so the
/// host's storage failed the request (see [`virtual_trouble`]).
fn virtual_errors(
    sys: &SystemFacts,
    d: &DiskFacts,
    what: &str,
    events: &[&crate::facts::KernelEvent],
) -> Finding {
    if events
        .iter()
        .any(|e| e.kind == KernelEventKind::StoragePathOops)
    {
        return virtual_oops(sys, d, what, events);
    }
    let n = events.len();
    host_cause(
        sys,
        d,
        format!(
            "{}: {n} error/timeout line(s) on a virtual disk: look at the host",
            d.name
        ),
        format!(
            "{} is {what}: no drive, medium or cable of its own sits behind it. The {n} kernel \
             line(s) of I/O errors, timeouts or resets therefore come from the virtual layer: \
             the emulator or the host's storage under the disk image failed or did not answer \
             the request (a host disk or volume in trouble, a full or snapshotted volume, the \
             host's I/O path, or a bug of the hypervisor version). Media-error and link checks \
             do not apply inside the guest; the host's kernel log and disks tell the cause.",
            d.name
        ),
        events,
        &[
            "On the host: its kernel log at the time of the guest's errors, and SMART and \
             free space of the disks or volumes holding the disk image",
            "Note the hypervisor and host kernel versions and the disk's settings (cache \
             and aio modes, e.g. QEMU `cache=none,aio=io_uring`); try another aio mode or \
             a known-good host kernel if the errors began after an update",
            "In a cloud VM, check the provider's status page and the volume's limits",
        ],
    )
}

/// A disk on an iSCSI session whose connection or session failed (sources::kernel_log::
/// iscsi): the target stopped answering pings, the connection dropped, or the session's
/// recovery ran past replacement_timeout and the disk went offline. The network path or the
/// target (its storage, its engine) is at fault, not a drive of this machine.
fn iscsi_errors(
    sys: &SystemFacts,
    d: &DiskFacts,
    events: &[&crate::facts::KernelEvent],
) -> Finding {
    let n = events.len();
    host_cause(
        sys,
        d,
        format!(
            "{}: {n} iSCSI connection/error line(s): look at the network and the target",
            d.name
        ),
        format!(
            "{} is a volume an iSCSI target exports over the network, not a drive of this \
             machine. The {n} kernel line(s) show the initiator's connection timing out or \
             dropping (no answer to its pings, connection errors) or its session's recovery \
             running out, after which queued commands fail and the disk goes offline. The \
             cause is the network path or the target: its storage, its load, or the software \
             serving the volume. Media-error and link checks do not apply here.",
            d.name
        ),
        events,
        &[
            "On the target: its log and its storage at the time of the errors (a storage \
             engine's own errors, a full or degraded backing store, an overloaded node)",
            "The network between initiator and target: packet loss, MTU mismatches, a link \
             or switch port resetting (`ip -s link`, the switch's counters)",
            "The initiator's timeouts (`iscsiadm -m node -o show`: node.conn[0].timeo.\
             noop_out_timeout, node.session.timeo.replacement_timeout) only after the cause \
             is known",
        ],
    )
}

/// A network block device's failed requests (sources::kernel_log::network_block_device):
/// the volume lives on other machines, so the block layer's "I/O error, dev rbd3" and the
/// filesystem's errors after it say the cluster, the server or the network between did not
/// complete the request, not that a drive of this machine failed. Ceph's kernel client
/// fails writes once its watch on the image header is lost or its exclusive lock was taken
/// over by another client (drivers/block/rbd.c: the image must be unmapped and mapped
/// again); an NBD client fails requests when its server connection drops (nbd.c "Connection
/// timed out"); DRBD fails them when neither its local disk nor a peer can serve them.
fn network_block_errors(
    sys: &SystemFacts,
    d: &DiskFacts,
    kind: NetworkBlockDevice,
    events: &[&crate::facts::KernelEvent],
) -> Finding {
    let n = events.len();
    let (what, cause, steps): (&str, &str, &[&str]) = match kind {
        NetworkBlockDevice::CephRbd => (
            "a Ceph RBD image the kernel client (krbd) maps: its data lives on the cluster's OSDs, reached over the network",
            "the client lost the cluster (a network outage, the node cut off long enough for its watch on the image to expire, its exclusive lock taken over or the client blocklisted) or the cluster could not serve the request (OSDs down, placement groups inactive or full)",
            &[
                "On the cluster: `ceph -s` and `ceph health detail` at the time of the errors (OSDs down, inactive or full placement groups, blocklisted clients)",
                "On this node: the network to the monitors and OSDs at the time (`dmesg | grep libceph` shows sessions lost and reconnected)",
                "Once the cluster is healthy, unmount, unmap and map the image again (`rbd unmap`, `rbd map`; in Kubernetes, restart the pod so the CSI driver remaps it), then check the filesystem: a write that failed is lost",
            ],
        ),
        NetworkBlockDevice::Nbd => (
            "a network block device: its data lives on the NBD server (nbd-server, qemu-nbd) it connects to",
            "the connection to the server dropped or timed out, or the server's own storage failed the request",
            &[
                "On the server: its log and the storage under the exported file or device at the time of the errors",
                "The network between client and server (`ip -s link`, packet loss); the client's timeout (`nbd-client -timeout`) only after the cause is known",
                "Reconnect the device and check the filesystem on it: a write that failed is lost",
            ],
        ),
        NetworkBlockDevice::Drbd => (
            "a DRBD volume: a local backing disk replicated to a peer node over the network",
            "neither the local backing disk nor the peer could serve the request (the backing disk detached after its own errors, the replication link down, no quorum)",
            &[
                "`drbdadm status` (or `cat /proc/drbd`): the disk and connection state of each node",
                "The kernel log of the backing disk on both nodes for its own errors, and the replication link between them",
            ],
        ),
    };
    host_cause(
        sys,
        d,
        format!(
            "{}: {n} error line(s) on a network block device: look at {}",
            d.name,
            match kind {
                NetworkBlockDevice::CephRbd => "the Ceph cluster and the network",
                NetworkBlockDevice::Nbd => "the NBD server and the network",
                NetworkBlockDevice::Drbd => "the backing disks and the replication link",
            }
        ),
        format!(
            "{} is {what}, not a drive of this machine. The {n} kernel line(s) of failed requests say {cause}. Media-error and link checks do not apply here.",
            d.name
        ),
        events,
        steps,
    )
}

/// A virtual disk whose I/O completion the kernel crashed in (KernelEventKind::
/// StoragePathOops): no drive can make the guest's kernel oops; its block, SCSI or virtio
/// code, or the device model feeding it, is at fault.
fn virtual_oops(
    sys: &SystemFacts,
    d: &DiskFacts,
    what: &str,
    events: &[&crate::facts::KernelEvent],
) -> Finding {
    host_cause(
        sys,
        d,
        format!(
            "{}: the kernel crashed completing I/O of a virtual disk: a kernel or hypervisor bug",
            d.name
        ),
        format!(
            "{} is {what}, and the pasted log shows a kernel oops whose call trace runs through \
             the storage completion path (block layer, SCSI or virtio driver). A disk cannot \
             make the guest's kernel crash: the cause is a bug in the guest kernel's storage or \
             virtio code (often a regression of a new kernel) or in the hypervisor's device \
             model, not a drive, medium or cable. Media-error and link checks do not apply \
             inside the guest.",
            d.name
        ),
        events,
        &[
            "Boot the last kernel that worked; if the crash follows a kernel update, report \
             it (with the whole oops) to the kernel's list for the driver in the trace, or \
             bisect it",
            "Note the hypervisor version and the disk's controller type; in a cloud VM, the \
             provider's supported kernels",
        ],
    )
}

/// A virtual disk whose pasted iostat shows requests waiting and none completing
/// (disk_busy::stalled): the guest handed its requests to the device model (virtio-blk's
/// virtqueue, an emulated controller) and the host never completed them: the host's
/// storage under the image is saturated or hung, or the device model or its I/O thread is
/// stuck. Nothing inside the guest can make them complete.
fn stalled_virtual_disk(
    sys: &SystemFacts,
    d: &DiskFacts,
    s: &crate::facts::BusySample,
    fact: &crate::facts::Fact<crate::facts::BusySample>,
) -> Finding {
    let f = host_cause(
        sys,
        d,
        format!(
            "{}: {:.0} requests waiting and none completed: the host stopped serving the virtual disk",
            d.name, s.avg_queue
        ),
        format!(
            "The pasted iostat shows {} with {:.0} requests in flight on average, {:.0} % \
             busy, and no read or write completed in the interval. A busy disk completes \
             requests; this one held them. {} is a virtual disk: its requests go to the \
             hypervisor's device model, and the host did not complete them (its own disks \
             saturated or failing under the image, a stuck I/O thread of the emulator, or a \
             bug of the virtio or hypervisor version). The guest's processes then sit in I/O \
             wait. Look on the host: its disks' load and kernel log, the image format (qcow2 on \
             busy hard disks is slow to allocate) and the hypervisor's log.",
            d.name, s.avg_queue, s.util_pct, d.name
        ),
        &[],
        &[
            "On the host, run `iostat -x 1` (or diskdoc) on the disks under the image while \
             the guest stalls, and read the host's kernel log",
            "Try a raw image or a preallocated one instead of qcow2 on hard disks, and the \
             hypervisor's supported virtio drivers and versions",
        ],
    );
    cite(
        f,
        fact,
        format!(
            "util={:.0}% avg_queue={:.1} ios/s=0 bytes/s=0",
            s.util_pct, s.avg_queue
        ),
    )
}

/// A virtual disk's trouble whose cause lies in the virtual layer: a warning with the
/// kernel's lines as evidence and [`HOST_FIX`] with `steps`.
fn host_cause(
    sys: &SystemFacts,
    d: &DiskFacts,
    title: String,
    explain: String,
    events: &[&crate::facts::KernelEvent],
    steps: &[&str],
) -> Finding {
    let mut f = problem(d, Severity::Warning, title)
        .explain(explain)
        .confidence(Confidence::Medium)
        .impact(0.3);
    for e in events.iter().take(5) {
        f = f.evidence(e.from.clone(), e.line.clone());
    }
    f = cite_class(f, d);
    if sys.platform != Platform::Unknown {
        f = f.fix(Fix {
            platform: sys.platform,
            summary: HOST_FIX.to_string(),
            steps: steps.iter().map(|s| s.to_string()).collect(),
            risk: "none".to_string(),
        });
    }
    f
}

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    if common::is_rst_hidden(d) {
        return common::not_applicable(
            ID,
            d,
            "hidden by the firmware's RAID mode: see controller-legacy-mode",
        );
    }
    if let Some(s) = d
        .busy
        .value()
        .filter(|s| crate::checks::disk_busy::stalled(s))
        .filter(|_| is_virtual_disk(d) && !common::is_usb(d))
    {
        return stalled_virtual_disk(sys, d, s, &d.busy);
    }
    let trouble = virtual_trouble(d);
    if !trouble.is_empty() && !common::is_usb(d) && !common::is_raid_volume(d) {
        let emulated_ctrl = d
            .controller
            .value()
            .and_then(|c| c.description.as_deref())
            .filter(|_| {
                d.class.get() == Some(DeviceClass::Virtual)
                    && matches!(
                        d.controller.value().and_then(|c| c.mode),
                        Some(ControllerMode::Ahci | ControllerMode::LegacyIde)
                    )
            });
        if d.controller.value().and_then(|c| c.description.as_deref())
            == Some(crate::sources::kernel_log::iscsi::INITIATOR)
        {
            return iscsi_errors(sys, d, &trouble);
        }
        if let Some(nbd) = d
            .controller
            .value()
            .and_then(|c| c.description.as_deref())
            .and_then(NetworkBlockDevice::from_description)
        {
            return network_block_errors(sys, d, nbd, &trouble);
        }
        let what = match emulated_by_model(d) {
            Some(m) => format!("an emulated disk (\"{m}\")"),
            // A virtual NVMe controller known by its answers (facts: the Abort it does not
            // implement, sources::kernel_log::nvme_aborts_unimplemented).
            None if d.is_nvme() => "an emulated NVMe controller".to_string(),
            // A disk the facts know to be on an emulator's model of a controller (FreeBSD:
            // QEMU's ICH9 AHCI, sources::dmesg::Attach::emulator).
            None if emulated_ctrl.is_some() => format!(
                "a disk on an emulated controller (\"{}\")",
                emulated_ctrl.unwrap_or_default()
            ),
            None if common::is_virtual_bus(d) => {
                "a paravirtual disk (virtio or similar)".to_string()
            }
            None => "a virtual disk".to_string(),
        };
        return virtual_errors(sys, d, &what, &trouble);
    }
    if is_virtual_disk(d)
        && !common::is_usb(d)
        && let Some(m) = d
            .tool_messages
            .iter()
            .find(|m| m.verdict == crate::facts::PartitionToolVerdict::GptBackupNotAtEnd)
    {
        return grown_virtual_disk(sys, d, m);
    }
    if let Some(desc) = d
        .controller
        .value()
        .and_then(|c| c.description.as_deref())
        .filter(|s| crate::sources::dmesg::is_fabrics(s))
    {
        return fabrics_disk(d, desc);
    }
    if let Some(model) = cloud_volume(d) {
        return cloud_volume_finding(sys, d, &model);
    }
    if common::is_virtual_bus(d) {
        let f = Finding::new(
            ID,
            &d.name,
            Verdict::Problem,
            VM_SEVERITY,
            format!("{}: paravirtual disk (virtio or similar)", d.name),
        )
        .explain(format!(
            "{} is a disk the hypervisor provides; its speed is decided on the host: the real \
             drives, the host's cache mode, the image format (qcow2 vs raw), throttling limits \
             and other guests. Does not apply here: {HW_CHECKS}, because there is no \
             controller, SATA link or drive inside the guest to look at. Partition alignment \
             and encryption layers still matter. Run diskdoc on the host for the hardware.",
            d.name
        ))
        .confidence(Confidence::Medium);
        return cite_class(f, d);
    }
    let emulated = emulated_by_model(d).or_else(|| {
        (d.class.get() == Some(DeviceClass::Virtual)).then(|| {
            d.model
                .value()
                .cloned()
                .unwrap_or_else(|| "virtual".to_string())
        })
    });
    if let Some(model) = emulated.clone()
        && let Some(why) = emulated_legacy(d)
    {
        return emulated_legacy_ide(sys, d, &model, &why);
    }
    if let Some(model) = emulated {
        // smartctl run on it and refused (no SMART of an emulated disk): the paste asks why
        // the disk's health cannot be read, and the emulation is the answer (notice).
        let smart_refused = d.smart.why().is_some_and(|w| {
            w.contains("lacks SMART capability") || w.contains("mandatory SMART command failed")
        });
        let f = Finding::new(
            ID,
            &d.name,
            Verdict::Problem,
            if smart_refused {
                Severity::Notice
            } else {
                VM_SEVERITY
            },
            format!("{}: emulated disk ({model})", d.name),
        )
        .explain(if d.class.get() == Some(DeviceClass::Nvme) {
            // QEMU's nvme device (hw/nvme) answers from the host's image file: its PCIe link
            // attributes are whatever the (emulated) root port advertises and do not pace the
            // transfers, and its health log is the emulator's own.
            format!(
                "{} reports itself as \"{model}\", an NVMe controller emulated by a \
                 hypervisor or cloud. The PCIe link, the health log and the write cache diskdoc \
                 reads are those of the emulation, not of the drive on the host, and the \
                 emulated link does not limit the transfers. Partition alignment and \
                 encryption layers still matter. Run diskdoc on the host for the hardware.",
                d.name
            )
        } else {
            format!(
                "{} reports itself as \"{model}\", a disk emulated by a hypervisor or cloud. The \
                 controller mode, link speed, NCQ and write cache diskdoc reads are those of the \
                 emulation, not of the drive on the host, and an emulated IDE or AHCI controller \
                 runs about as fast either way. SMART data, if any, is canned. Partition alignment \
                 and encryption layers still matter. Run diskdoc on the host for the hardware.{}",
                d.name,
                if smart_refused {
                    " smartctl found no SMART on it because there is no drive in the guest to \
                     ask: the host's own `smartctl -a` on the physical disk gives its health."
                } else {
                    ""
                }
            )
        })
        .confidence(Confidence::Medium);
        let f = cite(f, &d.model, format!("model={model}"));
        let f = cite(f, &d.vendor, d.vendor.value().cloned().unwrap_or_default());
        return cite_class(f, d);
    }
    if common::is_usb(d) {
        return usb(sys, d);
    }
    if let Some(model) = bridge_by_model(d) {
        return bridge_identity(sys, d, &model);
    }
    if let Some(phys) = geometry_of_a_layer(d) {
        return layer_geometry(d, phys);
    }
    if common::is_raid_volume(d)
        && d.controller.value().and_then(|c| c.driver.as_deref()) == Some("ataraid")
    {
        let f = Finding::new(
            ID,
            &d.name,
            Verdict::Problem,
            Severity::Notice,
            format!("{}: firmware (BIOS) RAID volume of ataraid(4)", d.name),
        )
        .explain(format!(
            "{} is a volume ataraid(4) assembled from the RAID metadata a motherboard's or \
             card's BIOS wrote on ordinary ATA disks (NVIDIA MediaShield, Intel Matrix RAID, \
             Promise FastTrak: \"fake\" RAID): FreeBSD's driver does the striping and \
             mirroring, and a crash or an unclean shutdown can leave the members out of step \
             with no controller cache to cover it. Its health, link and SMART data are the \
             member disks' (the adN of \"{} disk0 READY using ad4\"): check each member with \
             `smartctl -a /dev/adN` and `atacontrol status {}`. FreeBSD 9 and later read \
             the same metadata with graid(8) instead.",
            d.name, d.name, d.name
        ))
        .confidence(Confidence::Medium);
        return cite_class(f, d);
    }
    if common::is_raid_volume(d) {
        // A volume known only from its controller's own tool (storcli's VD table: no OS
        // node, see facts/pasted/raid_tools.rs) comes with that tool's drive table: when
        // nothing else was pasted, the drives are hidden from nothing the poster ran, so
        // this is information only. Beside an OS tool's output (smartctl on the volume's
        // da0), that tool sees the volume, not the drives: the notice stays.
        let from_controller_tool = d.dev_path.is_empty()
            && !sys
                .disks
                .iter()
                .any(|x| x.name != d.name && !x.dev_path.is_empty());
        let f = Finding::new(
            ID,
            &d.name,
            Verdict::Problem,
            if from_controller_tool {
                Severity::Info
            } else {
                Severity::Notice
            },
            if from_controller_tool {
                format!("{}: RAID controller volume", d.name)
            } else {
                format!("{}: RAID controller volume hiding its drives", d.name)
            },
        )
        .explain(format!(
            "{} is a logical volume of a hardware RAID controller: the drives behind it are \
             invisible to the OS. Does not apply here: controller-legacy-mode, \
             sata-link-below-max, ncq-unavailable (the controller talks to the drives), and \
             media-errors/link-errors need the controller's view: `{}` per member, or \
             storcli/mfiutil/arcconf. write-cache-disabled reports the controller's cache \
             policy if diskdoc could read it.",
            d.name,
            ask(
                Ask::SmartMegaraidReport,
                if d.dev_path.is_empty() {
                    &d.name
                } else {
                    &d.dev_path
                }
            )
        ))
        .confidence(Confidence::Medium);
        return cite_class(f, d);
    }
    if d.class.is_known() || d.transport.is_known() {
        let what = d
            .transport
            .get()
            .map(|t| format!("{t:?}"))
            .unwrap_or_else(|| {
                d.class
                    .get()
                    .map(|c| c.label().to_string())
                    .unwrap_or_default()
            });
        let f = common::pass(
            ID,
            d,
            format!("directly attached ({what}): every check applies"),
        )
        .explain("Not a virtual disk, USB bridge or RAID volume: the checks see the drive itself.");
        return cite_class(f, d);
    }
    common::unknown(
        ID,
        d,
        format!("how {} is attached is unknown", d.name),
        "The disk's transport and class",
        &common::why(&d.transport),
        &common::how_to_know(sys.platform, common::Source::Controller, d),
    )
}

/// A virtual disk whose backup GPT header the kernel found short of the disk's last LBA:
/// the disk was grown on the host (a larger image, volume or cloud disk) and the table was
/// not moved with it. UEFI 2.10 section 5.3.2 puts the backup header in the last LBA; until
/// it is moved the new space cannot be partitioned, a GPT tool may report the table
/// damaged, and a firmware or tool that "repairs" it from the primary can overwrite the
/// end. Notice: it is the virtual layer's change, not a drive fault, and the fix is one
/// command in the guest.
fn grown_virtual_disk(
    sys: &SystemFacts,
    d: &DiskFacts,
    m: &crate::facts::PartitionToolMessage,
) -> Finding {
    let f = problem(
        d,
        Severity::Notice,
        format!(
            "{}: virtual disk grown on the host, its backup GPT header left short of the end",
            d.name
        ),
    )
    .explain(format!(
        "{} is a virtual disk, and the kernel's GPT reader says its backup GPT header is not \
         in the disk's last LBA, where the GPT format puts it: the disk image, volume or cloud \
         disk was made larger on the host after the partition table was written (or a smaller \
         image was copied onto it). Nothing is wrong with a drive; the space added at the end \
         stays unusable until the table is moved there, and tools report the GPT as damaged \
         until then. The cause lies in the virtual layer's resize, so the fix is one command \
         in the guest. Does not apply here: {HW_CHECKS}.",
        d.name
    ))
    .confidence(Confidence::High)
    .evidence(m.from.clone(), m.line.clone());
    let f = cite_class(f, d);
    let dev = format!("/dev/{}", d.name);
    let steps = match sys.platform {
        // gpart(8) "recover": rebuilds a damaged GPT from its good copy and, for a grown
        // provider, writes the backup header to the new last LBA.
        Platform::Freebsd => vec![
            // GEOM_PART's automatic resize (g_part.c g_part_resize) already moved the table
            // in memory and asks for `gpart commit` to write it.
            if m.line.contains("automatically resized") {
                format!(
                    "`gpart commit {}` writes the table GEOM already moved to the new end",
                    d.name
                )
            } else {
                format!(
                    "`gpart recover {}` moves the backup GPT header to the last LBA",
                    d.name
                )
            },
            format!(
                "Then `gpart resize -i N {}` grows the last partition into the new space and \
                 `growfs` (UFS) or `zpool online -e` (ZFS) the file system on it",
                d.name
            ),
        ],
        // sgdisk(8) -e: "Move backup GPT data structures to the end of the disk";
        // growpart (cloud-utils) does the same before it grows a partition.
        Platform::Linux => vec![
            format!("`sgdisk -e {dev}` moves the backup GPT header to the end of the disk"),
            format!(
                "Then `growpart {dev} N` grows the last partition and `resize2fs` or \
                 `xfs_growfs` the file system on it"
            ),
        ],
        _ => return f,
    };
    f.fix(Fix {
        platform: sys.platform,
        summary: GROWN_DISK_FIX.to_string(),
        steps,
        risk: "writes the partition table: have a backup of the disk image first".to_string(),
    })
}

/// The identity strings of a cloud provider's network block volume, each the provider's
/// own: Amazon EBS volumes attached as NVMe answer Identify Controller with the model
/// number "Amazon Elastic Block Store" (AWS EC2 User Guide, "Amazon EBS and NVMe": vendor
/// 1d0f, the serial "vol..." is the volume ID); Google Compute Engine's persistent disks
/// answer SCSI INQUIRY with vendor "Google", product "PersistentDisk" (the name udev's
/// google_nvme_id/scsi_id rules and /dev/disk/by-id/google-* build on); Oracle Cloud's
/// block volumes with "ORACLE BlockVolume". A local instance-store disk (AWS "Amazon EC2
/// NVMe Instance Storage", Google "EphemeralDisk") is not one: its speed is a local
/// drive's.
const CLOUD_VOLUME_MARKERS: [&str; 3] = [
    "AMAZON ELASTIC BLOCK STORE",
    "PERSISTENTDISK",
    "BLOCKVOLUME",
];

/// The model or vendor string of `d` when it names a cloud provider's network block volume
/// ([`CLOUD_VOLUME_MARKERS`]).
fn cloud_volume(d: &DiskFacts) -> Option<String> {
    common::model_naming(d, &CLOUD_VOLUME_MARKERS).map(|s| s.trim().to_string())
}

/// A cloud provider's network block volume ([`cloud_volume`]): no drive of its own, and
/// its rate and latency are what the provider provisions for the volume type and size and
/// what the instance's storage bandwidth allows (EBS: gp3's baseline of 3,000 IOPS and 125
/// MB/s, st1/sc1 HDD volumes' burst credits, the instance type's EBS bandwidth: AWS "Amazon
/// EBS volume types"), not a drive, cable or controller. Informational, like every disk a
/// hypervisor provides ([`VM_SEVERITY`]): the model string alone does not say the volume
/// is what the post is about (a healthy GCE boot log names its persistent disk too,
/// tests/fixtures/linux/dmesg/gce-vm-virtio-scsi-sda-write-cache-4k-physical.txt), and the
/// fixes are on the provider's side.
fn cloud_volume_finding(sys: &SystemFacts, d: &DiskFacts, model: &str) -> Finding {
    let f = problem(
        d,
        VM_SEVERITY,
        format!(
            "{}: a cloud provider's network block volume (\"{model}\")",
            d.name
        ),
    )
    .explain(format!(
        "{} reports itself as \"{model}\", a block volume a cloud provider serves over its \
         network, not a drive in the machine. Its IOPS, throughput and latency are set by the \
         volume's type and size (provisioned or burst limits, HDD-backed types with burst \
         credits) and by the instance's storage bandwidth; its identify data, sector and \
         stripe sizes and health log are the provider's. Does not apply here: {HW_CHECKS}. \
         Partition alignment, the file system and encryption layers still matter.",
        d.name
    ))
    .confidence(Confidence::Medium);
    let f = cite(f, &d.model, format!("model={model}"));
    let f = cite_class(f, d);
    if sys.platform == Platform::Unknown {
        return f;
    }
    f.fix(Fix {
        platform: sys.platform,
        summary: "check the volume's limits on the provider's side".to_string(),
        steps: vec![
            "Look up the volume's type, size and provisioned IOPS/throughput in the provider's \
             console or CLI (AWS: `aws ec2 describe-volumes`; Google: `gcloud compute disks \
             describe`; Oracle: the volume's performance units)"
                .to_string(),
            "Compare them and the instance type's storage bandwidth with the rate you need; \
             the provider's volume metrics (AWS CloudWatch VolumeQueueLength and BurstBalance) \
             show whether the volume sits at its limit"
                .to_string(),
        ],
        risk: "none; a larger volume type or more provisioned IOPS costs more".to_string(),
    })
}

/// Why an emulated disk sits on an emulated legacy IDE channel, if it does: the controller
/// facts say IDE mode or an IDE driver (controller-legacy-mode's signs), or the disk is on a
/// parallel-ATA channel (libata's "ataN: PATA max ...", FreeBSD's "(WDMA2, PIO ...)"
/// transfer line without a SATA generation).
fn emulated_legacy(d: &DiskFacts) -> Option<String> {
    if let Some(c) = d
        .controller
        .value()
        .filter(|_| crate::checks::controller_legacy_mode::is_legacy(d))
    {
        let what = c
            .description
            .clone()
            .or_else(|| c.driver.clone())
            .unwrap_or_else(|| "an IDE controller".to_string());
        return Some(format!("its controller is an emulated IDE one ({what})"));
    }
    (d.transport.get() == Some(crate::facts::Transport::Pata))
        .then(|| "it is attached to an emulated parallel-ATA (IDE) channel".to_string())
}

/// An emulated disk on an emulated legacy IDE controller: a check that would fire on real
/// hardware (controller-legacy-mode: no NCQ, one command at a time, PIO/DMA modes of the
/// 1990s) fires here on the hypervisor's choice of controller. QEMU's `-drive if=ide`
/// (the default of its i440FX "pc" machine, hw/i386/pc_piix.c) gives a PIIX3/PIIX4 IDE
/// channel (hw/ide/piix.c) whose transfers are emulated one command at a time with no
/// queue; VirtualBox, Parallels and Veertu offer the same PIIX3. The guest cannot change
/// it; the VM's definition on the host can (a virtio or AHCI disk controller). Notice: it
/// costs throughput and queue depth, it is not a fault, and the finding replaces
/// controller-legacy-mode's (which reports not applicable for a virtual disk).
fn emulated_legacy_ide(sys: &SystemFacts, d: &DiskFacts, model: &str, why: &str) -> Finding {
    let f = problem(
        d,
        Severity::Notice,
        format!(
            "{}: emulated disk ({model}) on an emulated legacy IDE controller",
            d.name
        ),
    )
    .explain(format!(
        "{} reports itself as \"{model}\", a disk emulated by a hypervisor, and {why}. The \
         IDE controller is the virtual machine's, not a setting of a real SATA controller: \
         the emulator serves one command at a time with no queue (no NCQ) and in legacy \
         transfer modes, so the guest's disk I/O is slower and costs more CPU than on an \
         emulated AHCI or a paravirtual (virtio) controller. The cause lies in the VM's \
         definition on the host, not in a drive; controller-legacy-mode, \
         sata-link-below-max and ncq-unavailable do not apply to it.",
        d.name
    ))
    .confidence(Confidence::Medium);
    let f = cite(f, &d.model, format!("model={model}"));
    let f = cite(
        f,
        &d.controller,
        d.controller
            .value()
            .and_then(|c| c.description.clone().or_else(|| c.driver.clone()))
            .unwrap_or_default(),
    );
    let f = cite_class(f, d);
    if sys.platform == Platform::Unknown {
        return f;
    }
    let guest = match sys.platform {
        Platform::Freebsd => "the guest's GENERIC kernel has virtio_blk(4) and ahci(4)",
        _ => "the guest's kernel has virtio_blk and ahci (every distribution kernel does)",
    };
    f.fix(Fix {
        platform: sys.platform,
        summary: "give the VM a virtio or AHCI disk controller instead of IDE".to_string(),
        steps: vec![
            "On the host, attach the disk image to a paravirtual (virtio) or SATA/AHCI \
             controller in the VM's settings (QEMU/libvirt: `bus='virtio'` or `bus='sata'` \
             in the disk's target, or `-device virtio-blk-pci`; VirtualBox, VMware, \
             Parallels: a SATA or paravirtual controller)"
                .to_string(),
            format!(
                "{guest}; fstab entries that name the old device (ada0, sda) must follow the \
                 new name unless they use labels or UUIDs"
            ),
        ],
        risk: "the disk's device name changes in the guest: boot and mount entries must \
               use labels or UUIDs first"
            .to_string(),
    })
}

/// A problem finding of this check on `d`.
fn problem(d: &DiskFacts, severity: Severity, title: String) -> Finding {
    Finding::new(ID, &d.name, Verdict::Problem, severity, title)
}

fn cite_class(f: Finding, d: &DiskFacts) -> Finding {
    let f = match d.class.get() {
        Some(c) => cite(f, &d.class, format!("class={}", c.label())),
        None => f,
    };
    match d.transport.get() {
        Some(t) => cite(f, &d.transport, format!("transport={t:?}")),
        None => f,
    }
}

/// A USB disk: what its bridge and transport cost ([`usb_transport`]), and whether the
/// bridge hides its identity ([`shared_identity`]).
fn usb(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    let mut f = usb_transport(sys, d);
    // A bridge that refuses ATA pass-through hides the drive's health whatever its link: that
    // is the finding unless the USB side failed (a warning of its own).
    if f.severity < Severity::Warning
        && d.controller.value().and_then(|c| c.usb_passthrough_refused) == Some(true)
    {
        f = passthrough_refused(sys, d);
    } else if f.severity < Severity::Warning
        && d.controller.value().and_then(|c| c.usb_bridge_unknown) == Some(true)
    {
        f = bridge_unknown_to_smartctl(sys, d);
    }
    // Where the transport itself is fine, a device that answers with a chip's identity
    // rather than the drive's or the medium's is still worth a notice: what diskdoc (and
    // SMART, TRIM, capacity) reads is the chip's.
    if f.verdict == Verdict::Pass {
        if let Some(model) = bridge_by_model(d) {
            f = bridge_identity(sys, d, &model);
        } else if let Some(serial) = d.serial.value().filter(|s| placeholder_serial(s)) {
            f = placeholder_identity(sys, d, serial);
        } else if d.controller.value().and_then(|c| c.usb_no_flush) == Some(true) {
            f = flush_refused(sys, d);
        } else if d.controller.value().and_then(|c| c.usb_root) == Some(true) {
            f = usb_system_disk(sys, d);
        }
    }
    let peers = same_identity_peers(sys, d);
    if peers.is_empty() {
        return f;
    }
    shared_identity(sys, d, f, &peers)
}

/// A USB disk whose bridge refused the ATA PASS-THROUGH command smartctl sent it
/// (Controller::usb_passthrough_refused, sources::smartctl::is_sat_refusal): smartctl's own
/// words say a USB bridge that does not translate ATA commands stands between it and the
/// drive: a USB-NVMe bridge (ASMedia ASM2362, JMicron JMS583, Realtek RTL9210) or a SATA
/// bridge with a protocol of its own. smartctl(8) "-d TYPE" names the types that reach the
/// drive through such bridges (sntasmedia, sntjmicron, sntrealtek; usbjmicron, usbcypress,
/// usbprolific, usbsunplus, sat,12); smartmontools' drive database (drivedb.h) maps known USB
/// IDs to them, and a bridge not in the database, or one added after the installed smartctl,
/// gets the plain SAT type that fails. Notice: nothing failed, but the drive's health cannot
/// be read until the right type is given.
fn passthrough_refused(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    let dev = dev_of(d);
    smart_behind_bridge(
        sys,
        d,
        format!(
            "{}: its USB bridge refuses smartctl's pass-through: SMART is unreadable as smartctl tried",
            d.name
        ),
        format!(
            "smartctl asked {} for the drive's identity with a pass-through command (ATA \
             PASS-THROUGH, or a USB-NVMe bridge's vendor command) and the device refused the \
             command itself (\"Read Device Identity failed\" or \"Read NVMe Identify \
             Controller failed\": \"scsi error unsupported ...\"): a USB bridge stands between \
             the computer and the drive and does not pass that command, as USB-NVMe bridges \
             (ASMedia, JMicron, Realtek) do not take ATA commands, some USB-SATA bridges take \
             none, and some bridge chips or firmware versions lack the vendor command of their \
             own type. The drive's health, identity and temperature cannot be read this way, \
             so its wear or failing sectors would go unnoticed; smartctl reaches it with the \
             bridge's own device type. Does not apply here: {HW_CHECKS}.",
            d.name
        ),
        "smartctl: identify failed (pass-through refused by the bridge)",
        Fix {
            platform: sys.platform,
            summary: "give smartctl the USB bridge's device type".to_string(),
            steps: vec![
                format!(
                    "For a USB-NVMe enclosure or portable SSD: `smartctl -d sntasmedia -a {dev}` \
                     (ASMedia bridges), `-d sntjmicron` (JMicron) or `-d sntrealtek` (Realtek)"
                ),
                format!(
                    "For a USB-SATA enclosure: `smartctl -d sat,12 -a {dev}`, or `-d usbjmicron`, \
                     `-d usbcypress`, `-d usbprolific`, `-d usbsunplus` as smartctl(8) lists them"
                ),
                "`lsusb` (Linux) or `usbconfig` (FreeBSD) gives the bridge's USB ID; a newer \
                 smartctl or `update-smart-drivedb` knows more bridges by their ID"
                    .to_string(),
                "When the bridge's own type fails too, the chip or its firmware lacks the \
                 command: the enclosure maker's firmware update, or the drive in an M.2 slot or \
                 on a SATA port, reads its health"
                    .to_string(),
            ],
            risk: "none".to_string(),
        },
    )
}

/// The device path of `d` for a command to run ("/dev/sdX" when the paste named none).
fn dev_of(d: &DiskFacts) -> String {
    if d.dev_path.is_empty() {
        "/dev/sdX".to_string()
    } else {
        d.dev_path.clone()
    }
}

/// A notice that smartctl cannot read the drive behind a USB bridge as it was run: `title`,
/// `explain`, the controller fact cited as `why`, and `fix` where the platform is known.
fn smart_behind_bridge(
    sys: &SystemFacts,
    d: &DiskFacts,
    title: String,
    explain: String,
    why: &str,
    fix: Fix,
) -> Finding {
    let f = problem(d, Severity::Notice, title)
        .explain(explain)
        .confidence(Confidence::Medium);
    let f = cite(f, &d.controller, why.to_string());
    let f = cite_class(f, d);
    if sys.platform == Platform::Unknown {
        return f;
    }
    f.fix(fix)
}

/// A USB disk whose bridge smartctl did not know (Controller::usb_bridge_unknown): smartctl
/// looks a USB device's vendor and product ID up in its drive database to choose how to
/// reach the drive behind the bridge (smartmontools lib/dev_interface.cpp
/// get_usb_dev_type_by_id, drivedb.h's USB entries); an ID it does not list ends the run
/// with "Unknown USB bridge [0xVVVV:0xPPPP (0xREV)]" and "Please specify device type with
/// the -d option." (smartctl.cpp), so neither smartctl nor smartd reads the drive's health
/// unless told the type. Notice: the drive may be fine, but as set up nothing watches it;
/// most USB-SATA bridges answer the standard SAT type (smartctl(8) "-d sat").
fn bridge_unknown_to_smartctl(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    let dev = dev_of(d);
    smart_behind_bridge(
        sys,
        d,
        format!(
            "{}: USB bridge unknown to smartctl: SMART needs `-d TYPE`",
            d.name
        ),
        format!(
            "{} sits behind a USB bridge whose USB ID smartctl's drive database does not list \
             (\"Unknown USB bridge\"), so smartctl stops and asks for a device type instead of \
             reading the drive: without `-d sat` (or the bridge's own type) neither smartctl \
             nor smartd sees the drive's health, temperature or error logs, and a failing \
             drive would go unnoticed. Most USB-SATA bridges pass ATA commands with the \
             standard SAT type. Does not apply here: controller-legacy-mode, \
             sata-link-below-max and ncq-unavailable (the bridge owns the SATA side).",
            d.name
        ),
        "smartctl: Unknown USB bridge, please specify device type",
        Fix {
            platform: sys.platform,
            summary: "tell smartctl and smartd the bridge's device type".to_string(),
            steps: vec![
                format!(
                    "`{}`; if the bridge refuses it, `-d sat,12`, or for a USB-NVMe enclosure \
                     `-d sntasmedia`, `-d sntjmicron` or `-d sntrealtek`",
                    ask(Ask::SmartSatIdentity, &dev)
                ),
                format!(
                    "Put the type that works in smartd.conf (`{dev} -d sat -a`), and run \
                     `update-smart-drivedb` or a newer smartmontools, which may list the \
                     bridge; a working type can be reported to smartmontools for its drive \
                     database"
                ),
            ],
            risk: "none".to_string(),
        },
    )
}

/// The product or attach string of a USB disk that names a USB 3 generation
/// (sources::usb_devices::names_usb3): the disk model da(4) prints, or umass(4)'s attach
/// line with the USB device's own product string.
fn usb3_name(d: &DiskFacts) -> Option<String> {
    let ctrl = d.controller.value().and_then(|c| c.description.clone());
    [d.model.value().cloned(), ctrl]
        .into_iter()
        .flatten()
        .find(|s| crate::sources::usb_devices::names_usb3(s))
}

/// A large-block rate measured on a disk on a USB 2 link that the link's ceiling explains: at
/// least [`BOT_BOUND_SHARE`](super::effect::usb::BOT_BOUND_SHARE) of what Bulk-Only
/// Transport leaves of USB 2 (30 MB/s, checks/effect/usb.rs), and no faster than the bulk
/// ceiling of 53 MB/s (USB 2.0 section 5.8.4) with a tenth's margin for MB/MiB rounding: a
/// faster figure came from a cache. Returns the rate, MB/s.
fn usb2_bound_rate(sys: &SystemFacts, d: &DiskFacts) -> Option<f64> {
    use super::effect::{EffectMetric, measured, usb};
    [EffectMetric::SeqReadMbps, EffectMetric::SeqWriteMbps]
        .into_iter()
        .filter_map(|m| measured(sys, &d.name, m))
        .filter(|r| {
            *r >= usb::USB2_BOT_MBPS.0 * usb::BOT_BOUND_SHARE && *r <= usb::USB2_BULK_MBPS * 1.1
        })
        .reduce(f64::max)
}

/// A sequential read measured on the disk through its bridge at more than one and a half
/// times USB 2's bulk ceiling (53 MB/s, USB 2.0 section 5.8.4): the link is SuperSpeed and
/// the bridge keeps up with it, so being on USB costs nothing the numbers show.
/// Only reads of the device count: hdparm -t (-T times the page cache), diskinfo -t, a
/// large-block dd to /dev/null of the disk or one of its partitions, diskdoc's own
/// sequential read.
/// Whether the kernel failed requests of this USB drive without naming its medium (an I/O
/// error or a timeout, a target gone from the bus, DID_NO_CONNECT): the bridge, its link,
/// cable or power is the first suspect of a USB disk's failed I/O.
fn usb_requests_failed(d: &DiskFacts) -> bool {
    d.kernel_events.iter().any(|e| {
        matches!(
            e.kind,
            KernelEventKind::IoError | KernelEventKind::IoTimeout
        )
    })
}

/// Whether a rate of this USB drive is known: a pasted benchmark that names it (or the only
/// disk, when the benchmark names none) or a test of this run.
fn measured_on_usb(sys: &SystemFacts, d: &DiskFacts) -> bool {
    sys.user_benchmarks.iter().any(|b| {
        b.error.is_none()
            && b.bytes_per_sec.is_some()
            && (names_disk(sys, d, b.input.as_deref()) || names_disk(sys, d, b.output.as_deref()))
    }) || sys
        .benchmarks
        .iter()
        .any(|r| r.disk == d.name && r.error.is_none())
}

/// Whether a pasted benchmark's input or output path is this disk (or one of its
/// partitions), or names nothing while the paste has only this disk.
fn names_disk(sys: &SystemFacts, d: &DiskFacts, path: Option<&str>) -> bool {
    match path.and_then(|p| p.strip_prefix("/dev/")) {
        Some(n) => n.starts_with(d.name.as_str()),
        None => sys.disks.len() == 1 && path.is_none(),
    }
}

fn reads_past_usb2(sys: &SystemFacts, d: &DiskFacts) -> bool {
    let floor = super::effect::usb::USB2_BULK_MBPS * 1.5e6;
    let of_disk = |i: Option<&str>| names_disk(sys, d, i);
    let pasted = sys.user_benchmarks.iter().any(|b| {
        let read = match b.tool.as_str() {
            "hdparm -t" | "hdparm -t --direct" | "diskinfo -t" => true,
            "dd" => {
                b.output
                    .as_deref()
                    .is_some_and(super::pasted_common::is_sink)
                    && b.block_size_bytes.is_some_and(|bs| bs >= 128 * 1024)
            }
            _ => false,
        };
        read && b.error.is_none()
            && of_disk(b.input.as_deref())
            && b.bytes_per_sec.is_some_and(|r| r > floor)
    });
    pasted
        || sys.benchmarks.iter().any(|r| {
            r.disk == d.name
                && r.error.is_none()
                && r.test == crate::evidence::TestName::SeqRead
                && r.bytes_per_sec > floor
        })
}

/// A device that names itself USB 3 running on a high-speed (USB 2) link: its SuperSpeed
/// pairs did not connect (USB 3.2 section 10.1: a SuperSpeed device falls back to its
/// USB 2 interface), so it is held to USB 2's bulk ceiling of about 40 MB/s (FreeBSD's
/// umass(4) prints exactly that figure for such a link, sources::dmesg::umass_link_mbps)
/// instead of the few hundred MB/s it is built for. Notice: the device works; the port,
/// hub, cable or extension it is on costs most of its speed.
fn usb3_at_high_speed(
    sys: &SystemFacts,
    d: &DiskFacts,
    base: &str,
    mbps: f64,
    named: &str,
) -> Finding {
    let f = problem(
        d,
        Severity::Notice,
        format!(
            "{}: a USB 3 device running on a USB 2 ({mbps} Mb/s) link",
            d.name
        ),
    )
    .explain(format!(
        "{base}\"{named}\" names a USB 3 device, but its link runs at {mbps} Mb/s (USB 2 \
         high speed): a SuperSpeed device falls back to its USB 2 interface when its \
         SuperSpeed wires do not connect, on a USB 2 port, hub or front-panel extension, or \
         through a connector not fully in. USB 2 carries at most about {:.0} MB/s of bulk \
         data, a fraction of what the device is built for.",
        super::effect::usb::USB2_BULK_MBPS
    ))
    .confidence(Confidence::Medium);
    let f = cite(f, &d.controller, format!("usb_speed={mbps} Mb/s"));
    let f = cite(f, &d.model, named.to_string());
    let f = cite_class(f, d);
    if sys.platform == Platform::Unknown {
        return f;
    }
    let check = match sys.platform {
        // usbconfig(8) "dump_device_desc"/list prints each device's speed: "spd=SUPER" for
        // a SuperSpeed link, "spd=HIGH" for USB 2.
        Platform::Freebsd => {
            "`usbconfig` lists each device with its speed: spd=SUPER once the SuperSpeed \
             pairs connect (spd=HIGH is USB 2), and the kernel prints 400.000MB/s transfers \
             for the disk"
        }
        _ => "`lsusb -t` shows 5000M or more for the device once the SuperSpeed pairs connect",
    };
    f.fix(Fix {
        platform: sys.platform,
        summary: "plug the device into a USB 3 port directly".to_string(),
        steps: vec![
            "Use a USB 3 port of the computer itself (often blue, or marked SS), without a \
             hub or front-panel extension; a computer with only USB 2 ports gives no more"
                .to_string(),
            check.to_string(),
        ],
        risk: "none".to_string(),
    })
}

/// A USB disk that failed the cache flush the OS probed it with, so the OS sends it none
/// (FreeBSD: umass(4)'s NO_SYNC_CACHE quirk, sources::dmesg::no_sync_cache). Whatever it
/// holds in its own cache when it is pulled or loses power is lost, though every fsync
/// returned: file systems and pools that order their writes by flushes (UFS's journal,
/// ZFS's transaction groups) lose that guarantee, and a benchmark of synchronous writes on
/// it measures no flush. Notice: it works, but only a clean unmount protects its data.
fn flush_refused(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    let f = problem(
        d,
        Severity::Notice,
        format!(
            "{}: USB device that takes no cache flush (NO_SYNC_CACHE)",
            d.name
        ),
    )
    .explain(format!(
        "{} failed the SYNCHRONIZE CACHE command the kernel sent it when it attached, so the \
         kernel marked it NO_SYNC_CACHE and sends it no cache flush from then on: an fsync \
         or a file system's commit returns without the device having been asked to put its \
         cached writes on the medium. What it still holds when it is pulled out or loses \
         power is lost, and a journal or pool on it loses the write order it relies on. \
         Typical of cheap USB flash controllers and bridges; write-cache and sync-write \
         measurements do not tell the truth about it.",
        d.name
    ))
    .confidence(Confidence::Medium);
    let f = cite(f, &d.controller, "quirks=NO_SYNC_CACHE".to_string());
    let f = cite_class(f, d);
    if sys.platform == Platform::Unknown {
        return f;
    }
    let eject = match sys.platform {
        Platform::Freebsd => format!(
            "Unmount it (`umount`, or `zpool export` for a pool) and wait for it to finish \
             before pulling it; `camcontrol eject {}` then stops it",
            d.name
        ),
        _ => format!(
            "Unmount it and run `udisksctl power-off -b /dev/{}` (or `eject`) before pulling it",
            d.name
        ),
    };
    f.fix(Fix {
        platform: sys.platform,
        summary: "unmount before unplugging; keep data that matters elsewhere".to_string(),
        steps: vec![
            eject,
            "Keep a copy of what matters on a disk that takes flushes (SATA, NVMe, or a USB \
             enclosure whose bridge passes them on)"
                .to_string(),
        ],
        risk: "none".to_string(),
    })
}

/// A USB device the system runs from (Controller::usb_root: the boot log mounts root from a
/// disk and attaches no disk but USB ones): every write of the system (logs, packages,
/// updates, swap) goes through the USB bridge or flash controller, on FreeBSD's umass(4)
/// one command at a time (Bulk-Only Transport), at most about 40 MB/s on a USB 2 link
/// (umass(4)'s "40.000MB/s transfers"), and a flash key's small random writes are far
/// slower still. Notice: it works, but it is the ceiling of the whole system's storage,
/// and the first thing to say when its speed or its errors are the question.
fn usb_system_disk(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    let f = problem(
        d,
        Severity::Notice,
        format!(
            "{}: the system runs from this USB device (no other disk in the log)",
            d.name
        ),
    )
    .explain(format!(
        "The boot log mounts the root file system while the only disk it attaches is {}, a \
         USB device on umass(4): the system runs from a USB stick, card or bridge. Every \
         read and write of the system goes through it one command at a time (Bulk-Only \
         Transport), at most about 40 MB/s on a USB 2 link, and a flash stick's or card's \
         small random writes are far slower; cheap flash also wears out under logs and \
         swap. Its speed and errors are the USB device's, not a SATA disk's. Does not \
         apply here: {HW_CHECKS}.",
        d.name
    ))
    .confidence(Confidence::Medium);
    let f = cite(
        f,
        &d.controller,
        "root file system on a USB-only system".to_string(),
    );
    let f = cite_class(f, d);
    if sys.platform == Platform::Unknown {
        return f;
    }
    f.fix(Fix {
        platform: sys.platform,
        summary: "run the system from an internal disk if its speed matters".to_string(),
        steps: vec![
            "Install to a SATA, mSATA or NVMe disk where the machine has a port for one; a \
             USB stick suits a read-only or RAM-disk system (logs and temporary files in \
             memory)"
                .to_string(),
            "Otherwise use a USB 3 stick or SSD enclosure on a USB 3 port, and keep logs and \
             swap off the stick"
                .to_string(),
        ],
        risk: "none".to_string(),
    })
}

/// A serial number no device was given at the factory: the counting sample
/// "0123456789ABCDEF" (or a prefix of 12 or more of it) that USB flash-controller and
/// bridge SDKs ship as their default string descriptor, or one non-zero character repeated
/// ("FFFFFFFFFFFF", the value of an erased, never-programmed EEPROM). The SCSI INQUIRY
/// serial of a USB disk (SPC-4 VPD page 80h) comes from the USB chip, so such a value says
/// the chip was never programmed with an identity of its own: a flash controller in its
/// fallback firmware, a counterfeit key, or an unconfigured bridge. All zeros is left out:
/// cheap but working enclosures report it as their way of saying "no serial".
pub(crate) fn placeholder_serial(s: &str) -> bool {
    let t = s.trim();
    if t.len() < 8 {
        return false;
    }
    let first = t.chars().next();
    let repeated = first.is_some_and(|c| c.is_ascii_alphanumeric() && c != '0')
        && t.chars().all(|c| Some(c) == first);
    let counting = t.len() >= 12 && "0123456789ABCDEF".starts_with(&t.to_ascii_uppercase());
    repeated || counting
}

/// A USB disk whose chip reports a placeholder serial ([`placeholder_serial`]): the
/// identity, and with it the capacity and model diskdoc reads, are the chip's defaults, not
/// facts about the drive or the flash behind it. Notice: nothing is shown failing, but
/// nothing the device says about itself can be trusted, and tools that tell disks apart by
/// serial (GEOM's /dev/diskid, udev's ID_SERIAL, smartd) see a made-up name.
fn placeholder_identity(sys: &SystemFacts, d: &DiskFacts, serial: &str) -> Finding {
    // The words name the kind of placeholder, not the value (serials stay out of the text,
    // as everywhere in the report).
    let kind = if serial.trim().len() >= 12 && serial.trim().starts_with("0123456789") {
        "the counting sample 0123456789ABCDEF"
    } else {
        "one character repeated"
    };
    let f = problem(
        d,
        Severity::Notice,
        format!(
            "{}: the USB chip answers with a placeholder serial number ({kind})",
            d.name
        ),
    )
    .explain(format!(
        "{} reports a serial number that is {kind}, a default no device is given at the \
         factory: a USB disk's serial comes from its USB chip, and this one was never given \
         an identity of its own (a generic bridge, a flash controller running its fallback \
         firmware, or a counterfeit key). Its model, serial and capacity are what the chip \
         says, not facts about the drive or the flash behind it: compare the capacity shown \
         with the one on the label, and do not name the disk by its serial \
         (/dev/diskid, udev's ID_SERIAL). Does not apply here: {HW_CHECKS}, which would \
         judge the chip.",
        d.name
    ))
    .confidence(Confidence::Medium);
    let f = cite(f, &d.serial, format!("serial number: {kind}"));
    let f = cite_class(f, d);
    if sys.platform == Platform::Unknown {
        return f;
    }
    let steps = match sys.platform {
        // f3probe (the f3 suite) writes and reads back the whole device to find its real
        // capacity, the test for keys whose controller misreports it.
        Platform::Freebsd => vec![
            format!(
                "`diskinfo -v {}` shows the size the chip reports; compare it with the \
                 capacity printed on the device",
                d.name
            ),
            // The sysutils/f3 port builds f3write and f3read (f3probe needs Linux's libudev).
            "With a file system of it mounted, `f3write /mnt` then `f3read /mnt` \
             (sysutils/f3) fill its free space and read every sector back: the real capacity \
             is what reads back intact"
                .to_string(),
        ],
        _ => vec![
            format!(
                "`lsblk -o NAME,SIZE,MODEL,SERIAL /dev/{}` shows the size the chip reports; \
                 compare it with the capacity printed on the device",
                d.name
            ),
            format!(
                "`f3probe --destructive /dev/{}` (package f3) tests how much of it really \
                 holds data (it overwrites the device)",
                d.name
            ),
        ],
    };
    f.fix(Fix {
        platform: sys.platform,
        summary: "check what the device really holds before trusting it with data".to_string(),
        steps,
        risk: "f3probe --destructive erases the device and f3write fills it: copy its data \
               off first"
            .to_string(),
    })
}

/// The other USB disks behind the same bridge as `d` (the same umass(4) instance on
/// FreeBSD, the same USB device on Linux: [`crate::facts::Controller`]'s address) that
/// report the same serial number. Two drives never share a serial; a bridge that answers
/// the SCSI INQUIRY serial (VPD page 80h) itself, or a USB device whose one serial udev
/// gives every LUN, makes them look alike.
fn same_identity_peers<'a>(sys: &'a SystemFacts, d: &DiskFacts) -> Vec<&'a str> {
    let bridge = |x: &DiskFacts| usb_bridge(x).map(str::to_string);
    let (Some(b), Some(serial)) = (bridge(d), d.serial.value()) else {
        return Vec::new();
    };
    if serial.trim().is_empty() {
        return Vec::new();
    }
    if !has_medium(d) {
        return Vec::new();
    }
    common::disks(sys)
        .filter(|x| x.name != d.name && common::is_usb(x) && has_medium(x))
        .filter(|x| bridge(x).as_deref() == Some(b.as_str()))
        .filter(|x| x.serial.value().is_some_and(|s| s.trim() == serial.trim()))
        .map(|x| x.name.as_str())
        .collect()
}

/// The USB bridge a disk is behind, as the controller's address names it: FreeBSD's
/// umass(4) instance ("umass1", one per USB device) or the USB device of a Linux kernel
/// log ("usb 2-1.3"). A PCI address (Linux sysfs gives the USB host controller's) is
/// shared by every device on that controller and names no bridge.
fn usb_bridge(d: &DiskFacts) -> Option<&str> {
    let a = d.controller.value()?.address.as_deref()?;
    (a.starts_with("umass") || a.starts_with("usb ")).then_some(a)
}

/// Whether a USB disk holds a medium: the LUNs of a multi-slot card reader share the
/// reader's serial too, and an empty slot is no disk anyone names. FreeBSD's da(4) prints a
/// capacity only for a medium (scsi_da.c dadone; an empty slot logs "Medium not present"
/// instead), so a size is required there; a Linux log gives the bridge only for a fixed
/// disk (facts/pasted/linux_text.rs), its size not at all.
fn has_medium(d: &DiskFacts) -> bool {
    match d.size_bytes.get() {
        Some(s) => s > 0,
        None => usb_bridge(d).is_some_and(|b| b.starts_with("usb ")),
    }
}

/// The finding for a disk that shares its bridge and its serial number with `peers`: a
/// pass becomes a notice (the identity, not the speed, is the trouble), a problem gets
/// the words and the fix added.
fn shared_identity(sys: &SystemFacts, d: &DiskFacts, f: Finding, peers: &[&str]) -> Finding {
    let others = peers.join(", ");
    let bridge = usb_bridge(d).unwrap_or_default();
    let text = format!(
        "{} and {others} sit behind the same USB bridge ({bridge}) and report the same serial \
         number: the bridge answers for the drives instead of passing on each drive's own \
         identity. Whatever names or tracks disks by serial can mix them up: FreeBSD's \
         /dev/diskid/DISK-<serial> names (GEOM's disk_ident labels), Linux's lsblk SERIAL and \
         udev's ID_SERIAL_SHORT, a ZFS pool or NAS set up on such names, and smartd, which \
         skips a device whose identity it has already seen. A mirror or pool built on them \
         can attach the wrong disk after a replug or reboot. ",
        d.name
    );
    let mut f = if f.verdict == Verdict::Pass {
        let mut n = Finding::new(
            ID,
            &d.name,
            Verdict::Problem,
            Severity::Notice,
            format!(
                "{}: same serial number as {others} behind one USB bridge",
                d.name
            ),
        )
        .explain(format!("{text}{}", f.explanation))
        .confidence(Confidence::Medium);
        n.evidence = f.evidence;
        n
    } else {
        let mut f = f;
        f.explanation = format!("{} {}", f.explanation.trim_end(), text.trim_end());
        f
    };
    f = cite(f, &d.serial, format!("serial number shared with {others}"));
    f = cite(f, &d.controller, format!("bridge={bridge}"));
    let steps = match sys.platform {
        Platform::Freebsd => vec![
            format!(
                "Name each disk by a label of your own: `gpart modify -i 1 -l bay1 {}` (one \
                 label per disk), then use /dev/gpt/bay1 in pools and fstab",
                d.name
            ),
            "Stop the colliding serial names: `kern.geom.label.disk_ident.enable=0` in \
             /boot/loader.conf (GEOM then makes no /dev/diskid/ names)"
                .to_string(),
            format!(
                "`{}` reads the drive's own identity where the bridge passes ATA commands \
                 through",
                ask(Ask::SmartSatIdentity, &format!("/dev/{}", d.name))
            ),
        ],
        Platform::Linux => vec![
            "Use names that do not come from the serial: /dev/disk/by-partuuid/ or \
             /dev/disk/by-path/ (or filesystem UUIDs and labels), e.g. `zpool import -d \
             /dev/disk/by-partuuid POOL`"
                .to_string(),
            format!(
                "`{}` reads the drive's own identity where the bridge passes ATA commands \
                 through",
                ask(Ask::SmartSatIdentity, &format!("/dev/{}", d.name))
            ),
        ],
        _ => return f,
    };
    f.fix(Fix {
        platform: sys.platform,
        summary: SAME_SERIAL_FIX.to_string(),
        steps,
        risk: "a pool already built on serial names needs an export and an import with the \
               new names"
            .to_string(),
    })
}

/// An NVMe over Fabrics namespace (nvmf(4) on FreeBSD: "nvme0: <Fabrics: NQN>"): a volume
/// a target exports over TCP or RDMA, whose speed and health are the network's and the
/// target's.
fn fabrics_disk(d: &DiskFacts, desc: &str) -> Finding {
    let f = problem(
        d,
        Severity::Notice,
        format!("{}: NVMe over Fabrics namespace (a network disk)", d.name),
    )
    .explain(format!(
        "{} is a namespace of an NVMe over Fabrics controller (\"{desc}\"): the disk is a \
         volume another machine (the target) exports over the network. Its rates and latency \
         are those of the network link and the target's storage, not of a local drive, and \
         its identify and health data are the target's own. Does not apply here: {HW_CHECKS}. \
         Look at the network path and run diskdoc on the target for the hardware.",
        d.name
    ))
    .confidence(Confidence::Medium);
    let f = cite(f, &d.controller, format!("description={desc}"));
    cite_class(f, d)
}

fn usb_transport(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    let drv = d
        .controller
        .value()
        .and_then(|c| c.usb_driver.clone())
        .map(|s| s.to_ascii_lowercase());
    let base = format!(
        "{} sits behind a USB bridge that translates USB to SATA (or NVMe). Does not apply: \
         controller-legacy-mode, sata-link-below-max and ncq-unavailable (the bridge owns the \
         SATA side); SMART and the write cache are visible only through bridges that pass ATA \
         commands through ({}). ",
        d.name,
        ask_bare(Ask::SmartSatOption)
    );
    // The bridge or the USB link failed commands (a host byte such as DID_ERROR, a host
    // controller that died, CAM's "CCB request completed with an error" on umass, UAS
    // resets): on USB that is the bridge, its cable, port or power, not the drive, whatever
    // the transport mode.
    let failed: Vec<_> = d
        .kernel_events
        .iter()
        .filter(|e| common::is_link_event(e.kind))
        .collect();
    if !failed.is_empty() {
        let mut f = Finding::new(
            ID,
            &d.name,
            Verdict::Problem,
            Severity::Warning,
            format!(
                "{}: the USB bridge or its link failed {} command(s)",
                d.name,
                failed.len()
            ),
        )
        .explain(
            base.clone()
                + &format!(
                    "The kernel log shows {} line(s) where the USB side failed, not the drive: the \
             host controller or the bridge stopped answering, the device dropped off the bus, \
             or commands came back failed by the adapter before the drive's medium was \
             involved. Errors on the first sectors right after the drive appears are the \
             bridge failing its probe. The usual causes are the bridge chip (some need a \
             quirk or firmware update), a USB cable or hub, and a port or bus-powered \
             enclosure that cannot supply the drive's current.",
                    failed.len()
                ),
        )
        .confidence(Confidence::Medium);
        for e in failed {
            f = f.evidence(e.from.clone(), e.line.clone());
        }
        f = cite_class(f, d);
        // Under uas(4) a bridge that leaves queued commands unanswered (the error handler's
        // aborts and resets) is the failure the kernel's own quirks list answers by keeping
        // the bridge on Bulk-Only Transport (drivers/usb/storage/unusual_uas.h; the
        // usb-storage.quirks parameter's flag "u", IGNORE_UAS, in
        // Documentation/admin-guide/kernel-parameters.txt).
        if drv.as_deref() == Some("uas") && sys.platform == Platform::Linux {
            f.explanation.push_str(
                " The disk runs under uas (USB Attached SCSI): many USB-SATA bridges mishandle \
                 its queued commands and stall until the kernel aborts them and resets the \
                 device. Falling back to Bulk-Only Transport usually ends it.",
            );
            f = f.fix(Fix {
                platform: Platform::Linux,
                summary: "keep this bridge off UAS (usb-storage quirk u)".to_string(),
                steps: vec![
                    "`lsusb` lists the bridge as ID VVVV:PPPP (vendor:product)".to_string(),
                    "Add `usb-storage.quirks=VVVV:PPPP:u` to the kernel command line (or \
                     `options usb-storage quirks=VVVV:PPPP:u` in /etc/modprobe.d/) with that \
                     ID, then reboot or replug the enclosure"
                        .to_string(),
                    "`lsusb -t` then shows Driver=usb-storage for it; if the errors stop, the \
                     bridge's UAS support was the cause"
                        .to_string(),
                ],
                risk: "Bulk-Only Transport queues no commands: random I/O gets slower, \
                       sequential speed stays close"
                    .to_string(),
            });
        }
        if sys.platform != Platform::Unknown {
            f = f.fix(Fix {
                platform: sys.platform,
                summary: "rule out the bridge, cable and power".to_string(),
                steps: vec![
                    "Connect the enclosure directly to the computer with a short cable, no hub"
                        .to_string(),
                    "Give it its own power supply (a powered enclosure or Y-cable) if it is \
                     bus-powered"
                        .to_string(),
                    "Try another enclosure or adapter: if the errors go, the bridge was the \
                     cause"
                        .to_string(),
                ],
                risk: "none".to_string(),
            });
        }
        return f;
    }
    // A link below high speed: a full-speed (12 Mb/s) link moves at most 19 bulk packets of
    // 64 bytes per 1 ms frame (USB 2.0 section 5.8.4, table 5-9), about 1.2 MB/s, whatever
    // the drive or its driver could do; a device that only speaks USB 1.1 or sits behind a
    // USB 1.1 hub or port gets no more.
    let speed = d.controller.value().and_then(|c| c.usb_speed_mbps);
    if let Some(mbps) = speed.filter(|s| *s < 480.0) {
        let name = crate::sources::usb_devices::speed_name(mbps);
        let ceiling = super::effect::usb::bulk_mbps(mbps);
        let f = Finding::new(
            ID,
            &d.name,
            Verdict::Problem,
            Severity::Warning,
            format!(
                "{}: USB storage on a {name} ({mbps} Mb/s) link: about {ceiling:.1} MB/s at most",
                d.name
            ),
        )
        .explain(base + &format!(
            "Its USB link runs at {mbps} Mb/s ({name}), which carries about {ceiling:.1} MB/s of \
             bulk data at best; a high-speed (480 Mb/s) link carries about {:.0} MB/s. Every \
             transfer to this drive is held to that rate, whatever the drive can do. The \
             device reports itself as a USB 1.x device, or it is plugged into a USB 1.1 port, \
             hub or cable; `lsusb -t` shows the speed of each device (\"12M\" here).",
            super::effect::usb::USB2_BULK_MBPS
        ))
        .confidence(Confidence::High)
        .fix(Fix {
            platform: sys.platform,
            summary: "put the drive on a high-speed (USB 2.0) or faster port".to_string(),
            steps: vec![
                "Plug it straight into a USB 2.0 or USB 3 port of the computer, without a hub"
                    .to_string(),
                "`lsusb -t` (or /sys/kernel/debug/usb/devices, Spd=) should then show 480M or \
                 more; if it still shows 12M the device itself only speaks full speed"
                    .to_string(),
            ],
            risk: "none".to_string(),
        });
        let f = cite(f, &d.controller, format!("usb_speed={mbps} Mb/s"));
        return cite_class(f, d);
    }
    // FreeBSD has no UAS driver: umass(4) speaks Bulk-Only Transport to every USB disk, so
    // BOT there is how USB storage works, not a misconfiguration; say what it costs and
    // leave the verdict to measurements (a 400 MB/s USB 3 stick or an empty card reader is
    // healthy).
    if sys.platform == Platform::Freebsd && drv.as_deref().is_none_or(|v| v == "umass") {
        if let Some(mbps) = speed.filter(|s| (480.0..5000.0).contains(s))
            && let Some(named) = usb3_name(d)
        {
            return usb3_at_high_speed(sys, d, &base, mbps, &named);
        }
        let f = common::pass(
            ID,
            d,
            format!(
                "{}: USB drive on umass(4) (Bulk-Only Transport, the only USB storage mode \
                 FreeBSD has)",
                d.name
            ),
        )
        .explain(
            base + "FreeBSD's umass(4) uses Bulk-Only Transport for every USB disk (there \
                    is no UAS driver), so this is not a setting to fix. It carries one command \
                    at a time: USB 3 sequential speed is typically 200-400 MB/s, USB 2 about \
                    30-40 MB/s, and small random I/O is slower than on SATA. For sustained \
                    or random-I/O work, connect the drive by SATA.",
        );
        return cite_class(f, d);
    }
    // UAS on a SuperSpeed link (`lsusb -t` "5000M" or more, the kernel's device list
    // "Spd=5000"): the bridge queues commands and the link carries 500 MB/s or more (USB 3.2
    // section 6.3); nothing about the USB path holds the drive back.
    if drv.as_deref() == Some("uas")
        && sys.platform == Platform::Linux
        && let Some(mbps) = speed.filter(|s| *s >= 5000.0)
    {
        let f = common::pass(
            ID,
            d,
            format!(
                "{}: USB drive on UAS at {mbps} Mb/s ({})",
                d.name,
                crate::sources::usb_devices::speed_name(mbps)
            ),
        )
        .explain(
            base + &format!(
                "It uses UAS (USB Attached SCSI), which queues commands like NCQ, on a \
                 {mbps} Mb/s link: the fast mode on a SuperSpeed port, nothing to change on the \
                 USB side."
            ),
        );
        let f = cite(
            f,
            &d.controller,
            format!("usb_driver=uas, usb_speed={mbps} Mb/s"),
        );
        return cite_class(f, d);
    }
    // A high-speed (480 Mb/s) link: USB 2's bulk ceiling of about 53 MB/s holds whatever the
    // transport (USB 2.0 section 5.8.4, table 5-10). A USB 3 bridge comes up at 480M when its
    // SuperSpeed pairs did not connect (USB 3.2 section 10.1: a SuperSpeed device falls back
    // to its USB 2 interface): a USB 2 cable, hub or port, or a connector not fully seated.
    let high_speed = speed.filter(|s| (480.0..5000.0).contains(s));
    if let (Some(mbps), Some(named)) = (high_speed, usb3_name(d)) {
        return usb3_at_high_speed(sys, d, &base, mbps, &named);
    }
    let held = high_speed.and_then(|_| usb2_bound_rate(sys, d));
    let usb2 = high_speed
        .map(|mbps| {
            format!(
                " Its USB link runs at {mbps} Mb/s (USB 2 high speed), which carries at most \
                 about {:.0} MB/s of bulk data whatever the bridge can do; a USB 3 bridge or \
                 caddy shows 480M when its SuperSpeed wires did not connect (a USB 2 cable, hub \
                 or port, or a connector not fully in). `lsusb -t` shows 5000M or more for the \
                 device once they do.",
                super::effect::usb::USB2_BULK_MBPS
            )
        })
        .unwrap_or_default();
    let (severity, title, expl) = match drv.as_deref() {
        // A disk on a USB 2 link: what USB 2 ports, sticks and enclosures give, worth saying
        // (info); a problem only where something shows the link holding the disk back: a
        // measured rate at its ceiling ([`usb2_bound_rate`]), a device that names itself USB
        // 3 ([`usb3_at_high_speed`]) or speaks UAS, even where the kernel's quirks keep it
        // off UAS (USB Attached SCSI belongs to USB 3 bridges: a UAS bridge at 480M is one
        // whose SuperSpeed pairs did not connect), or the link's errors (above).
        _ if high_speed.is_some() => (
            if held.is_some()
                || drv.as_deref() == Some("uas")
                || d.controller.value().and_then(|c| c.usb_uas_ignored) == Some(true)
                || fixed_disk_on_xhci(d)
            {
                Severity::Notice
            } else {
                Severity::Info
            },
            format!(
                "{}: USB drive on a USB 2 (480 Mb/s) link{}",
                d.name,
                held.map(|r| format!(", measured at {r:.0} MB/s"))
                    .unwrap_or_default()
            ),
            base + &match drv.as_deref() {
                Some("uas") => {
                    "It uses UAS (USB Attached SCSI), which queues commands like NCQ.".to_string()
                }
                Some(v) => format!(
                    "It uses Bulk-Only Transport ({v}), one command at a time, which on USB 2 \
                     leaves about 30-40 MB/s."
                ),
                None => String::new(),
            } + &usb2
                + &(if fixed_disk_on_xhci(d) && held.is_none() {
                    format!(
                        " The kernel attached it as a fixed disk (a bridge in front of a hard \
                         disk or SSD, not a flash stick) on a USB 3 host controller ({}), \
                         yet it came up at high speed: a hard disk reads 80-200 MB/s and an \
                         SSD more, so the USB 2 link, not the drive, sets its speed. Either \
                         the enclosure is a USB 2 one, or its SuperSpeed pairs did not \
                         connect (a USB 2 cable, hub, front-panel or USB 2 port).",
                        d.controller
                            .value()
                            .and_then(|c| c.driver.clone())
                            .unwrap_or_default()
                    )
                } else {
                    String::new()
                })
                + &held
                    .map(|r| {
                        format!(
                            " The {r:.0} MB/s measured on it is at that ceiling: the link, not \
                             the drive, sets its speed."
                        )
                    })
                    .unwrap_or_else(|| {
                        if fixed_disk_on_xhci(d) {
                            String::new()
                        } else {
                            " Nothing pasted shows the link holding it back (no rate at the \
                             USB 2 ceiling, no link errors): a USB 2 stick, card or port gives \
                             no more."
                                .to_string()
                        }
                    }),
        ),
        // Being on USB costs nothing by itself: a drive read through the bridge faster than
        // any USB 2 link carries ([`reads_past_usb2`]) works at its SuperSpeed link's rate,
        // and is said for reading the numbers (info).
        Some("uas") => (
            if reads_past_usb2(sys, d) {
                Severity::Info
            } else {
                Severity::Notice
            },
            format!("{}: USB drive using UAS", d.name),
            base + "It uses UAS (USB Attached SCSI), which queues commands like NCQ: the \
                    fast mode. A USB 3 Gen 1 port carries at most about 400-450 MB/s, USB 2 \
                    about 40 MB/s.",
        ),
        // Bulk-Only Transport is what every USB stick and card reader and many hard-disk
        // enclosures speak (UAS needs a USB 3 bridge that offers it). It is the warning where
        // something shows it costing: a rate of this drive in the paste or the run that is
        // not past what USB 2 carries, or requests of it that failed (the bridge is the first
        // suspect). A rate past USB 2 says the transport holds nothing back (info). An attach
        // alone is a notice: the blind corpus weighs it both ways (healthy sticks and
        // enclosures, batches 33, 35, 41; threads asking why UAS is not used, batches 2, 16,
        // 20, 26), and the notice says what it costs without calling it a fault.
        Some("usb-storage") | Some("umass") => (
            if (measured_on_usb(sys, d) && !reads_past_usb2(sys, d)) || usb_requests_failed(d) {
                Severity::Warning
            } else if measured_on_usb(sys, d) {
                Severity::Info
            } else {
                Severity::Notice
            },
            format!(
                "{}: USB drive using Bulk-Only Transport (no command queueing)",
                d.name
            ),
            base + &format!(
                "It uses the older Bulk-Only Transport ({}): one command at a time with a \
                 status round trip each, so random I/O and small blocks are much slower than \
                 with UAS and sequential speed on USB 3 is often held to roughly 200-300 MB/s \
                 instead of about 400-450 MB/s (USB 2: about 30-40 MB/s either way).{usb2}",
                drv.as_deref().unwrap_or("")
            ),
        ),
        _ => (
            if reads_past_usb2(sys, d) {
                Severity::Info
            } else {
                Severity::Notice
            },
            format!("{}: USB drive", d.name),
            base + "Whether it uses UAS or the slower Bulk-Only Transport is unknown (the \
                    driver bound to the USB interface was not read).",
        ),
    };
    let mut f = Finding::new(ID, &d.name, Verdict::Problem, severity, title)
        .explain(expl)
        .confidence(Confidence::Medium);
    if let Some(v) = &drv {
        f = cite(f, &d.controller, format!("usb_driver={v}"));
    }
    if let Some(mbps) = high_speed {
        f = cite(f, &d.controller, format!("usb_speed={mbps} Mb/s"));
    }
    f = cite_class(f, d);
    if high_speed.is_some() && severity > Severity::Info && sys.platform != Platform::Unknown {
        f = f.fix(Fix {
            platform: sys.platform,
            summary: "get the drive onto a SuperSpeed (USB 3) link".to_string(),
            steps: vec![
                "Use the short USB 3 cable that came with the enclosure, straight into a USB 3 \
                 port of the computer (no hub, no front-panel extension)"
                    .to_string(),
                "Check the speed again (`lsusb -t` on Linux, `usbconfig` on FreeBSD): 5000M or \
                 more means the SuperSpeed pairs connected"
                    .to_string(),
            ],
            risk: "none".to_string(),
        });
    }
    if severity == Severity::Warning {
        match sys.platform {
            Platform::Linux => {
                f = f.fix(Fix {
                    platform: Platform::Linux,
                    summary: UAS_FIX.to_string(),
                    steps: vec![
                        "`lsusb -t` shows Driver=uas or Driver=usb-storage per device".to_string(),
                        "`dmesg | grep -i uas`: \"UAS is ignored for this device\" means the \
                         kernel blacklisted the bridge for bugs; keep it that way"
                            .to_string(),
                        "Otherwise move the drive to an enclosure whose bridge supports UAS, on \
                         a USB 3 port"
                            .to_string(),
                    ],
                    risk: "none; do not force UAS on a blacklisted bridge (it causes resets and \
                           hangs)"
                        .to_string(),
                });
            }
            Platform::Freebsd => {
                f = f.fix(Fix {
                    platform: Platform::Freebsd,
                    summary: "attach the drive by SATA for full speed".to_string(),
                    steps: vec![
                        "umass(4) speaks Bulk-Only Transport; for sustained or random-I/O work \
                         connect the drive to a SATA port"
                            .to_string(),
                    ],
                    risk: "none".to_string(),
                });
            }
            Platform::Unknown => {}
        }
    }
    f
}

/// A fixed disk (sd's "Attached SCSI disk": a bridge in front of a hard disk or SSD, the
/// INQUIRY's RMB bit clear, Controller::usb_removable false) enumerated by an xHCI host
/// controller (hub.c's "... USB device number N using xhci_hcd", Controller::driver): the
/// host speaks SuperSpeed, so a high-speed link there is the enclosure's or the cable's
/// USB 2 (USB 3.2 section 10.1: a SuperSpeed device falls back to its USB 2 interface),
/// and a drive that reads 80 MB/s or more is held to USB 2's 30-40 MB/s. A flash stick
/// or card reader (removable) may be slower than USB 2 on its own and stays information;
/// an EHCI/OHCI host (a USB 2 computer or router) offers nothing faster.
fn fixed_disk_on_xhci(d: &DiskFacts) -> bool {
    d.controller.value().is_some_and(|c| {
        c.usb_removable == Some(false)
            && c.driver.as_deref().is_some_and(|h| {
                let h = h.to_ascii_lowercase();
                h.starts_with("xhci")
            })
    })
}

/// The Windows drive a path lies on under WSL, when it does: WSL mounts each Windows drive
/// letter at /mnt/<letter> (the default `root = /mnt/` of wsl.conf's [automount]; Microsoft
/// Learn, "Advanced settings configuration in WSL") through its drvfs file system, which
/// WSL 2 serves from the Windows side over the 9P protocol into its utility VM. Returns
/// "/mnt/e" of "/mnt/e/test.df".
pub(crate) fn wsl_windows_drive(path: &str) -> Option<&str> {
    let rest = path.trim().strip_prefix("/mnt/")?;
    let mut chars = rest.chars();
    let letter = chars.next()?;
    let after = chars.as_str();
    (letter.is_ascii_lowercase() && (after.is_empty() || after.starts_with('/')))
        .then(|| path.trim().get(..6))
        .flatten()
}

/// Timed runs (dd, cp, fio) that read or wrote a Windows drive from inside WSL
/// ([`wsl_windows_drive`]): every request crosses from the Linux VM to Windows through the
/// drvfs/9P file share, so the figure measures the share, not a disk. Microsoft's WSL
/// documentation ("Comparing WSL versions": performance across OS file systems) says files
/// of the Windows file system are much slower to reach from WSL 2 than files inside its own
/// ext4 disk, and advises keeping project files in the Linux file system. Notice: the
/// share, not a drive, sets the speed.
fn windows_share_runs(sys: &SystemFacts) -> Vec<Finding> {
    let mut drives: Vec<(&str, Vec<&crate::model::UserBenchmark>)> = Vec::new();
    for b in &sys.user_benchmarks {
        let Some(drive) = [b.output.as_deref(), b.input.as_deref()]
            .into_iter()
            .flatten()
            .find_map(wsl_windows_drive)
        else {
            continue;
        };
        match drives.iter_mut().find(|(d, _)| *d == drive) {
            Some((_, runs)) => runs.push(b),
            None => drives.push((drive, vec![b])),
        }
    }
    drives
        .into_iter()
        .map(|(drive, runs)| {
            let mut f = Finding::new(
                ID,
                drive,
                Verdict::Problem,
                Severity::Notice,
                format!(
                    "{drive}: a Windows drive shared into WSL: the run measures the file share"
                ),
            )
            .explain(format!(
                "{drive} is where WSL mounts a Windows drive (drvfs): the {} timed run(s) on it \
                 went through WSL's file share to Windows, which WSL 2 serves over the 9P \
                 protocol from outside its Linux VM. Each request crosses that boundary, so \
                 WSL 2 reaches Windows files far more slowly than WSL 1 or than its own ext4 \
                 disk, whatever the drive under them can do. Does not apply here: {HW_CHECKS}.",
                runs.len()
            ))
            .confidence(Confidence::Medium);
            for r in runs.iter().take(3) {
                f = f.evidence(
                    r.from.clone(),
                    r.command.clone().unwrap_or_else(|| drive.to_string()),
                );
            }
            f.fix(Fix {
                platform: Platform::Linux,
                summary: "keep the files in WSL's own Linux file system".to_string(),
                steps: vec![
                    "Put the files the work needs under the Linux home directory (~/), on \
                     WSL 2's ext4 disk, and measure there"
                        .to_string(),
                    "Where the files must stay on the Windows drive, WSL 1 reaches them \
                     without the VM boundary (`wsl --set-version <distro> 1`)"
                        .to_string(),
                ],
                risk: "none".to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
