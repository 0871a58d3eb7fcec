//! Find tool outputs inside free text. The tools' line detectors live with their source
//! specs (`sources::<tool>::SPEC`, see `sources::spec`): each spec's `Recogniser` gives its
//! ranked start detectors, member lines, tolerances and classifier, and this module walks
//! them generically: a block builder that tolerates blank lines and short interruptions,
//! then the spec's own rules for which device and command a block belongs to. Command
//! lines too: the programs a prompt may run and how prose names a command come from the
//! specs (`SourceSpec::programs`, `SourceSpec::mention`); only the prompt's shape, cp and
//! the readers of logs and kernel files (grep, cat, journalctl) are this module's own.

use regex::Regex;
use schemars::JsonSchema;
use serde::Serialize;
use std::sync::LazyLock;

use crate::pasted::Line;
pub(crate) use crate::pasted::device_in_args;
pub use crate::pasted::{Block, Command, DEV_ARG, Tool};
use crate::sources::{
    self, SPECS,
    spec::{BlockState, Member, Paste, Program, Recogniser, Start, StartFn},
};

/// A `name=value` or `name: value` setting found inside prose (seed 000's
/// `hw.ata.wc="0"` in loader.conf).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct InlineSetting {
    pub name: String,
    pub value: String,
    pub src: usize,
    pub line: usize,
}

/// Everything recognised in the prepared lines.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct Recognized {
    pub blocks: Vec<Block>,
    pub commands: Vec<Command>,
    pub settings: Vec<InlineSetting>,
    /// (src, first, last) ranges of non-blank lines nobody claimed.
    pub ignored: Vec<(usize, usize, usize)>,
}

impl Recognized {
    /// What the facts read of it (`facts::pasted::derive`), with all the paste's lines.
    pub fn pasted<'a>(&'a self, lines: &'a [Line]) -> crate::pasted::Pasted<'a> {
        crate::pasted::Pasted {
            blocks: &self.blocks,
            commands: &self.commands,
            lines,
        }
    }
}

fn re(s: &str) -> Regex {
    Regex::new(s).expect("static regex")
}

macro_rules! rx {
    ($name:ident, $pat:expr) => {
        static $name: LazyLock<Regex> = LazyLock::new(|| re($pat));
    };
}

// ---- loader.conf/sysctl settings named in prose ----
rx!(
    SYSCTL_INLINE,
    r#"\b((?:hw\.ata\.(?:wc|ata_dma|atapi_dma)|kern\.cam\.ada\.(?:\d+\.)?(?:write_cache|read_ahead)|kern\.cam\.da\.\d+\.(?:rotating|delete_method)|hw\.ahci\.\w+|vfs\.zfs\.\w+|kern\.geom\.\w+))\s*[=:]\s*"?([\w.-]+)"?"#
);

