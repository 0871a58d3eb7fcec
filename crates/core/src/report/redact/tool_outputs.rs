//! Secrets in the tables and XML of tool outputs (lsblk/blkid columns, kern.geom.confxml
//! tags) and the findings of the sources' scanners.

use super::rules::{COLUMNS, XML_TAGS};
use super::*;

impl Redactor {
    /// Register what a structural rule found (`sources::spec::Found`).
    pub(super) fn add_found(&mut self, f: &Found) -> Option<String> {
        self.add_with(f.kind, &f.value, f.sure)
    }

    /// GEOM's XML (kern.geom.confxml): `<ident>`, `<lunid>`, `<rawuuid>`, `<label>`.
    pub(super) fn collect_xml(&mut self, line: &str) {
        for (tag, kind) in XML_TAGS.iter() {
            let open = format!("<{tag}>");
            for (i, _) in line.match_indices(&open) {
                let rest = line.get(i + open.len()..).unwrap_or("");
                if let Some((v, _)) = rest.split_once(&format!("</{tag}>")) {
                    self.add_trusted(*kind, v);
                }
            }
        }
    }

    /// Tables with LABEL / PARTLABEL / UUID / PARTUUID / SERIAL / WWN columns (`lsblk -f`,
    /// `lsblk -o +SERIAL`): the value under each such header, by character column, on the
    /// rows up to the next blank line.
    pub(super) fn collect_columns(&mut self, text: &str) {
        let mut cols: Vec<(usize, usize, Kind)> = Vec::new();
        for line in text.lines() {
            let chars: Vec<char> = line.chars().collect();
            // Header words and where they start.
            let mut words = Vec::new();
            let mut i = 0;
            while i < chars.len() {
                if chars[i].is_whitespace() {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < chars.len() && !chars[i].is_whitespace() {
                    i += 1;
                }
                words.push((start, chars[start..i].iter().collect::<String>()));
            }
            let is_header = words.len() >= 2
                && words.iter().any(|(_, w)| w == "NAME")
                && words
                    .iter()
                    .any(|(_, w)| COLUMNS.iter().any(|(c, _)| c == w));
            if is_header {
                cols = words
                    .iter()
                    .enumerate()
                    .filter_map(|(k, (start, w))| {
                        let kind = COLUMNS.iter().find(|(c, _)| c == w)?.1;
                        let end = words.get(k + 1).map_or(usize::MAX, |(s, _)| *s);
                        Some((*start, end, kind))
                    })
                    .collect();
                continue;
            }
            if line.trim().is_empty() {
                cols.clear();
                continue;
            }
            for (start, end, kind) in cols.clone() {
                let cell: String = chars
                    .iter()
                    .skip(start)
                    .take(end.saturating_sub(start))
                    .collect();
                if let Some(v) = cell.split_whitespace().next() {
                    self.add_trusted(kind, v);
                }
            }
        }
    }
}
