//! The stack above a disk: partitions, dm (crypt/LVM/multipath/cache), md, walked through
//! sysfs holders/ and slaves/ (Documentation/ABI/stable/sysfs-block). dm kinds come from
//! the dm uuid prefix set by the creating tool (cryptsetup "CRYPT-LUKS2-", "CRYPT-PLAIN-";
//! LVM "LVM-"; multipath "mpath-"; kpartx "partN-"); cipher and key size from the crypt
//! target line of `dmsetup table` (dm-crypt admin guide: cipher key iv_offset dev offset).

use std::collections::{BTreeSet, VecDeque};

use crate::evidence::{EvidenceBundle, SourceKey};
use crate::facts::linux::paths::is_partition_of;
use crate::facts::linux::sysfs::{entries, fkey, text};
use crate::facts::{Layer, LayerKind};

/// One line of `dmsetup table`: `name: start length target args...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DmLine {
    pub name: String,
    pub start: u64,
    pub len: u64,
    pub target: String,
    pub args: Vec<String>,
}

/// Parse `dmsetup table` output; lines that do not fit are skipped ("No devices found").
fn parse_dmsetup_table(text: &str) -> Vec<DmLine> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some((name, rest)) = line.trim().split_once(": ") else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        let (Some(start), Some(len), Some(target)) = (f.first(), f.get(1), f.get(2)) else {
            continue;
        };
        let (Ok(start), Ok(len)) = (start.parse(), len.parse()) else {
            continue;
        };
        out.push(DmLine {
            name: name.trim().to_string(),
            start,
            len,
            target: target.to_string(),
            args: f.iter().skip(3).map(|s| s.to_string()).collect(),
        });
    }
    out
}

/// Cipher and key size (bits, as dm-crypt holds it: XTS keys are double, 512 = AES-256)
/// from a crypt target's arguments. The key is hex (shown as zeros without --showkeys) or
/// a keyring reference `:<bytes>:<type>:<description>`.
fn crypt_params(args: &[String]) -> (Option<String>, Option<u32>) {
    let cipher = args.first().cloned();
    let bits = args.get(1).and_then(|k| {
        if let Some(rest) = k.strip_prefix(':') {
            rest.split(':')
                .next()?
                .parse::<u32>()
                .ok()
                .and_then(|b| b.checked_mul(8))
        } else if k.chars().all(|c| c.is_ascii_hexdigit()) && !k.is_empty() {
            u32::try_from(k.len() * 4).ok()
        } else {
            None
        }
    });
    (cipher, bits)
}

/// What `cryptsetup status NAME` says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct CryptStatus {
    pub kind: Option<String>,
    pub cipher: Option<String>,
    pub key_bits: Option<u32>,
    pub sector_bytes: Option<u32>,
}

/// Parse `cryptsetup status` (old "keysize: 512 bits" and new "512 [bits]" forms).
fn parse_cryptsetup_status(text: &str) -> CryptStatus {
    let mut s = CryptStatus::default();
    let first_num = |v: &str| {
        v.split(|c: char| !c.is_ascii_digit())
            .find(|x| !x.is_empty())
            .and_then(|x| x.parse::<u32>().ok())
    };
    for line in text.lines() {
        let Some((k, v)) = line.trim().split_once(':') else {
            continue;
        };
        let v = v.trim();
        match k.trim() {
            "type" => s.kind = Some(v.to_string()),
            "cipher" => s.cipher = Some(v.to_string()),
            "keysize" => s.key_bits = first_num(v),
            "sector size" => s.sector_bytes = first_num(v),
            _ => {}
        }
    }
    s
}

/// Context the layer walk needs besides the bundle.
pub(crate) struct StackCtx<'a> {
    pub b: &'a EvidenceBundle,
    pub all: &'a [String],
    pub dm: Vec<DmLine>,
    pub dm_key: Option<String>,
    pub aes_driver: Option<String>,
}

impl<'a> StackCtx<'a> {
    pub fn new(b: &'a EvidenceBundle, all: &'a [String], aes_driver: Option<String>) -> Self {
        let k = SourceKey::cmd(&["dmsetup", "table"]);
        let (dm, dm_key) = match b.data(&k) {
            Some(t) => (parse_dmsetup_table(t), Some(k.to_string())),
            None => (Vec::new(), None),
        };
        StackCtx {
            b,
            all,
            dm,
            dm_key,
            aes_driver,
        }
    }

    /// sysfs partitions of a disk (names).
    pub fn partitions(&self, disk: &str) -> Vec<String> {
        entries(self.b, &format!("/sys/block/{disk}"))
            .into_iter()
            .filter(|e| is_partition_of(e, disk))
            .collect()
    }

    fn holders(&self, dev: &str) -> Vec<String> {
        match self.disk_of(dev) {
            Some(disk) if disk != dev => {
                entries(self.b, &format!("/sys/block/{disk}/{dev}/holders"))
            }
            _ => entries(self.b, &format!("/sys/block/{dev}/holders")),
        }
    }