// ---- commands ----
/// A prompt (`host# `, `[user@host ~]$ `, BusyBox ash's cwd `/ # `, a bracketed `[~]> `, `1) `,
/// Gentoo's default `\u@\h \w \$` as `user@host /media/disk $ `, a host with no name set
/// (`root@(none):/# `: the kernel's default nodename, init/version.c UTS_NODENAME), the shell's trace of a
/// script run with `set -x`, `+ fio ...` (bash(1), PS4: "+" repeated per level), ...),
/// wrappers (sudo, time)
/// and a directory before the program name; the names come from the registry ([`PROGRAMS`]).
/// (the prompt part; [`RUNNER`] is what runs the program).
const PROMPT_LEAD: &str = r"^(?:\d+[.)]\s+)?(?:(?:\[[^\]]{1,40}\]\s?[#$%>]|[\w.-]+@[\w.-]+\s+[~/][\w/.~-]*\s?[#$%]|[\w.-]+(?:@(?:[\w.-]+|\(none\)))?(?::[\w/~.-]*)?\s?[#$%]|[~/][\w/.-]*\s?[#$%]|[\w-]+:|[#$%]|\++|guest\s+#)\s+)?";
/// What runs the program: sudo, the shell's `time`, a directory.
const RUNNER: &str = r"(?:sudo\s+)?(?:time\s+(?:~?/\S+\s+)?)?(?:\S*/)?";
/// Commands typed before the followed one on the same line that print nothing a reader
/// would take for its output (bash(1) "Lists": commands separated by `;` or `&&` run in
/// turn): `sync`, `cd DIR`, dropping the page cache (proc(5) /proc/sys/vm/drop_caches,
/// by echo, tee or sysctl -w), a shell variable set for what follows (bash(1) "PARAMETERS":
/// `name=value`, `DISK=nvme3n1; dd if=/dev/$DISK ...`, see [`expand_assignments`]).
/// `sync; dd if=/dev/zero of=f bs=1M count=1024; sync` runs dd.
const QUIET_LIST: &str = r"(?:(?:sudo\s+)?(?:sync|cd\s+\S+|(?:export\s+)?[A-Za-z_]\w*=[\w/.:-]*|echo\s+[0-3]\s*(?:>|\|\s*(?:sudo\s+)?tee)\s*/proc/sys/vm/drop_caches|(?:\S*/)?sysctl\s+(?:-[wq]\s+)*vm\.drop_caches=[0-3])\s*(?:;|&&)\s*)*";

/// Programs with no source spec of their own: cp (the benchmark critic pairs it with its
/// timing; copy.rs reads only the summaries around it) and the readers of logs and
/// kernel files, whose output is whatever they read (a kernel log, a sysfs attribute,
/// /proc/mdstat), so their arguments say whether they are worth following.
const OWN_PROGRAMS: &[Program] = &[
    Program {
        names_device: false,
        ..Program::new("cp", cp_args)
    },
    Program::new("grep", reader_args),
    Program::new("egrep", reader_args),
    Program::new("journalctl", reader_args),
    Program::new("cat", reader_args),
];

/// Two operands, and no word that ends a sentence ("cp is slow here.").
fn cp_args(a: &str) -> bool {
    let n = a.split_whitespace().filter(|w| !w.starts_with('-')).count();
    n == 2
        && a.split_whitespace()
            .all(|w| !w.ends_with(['.', ',', '!', '?']) || w.contains('/'))
}

/// A reader worth following reads a kernel log (dmesg, /var/log, journalctl -k, a grep
/// for ata ports) or a kernel file (sysfs, /proc/mdstat, /proc/diskstats).
fn reader_args(a: &str) -> bool {
    [
        "dmesg",
        "/var/log",
        "-k",
        " ata",
        "/sys/",
        "/proc/mdstat",
        "/proc/diskstats",
        "/proc/crypto",
    ]
    .iter()
    .any(|w| a.contains(w))
}

/// Every program explain follows: the specs' (`SourceSpec::programs`) in registry order,
/// then its own.
static PROGRAMS: LazyLock<Vec<&'static Program>> = LazyLock::new(|| {
    SPECS
        .iter()
        .flat_map(|s| s.programs.iter())
        .chain(OWN_PROGRAMS.iter())
        .collect()
});

static PROMPT: LazyLock<Regex> = LazyLock::new(|| {
    let names: Vec<String> = PROGRAMS.iter().map(|p| regex::escape(p.name)).collect();
    re(&format!(
        r"{PROMPT_LEAD}{QUIET_LIST}{RUNNER}({})(?:\s+(.*))?$",
        names.join("|")
    ))
});

/// A command named in prose before its device ("the output of camcontrol identify
/// ada0"): the specs' `mention` patterns, then the device (group 3).
static MENTION: LazyLock<Regex> = LazyLock::new(|| {
    let named: Vec<&str> = SPECS.iter().filter_map(|s| s.mention).collect();
    re(&format!(
        r"\b({})\s+(/dev/(?:mapper/)?)?([A-Za-z]+\d+[\w.]*|sd[a-z]+\d*|[\w-]+)",
        named.join("|")
    ))
});

