//! FreeBSD probe: runs the capture plan (probe::plan::freebsd) through a Host.
//! Portable code: it only talks to a Host, so it is tested on Linux through ReplayHost.

use crate::host::Host;
use crate::probe::ProbeOptions;
use diskdoc_core::evidence::Capture;
use diskdoc_core::plan::{Item, Source, freebsd as plan};
use diskdoc_core::sources::{camcontrol_devlist, sysctl};

/// Ask the host for one plan item.
fn capture(host: &mut dyn Host, item: &Item, disk: &str) -> Capture {
    match item.source {
        Source::Cmd(_) | Source::File(_) | Source::Sysctl(_) => match item.key(disk) {
            diskdoc_core::evidence::SourceKey::Command(argv) => {
                let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
                host.run(&refs)
            }
            diskdoc_core::evidence::SourceKey::File(p) => host.read_file(&p),
            diskdoc_core::evidence::SourceKey::Sysctl(n) => host.sysctl(&n),
            _ => Capture::unavailable(
                diskdoc_core::evidence::Unavailable::Unsupported,
                "bad plan item",
            ),
        },
        Source::Ioctl(req) => host.ioctl(&format!("/dev/{disk}"), req),
    }
}

/// The disks to examine: kern.disks, else the CAM device list; filtered by `--device`.
pub fn disk_names(kern_disks: &Capture, devlist: &Capture, only: Option<&str>) -> Vec<String> {
    let mut names: Vec<String> = match kern_disks.data() {
        Some(v) => sysctl::disk_names(sysctl::bare_value(v, "kern.disks")),
        None => devlist
            .data()
            .map(|t| {
                camcontrol_devlist::parse(t)
                    .devices
                    .iter()
                    .filter_map(|d| d.disk().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default(),
    };
    names.retain(|n| plan::is_examined_disk(n));
    names.sort();
    names.dedup();
    if let Some(want) = only {
        // A partition or provider on a disk (ada0p2, ada0s1a, ada0p2.eli) means its disk.
        let want = want.trim_start_matches("/dev/");
        let disk = diskdoc_core::explain::whole_disk(want);
        names.retain(|n| n == want || *n == disk);
    }
    names
}

pub fn collect(host: &mut dyn Host, opts: &ProbeOptions) {
    let mut kern_disks = None;
    let mut devlist = None;
    for item in plan::GLOBAL {
        if !item.applies("", opts.with_tools) {
            continue;
        }
        let cap = capture(host, item, "");
        if *item == plan::KERN_DISKS {
            kern_disks = Some(cap);
        } else if *item == plan::DEVLIST {
            devlist = Some(cap);
        }
    }
    let none = Capture::ok("");
    let disks = disk_names(
        kern_disks.as_ref().unwrap_or(&none),
        devlist.as_ref().unwrap_or(&none),
        opts.device.as_deref(),
    );
    for disk in &disks {
        for item in plan::PER_DISK {
            if item.applies(disk, opts.with_tools) {
                capture(host, item, disk);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_scope_is_the_disk_of_a_partition() {
        let disks = Capture::ok("kern.disks: ada1 ada0 da0");
        let none = Capture::ok("");
        for (asked, want) in [
            ("ada0", vec!["ada0"]),
            ("/dev/ada0p2", vec!["ada0"]),
            ("ada0s1a", vec!["ada0"]),
            ("ada0p2.eli", vec!["ada0"]),
            ("da1", vec![]),
        ] {
            assert_eq!(disk_names(&disks, &none, Some(asked)), want, "{asked}");
        }
        assert_eq!(disk_names(&disks, &none, None), vec!["ada0", "ada1", "da0"]);
    }
}
