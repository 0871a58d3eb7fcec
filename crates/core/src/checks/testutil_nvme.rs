//! Test-only builders for the PCIe, NVMe and health checks: a healthy NVMe SSD (PCIe 3.0 x4 behind a root
//! port, clean health log) and helpers that read the fixtures under tests/fixtures.

use crate::facts::{
    Controller, ControllerMode, DeviceClass, DiskFacts, Fact, NvmeHealth, PcieLink, Transport,
};

/// A fixture file's text (tests/fixtures/<rel>); panics in tests when missing.
pub fn fixture(rel: &str) -> String {
    let p = format!("{}/../../tests/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

pub fn link(addr: &str, hop: u32, cur: f64, max: f64, cw: u32, mw: u32) -> PcieLink {
    PcieLink {
        address: addr.to_string(),
        hop,
        current_gts: Some(cur),
        max_gts: Some(max),
        current_width: Some(cw),
        max_width: Some(mw),
        marked_downgraded: false,
    }
}

/// A healthy 1 TB NVMe SSD at 8 GT/s x4 under root port 0000:00:1c.0.
pub(crate) fn nvme_ssd() -> DiskFacts {
    let mut d = DiskFacts::new("nvme0n1", "/dev/nvme0n1");
    let sys = "/sys/devices/pci0000:00/0000:00:1c.0/0000:03:00.0";
    d.class = Fact::known(DeviceClass::Nvme, "dir:/sys/block");
    d.model = Fact::known(
        "Samsung SSD 970 EVO 1TB".to_string(),
        crate::sources::sysfs::block("nvme0n1", "device/model"),
    );
    d.transport = Fact::known(Transport::Nvme, "realpath:/sys/block/nvme0n1");
    d.rotational = Fact::known(
        false,
        crate::sources::sysfs::block("nvme0n1", "queue/rotational"),
    );
    d.controller = Fact::known(
        Controller {
            mode: Some(ControllerMode::Nvme),
            driver: Some("nvme".into()),
            pci_class: Some(0x010802),
            address: Some("0000:03:00.0".into()),
            ..Default::default()
        },
        format!("file:{sys}/class"),
    );
    d.pcie = Fact::known_from(
        vec![
            link("0000:03:00.0", 0, 8.0, 8.0, 4, 4),
            link("0000:00:1c.0", 1, 8.0, 8.0, 4, 4),
        ],
        vec![
            format!("file:{sys}/current_link_speed"),
            "file:/sys/devices/pci0000:00/0000:00:1c.0/current_link_speed".to_string(),
        ],
    );
    d.nvme_health = Fact::known(
        NvmeHealth {
            critical_warning: Some(0),
            temperature_c: Some(38),
            warning_temp_c: Some(81),
            critical_temp_c: Some(85),
            available_spare: Some(100),
            spare_threshold: Some(10),
            percentage_used: Some(2),
            media_errors: Some(0),
            warning_temp_minutes: Some(0),
            critical_temp_minutes: Some(0),
            ..Default::default()
        },
        crate::sources::smartctl::SPEC.key_for("nvme0n1"),
    );
    d.trim.discard_max_bytes = Fact::known(
        2_199_023_255_040,
        crate::sources::sysfs::block("nvme0n1", "queue/discard_max_bytes"),
    );
    d.zoned = Fact::known(
        "none".to_string(),
        crate::sources::sysfs::block("nvme0n1", "queue/zoned"),
    );
    d
}
