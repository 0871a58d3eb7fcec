//! `controller-legacy-mode`: a SATA drive driven through a controller in legacy IDE mode or
//! by a legacy IDE driver. References: PCI Code and Assignment spec (class 01h subclass 01h =
//! IDE, 06h/01h = AHCI 1.0), AHCI 1.3.1 section 1, Linux drivers/ata (ata_piix, pata_*,
//! ahci), FreeBSD ata(4) and ahci(4).

use crate::checks::common::{
    self, Media, Source, cite, how_to_know, is_freebsd_legacy_ad, is_sata_drive, media,
};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{Controller, ControllerMode, DiskFacts, SystemFacts};
use crate::sources::{ask, ask_bare, spec::Ask};

pub const ID: &str = "controller-legacy-mode";

pub(crate) struct ControllerLegacyMode;

impl Check for ControllerLegacyMode {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "Controller"
    }
    fn summary(&self) -> &'static str {
        "SATA drive behind a controller in legacy IDE mode or a legacy IDE driver (no NCQ)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        common::disks(sys).map(|d| check_disk(sys, d)).collect()
    }
}

/// NVMe drives Intel RST remapping hides behind the AHCI controller (common::is_rst_hidden):
/// the firmware's SATA mode is RAID, Linux has no driver for the remapped drives
/// (drivers/ata/ahci.c ahci_remap_check only counts them and says to switch to AHCI), so
/// they get no device node and no installer or tool sees them.
fn rst_hidden(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    let c = d.controller.value().map(describe).unwrap_or_default();
    let said = d
        .controller
        .value()
        .and_then(|x| x.description.clone())
        .unwrap_or_default();
    let f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Warning,
        "NVMe drive hidden: the firmware's SATA mode is RAID (Intel RST)".to_string(),
    )
    .explain(format!(
        "{said}. With the SATA mode set to RAID (Intel RST, \"RST Premium\", Optane), the \
         chipset remaps the NVMe drive behind the AHCI controller, where Linux's NVMe driver \
         cannot reach it: it gets no /dev/nvme node, so installers and tools do not see it \
         at all. The ahci driver only counts it and asks for AHCI mode."
    ))
    .confidence(Confidence::High)
    .impact(1.0);
    cite(f, &d.controller, c).fix(Fix {
        platform: sys.platform,
        summary: "set the firmware's SATA mode to AHCI".into(),
        steps: vec![
            "Firmware setup (F2/Del at power-on): Storage or SATA Operation -> AHCI (not \
             \"RAID On\" or \"Intel RST\"); turn off VMD or Optane if listed"
                .into(),
            "Check: `ls /dev/nvme*` and `lsblk` list the drive after the reboot".into(),
        ],
        risk: "an installed Windows may not boot after the switch: first set it to boot \
               into Safe Mode once (`bcdedit /set {current} safeboot minimal`), switch, boot, \
               then `bcdedit /deletevalue {current} safeboot`; an RST RAID volume is lost"
            .into(),
    })
}

/// Whether a word in a controller description marks IDE emulation ("IDE", "UDMA100").
fn description_is_legacy(desc: &str) -> bool {
    let up = desc.to_ascii_uppercase();
    if up.contains("AHCI") {
        return false;
    }
    up.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w == "IDE" || w == "PATA" || w.starts_with("UDMA"))
}

fn driver_is_legacy(driver: &str) -> bool {
    let d = driver.to_ascii_lowercase();
    // Linux libata SFF drivers; FreeBSD's ata(4) bus ("ata", "ata2") and atapci(4).
    d == "ata_piix"
        || d == "ata_generic"
        || d.starts_with("pata_")
        || d.starts_with("atapci")
        || d.strip_prefix("ata")
            .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()))
}

/// The reasons this controller/driver is legacy IDE, each worded for the explanation.
fn legacy_signs(c: &Controller, disk_name: &str) -> Vec<String> {
    let mut v = Vec::new();
    // The AHCI driver bound to the function drives it as AHCI, NCQ included, whatever class
    // code the firmware left on it: FreeBSD's ahci(4) takes AMD/ATI SB600-Hudson functions
    // "in IDE mode" that have an AHCI BAR (ahci_pci.c ahci_ata_probe), and pciconf then
    // shows "ahci0@pci0:0:17:0: class=0x01018f" beside "[IDE mode]".
    if c.driver
        .as_deref()
        .is_some_and(|d| d.eq_ignore_ascii_case("ahci"))
    {
        return v;
    }
    if c.mode == Some(ControllerMode::LegacyIde) {
        v.push("the controller runs in legacy IDE mode".to_string());
    }
    if let Some(drv) = c.driver.as_deref().filter(|d| driver_is_legacy(d)) {
        v.push(format!("the kernel drives it with the IDE driver {drv}"));
    }
    if let Some(cls) = c.pci_class.filter(|cls| cls >> 8 == 0x0101) {
        v.push(format!("its PCI class is 0x{cls:06x} (IDE interface)"));
    }
    if let Some(desc) = c
        .description
        .as_deref()
        .filter(|d| description_is_legacy(d))
    {
        v.push(format!("it describes itself as \"{desc}\""));
    }
    if c.sata_status_hidden == Some(true) {
        v.push(
            "the SATA channel shows no SATA status (the boot log's \"(SATA, UDMA5, ...)\" \
             carries no SATA revision), which an IDE-emulating SATA function hides"
                .to_string(),
        );
    }
    if is_freebsd_legacy_ad(disk_name) {
        v.push(format!(
            "the disk is named {disk_name}, a name only the old ata(4) driver gives (CAM's \
             ahci(4) names disks ada0, ada1, ...)"
        ));
    }
    v
}

