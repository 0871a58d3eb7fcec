//! Secrets in free text, line by line: the labels of the rules, UUIDs, MAC addresses, user
//! names in prompts and home paths, `KEY=value` pairs and the users of commands.

use super::patterns::{find_macs, find_users, find_uuids};
use super::rules::{
    BEFORE, LABELS, NAMED_NODES, PAIRS, SCANS, strip_partition_suffix, unescape_udev,
};
use super::*;

impl Redactor {
    /// Pattern collection over free text (also used for facts and findings strings).
    pub fn collect_text(&mut self, text: &str) {
        for line in text.lines() {
            self.collect_line(line);
        }
        // The sources' structural rules (pool rows, vdev names, GUID columns, iSerial),
        // then udev's by-id names wherever they stand.
        for scan in SCANS.iter() {
            for f in scan(text) {
                self.add_found(&f);
            }
        }
        for f in by_id::scan(text) {
            self.add_found(&f);
        }
        self.collect_columns(text);
        for (kind, u) in find_users(text) {
            self.add_trusted(kind, &u);
        }
        for m in find_macs(text) {
            self.add(Kind::Mac, &m);
        }
        for u in find_uuids(text) {
            self.add(Kind::Uuid, &u);
        }
        for (dir, kind) in NAMED_NODES {
            for (i, _) in text.match_indices(dir) {
                // udev link names keep their escapes (`My\x20Stuff`): up to a blank or quote.
                let rest = text.get(i + dir.len()..).unwrap_or("");
                let end = rest
                    .find(|c: char| c.is_whitespace() || "/\"',;:)".contains(c))
                    .unwrap_or(rest.len());
                let name = rest.get(..end).unwrap_or("");
                if *kind == Kind::Serial {
                    // /dev/diskid/DISK-SERIAL, DISK-SERIALp1, DISK-SERIALs1a.
                    let serial = name.strip_prefix("DISK-").unwrap_or(name);
                    self.add_trusted(*kind, strip_partition_suffix(serial));
                    continue;
                }
                self.add_trusted(*kind, &unescape_udev(name));
            }
        }
    }

