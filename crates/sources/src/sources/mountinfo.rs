//! /proc/self/mountinfo parsing (proc(5), "/proc/pid/mountinfo"): which filesystem is
//! mounted from which MAJ:MIN, mapped later to disks through sysfs `dev` files.

use crate::model::Mount;

/// One mountinfo line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MountEntry {
    /// Field 3: MAJ:MIN of the mounted device (st_dev).
    pub devno: String,
    pub root: String,
    pub mountpoint: String,
    pub options: String,
    pub fstype: String,
    pub source: String,
    pub super_options: String,
}

impl MountEntry {
    pub fn to_mount(&self) -> Mount {
        Mount {
            source: self.source.clone(),
            mountpoint: self.mountpoint.clone(),
            fstype: self.fstype.clone(),
            options: self.options.clone(),
            compression: None,
        }
    }
}

/// Undo the octal escapes the kernel applies to spaces, tabs, newlines and backslashes
/// in paths (`\040`, `\011`, `\012`, `\134`).
pub fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 4 <= b.len() {
            let oct = &b[i + 1..i + 4];
            if oct.iter().all(|c| (b'0'..=b'7').contains(c)) {
                let v = (oct[0] - b'0') as u32 * 64
                    + (oct[1] - b'0') as u32 * 8
                    + (oct[2] - b'0') as u32;
                if let Ok(v) = u8::try_from(v) {
                    out.push(v);
                    i += 4;
                    continue;
                }
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Parse mountinfo text; malformed lines are skipped.
/// Layout: `id parent MAJ:MIN root mountpoint options [optional...] - fstype source superopts`.
pub fn parse_mountinfo(text: &str) -> Vec<MountEntry> {
    let mut out = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let Some(sep) = f.iter().position(|x| *x == "-") else {
            continue;
        };
        if sep < 6 || f.len() < sep + 3 {
            continue;
        }
        let devno = f[2];
        if !devno.contains(':') {
            continue;
        }
        out.push(MountEntry {
            devno: devno.to_string(),
            root: unescape(f[3]),
            mountpoint: unescape(f[4]),
            options: f[5].to_string(),
            fstype: f[sep + 1].to_string(),
            source: unescape(f[sep + 2]),
            super_options: f.get(sep + 3).map(|s| s.to_string()).unwrap_or_default(),
        });
    }
    out
}

#[cfg(test)]
mod tests;