/// The program a typed command runs, if explain follows it.
fn program(name: &str) -> Option<&'static Program> {
    PROGRAMS.iter().copied().find(|p| p.name == name)
}

/// A shell loop typed on one line (bash(1) "Compound Commands": `for name in words; do
/// list; done`, `while list; do list; done`, `until ...`): group 1 is its body, whose
/// commands run once per pass, so the output below is theirs (`for i in {0..10};do echo
/// $i;time dd if=/dev/zero of=f bs=4096 count=102;done 2>&1 | grep bytes`).
static SHELL_LOOP: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"{PROMPT_LEAD}{RUNNER}(?:for\s+(\w+)\s|while\s|until\s).*?;\s*do\s+(.*?)(?:;\s*done\b.*)?$"
    ))
});

fn command_at(line: &Line, idx: usize) -> Option<Command> {
    let t = line.text.trim();
    if t.len() > 300 {
        return None;
    }
    typed_command(line, idx, t).or_else(|| {
        // The first followed program among the loop body's `;`/`&&`-separated commands
        // (bash(1) "Lists"); `echo $i` and the like are not followed, so they are skipped.
        let c = SHELL_LOOP.captures(t)?;
        let body = c.get(2)?.as_str();
        let cmd = body
            .split([';', '&'])
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .find_map(|c| typed_command(line, idx, c))?;
        // A body that takes the loop's variable (`for dev in /dev/sd[a-d]; do smartctl -a
        // $dev | grep ...`) runs on a different target each pass: its output is several
        // devices' and belongs to no one command.
        let var = c.get(1).map(|v| v.as_str());
        let per_pass = var.is_some_and(|v| {
            cmd.text.contains(&format!("${v}")) || cmd.text.contains(&format!("${{{v}}}"))
        });
        (!per_pass).then_some(cmd)
    })
}

/// `t` as a command line typed at a prompt, if it runs a program explain follows with real
/// arguments.
fn typed_command(line: &Line, idx: usize, t: &str) -> Option<Command> {
    if let Some(c) = PROMPT.captures(t) {
        let program = c.get(1)?.as_str();
        let args = c.get(2).map(|m| m.as_str()).unwrap_or("");
        // Only real arguments make a command: prose such as "dd seems to do a good job"
        // or "cp is slow" is not one.
        let p = self::program(program)?;
        if (p.args)(args.trim()) {
            let start = c.get(1)?.start();
            let before = t.get(..start).unwrap_or("");
            let text = expand_assignments(before, t.get(start..).unwrap_or(t));
            let args = expand_assignments(before, args);
            let device = if p.names_device {
                device_in_args(&args)
            } else {
                None
            };
            return Some(Command {
                src: line.src,
                line: line.first,
                idx,
                program: program.to_string(),
                text,
                device,
                typed: true,
            });
        }
    }
    None
}

/// `text` with the shell variables that `before` sets (`DISK=nvme3n1; `) put in for
/// `$DISK` and `${DISK}`, as the shell expands them (bash(1) "Parameter Expansion").
fn expand_assignments(before: &str, text: &str) -> String {
    let mut out = text.to_string();
    for word in before.split([';', '&', ' ', '\t']) {
        let Some((name, value)) = word.split_once('=') else {
            continue;
        };
        let plain = !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit());
        if let Some(r) = plain
            .then(|| Regex::new(&format!(r"\$(?:\{{{name}\}}|{name}\b)")).ok())
            .flatten()
        {
            out = r.replace_all(&out, regex::NoExpand(value)).into_owned();
        }
    }
    out
}

