//! A ReplayHost that records every capture key the probe asks for (tests of what the
//! FreeBSD probe runs: tests/it/freebsd_replay.rs, tests/it/freebsd_live_probe.rs).

use diskdoc_core::evidence::{Capture, EvidenceBundle, Platform, SourceKey};
use diskdoc_sys::host::{Host, IoctlRequest, ReplayHost};
use diskdoc_sys::probe::ProbeOptions;

/// A ReplayHost that remembers every key it was asked for.
pub struct Recording<'a> {
    inner: ReplayHost<'a>,
    asked: Vec<String>,
}

impl Host for Recording<'_> {
    fn platform(&self) -> Platform {
        self.inner.platform()
    }
    fn run(&mut self, argv: &[&str]) -> Capture {
        self.asked.push(SourceKey::cmd(argv).to_string());
        self.inner.run(argv)
    }
    fn read_file(&mut self, path: &str) -> Capture {
        self.asked.push(SourceKey::File(path.into()).to_string());
        self.inner.read_file(path)
    }
    fn list_dir(&mut self, path: &str) -> Capture {
        self.asked.push(SourceKey::Dir(path.into()).to_string());
        self.inner.list_dir(path)
    }
    fn real_path(&mut self, path: &str) -> Capture {
        self.asked
            .push(SourceKey::RealPath(path.into()).to_string());
        self.inner.real_path(path)
    }
    fn read_link(&mut self, path: &str) -> Capture {
        self.asked.push(SourceKey::Link(path.into()).to_string());
        self.inner.read_link(path)
    }
    fn stat(&mut self, path: &str) -> Capture {
        self.asked.push(SourceKey::Stat(path.into()).to_string());
        self.inner.stat(path)
    }
    fn sysctl(&mut self, name: &str) -> Capture {
        self.asked.push(SourceKey::Sysctl(name.into()).to_string());
        self.inner.sysctl(name)
    }
    fn ioctl(&mut self, device: &str, req: IoctlRequest) -> Capture {
        self.asked.push(
            SourceKey::Ioctl {
                device: device.into(),
                request: req.name().into(),
            }
            .to_string(),
        );
        self.inner.ioctl(device, req)
    }
    fn read_device(&mut self, device: &str, offset: u64, len: u64) -> Capture {
        self.asked.push(
            SourceKey::DeviceRead {
                device: device.into(),
                offset,
                len,
            }
            .to_string(),
        );
        self.inner.read_device(device, offset, len)
    }
}

pub fn asked_keys(b: &EvidenceBundle, opts: &ProbeOptions) -> Vec<String> {
    let mut host = Recording {
        inner: ReplayHost { bundle: b },
        asked: Vec::new(),
    };
    diskdoc_sys::probe::collect(&mut host, opts);
    host.asked
}