/// Whether the only thing known of the controller is FreeBSD's ata(4) channel the disk
/// attached to ("ada0 at ata4 bus 0 scbus2 target 0 lun 0", cam_periph's announce line):
/// no atapci line, PCI class or description, and a CAM name (adaN, not the ata(4)-only
/// adN). ata(4) serves IDE-mode controllers and native SATA chips without AHCI alike
/// (sys/dev/ata/chipsets: ata-siliconimage.c, ata-promise.c, ata-via.c, ata-nvidia.c), so
/// the channel alone cannot say there is an IDE mode to leave.
fn only_ata_channel(c: &Controller, disk_name: &str) -> bool {
    let channel = c.driver.as_deref().is_some_and(|d| {
        d.strip_prefix("ata")
            .is_some_and(|rest| rest.chars().all(|ch| ch.is_ascii_digit()))
    });
    // A channel without SATA status registers is the IDE emulation itself (ata(4) reads
    // SStatus on native SATA chips: sys/dev/ata/ata-sata.c ata_sata_phy_check).
    channel
        && c.sata_status_hidden != Some(true)
        && c.description.is_none()
        && c.chipset.is_none()
        && c.pci_class.is_none()
        && !is_freebsd_legacy_ad(disk_name)
}

/// Whether the disk hangs off a legacy IDE controller or driver (used by `ncq-unavailable`).
pub(crate) fn is_legacy(d: &DiskFacts) -> bool {
    d.controller
        .value()
        .is_some_and(|c| !legacy_signs(c, &d.name).is_empty())
}

/// What a SATA controller family can do besides IDE emulation, for the fix: a small table
/// in the spirit of smartmontools' drive database, each row with where it is documented.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AhciMode {
    /// No AHCI mode exists: IDE (native or compatibility PCI mode) is all it has.
    None,
    /// Only some variants of the family have it, and the IDE-mode description cannot tell
    /// which one this is.
    SomeVariants(&'static str),
}

pub(crate) struct ControllerRow {
    /// Upper-case tokens that must all appear in the controller's description.
    pub tokens: &'static [&'static str],
    pub family: &'static str,
    pub ahci: AhciMode,
    pub source: &'static str,
}

pub(crate) const CONTROLLERS: &[ControllerRow] = &[
    ControllerRow {
        tokens: &["NFORCE", "CK804"],
        family: "nVidia nForce4 CK804",
        ahci: AhciMode::None,
        source: "Linux drivers/ata/sata_nv.c drives CK804 through its own nv_ck804/ADMA ops \
                 (ahci.c's nVidia ids begin with MCP65); FreeBSD ata-nvidia.c lists the CK804 \
                 SATA300 without the NVAHCI flag",
    },
    ControllerRow {
        tokens: &["NFORCE", "MCP04"],
        family: "nVidia nForce MCP04",
        ahci: AhciMode::None,
        source: "Linux drivers/ata/sata_nv.c (CK804 ops); FreeBSD ata-nvidia.c, no NVAHCI flag",
    },
    ControllerRow {
        tokens: &["NFORCE", "MCP51"],
        family: "nVidia nForce MCP51",
        ahci: AhciMode::None,
        source: "Linux drivers/ata/sata_nv.c (generic/SWNCQ ops, no AHCI id in ahci.c); FreeBSD \
                 ata-nvidia.c lists the MCP51 SATA300 without the NVAHCI flag",
    },
    ControllerRow {
        tokens: &["NFORCE", "MCP55"],
        family: "nVidia nForce MCP55",
        ahci: AhciMode::None,
        source: "Linux drivers/ata/sata_nv.c (SWNCQ; ahci.c's nVidia ids begin with MCP65); \
                 FreeBSD ata-nvidia.c, no NVAHCI flag",
    },
    ControllerRow {
        tokens: &["ICH5"],
        family: "Intel ICH5/ICH5R (82801EB/ER)",
        ahci: AhciMode::None,
        source: "Intel 82801EB/ER (ICH5/ICH5R) datasheet: the SATA controller is IDE-only \
                 (AHCI first appears in ICH6R/ICH6-M); Linux handles it in ata_piix only",
    },
    ControllerRow {
        tokens: &["ICH6"],
        family: "Intel ICH6",
        ahci: AhciMode::SomeVariants(
            "only ICH6R and ICH6-M have an AHCI mode; the plain ICH6 \
                                     has none",
        ),
        source: "Intel I/O Controller Hub 6 (ICH6) Family datasheet, SATA section; Linux \
                 ahci.c lists ICH6 AHCI ids 0x2652/0x2653 only",
    },
    ControllerRow {
        tokens: &["ICH7"],
        family: "Intel ICH7",
        ahci: AhciMode::SomeVariants(
            "only ICH7R, ICH7DH and ICH7-M have an AHCI mode; the \
                                     plain ICH7 has none",
        ),
        source: "Intel I/O Controller Hub 7 (ICH7) Family datasheet, SATA section; Linux \
                 ahci.c lists ICH7 AHCI ids 0x27c1/0x27c5/0x27c3 only, all ICH7 variants \
                 share the IDE-mode id 0x27c0",
    },
];