/// Whether `t` is a command line someone typed, with or without a prompt (`sudo dd
/// if=/dev/md127 of=/tmp/output bs=8k`, `# smartctl -a /dev/sda`): a followed program at
/// the start with real arguments (its spec's `Program::args`). Such a line starts a new
/// command and never continues the line before it: the mail-unwrapper
/// (`segment::unwrap`) leaves it on its own line, so the block above it ends there and
/// the command's output gets its own block.
pub(super) fn is_command_line(t: &str) -> bool {
    let t = t.trim();
    t.len() <= 300
        && PROMPT.captures(t).is_some_and(|c| {
            let (Some(p), args) = (c.get(1), c.get(2).map_or("", |m| m.as_str())) else {
                return false;
            };
            program(p.as_str()).is_some_and(|p| (p.args)(args.trim()))
        })
}

fn mention_at(line: &Line, idx: usize) -> Option<Command> {
    let t = line.text.trim();
    if t.len() > 200 {
        return None;
    }
    let c = MENTION.captures(t)?;
    let whole = c.get(0)?.as_str();
    let program = whole.split_whitespace().next()?.to_string();
    let device = c
        .get(3)
        .map(|m| m.as_str().to_string())
        .filter(|d| DEV_ARG.is_match(d));
    Some(Command {
        src: line.src,
        line: line.first,
        idx,
        program,
        text: whole.trim_end_matches(':').to_string(),
        device,
        typed: false,
    })
}

/// The start detectors of every recogniser in the registry, in rank order (each
/// recogniser once, though several specs share it).
static STARTS: LazyLock<Vec<(u16, StartFn, &'static Recogniser)>> = LazyLock::new(|| {
    let mut v: Vec<(u16, StartFn, &'static Recogniser)> = Vec::new();
    let mut seen: Vec<&'static str> = Vec::new();
    for spec in SPECS {
        let Some(paste) = &spec.paste else { continue };
        let family = paste.family;
        if seen.contains(&family.name) {
            continue;
        }
        seen.push(family.name);
        v.extend(family.starts.iter().map(|(rank, f)| (*rank, *f, family)));
    }
    crate::sort::sort_by_key(&mut v, |(rank, _, _)| *rank);
    v
});

/// The recogniser a line can start, if it is a strong signature of one.
fn start_kind(texts: &[&str], i: usize) -> Option<&'static Recogniser> {
    let rest = texts.get(i..)?;
    if rest.first()?.trim().is_empty() {
        return None;
    }
    for (_, start, family) in STARTS.iter() {
        match start(rest) {
            Start::Yes => return Some(family),
            Start::Stop => return None,
            Start::No => {}
        }
    }
    None
}

/// A sentence of prose rather than a line of tool output: unindented, six or more words,
/// nearly all of them plain words, no `key=value`, no hex, no aligned columns.
fn looks_like_prose(t: &str) -> bool {
    if t.starts_with([' ', '\t']) || t.contains("  ") || t.contains('=') || t.contains("0x") {
        return false;
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    if words.len() < 6 || words.first().is_some_and(|w| w.ends_with(':')) {
        return false;
    }
    let plain = words
        .iter()
        .filter(|w| {
            let w = w.trim_matches(|c: char| ",.;:!?'\"()".contains(c));
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_alphabetic() || c == '-' || c == '\'')
        })
        .count();
    plain * 100 >= words.len() * 75
}

/// Count a member line into the block's state.
fn update_state(family: &Recogniser, t: &str, st: &mut BlockState) {
    st.rows += 1;
    if let Some(update) = family.update {
        update(t, st);
    }
}