    /// `KEY="value"` / `KEY=value` pairs of blkid, lsblk -P, fstab and the kernel command line.
    pub(super) fn collect_pairs(&mut self, line: &str) {
        for (key, kind) in PAIRS {
            for (i, _) in line.match_indices(key) {
                // PARTUUID= must not also count as UUID=.
                if line
                    .get(..i)
                    .and_then(|b| b.chars().last())
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    continue;
                }
                let rest = line.get(i + key.len()..).unwrap_or("");
                let v = match rest.strip_prefix('"') {
                    Some(q) => q.split('"').next().unwrap_or(""),
                    None => rest.split([' ', '\t', ',']).next().unwrap_or(""),
                };
                self.add_trusted(*kind, v);
            }
        }
    }

    /// Users named on a command line: `sudo -u NAME`, `su - NAME`, `runuser -u NAME`,
    /// `~NAME`, `chown NAME:`.
    pub(super) fn collect_command_users(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            let next = words.get(i + 1).copied().unwrap_or("");
            let prev = if i > 0 { words[i - 1] } else { "" };
            let user = match *w {
                "-u" | "--user" if ["sudo", "runuser", "doas"].iter().any(|c| line.contains(c)) => {
                    Some(next)
                }
                "-" if prev == "su" => Some(next),
                _ => w
                    .strip_prefix('~')
                    .map(|u| u.split('/').next().unwrap_or(""))
                    .filter(|u| !u.is_empty()),
            };
            if let Some(u) = user
                && !u.starts_with('-')
                && !u.starts_with('/')
                && u.chars().all(|c| c.is_alphanumeric() || "._-".contains(c))
            {
                self.add_trusted(Kind::User, u);
            }
        }
    }

    pub(super) fn collect_line(&mut self, line: &str) {
        let lower = line.to_ascii_lowercase();
        // diskinfo -v: "\tWD-WCAS87154115\t# Disk ident." (Secret::Before of the specs).
        for (label, kind) in BEFORE.iter() {
            if let Some(i) = lower.find(label)
                && let Some(v) = line.get(..i)
            {
                self.add_trusted(*kind, v.trim());
            }
        }
        // systemd in the kernel log: "systemd[1]: Set hostname to <debian>."
        if let Some(i) = line.find("Set hostname to <") {
            let rest = line.get(i + "Set hostname to <".len()..).unwrap_or("");
            if let Some(h) = rest.split('>').next() {
                self.add(Kind::Host, h);
            }
        }
        // Our own table notes: `partition 2 label "alice-taxes"` (GPT partition names),
        // `ext4 filesystem on the whole device, label "x", UUID y`.
        for (i, _) in line.match_indices(" label \"") {
            let rest = line.get(i + " label \"".len()..).unwrap_or("");
            if let Some((v, _)) = rest.split_once('"') {
                self.add_trusted(Kind::Label, v);
            }
        }
        self.collect_pairs(line);
        self.collect_xml(line);
        self.collect_syslog_host(line);
        self.collect_command_users(line);
        // Shell prompts: user@host:/path, user@host:~, [user@host ~]$
        if let Some(at) = line.find('@') {
            let after = line.get(at + 1..).unwrap_or("");
            let host: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '.')
                .collect();
            let rest = after.get(host.len()..).unwrap_or("");
            // The user word starts the line (after "[" or "("): "root@box /home/dan#",
            // "[dan@box data]$".
            let starts_line = line.get(..at).is_some_and(|b| {
                let b = b.trim_start().trim_start_matches(['[', '(']);
                !b.is_empty() && b.chars().all(|c| c.is_alphanumeric() || "._-".contains(c))
            });
            if rest.starts_with(":/")
                || rest.starts_with(":~")
                || rest.starts_with(" ~")
                || (starts_line && (rest.starts_with(" /") || line.trim_start().starts_with('[')))
            {
                self.add(Kind::Host, host.trim_end_matches('.'));
                let before = line.get(..at).unwrap_or("");
                let user: String = before
                    .chars()
                    .rev()
                    .take_while(|c| c.is_ascii_alphanumeric() || "._-".contains(*c))
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                self.add_trusted(Kind::User, &user);
            }
        }
        for (label, kind) in LABELS.iter() {
            let Some(i) = lower.find(label) else { continue };
            // A label starts a word: "netlabel:" in the kernel log is not "label:".
            if lower
                .get(..i)
                .and_then(|b| b.chars().next_back())
                .is_some_and(|c| c.is_ascii_alphanumeric())
                && !label.starts_with('"')
            {
                continue;
            }
            let Some(after) = line.get(i + label.len()..) else {
                continue;
            };
            // A label must be followed by a separator, or it is part of a longer word
            // ("wwn" in "wwn_id" handled by the JSON walk instead).
            if !label.ends_with('=') && !label.ends_with(':') && !label.ends_with("0x") {
                match after.chars().next() {
                    Some(c) if c == ':' || c == '=' || c == '"' || c == ' ' || c == '\t' => {}
                    _ => continue,
                }
            }
            // "Serial Number: X" / "serial=X" stand for a value; "the serial number is
            // unknown" does not.
            let sep = label.ends_with(['=', ':', '"'])
                || after
                    .trim_start_matches([' ', '\t', '.'])
                    .starts_with([':', '=']);
            let v = after.trim_start_matches(|c: char| " \t:=\"'".contains(c));
            let v = v.split(['"', ',']).next().unwrap_or("").trim();
            let v = match kind {
                Kind::Serial | Kind::Uuid => v.split_whitespace().next().unwrap_or(""),
                _ => v,
            };
            if !v.is_empty() {
                let v = if *label == "wwn-0x" {
                    v.split("-part").next().unwrap_or(v)
                } else {
                    v
                };
                self.add_with(*kind, v, sep);
            }
            break;
        }
    }
}