/// The table row of the controller, from its description's words.
pub(crate) fn controller_row(c: &Controller) -> Option<&'static ControllerRow> {
    let desc = c
        .description
        .as_deref()
        .or(c.chipset.as_deref())?
        .to_ascii_uppercase();
    let words: Vec<&str> = desc
        .split(|ch: char| !ch.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    CONTROLLERS
        .iter()
        .find(|r| r.tokens.iter().all(|t| words.contains(t)))
}

/// Whether the hardware itself is in AHCI mode (then only the OS driver is legacy).
fn hardware_is_ahci(c: &Controller) -> bool {
    c.mode == Some(ControllerMode::Ahci)
        || c.pci_class == Some(0x010601)
        || c.description
            .as_deref()
            .is_some_and(|d| d.to_ascii_uppercase().contains("AHCI"))
}

fn driver_is_ahci(c: &Controller) -> bool {
    c.driver
        .as_deref()
        .is_some_and(|d| d.to_ascii_lowercase().starts_with("ahci"))
}

fn describe(c: &Controller) -> String {
    let mut parts = Vec::new();
    if let Some(m) = c.mode {
        parts.push(format!("mode={m:?}"));
    }
    if let Some(d) = &c.driver {
        parts.push(format!("driver={d}"));
    }
    if let Some(cls) = c.pci_class {
        parts.push(format!("pci_class=0x{cls:06x}"));
    }
    if let Some(a) = &c.address {
        parts.push(format!("address={a}"));
    }
    if let Some(d) = &c.description {
        parts.push(format!("description={d}"));
    }
    if let Some(chip) = &c.chipset {
        parts.push(format!("chipset={chip}"));
    }
    parts.join(", ")
}

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    if common::is_rst_hidden(d) {
        return rst_hidden(sys, d);
    }
    if let Some(reason) = common::sata_not_applicable(d) {
        return common::not_applicable(ID, d, &reason);
    }
    if let Some(dma) = d.ide_dma.value().filter(|x| !x.on) {
        // The driver itself drops a drive to PIO after its DMA transfers fail (ide-dma.c,
        // ide-iops.c pre_reset: "hdc: DMA disabled" before the channel reset): DMA is off
        // because the transfer path fails, which link-errors reports; switching it back on
        // brings the timeouts back.
        if d.kernel_events.iter().any(|e| {
            e.kind == crate::facts::KernelEventKind::TransportError
                && crate::sources::kernel_log::is_ide_dma_failure(&e.line)
        }) {
            return common::not_applicable(
                ID,
                d,
                "the IDE driver switched DMA off itself after failed DMA transfers: \
                 link-errors reports them",
            );
        }
        return dma_off(sys, d, dma);
    }
    let Some(c) = d.controller.value() else {
        return common::unknown(
            ID,
            d,
            format!("controller mode of {} unknown", d.name),
            "Which controller and driver serve this disk",
            &common::why(&d.controller),
            &how_to_know(sys.platform, Source::Controller, d),
        );
    };
    let signs = legacy_signs(c, &d.name);
    // The channel alone is no fault; command timeouts on it are a symptom the legacy
    // channel explains (legacy_channel_timeouts below), so those still go on.
    if !signs.is_empty() && only_ata_channel(c, &d.name) && legacy_timeouts(d).is_empty() {
        return cite(
            common::unknown(
                ID,
                d,
                format!("{}: on an ata(4) channel, controller not shown", d.name),
                &format!(
                    "The disk hangs off an ata(4) channel ({}), so it gets no NCQ; but ata(4) \
                     drives native non-AHCI SATA chips (Silicon Image, Promise, VIA, nVidia) \
                     as well as controllers left in IDE mode, and only the latter have an \
                     AHCI mode to switch to. Which controller this is",
                    describe(c)
                ),
                "the paste has no atapci line naming the controller",
                &how_to_know(sys.platform, Source::Controller, d),
            ),
            &d.controller,
            describe(c),
        );
    }
    // An IDE controller the hypervisor emulates (QEMU's PIIX3/PIIX4 IDE, hw/ide/piix.c;
    // VirtualBox's and Veertu's PIIX3) has no AHCI mode behind it to switch to in a firmware
    // setup: what to change is the VM's disk controller, on the host.
    // virtual-or-bridged-device reports it (emulated_legacy there) instead.
    if !signs.is_empty() && common::is_virtual_disk(d) {
        return common::not_applicable(
            ID,
            d,
            "an IDE controller emulated by the hypervisor, not a SATA controller's setting; \
             see virtual-or-bridged-device for what to change on the host",
        );
    }
    if signs.is_empty() {
        let title = if hardware_is_ahci(c) || driver_is_ahci(c) {
            "AHCI, native mode: good".to_string()
        } else {
            match c.mode {
                Some(ControllerMode::SasHba) => {
                    "SAS HBA driving the drive natively: good".to_string()
                }
                Some(ControllerMode::Raid) => {
                    "RAID HBA passing the drive through natively: good".to_string()
                }
                _ => {
                    return cite(
                        common::unknown(
                            ID,
                            d,
                            format!("controller mode of {} not recognised", d.name),
                            &format!(
                                "Whether the controller ({}) runs in AHCI or IDE mode",
                                describe(c)
                            ),
                            "none of its driver, PCI class or description says AHCI or IDE",
                            &how_to_know(sys.platform, Source::Controller, d),
                        ),
                        &d.controller,
                        describe(c),
                    );
                }
            }
        };
        return cite(
            common::pass(ID, d, title).explain(format!(
                "The controller ({}) gives the drive native command queueing and hot-plug; \
                 nothing to change.",
                describe(c)
            )),
            &d.controller,
            describe(c),
        );
    }
    if let Some(cap) = dma_cap(c) {
        return dma_capped(sys, d, c, &signs, cap);
    }
    match is_sata_drive(d) {
        Some(false) => {
            return cite(
                common::pass(
                    ID,
                    d,
                    "parallel ATA drive on an IDE controller: its native mode",
                )
                .explain(format!(
                    "{}; this drive is not a SATA drive, so IDE mode is what it speaks and \
                         there is no AHCI mode to switch to.",
                    signs.join("; ")
                )),
                &d.controller,
                describe(c),
            );
        }
        None if !legacy_timeouts(d).is_empty() => {
            return legacy_channel_timeouts(sys, d, c, &signs);
        }
        None => {
            return cite(
                common::unknown(
                    ID,
                    d,
                    format!("{}: IDE-mode controller, drive interface unknown", d.name),
                    &format!(
                        "The controller looks legacy ({}), but whether the drive is SATA (and \
                         would gain from AHCI)",
                        signs.join("; ")
                    ),
                    &common::why(&d.transport),
                    &how_to_know(sys.platform, Source::Identify, d),
                ),
                &d.controller,
                describe(c),
            );
        }
        Some(true) => {}
    }

    let hw_ahci = hardware_is_ahci(c);
    let row = controller_row(c);
    if let Some(r) = row.filter(|r| r.ahci == AhciMode::None && !hw_ahci) {
        // IDE is all this controller has: nothing to switch, so not a misconfiguration.
        return cite(
            common::pass(
                ID,
                d,
                format!(
                    "{}: the {} SATA controller has no AHCI mode; IDE mode is all it offers",
                    d.name, r.family
                ),
            )
            .explain(format!(
                "{}. The {} has no AHCI mode ({}), so there is no firmware setting to change: \
                 the drive runs one command at a time (no NCQ) on this controller whatever \
                 the setup says. Its native-versus-compatibility PCI IDE setting changes how \
                 interrupts are routed, not the speed. A PCIe AHCI card (for example one with \
                 an ASMedia ASM1061 or JMicron JMB58x) or a newer board gives the drive NCQ.",
                capitalise(&signs.join("; ")),
                r.family,
                r.source
            )),
            &d.controller,
            describe(c),
        );
    }
    let is_ssd = media(d) == Some(Media::Ssd);
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Warning,
        if hw_ahci {
            format!(
                "{}: SATA drive on the legacy IDE driver instead of AHCI",
                d.name
            )
        } else {
            format!("{}: SATA drive on a controller in legacy IDE mode", d.name)
        },
    )
    .explain(explanation(d, &signs, is_ssd, hw_ahci))
    .confidence(Confidence::Medium)
    .impact(if is_ssd { 0.5 } else { 0.2 });
    f = cite(f, &d.controller, describe(c));
    f = cite(
        f,
        &d.transport,
        format!(
            "transport={:?}",
            d.transport
                .get()
                .unwrap_or(crate::facts::Transport::Unknown)
        ),
    );
    if let Some(true) = d.ncq_supported.get() {
        f = cite(f, &d.ncq_supported, "NCQ supported=yes");
    }
    for mut fix in fixes(
        sys.platform,
        d,
        hw_ahci,
        sys.os_release.value().map(String::as_str),
    ) {
        if let Some(AhciMode::SomeVariants(which)) = row.map(|r| r.ahci) {
            // Offer the firmware switch only conditionally (a fix only where it
            // exists for that hardware).
            for st in &mut fix.steps {
                if st.starts_with("Reboot into the firmware setup") {
                    *st = format!(
                        "If the firmware setup offers AHCI ({which}): {}",
                        st.trim_start_matches("Reboot into the firmware setup and ")
                    );
                }
            }
        }
        f = f.fix(fix);
    }
    f
}