/// Recognise every block and command in the prepared lines (all inputs, in order).
pub fn recognize(lines: &[Line]) -> Recognized {
    let mut out = Recognized::default();
    let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    let mut claimed = vec![false; lines.len()];
    let mut i = 0usize;
    // Commands seen and not yet attached to a block: (command index in out.commands).
    let mut pending: Option<usize> = None;
    while i < lines.len() {
        let Some(line) = lines.get(i) else { break };
        let t = line.text.as_str();
        if t.trim().is_empty() || t.trim() == "```" {
            i += 1;
            continue;
        }
        for c in SYSCTL_INLINE.captures_iter(t) {
            if let (Some(n), Some(v)) = (c.get(1), c.get(2))
                && !sources::sysctl::is_line(t)
            {
                out.settings.push(InlineSetting {
                    name: n.as_str().to_string(),
                    value: v.as_str().to_string(),
                    src: line.src,
                    line: line.first,
                });
            }
        }
        if let Some(cmd) = command_at(line, i) {
            claimed[i] = true;
            out.commands.push(cmd);
            pending = Some(out.commands.len() - 1);
            i += 1;
            continue;
        }
        let Some(family) = start_kind(&texts, i) else {
            if let Some(m) = mention_at(line, i) {
                out.commands.push(m);
                pending = Some(out.commands.len() - 1);
            }
            i += 1;
            continue;
        };
        let end = extend(lines, &texts, i, family);
        for c in claimed.iter_mut().take(end).skip(i) {
            *c = true;
        }
        // A command applies when it came within 4 lines before the block, in the same input.
        let cmd = pending.take().and_then(|ci| {
            let c = out.commands.get(ci)?;
            (c.src == line.src && i.saturating_sub(c.idx) <= 4).then(|| c.clone())
        });
        let block = finish(lines, i, end, family, cmd.as_ref(), &out.blocks);
        out.blocks.push(block);
        i = end.max(i + 1);
    }
    // Ignored: maximal runs of unclaimed non-blank lines, per input.
    let mut run: Option<(usize, usize, usize)> = None;
    for (j, l) in lines.iter().enumerate() {
        let blank = l.text.trim().is_empty();
        let free = !claimed.get(j).copied().unwrap_or(true) && !blank;
        match (&mut run, free) {
            (Some(r), true) if r.0 == l.src => r.2 = l.last,
            (Some(_), true) => {
                out.ignored.extend(run.take());
                run = Some((l.src, l.first, l.last));
            }
            (None, true) => run = Some((l.src, l.first, l.last)),
            (Some(_), false) if !blank => out.ignored.extend(run.take()),
            _ => {}
        }
    }
    out.ignored.extend(run);
    out
}

/// Grow a block from `start`; returns the end index (exclusive).
fn extend(lines: &[Line], texts: &[&str], start: usize, family: &Recogniser) -> usize {
    let mut st = BlockState::default();
    let src = lines.get(start).map(|l| l.src).unwrap_or(0);
    let (max_blank, max_other) = family.tolerance;
    let first = lines.get(start).map(|l| l.text.as_str()).unwrap_or("");
    update_state(family, first, &mut st);
    let mut end = start + 1;
    let mut j = start + 1;
    let mut blanks = 0usize;
    let mut others = 0usize;
    let mut soft = 0usize;
    // A block ends at a cap so one giant paste cannot make one giant block.
    while j < lines.len() && j - start < 200_000 {
        let Some(l) = lines.get(j) else { break };
        if l.src != src {
            break;
        }
        let t = l.text.as_str();
        if family.whole {
            if st.done {
                break;
            }
            update_state(family, t, &mut st);
            end = j + 1;
            j += 1;
            continue;
        }
        if t.trim().is_empty() {
            blanks += 1;
            if blanks > max_blank {
                break;
            }
            j += 1;
            continue;
        }
        // A typed command always ends a block.
        if command_at(l, j).is_some() {
            break;
        }
        // In a permissive block another tool's first line still starts a new block.
        // (Unless the recogniser absorbs it: see `Recogniser::absorbs`.)
        if family.permissive
            && start_kind(texts, j).is_some_and(|k| {
                k.name != family.name && !family.absorbs.is_some_and(|absorbs| absorbs(k.name, t))
            })
        {
            break;
        }
        match (family.member)(t, &st) {
            Member::Yes => {
                update_state(family, t, &mut st);
                end = j + 1;
                blanks = 0;
                others = 0;
                soft = 0;
            }
            Member::NewBlock => break,
            Member::No => {
                if start_kind(texts, j).is_some_and(|k| k.name != family.name) {
                    break;
                }
                if family.permissive && !looks_like_prose(t) {
                    // Output-like but unknown: kept only when a known line follows, so a
                    // "Thanks," after the output is not swallowed.
                    soft += 1;
                    blanks = 0;
                    if soft > 40 {
                        break;
                    }
                } else {
                    others += 1;
                    if others > max_other {
                        break;
                    }
                }
            }
        }
        j += 1;
    }
    end
}

