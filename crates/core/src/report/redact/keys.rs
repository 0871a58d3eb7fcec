//! Secrets in capture keys and the listings keyed by them: sysfs `serial`/`wwid` files,
//! by-id and by-label directory listings.

use super::rules::{NAMED_NODES, unescape_udev};
use super::*;

impl Redactor {
    /// Whole-file secrets identified by where they were read.
    pub(super) fn collect_keyed(&mut self, key: &str, data: &str) {
        let path = key.split_once(':').map(|(_, p)| p).unwrap_or(key);
        let first = data.trim();
        if key.starts_with("file:") {
            if path.ends_with("/serial") {
                self.add_trusted(Kind::Serial, first);
            } else if path.ends_with("/wwid")
                || path.ends_with("/wwn")
                || path.ends_with("/eui")
                || path.ends_with("/nguid")
                || path.ends_with("/sas_address")
            {
                self.add(Kind::Wwn, first);
            } else if path == "/proc/sys/kernel/hostname" || path == "/etc/hostname" {
                self.add(Kind::Host, first);
            }
        }
        if key == crate::sources::sysctl::KERN_HOSTNAME.key_for("")
            || key == "cmd:hostname"
            || key == "cmd:uname -n"
        {
            self.add(Kind::Host, first);
        }
        if key.starts_with("cmd:uname") {
            // "Linux HOST 6.1.0 ..." / "FreeBSD HOST 13.1-RELEASE ..."
            if let Some(h) = first.split_whitespace().nth(1)
                && key.contains("-a")
            {
                self.add(Kind::Host, h);
            }
        }
        if key.starts_with("dir:") && path.contains("/dev/disk/by-id") {
            self.collect_by_id(data);
        }
        if key.starts_with("dir:") {
            for (dir, kind) in NAMED_NODES {
                if format!("{path}/").ends_with(dir) {
                    for name in data.split_whitespace() {
                        self.add_trusted(*kind, &unescape_udev(name));
                    }
                }
            }
        }
    }

    /// A /dev/disk/by-id listing: every name is a link udev made (`sources::by_id`).
    pub(super) fn collect_by_id(&mut self, listing: &str) {
        for name in listing.split_whitespace() {
            for f in by_id::secrets(name, true) {
                self.add_found(&f);
            }
        }
    }
}