/// The fastest mode a controller description names when it is a multiword-DMA or PIO one:
/// ata(4) describes a PCI ATA function as "<vendor> <chip> <max DMA mode> controller"
/// (ata-pci.c ata_set_desc(), ata_mode2str()), so "WDMA2" there is the driver's ceiling for
/// every disk on it. The rates are the ATA modes' (ATA/ATAPI-6 tables: WDMA2 16.7 MB/s,
/// PIO4 16.7 MB/s), a tenth of a SATA 1.5 Gb/s link.
/// The command timeouts of a CAM `adaN` disk (FreeBSD 9 and later, where ahci(4) is in
/// GENERIC) on a legacy-mode channel with no sign of a bad medium (no medium-error line, no
/// SMART data that could show pending sectors): the channel's, as far as the paste tells.
/// The old ad(4) disks of FreeBSD 8 and earlier sat on ata(4) whatever the controller, often
/// on a parallel-ATA channel, so their timeouts say nothing about the controller mode.
pub(crate) fn legacy_timeouts(d: &DiskFacts) -> Vec<&crate::facts::KernelEvent> {
    use crate::facts::KernelEventKind as K;
    let cam_ada = d
        .name
        .strip_prefix("ada")
        .is_some_and(|u| !u.is_empty() && u.chars().all(|c| c.is_ascii_digit()));
    let on_legacy = cam_ada
        && d.controller
            .value()
            .is_some_and(|c| !legacy_signs(c, &d.name).is_empty());
    let medium = d
        .kernel_events
        .iter()
        .any(|e| matches!(e.kind, K::MediumError | K::DeviceError));
    if !on_legacy || medium || d.smart.is_known() {
        return Vec::new();
    }
    d.kernel_events
        .iter()
        .filter(|e| e.kind == K::IoTimeout)
        .collect()
}