    fn disk_of(&self, dev: &str) -> Option<String> {
        crate::facts::linux::paths::owning_disk(dev, self.all)
    }

    /// The `dev` (MAJ:MIN) of a disk or partition.
    pub fn devno(&self, dev: &str) -> Option<String> {
        let p = match self.disk_of(dev) {
            Some(disk) if disk != dev => format!("/sys/block/{disk}/{dev}/dev"),
            _ => format!("/sys/block/{dev}/dev"),
        };
        text(self.b, &p).map(str::to_string)
    }

    /// Describe one holder device (dm-N, mdN) as a layer.
    fn layer_of(&self, name: &str) -> Layer {
        let base = format!("/sys/block/{name}");
        let mut l = Layer {
            name: name.to_string(),
            on: entries(self.b, &format!("{base}/slaves")),
            ..Default::default()
        };
        l.from.push(format!("dir:{base}/holders"));
        if name.starts_with("md") {
            l.kind = Some(LayerKind::Md);
            let p = format!("{base}/md/level");
            if let Some(lv) = text(self.b, &p) {
                l.level = Some(lv.to_string());
                l.from.push(fkey(&p));
            }
            return l;
        }
        if !name.starts_with("dm-") {
            l.kind = Some(LayerKind::Other);
            return l;
        }
        let dm_name = text(self.b, &format!("{base}/dm/name")).map(str::to_string);
        let uuid = text(self.b, &format!("{base}/dm/uuid")).unwrap_or("");
        if dm_name.is_some() {
            l.from.push(fkey(&format!("{base}/dm/name")));
        }
        if !uuid.is_empty() {
            l.from.push(fkey(&format!("{base}/dm/uuid")));
        }
        l.display_name = dm_name.as_ref().map(|n| format!("/dev/mapper/{n}"));
        let lines: Vec<&DmLine> = dm_name
            .as_ref()
            .map(|n| self.dm.iter().filter(|d| &d.name == n).collect())
            .unwrap_or_default();
        let target = lines.first().map(|d| d.target.clone());
        l.kind = Some(if uuid.starts_with("CRYPT-LUKS") {
            LayerKind::Luks
        } else if uuid.starts_with("CRYPT-") {
            LayerKind::DmCrypt
        } else if uuid.starts_with("LVM-") {
            LayerKind::Lvm
        } else if uuid.starts_with("mpath-") {
            LayerKind::Multipath
        } else if uuid.starts_with("part") {
            LayerKind::Partition
        } else {
            match target.as_deref() {
                Some("crypt") => LayerKind::DmCrypt,
                Some("cache") | Some("writecache") => LayerKind::DmCache,
                Some("multipath") => LayerKind::Multipath,
                _ => LayerKind::DmOther,
            }
        });
        if let Some(t) = &target {
            l.level = Some(t.clone());
            if let Some(k) = &self.dm_key {
                l.from.push(k.clone());
            }
        }
        if let Some(crypt) = lines.iter().find(|d| d.target == "crypt") {
            let (cipher, bits) = crypt_params(&crypt.args);
            l.cipher = cipher;
            l.key_bits = bits;
        }
        if let Some(n) = &dm_name {
            let k = SourceKey::cmd(&["cryptsetup", "status", n]);
            if let Some(t) = self.b.data(&k) {
                let st = parse_cryptsetup_status(t);
                l.cipher = l.cipher.take().or(st.cipher);
                l.key_bits = l.key_bits.or(st.key_bits);
                l.sector_bytes = st.sector_bytes;
                if st.kind.as_deref().is_some_and(|k| k.starts_with("LUKS")) {
                    l.kind = Some(LayerKind::Luks);
                }
                l.from.push(k.to_string());
            }
        }
        if matches!(l.kind, Some(LayerKind::Luks) | Some(LayerKind::DmCrypt))
            && l.cipher.as_deref().is_some_and(|c| c.starts_with("aes"))
        {
            l.crypto_impl = self.aes_driver.clone();
            if l.crypto_impl.is_some() {
                l.from.push(fkey("/proc/crypto"));
            }
        }
        l
    }

    /// Layers above `disk`, bottom first: its partitions, then holders breadth-first.
    pub(crate) fn layers_for(&self, disk: &str) -> Vec<Layer> {
        let mut out = Vec::new();
        let mut queue: VecDeque<String> = VecDeque::new();
        for p in self.partitions(disk) {
            out.push(Layer {
                kind: Some(LayerKind::Partition),
                name: p.clone(),
                on: vec![disk.to_string()],
                from: vec![format!("dir:/sys/block/{disk}")],
                ..Default::default()
            });
            queue.extend(self.holders(&p));
        }
        queue.extend(self.holders(disk));
        let mut seen = BTreeSet::new();
        while let Some(h) = queue.pop_front() {
            if !seen.insert(h.clone()) || seen.len() > 256 {
                continue;
            }
            out.push(self.layer_of(&h));
            queue.extend(self.holders(&h));
        }
        out
    }
}

#[cfg(test)]
mod tests;
