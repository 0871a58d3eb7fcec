//! GNU parted's own verdicts on a disk's partitions, interactive or from the command line
//! (parted(8), GNU parted manual "align-check"; parted/parted.c do_align_check prints
//! "%d aligned" or "%d not aligned", since parted 3.5 followed by ": <start>s % <grain>s !=
//! <offset>s"; libparted/labels/dos.c refuses a partition beyond the
//! MBR's 32-bit fields with "partition length of %jd sectors exceeds the
//! msdos-partition-table-imposed maximum of %jd" or "starting sector number, %jd exceeds
//! the msdos-partition-table-imposed maximum of %jd"; parted.c warns "The resulting
//! partition is not properly aligned for best performance" on mkpart). The session's
//! "GNU Parted 3.2" / "Using /dev/sda" / "(parted) ..." lines belong to the output too.

use crate::model::{PartitionToolMessage, PartitionToolVerdict};
use crate::sources::spec;
use crate::sources::util::clean_line;

// parted 3.5 and later give the reason after the answer ("4 not aligned: 30929920s %
// 2048s != 0s", parted.c do_align_check with the libparted alignment's offset/grain).
crate::rx!(ANSWER, r"^(\d+) (not )?aligned(?::\s.*)?\s*$");
crate::rx!(
    MSDOS_MAX,
    r"(?:partition length of|starting sector number,) (\d+) (?:sectors )?exceeds the msdos-partition-table-imposed maximum of (\d+)"
);
crate::rx!(
    NOT_BEST,
    r"The resulting partition is not properly aligned for best performance"
);
// The Debian installer's partitioner (partman, which partitions through libparted) on a
// partition whose start libparted's alignment check fails: "The partition /dev/sda1
// assigned to /boot starts at an offset of 1024 bytes from the minimum alignment for this
// disk, which may lead to very poor performance." (partman-partitioning's alignment
// template, the message wrapped over lines by the dialog).
crate::rx!(
    PARTMAN_OFFSET,
    r"The partition (/dev/\S+) assigned to \S+ starts at an offset of (\d+)\s+bytes from the minimum alignment"
);
crate::rx!(PROMPT, r"^\(parted\)\s*(.*)$");
crate::rx!(USING, r"^Using (/dev/\S+)\s*$");
crate::rx!(
    ALIGN_CMD,
    r"\balign-check\s+(?:opt|optimal|min|minimal)\w*\s+(\d+)"
);

fn message(
    verdict: PartitionToolVerdict,
    partition: Option<String>,
    line: &str,
) -> PartitionToolMessage {
    PartitionToolMessage {
        tool: "parted".to_string(),
        verdict,
        partition,
        disk_bytes: None,
        line: line.trim().to_string(),
        from: String::new(),
    }
}

/// Every verdict in the text (`from` left empty for the caller).
pub fn parse(text: &str) -> Vec<PartitionToolMessage> {
    let mut out = Vec::new();
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        let t = t
            .strip_prefix("Error:")
            .or_else(|| t.strip_prefix("Warning:"))
            .unwrap_or(t)
            .trim();
        if let Some(c) = ANSWER.captures(t) {
            let v = if c.get(2).is_some() {
                PartitionToolVerdict::Misaligned
            } else {
                PartitionToolVerdict::Aligned
            };
            out.push(message(v, c.get(1).map(|m| m.as_str().to_string()), &line));
        } else if MSDOS_MAX.is_match(t) {
            out.push(message(PartitionToolVerdict::MbrTooSmall, None, &line));
        } else if NOT_BEST.is_match(t) {
            out.push(message(PartitionToolVerdict::Misaligned, None, &line));
        }
    }
    // partman's warning is one sentence the dialog wraps: read it from the joined text.
    let joined = text
        .lines()
        .map(|l| clean_line(l).trim().to_string())
        .collect::<Vec<_>>()
        .join(" ");
    for c in PARTMAN_OFFSET.captures_iter(&joined) {
        let part = c.get(1).map(|m| spec::strip_dev(m.as_str()));
        let mut m = message(
            PartitionToolVerdict::Misaligned,
            part,
            c.get(0).map_or("", |m| m.as_str()),
        );
        m.tool = "partman".to_string();
        out.push(m);
    }
    out
}

// ---- the source spec (see sources::spec) ----

/// A line of partman's alignment warning (its first line names the partition).
fn partman_line(t: &str) -> bool {
    (t.contains("The partition /dev/") && t.contains("starts at an offset of"))
        || t.starts_with("bytes from the minimum alignment")
        || t.contains("minimum alignment for this disk")
        || t.contains("very poor performance")
}

fn own(t: &str) -> bool {
    let t = t.trim();
    partman_line(t)
        || ANSWER.is_match(t)
        || MSDOS_MAX.is_match(t)
        || NOT_BEST.is_match(t)
        || PROMPT.is_match(t)
        || USING.is_match(t)
        || t.starts_with("GNU Parted ")
        || t.starts_with("Welcome to GNU Parted")
        || t.starts_with("Error: ")
        || t.starts_with("Warning: ")
        || t.starts_with("Information: ")
        || t.starts_with("Ignore/Cancel?")
        || t.starts_with("The closest location we can manage is")
        || t.starts_with("Is this still acceptable to you?")
        || t.starts_with("Yes/No?")
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let l = clean_line(first);
    let t = l.trim();
    let t2 = t
        .strip_prefix("Error: ")
        .or_else(|| t.strip_prefix("Warning: "))
        .unwrap_or(t);
    if MSDOS_MAX.is_match(t2)
        || NOT_BEST.is_match(t2)
        || (t.contains("The partition /dev/") && t.contains("starts at an offset of"))
    {
        return spec::Start::Yes;
    }
    if PROMPT.is_match(t) || t.starts_with("GNU Parted ") {
        return spec::Start::Yes;
    }
    // A bare "4 not aligned" answers an align-check typed just before it; a number and
    // "aligned" alone on a line is parted's answer and nothing else's.
    spec::Start::from(ANSWER.is_match(t))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "parted",
    starts: &[(67, start)],
    member: |t, _| spec::Member::from(own(&clean_line(t))),
    tolerance: (1, 1),
    classify: |_, _| "parted",
    ..spec::Recogniser::NONE
};

/// The device of a session: "Using /dev/sda".
fn text_device(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        USING
            .captures(clean_line(l).trim())
            .and_then(|c| c.get(1))
            .map(|m| spec::strip_dev(m.as_str()))
    })
}

fn args(a: &str) -> bool {
    a.is_empty() || a.starts_with('-') || a.starts_with("/dev/") || ALIGN_CMD.is_match(a)
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste {
        device: Some(text_device),
        // One interactive session works on one disk unless `select` changes it: a later
        // block of the session without "Using" is the same disk.
        same_drive: Some(|later, _| !later.contains("(parted) select")),
        ..spec::Paste::new(&RECOGNISER, |p, _| p == "parted")
    }),
    programs: &[spec::Program::new("parted", args)],
    ..spec::SourceSpec::named("parted", "GNU parted messages")
};

#[cfg(test)]
mod tests;