/// Command timeouts on a disk served by a legacy-mode (IDE emulation) channel whose drive
/// interface the paste does not give: on FreeBSD an `adaN` on an ata(4) channel SIM
/// ("(ada3:ata2:0:1:0)": ahci(4) channels are ahcichN, sys/dev/ahci/ahci.c) runs non-NCQ
/// READ_DMA/WRITE_DMA through the controller's IDE emulation, whose timeouts the fix of
/// the controller mode (AHCI in the firmware setup) removes when the drive is SATA.
fn legacy_channel_timeouts(
    sys: &SystemFacts,
    d: &DiskFacts,
    c: &Controller,
    signs: &[String],
) -> Finding {
    let events = legacy_timeouts(d);
    let n = events.len();
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        Severity::Notice,
        format!(
            "{}: {n} command timeout line(s) on a legacy-mode (IDE) channel",
            d.name
        ),
    )
    .explain(format!(
        "{}. The disk's commands time out on a channel driven in IDE (legacy) mode, and nothing in the paste points at the medium (no medium error, no SMART data). A SATA port left in IDE emulation is a known source of such timeouts (and of no NCQ); if the drive is SATA and the controller has an AHCI mode, switching the port to AHCI in the firmware setup is the fix, and other disks on AHCI ports of the same machine show that it exists. Check the drive's SMART data before blaming the controller alone.",
        capitalise(&signs.join("; "))
    ))
    .confidence(Confidence::Low);
    for e in events.iter().take(3) {
        f = f.evidence(e.from.clone(), e.line.clone());
    }
    let f = cite(f, &d.controller, describe(c));
    let mut f = f;
    for x in fixes(
        sys.platform,
        d,
        hardware_is_ahci(c),
        sys.os_release.value().map(String::as_str),
    ) {
        f = f.fix(x);
    }
    f
}

fn dma_cap(c: &Controller) -> Option<(String, f64)> {
    let desc = c.description.as_deref()?;
    let body = desc.trim().strip_suffix("controller")?.trim_end();
    let mode = body.rsplit(' ').next()?;
    let rate = match mode {
        "WDMA0" => 4.2,
        "WDMA1" => 13.3,
        "WDMA2" => 16.7,
        "PIO0" => 3.3,
        "PIO1" => 5.2,
        "PIO2" => 8.3,
        "PIO3" => 11.1,
        "PIO4" => 16.7,
        _ => return None,
    };
    Some((mode.to_string(), rate))
}

/// A disk on a controller ata(4) runs in a pre-UDMA mode. For SiS, ata-sis.c
/// ata_sis_probe() knows chipsets by the PCI ids in its table; one missing from it matches
/// only the last row, the original SiS 5513 (1996), whose ceiling is WDMA2, and is
/// described as "SiS 5513 WDMA2 controller" whatever it really is. Nothing in ata(4) lifts
/// that ceiling (ata_sis_setmode() clamps every mode to it), so the fix is another driver
/// (ahci(4), whose ahci_pci.c knows the SiS 966/968 AHCI functions) or another controller.
fn dma_capped(
    sys: &SystemFacts,
    d: &DiskFacts,
    c: &Controller,
    signs: &[String],
    (mode, rate): (String, f64),
) -> Finding {
    let name = &d.name;
    let desc = c.description.clone().unwrap_or_default();
    let sis_fallback = desc.starts_with("SiS 5513");
    let mut expl = format!(
        "{}. The driver runs this controller, and so {name}, in {mode}: at most {rate:.1} \
         MB/s, the speed of mid-1990s IDE disks. Every drive made since 1998 does UDMA \
         (33-133 MB/s on parallel ATA) and a SATA drive 150-600 MB/s, so whatever {name} \
         can do, reads and writes stop near {rate:.0} MB/s and the CPU is busier. ",
        capitalise(&signs.join("; "))
    );
    if sis_fallback {
        expl.push_str(
            "\"SiS 5513 WDMA2\" is what FreeBSD's ata(4) calls a SiS chipset it does not \
             know: ata-sis.c matches SiS chips by the PCI ids in its table, and one missing \
             from it falls through to the table's last row, the original SiS 5513 of 1996, \
             whose ceiling is WDMA2. The real chipset is newer and faster. ",
        );
    }
    if media(d) == Some(Media::Ssd) {
        expl.push_str("For an SSD this wastes nearly all of its speed. ");
    }
    let mut f = Finding::new(
        ID,
        name,
        Verdict::Problem,
        Severity::Warning,
        format!("{name}: the controller runs at {mode}, at most {rate:.1} MB/s"),
    )
    .explain(expl.trim_end().to_string())
    .confidence(if sis_fallback {
        Confidence::High
    } else {
        Confidence::Medium
    })
    .impact(0.8);
    f = cite(f, &d.controller, describe(c));
    f.fix(dma_fix(
        sys.platform,
        d,
        sys.os_release.value().map(String::as_str),
    ))
}

