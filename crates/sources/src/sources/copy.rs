//! File-copy "benchmarks" people paste next to dd: `cp`/`rsync` command lines, rsync's
//! summary ("sent N bytes  received M bytes  R bytes/sec"), pv's final progress line
//! ("1.00GiB 0:00:10 [ 100MiB/s]") and the shell's `time` output ("real 3m32.239s").
//!
//! Reference: rsync(1) (the summary printed with -v; numbers grouped with commas), pv(1)
//! (default display: bytes, elapsed time, rate in brackets; 1024-based units), and the
//! POSIX `time` utility / shell keyword output.

use crate::model::UserBenchmark;
use crate::sources::util::{clean_line, leading_f64, leading_u64};

/// Whether the tokens before a command word are a shell prompt or wrappers
/// ("hartmann:", "$", "[ns4]#", "root@host:/x #", "time", "sudo").
fn prompt_like(before: &[&str]) -> bool {
    before.len() <= 3
        && before.iter().all(|w| {
            matches!(
                *w,
                "$" | "#" | "%" | ">" | "time" | "sudo" | "nice" | "ionice"
            ) || w.ends_with(['$', '#', '%', '>', ':'])
        })
}

fn seconds_hms(s: &str) -> Option<f64> {
    // "0:00:10" or "1:02:03" (pv), "3m32.239s" (time)
    if let Some((m, rest)) = s.split_once('m') {
        let m = leading_f64(m)?;
        let sec = leading_f64(rest.trim_end_matches('s'))?;
        let h = 0.0;
        return Some(h * 3600.0 + m * 60.0 + sec);
    }
    let parts: Vec<f64> = s.split(':').map(leading_f64).collect::<Option<Vec<_>>>()?;
    Some(parts.iter().fold(0.0, |acc, p| acc * 60.0 + p))
}

/// pv's "100MiB/s" or "1.00GiB" (1024-based).
fn pv_bytes(s: &str) -> Option<f64> {
    let n = leading_f64(s)?;
    let unit = s.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ',');
    let unit = unit.trim_end_matches("/s");
    let m = match unit {
        "B" => 1.0,
        "KiB" | "KB" | "kB" => 1024.0,
        "MiB" | "MB" => 1024f64.powi(2),
        "GiB" | "GB" => 1024f64.powi(3),
        "TiB" | "TB" => 1024f64.powi(4),
        _ => return None,
    };
    Some(n * m)
}

/// cp/rsync/pv runs in `text`, in order.
pub fn parse(text: &str) -> Vec<UserBenchmark> {
    let mut out: Vec<UserBenchmark> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = clean_line(raw);
        let t = line.trim();
        let tk: Vec<&str> = t.split_whitespace().collect();
        let from = format!("line {}", i + 1);
        // Command lines.
        if let Some(k) = tk.iter().position(|w| matches!(*w, "cp" | "rsync" | "pv"))
            && prompt_like(tk.get(..k).unwrap_or(&[]))
        {
            let args: Vec<&str> = tk.get(k + 1..).unwrap_or(&[]).to_vec();
            let opts: Vec<String> = args
                .iter()
                .filter(|a| a.starts_with('-'))
                .map(|a| a.to_string())
                .collect();
            let paths: Vec<&str> = args
                .iter()
                .filter(|a| !a.starts_with('-'))
                .take_while(|a| !matches!(**a, "|" | ">" | "&&" | ";"))
                .copied()
                .collect();
            let tool = tk.get(k).copied().unwrap_or("cp");
            let enough = if tool == "pv" {
                !paths.is_empty()
            } else {
                paths.len() >= 2
            };
            if enough {
                out.push(UserBenchmark {
                    tool: tool.to_string(),
                    command: Some(tk.get(k..).unwrap_or(&[]).join(" ")),
                    input: paths.first().map(|p| p.to_string()),
                    output: if tool == "pv" {
                        None
                    } else {
                        paths.last().map(|p| p.to_string())
                    },
                    flags: opts,
                    from: from.clone(),
                    ..Default::default()
                });
                continue;
            }
        }
        // rsync: "sent 1,234 bytes  received 35 bytes  2,538.00 bytes/sec"
        if tk.first() == Some(&"sent") && tk.get(2) == Some(&"bytes") && t.contains("bytes/sec") {
            let sent = tk.get(1).and_then(|s| leading_u64(s));
            let rate = tk
                .iter()
                .position(|w| *w == "bytes/sec")
                .and_then(|p| p.checked_sub(1))
                .and_then(|p| tk.get(p))
                .map(|s| s.replace(',', ""))
                .and_then(|s| s.parse::<f64>().ok());
            let target = out
                .iter_mut()
                .rev()
                .find(|b| b.tool == "rsync" && b.bytes.is_none());
            match target {
                Some(b) => {
                    b.bytes = sent;
                    b.bytes_per_sec = rate;
                }
                None => out.push(UserBenchmark {
                    tool: "rsync".into(),
                    bytes: sent,
                    bytes_per_sec: rate,
                    from: from.clone(),
                    ..Default::default()
                }),
            }
            continue;
        }
        // pv final line: "1.00GiB 0:00:10 [ 100MiB/s] [=====>] 100%"
        if tk.len() >= 3
            && tk.get(1).is_some_and(|w| {
                w.contains(':') && w.chars().all(|c| c.is_ascii_digit() || c == ':')
            })
        {
            let bytes = tk.first().and_then(|w| pv_bytes(w));
            let rate_tok = tk.get(2..).unwrap_or(&[]).join(" ");
            let rate = rate_tok
                .split_once('[')
                .and_then(|(_, r)| r.split(']').next())
                .map(str::trim)
                .and_then(pv_bytes);
            if let (Some(bytes), Some(rate)) = (bytes, rate) {
                let secs = tk.get(1).and_then(|w| seconds_hms(w));
                let b = UserBenchmark {
                    tool: "pv".into(),
                    bytes: Some(bytes as u64),
                    seconds: secs,
                    bytes_per_sec: Some(rate),
                    from: from.clone(),
                    ..Default::default()
                };
                match out
                    .iter_mut()
                    .rev()
                    .find(|b| b.tool == "pv" && b.bytes.is_none())
                {
                    Some(prev) => {
                        prev.bytes = b.bytes;
                        prev.seconds = b.seconds;
                        prev.bytes_per_sec = b.bytes_per_sec;
                    }
                    None => out.push(b),
                }
                continue;
            }
        }
        // `time`: "real 3m32.239s" (or "real\t3m32.239s") for the last command without a time.
        if tk.first() == Some(&"real")
            && tk.len() == 2
            && let (Some(secs), Some(b)) = (
                tk.get(1).and_then(|w| seconds_hms(w)),
                out.iter_mut().rev().find(|b| b.seconds.is_none()),
            )
        {
            b.seconds = Some(secs);
            if let Some(bytes) = b.bytes
                && secs > 0.0
                && b.bytes_per_sec.is_none()
            {
                b.bytes_per_sec = Some(bytes as f64 / secs);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
