//! Secrets in kernel and syslog lines: the host name syslog and the journal put before
//! each line.

use super::*;

impl Redactor {
    /// Host names of syslog and journal lines: "Dec  1 09:25:23 HOST kernel: ...",
    /// "2026-12-01T09:25:23.123+00:00 HOST kernel: ...".
    pub(super) fn collect_syslog_host(&mut self, line: &str) {
        let t: Vec<&str> = line.split_whitespace().take(5).collect();
        let is_time = |s: &str| s.len() == 8 && s.as_bytes().get(2) == Some(&b':');
        let (host, tag) = match t.as_slice() {
            [m, d, time, host, tag, ..]
                // The locale's month ("giu 07 07:21:31" under it_IT).
                if crate::sources::log_prefix::is_month_abbreviation(m)
                    && d.parse::<u8>().is_ok()
                    && is_time(time) =>
            {
                (*host, *tag)
            }
            [stamp, host, tag, ..]
                if stamp.len() >= 19
                    && stamp.as_bytes().get(4) == Some(&b'-')
                    && stamp.as_bytes().get(10) == Some(&b'T') =>
            {
                (*host, *tag)
            }
            _ => return,
        };
        // The tag is "kernel:", "systemd[1]:", "smartd[812]:"; without a host field the
        // "host" is that tag ("Dec 10 18:58:49 kernel: ata1.00: ...").
        let host_like = host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
            && host.chars().any(|c| c.is_ascii_alphabetic());
        let tag_like = tag.ends_with(':')
            && tag
                .trim_end_matches(':')
                .split('[')
                .next()
                .is_some_and(|p| !p.is_empty() && !p.contains('.'));
        if host_like && tag_like {
            self.add(Kind::Host, host);
        }
    }
}