/// The old Linux IDE driver moves the disk's data by programmed I/O: `hdparm` read
/// `using_dma = 0` back (HDIO_GET_DMA). PIO mode 4, the fastest, is 16.7 MB/s (ATA/ATAPI-7
/// table "PIO data transfer timing", 120 ns cycle x 2 bytes); every drive since 1998 does
/// Ultra DMA (33-133 MB/s) and a SATA drive 150-600 MB/s.
fn dma_off(sys: &SystemFacts, d: &DiskFacts, dma: &crate::facts::IdeDma) -> Finding {
    if sys.platform == Platform::Freebsd {
        return freebsd_pio(sys, d);
    }
    let name = &d.name;
    let mut expl = format!(
        "hdparm reads using_dma = 0 for {name}: the IDE driver moves every byte with the CPU \
         (programmed I/O) instead of letting the controller do it by DMA. PIO mode 4, the \
         fastest, carries at most 16.7 MB/s and keeps the CPU busy for every sector; the \
         drive itself can do Ultra DMA (33-133 MB/s on parallel ATA, 150-600 MB/s on a SATA \
         link), so reads and writes stop at a few MB/s to 16 MB/s whatever the drive is. "
    );
    let refused = dma.set_error.as_deref();
    if let Some(err) = refused {
        expl.push_str(&format!(
            "Switching DMA on was refused (HDIO_SET_DMA failed: {err}): the IDE chipset driver \
             does not allow DMA here. That happens when the kernel's IDE driver does not know \
             the chipset (a controller newer than the kernel, handled by the generic IDE \
             driver, which has no DMA) or when the chipset driver was not loaded. "
        ));
    }
    if is_sata_drive(d) == Some(true) {
        expl.push_str(
            "This is a SATA drive: on the libata drivers (ahci, or ata_piix in IDE mode) it \
             would be an sdX disk with DMA and, in AHCI mode, NCQ.",
        );
    }
    let mut f = Finding::new(
        ID,
        name,
        Verdict::Problem,
        Severity::Warning,
        format!("{name}: DMA is off; the IDE driver moves data by PIO (at most 16.7 MB/s)"),
    )
    .explain(expl.trim_end().to_string())
    .confidence(Confidence::High)
    .impact(0.8);
    f = cite(
        f,
        &d.ide_dma,
        match refused {
            Some(err) => format!("using_dma=0, HDIO_SET_DMA failed: {err}"),
            None => "using_dma=0".to_string(),
        },
    );
    let check = crate::sources::hdparm::dma_on_command(name);
    if refused.is_none() {
        f = f.fix(Fix {
            platform: sys.platform,
            summary: "switch DMA on".to_string(),
            steps: vec![
                format!("`sudo {check}`, then `sudo hdparm -t /dev/{name}` to compare"),
                format!(
                    "Keep it across reboots: a `/dev/{name} {{ dma = on }}` stanza in \
                     /etc/hdparm.conf (Debian/Ubuntu), or the same hdparm command at boot"
                ),
            ],
            risk: "on a chipset whose DMA the driver mishandles, DMA can hang the disk; \
                   `hdparm -d0` switches it back off"
                .to_string(),
        });
    }
    f.fix(Fix {
        platform: sys.platform,
        summary: "move the disk to the libata drivers (AHCI mode where the controller has it)"
            .to_string(),
        steps: vec![
            "Boot a kernel that drives the controller with libata: ahci for a SATA controller \
             in AHCI mode, ata_piix or a pata_* driver in IDE mode (the old IDE driver, with \
             its hdX names, was removed in Linux 5.14); the disk then appears as sdX"
                .to_string(),
            "If the firmware setup offers it, set the SATA mode to AHCI (after putting the \
             ahci driver into the initramfs), and refer to filesystems by UUID in /etc/fstab"
                .to_string(),
            format!(
                "Check: `hdparm -I` on the disk's new sdX name marks a UDMA mode with `*`, and \
                 `hdparm -t` reads far above what it read as {name}"
            ),
        ],
        risk: "the disk's name changes from hdX to sdX: an /etc/fstab or boot loader that \
               names /dev/hdX stops booting until it names the UUID"
            .to_string(),
    })
}