/// Whether the command typed before a block produced it.
fn cmd_matches(paste: Option<&Paste>, cmd: Option<&Command>) -> bool {
    match (paste, cmd) {
        (Some(p), Some(c)) => (p.command)(&c.program, &c.text),
        _ => false,
    }
}

fn finish(
    lines: &[Line],
    start: usize,
    end: usize,
    family: &'static Recogniser,
    cmd: Option<&Command>,
    earlier: &[Block],
) -> Block {
    let slice = lines.get(start..end).unwrap_or(&[]);
    let text: String = slice
        .iter()
        .map(|l| {
            family
                .clean
                .and_then(|clean| clean(&l.text))
                .unwrap_or_else(|| l.text.clone())
        })
        .collect::<Vec<_>>()
        .join("\n");
    let id = (family.classify)(&text, cmd.map(|c| c.program.as_str()));
    // A classify naming no tool would be a registry bug (tests/it/sources_registry.rs checks
    // every fixture); the family's first tool stands in rather than a panic.
    let tool = Tool::from_id(id)
        .or_else(|| {
            Tool::all().find(|t| {
                t.spec()
                    .paste
                    .as_ref()
                    .is_some_and(|p| p.family.name == family.name)
            })
        })
        .unwrap_or(Tool::of(&sources::df::SPEC));
    let paste = tool.spec().paste.as_ref();
    let first_line = slice.first().map(|l| l.first).unwrap_or(0);
    let last_line = slice.last().map(|l| l.last).unwrap_or(first_line);
    let src = slice.first().map(|l| l.src).unwrap_or(0);
    let from_text = || {
        paste
            .and_then(|p| p.device)
            .and_then(|device| device(&text))
    };
    // gpart show prints the provider on its header line; prefer it to the command's
    // last argument ("gpart show da0 da0s1").
    let mut device = if paste.is_some_and(|p| p.device_in_text_first) {
        from_text()
    } else {
        None
    };
    if device.is_none() {
        device = cmd
            .and_then(|c| c.device.clone())
            .filter(|_| cmd_matches(paste, cmd));
    }
    if device.is_none() {
        device = from_text();
    }
    if let Some(of_command) = paste.and_then(|p| p.command_device) {
        // These name a pool, not a disk: `zdb -C tank`, `zpool get ashift tank all-vdevs`.
        device = cmd
            .filter(|_| cmd_matches(paste, cmd))
            .and_then(|c| of_command(&c.text));
    }
    if device.is_none()
        && let Some(same) = paste.and_then(|p| p.same_drive)
    {
        // The same drive shown again (seed 000: the table after disabling the cache):
        // reuse the device of an earlier block of the same drive.
        device = earlier
            .iter()
            .rev()
            .filter(|b| b.tool == tool)
            .find(|b| same(&text, &b.text))
            .and_then(|b| b.device.clone());
    }
    Block {
        tool,
        device,
        command: cmd
            .filter(|_| cmd_matches(paste, cmd))
            .map(|c| c.text.clone()),
        src,
        first: first_line,
        last: last_line,
        idx: (start, end),
        key: String::new(),
        text,
    }
}

#[cfg(test)]
mod tests;