/// FreeBSD's ata(4) moves an ATA disk's data by PIO on a controller that does Ultra DMA
/// (facts::freebsd::controller::pio_transfers): CAM's attach line names the PIO mode. PIO
/// mode 4 carries at most 16.7 MB/s (ATA/ATAPI-7, "PIO data transfer timing"); the loader
/// tunable hw.ata.ata_dma=0, which the boot menu's Safe Mode sets, or a hint.ata.N.mode
/// cap is what keeps a DMA-capable disk there.
fn freebsd_pio(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    let name = &d.name;
    let ctrl = d
        .controller
        .value()
        .map(describe)
        .unwrap_or_else(|| "its controller".to_string());
    let mut f = Finding::new(
        ID,
        name,
        Verdict::Problem,
        Severity::Warning,
        format!("{name}: DMA is off; ata(4) moves its data by PIO (at most 16.7 MB/s)"),
    )
    .explain(format!(
        "The kernel set {name} up for a PIO (programmed I/O) transfer mode although the \
         controller ({ctrl}) does Ultra DMA and the drive, of ATA/ATAPI-5 or later, does too: \
         the CPU moves every byte, and PIO mode 4, the fastest, carries at most 16.7 MB/s, a \
         fraction of what the disk reads. ata(4) leaves a disk in PIO when the loader tunable \
         hw.ata.ata_dma is 0, which the boot menu's Safe Mode sets (with hw.ata.atapi_dma=0 \
         for CD drives), or when a hint.ata.N.mode in /boot/device.hints or loader.conf caps \
         the channel."
    ))
    .confidence(Confidence::Medium)
    .impact(0.8);
    f = cite(f, &d.ide_dma, "transfer mode PIO");
    f.fix(Fix {
        platform: sys.platform,
        summary: "let ata(4) use DMA".to_string(),
        steps: vec![
            "Boot normally, not with the boot menu's Safe Mode (it sets hw.ata.ata_dma=0)"
                .to_string(),
            "Remove hw.ata.ata_dma=\"0\" and any hint.ata.N.mode line from \
             /boot/loader.conf and /boot/device.hints, then reboot"
                .to_string(),
            format!(
                "Check: `camcontrol identify {name}` and the boot line \
                 \"{name}: ...MB/s transfers (UDMA...)\" name an Ultra DMA mode"
            ),
        ],
        risk: "on a chipset whose DMA is broken the disk can hang; Safe Mode or \
               hw.ata.ata_dma=0 switches it back off"
            .to_string(),
    })
}

fn dma_fix(platform: Platform, d: &DiskFacts, os_release: Option<&str>) -> Fix {
    let name = &d.name;
    match platform {
        Platform::Freebsd => {
            let mut steps = vec![format!(
                "Make /etc/fstab independent of the disk name, which changes from {name} to \
                 ada0 under ahci(4): label the filesystems (`glabel label`, or `tunefs -L` on \
                 unmounted UFS) and mount /dev/label/... or /dev/ufs/..."
            )];
            steps.extend(freebsd_ahci_load_step(os_release));
            steps.push(
                "Reboot into the firmware setup and set the SATA mode from IDE/Compatibility \
                 to AHCI, so ahci(4) drives the port instead of ata(4)"
                    .to_string(),
            );
            steps.push(
                "If the setup offers no AHCI mode, no ata(4) setting lifts the limit (the \
                 driver clamps every mode to its table's ceiling): put the disk on a SATA \
                 card with an AHCI chip (for example an ASMedia ASM1061)"
                    .to_string(),
            );
            steps.push(format!(
                "After booting, check: `{}` lists the disk on ahcichN as ada0, dmesg shows it \
                 at `SATA 2.x` or faster (or UDMA on a parallel drive), and `diskinfo -t ada0` \
                 reads far above 16 MB/s",
                ask_bare(Ask::CamDevlist)
            ));
            Fix {
                platform,
                summary: "get the disk off the WDMA2-only ata(4) driver: AHCI mode or \
                          another controller"
                    .to_string(),
                steps,
                risk: freebsd_mountroot_risk(name),
            }
        }
        _ => Fix {
            platform,
            summary: "get the disk off the multiword-DMA driver: AHCI mode or another \
                      controller"
                .to_string(),
            steps: vec![
                "Reboot into the firmware setup and set the SATA mode from IDE/Compatibility \
                 to AHCI"
                    .to_string(),
                "If it offers no AHCI mode, put the disk on a SATA card with an AHCI chip"
                    .to_string(),
                "Check: `hdparm -I` marks a UDMA mode with `*`, and reads run far above \
                 16 MB/s"
                    .to_string(),
            ],
            risk: "a system installed in IDE mode may need the AHCI driver in its initramfs \
                   before the switch"
                .to_string(),
        },
    }
}

/// ahci(4) is in GENERIC from FreeBSD 9.0 on (sys/conf/NOTES, ahci(4) HISTORY); on 8.x it
/// is a module. An unknown release gets the step, said conditionally.
fn freebsd_ahci_load_step(os_release: Option<&str>) -> Option<String> {
    let major = os_release
        .and_then(|r| r.split(['.', '-']).next())
        .and_then(|m| m.parse::<u32>().ok());
    major.is_none_or(|m| m < 9).then(|| {
        "On FreeBSD 8.x load the AHCI driver at boot: add `ahci_load=\"YES\"` to \
         /boot/loader.conf (ahci(4) is in the GENERIC kernel from FreeBSD 9.0 on)"
            .to_string()
    })
}

/// Moving a disk from ata(4) to ahci(4) renames it (adN -> adaN, or another adaN unit).
fn freebsd_mountroot_risk(name: &str) -> String {
    format!(
        "may stop the OS booting (\"mountroot>\" prompt) until the loader has the AHCI \
         driver and /etc/fstab no longer names {name}; at the mountroot prompt, \
         `ufs:/dev/ada0s1a` (your root) boots it to fix fstab"
    )
}

fn explanation(d: &DiskFacts, signs: &[String], is_ssd: bool, hw_ahci: bool) -> String {
    let mut s = format!("{}. ", capitalise(&signs.join("; ")));
    s.push_str(
        "In legacy IDE (\"compatibility\", \"IDE\", \"ATA\") mode a SATA controller pretends \
         to be a parallel-ATA controller from the 1990s so that old systems can boot. The \
         driver can then send one command at a time: no Native Command Queuing (NCQ lets the \
         drive accept up to 32 commands and reorder them), no hot-plug and no link power \
         management. ",
    );
    if hw_ahci {
        s.push_str(
            "Here the hardware already is in AHCI mode; only the operating system uses the old \
             IDE driver, so the fix is on the OS side. ",
        );
    }
    if is_ssd {
        s.push_str(
            "For an SSD this costs most of its random-I/O speed: a SATA SSD needs many \
             commands in flight to reach its typical ~90k random 4 KiB reads per second, and \
             manages roughly 10-20k at one command at a time. ",
        );
    } else {
        s.push_str(
            "Sequential transfers of an HDD barely change (seed 000's ICH7 desktop in IDE mode \
             still wrote 75 MB/s), but random I/O with several requests waiting loses the \
             drive's seek reordering: typically 20-50% fewer random I/Os per second at queue \
             depth 32. ",
        );
    }
    if d.ncq_supported.get() == Some(true) {
        s.push_str(
            "This drive supports NCQ, so switching to AHCI turns it on (see ncq-unavailable).",
        );
    }
    s
}

pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn fixes(platform: Platform, d: &DiskFacts, hw_ahci: bool, os_release: Option<&str>) -> Vec<Fix> {
    let name = &d.name;
    match platform {
        Platform::Linux => {
            let mut steps = vec![
                "Put the AHCI driver into the initramfs first. Debian/Ubuntu: `echo ahci | sudo \
                 tee -a /etc/initramfs-tools/modules && sudo update-initramfs -u`; \
                 Fedora/RHEL: `sudo dracut --force --add-drivers ahci`"
                    .to_string(),
                "Make /etc/fstab refer to filesystems by UUID or LABEL (`lsblk -f`), not by \
                 /dev/sdX names, which can change"
                    .to_string(),
            ];
            if !hw_ahci {
                steps.push(
                    "Reboot into the firmware setup and set SATA mode (\"SATA Operation\", \
                     \"SATA Configuration\", \"Configure SATA as\") from IDE/Compatibility/ATA \
                     to AHCI"
                        .to_string(),
                );
            }
            steps.push(format!(
                "After booting, check: `{}` shows \"Kernel driver in use: ahci\" and \
                 `cat /sys/block/*/device/queue_depth` shows more than 1",
                ask_bare(Ask::PciSataDrivers)
            ));
            vec![Fix {
                platform,
                summary: "switch the controller to AHCI so the kernel uses the ahci driver"
                    .to_string(),
                steps,
                risk: "may stop the OS booting until the AHCI driver is in the initramfs; a \
                       Windows installation on the same machine needs its AHCI driver \
                       (storahci) enabled before the switch; switching back in the firmware \
                       setup undoes it"
                    .to_string(),
            }]
        }
        Platform::Freebsd => {
            // adN names come from the old ata(4) disk driver (FreeBSD <= 8): the name changes
            // to adaN under ahci(4). An adaN disk on an ata(4) channel (FreeBSD >= 9, CAM)
            // keeps its driver name; only the unit number follows the probe order.
            let old_ad = crate::checks::common::is_freebsd_legacy_ad(name);
            let label = "label the filesystems (`glabel label`, or `tunefs -L` on unmounted \
                         UFS) and mount /dev/label/... or /dev/ufs/...";
            let mut steps = vec![if old_ad {
                format!(
                    "Make /etc/fstab independent of the disk name, which changes from {name} to \
                     ada0: {label} instead of /dev/{name}..."
                )
            } else {
                format!(
                    "Make /etc/fstab independent of the unit number ({name} can become another \
                     adaN when the disk moves to another controller): {label} instead of \
                     /dev/{name}..."
                )
            }];
            steps.extend(freebsd_ahci_load_step(os_release));
            if !hw_ahci {
                steps.push(
                    "Reboot into the firmware setup and set SATA mode from IDE/Compatibility to \
                     AHCI"
                        .to_string(),
                );
            }
            steps.push(format!(
                "After booting, check: `{}` lists the disk on ahcichN as ada0 and `{}` shows \
                 NCQ in use",
                ask_bare(Ask::CamDevlist),
                ask(Ask::CamIdentify, "ada0")
            ));
            vec![Fix {
                platform,
                summary: "move the disk to ahci(4) (CAM) so it gets NCQ".to_string(),
                steps,
                risk: freebsd_mountroot_risk(name),
            }]
        }
        Platform::Unknown => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
