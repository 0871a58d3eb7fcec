//! Kernel log lines about a disk (Linux dmesg/journal, FreeBSD dmesg.boot/CAM).
//!
//! Reference: the Linux libata error handler messages (drivers/ata/libata-eh.c: "failed
//! command:", "Emask 0x4 (timeout)", "{ ICRC ABRT }", "{ UNC }", "hard resetting link",
//! "limiting SATA link speed", "COMRESET failed"), the block layer ("I/O error, dev sda,
//! sector N"), SCSI sense decoding ("Sense Key : Medium Error", "Unrecovered read error"),
//! and FreeBSD CAM (cam_periph.c / ata_da.c: "(ada0:ahcich0:0:0:0): READ_FPDMA_QUEUED ...",
//! "CAM status: ATA Status Error", "CAM status: Command timeout", "MEDIUM ERROR",
//! "Uncorrectable parity/CRC error").
//!
//! libata names ports, not disks ("ata3.00:"), so a port line concerns a disk only when the
//! caller knows the port ([`events_for_port`]) or the log itself ties them together: the
//! "ataN.00: ATA-x: MODEL" identity line, the "scsi H:0:0:0: Direct-Access ATA MODEL" line
//! and the "sd H:0:0:0: [sda]" line share the model and the host number.

use crate::model::{KernelEvent, KernelEventKind};

/// Events in `log` that concern the disk named `disk` (sda, ada0); `from` is the capture key.
/// Lines naming the disk always count; libata port lines count when the log ties the port
/// to the disk (see the module docs).
pub fn events_for(disk: &str, log: &str, from: &str) -> Vec<KernelEvent> {
    let disk = disk.trim_start_matches("/dev/");
    if disk.is_empty() {
        return Vec::new();
    }
    let port = ata_port_for(disk, log);
    let channel = cam_channel_for(disk, log);
    let mut out = Vec::new();
    let mut no_medium = 0usize;
    for (body, line_port) in port_lines(log) {
        let mine = names_disk(body, disk)
            || port.is_some_and(|p| line_port == Some(p))
            || channel.as_deref().is_some_and(|c| names_channel(body, c));
        if !mine {
            continue;
        }
        if body.to_ascii_lowercase().contains("medium not present") {
            no_medium = no_medium.saturating_add(1);
        }
        if let Some(kind) = classify(body) {
            out.push(KernelEvent {
                kind,
                line: body.trim().to_string(),
                from: from.to_string(),
            });
        }
    }
    // A command that failed with sense NOT READY, "Medium not present" (SPC-4 ASC 3Ah) met
    // an empty card-reader slot or an ejected medium: its status line ("CAM status: SCSI
    // Status Error", the block layer's "I/O error") is no fault of a disk. Each such sense
    // line cancels one I/O-error line of its command.
    while no_medium > 0 {
        let Some(i) = out.iter().rposition(|e| e.kind == KernelEventKind::IoError) else {
            break;
        };
        out.remove(i);
        no_medium -= 1;
    }
    out
}

/// Events on libata port `port` (the N of "ataN"), for callers that know which port the
/// disk hangs off (Linux sysfs `/sys/block/sda/device` -> `.../ataN/...`).
pub fn events_for_port(port: u32, log: &str, from: &str) -> Vec<KernelEvent> {
    port_lines(log)
        .into_iter()
        .filter_map(|(body, line_port)| {
            if line_port != Some(port) {
                return None;
            }
            classify(body).map(|kind| KernelEvent {
                kind,
                line: body.trim().to_string(),
                from: from.to_string(),
            })
        })
        .collect()
}

/// Every disk-health event in the log regardless of device, with the device it names
/// ("sda", "ata1", "ada2") when one can be read off the line.
pub fn all_events(log: &str, from: &str) -> Vec<(Option<String>, KernelEvent)> {
    port_lines(log)
        .into_iter()
        .filter_map(|(body, port)| {
            let kind = classify(body)?;
            let continued = port.filter(|_| port_of(body).is_none());
            Some((
                device_named(body).or_else(|| continued.map(|p| format!("ata{p}"))),
                KernelEvent {
                    kind,
                    line: body.trim().to_string(),
                    from: from.to_string(),
                },
            ))
        })
        .collect()
}

/// Drop mail quotes, "[  12.345678]" timestamps and syslog/journal prefixes such as
/// "Dec 10 18:56:03 host kernel: " or "Dec 10 18:56:03 kernel: ".
pub fn strip_prefixes(raw: &str) -> &str {
    let mut s = raw.trim_start();
    while let Some(r) = s.strip_prefix('>') {
        s = r.trim_start();
    }
    // A line quoted as Markdown inline code: "`ata1.00: ... NCQ (not used)`".
    if let Some(inner) = s.strip_prefix('`') {
        s = inner.trim_end().trim_end_matches('`');
    }
    s = strip_printk_level(s);
    // journal/syslog: the "kernel:" tag within the first ~64 bytes; RFC 5424 syslog puts
    // "kernel - - - " (APP-NAME, then nil PROCID, MSGID and STRUCTURED-DATA) there instead.
    for tag in ["kernel: ", "kernel - - - "] {
        if let Some(i) = s.find(tag)
            && i < 64
        {
            s = s.get(i + tag.len()..).unwrap_or(s);
            break;
        }
    }
    let t = s.trim_start();
    if let Some(rest) = t.strip_prefix('[')
        && let Some(end) = rest.find(']')
    {
        let stamp = rest.get(..end).unwrap_or("");
        // Also a console logger's wall-clock stamp: "[2021-12-10 20:56:10] ahcich1: ...".
        if (stamp.trim().chars().all(|c| {
            c.is_ascii_digit() || c == '.' || c == ' ' || c == ':' || c == ',' || c == '-'
        }) && !stamp.trim().is_empty())
            || is_ctime_stamp(stamp)
        {
            return strip_printk_level(rest.get(end + 1..).unwrap_or("").trim_start());
        }
    }
    strip_printk_level(t)
}

/// dmesg -T's stamp, ctime(3) style: "Tue Oct 27 08:51:30 2020" (util-linux dmesg.c), with
/// the locale's day and month abbreviations ("Fr Aug 26 22:01:01 2022" under de_DE).
fn is_ctime_stamp(s: &str) -> bool {
    let word =
        |x: &&str| (2..=5).contains(&x.chars().count()) && x.chars().all(char::is_alphabetic);
    let w: Vec<&str> = s.split_whitespace().collect();
    w.len() == 5
        && w.first().is_some_and(word)
        && w.get(1).is_some_and(word)
        && w.get(2)
            .is_some_and(|d| d.chars().all(|c| c.is_ascii_digit()))
        && w.get(3).is_some_and(|t| t.split(':').count() == 3)
        && w.get(4)
            .is_some_and(|y| y.len() == 4 && y.chars().all(|c| c.is_ascii_digit()))
}

/// A printk level "<3>" (dmesg -r, serial consoles, some forum pastes) before the text.
fn strip_printk_level(s: &str) -> &str {
    if let Some(r) = s.strip_prefix('<')
        && let Some((lvl, rest)) = r.split_once('>')
        && !lvl.is_empty()
        && lvl.len() <= 3
        && lvl.chars().all(|c| c.is_ascii_digit())
    {
        return rest;
    }
    s
}

/// Whether `body` names the disk: "[sda]", "dev sda", "dev sda3," (a partition of it),
/// FreeBSD "(ada0:" CAM prefix or "ada0: " at the start.
fn names_disk(body: &str, disk: &str) -> bool {
    if body.contains(&format!("[{disk}]")) || body.contains(&format!("({disk}:")) {
        return true;
    }
    if let Some(rest) = body.strip_prefix(disk)
        && rest.starts_with(':')
    {
        return true;
    }
    let mut search = body;
    while let Some(i) = search.find("dev ") {
        let after = search.get(i + 4..).unwrap_or("");
        if let Some(rest) = after.strip_prefix(disk) {
            let tail: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            // sda3 is on sda; nvme0n1p2 on nvme0n1; but sdab is another disk.
            let partition = tail.is_empty()
                || tail.chars().all(|c| c.is_ascii_digit())
                    && !disk.ends_with(|c: char| c.is_ascii_digit())
                || tail
                    .strip_prefix('p')
                    .is_some_and(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
                || tail
                    .strip_prefix('s')
                    .is_some_and(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric()));
            if partition {
                return true;
            }
        }
        search = after;
    }
    false
}

/// Each line of `log` without its prefixes, with the libata port it concerns: the port the
/// line names ("ata3.00: ..."), or for a "res ..." line the port of the line before it.
/// libata prints a failed command as one printk, "ataN.MM: cmd ...\n         res ... Emask
/// 0x4 (timeout)" (libata-eh.c ata_eh_link_report), so the "res" half (which carries the
/// error class) reaches the log as a line of its own, with or without a timestamp.
fn port_lines(log: &str) -> Vec<(&str, Option<u32>)> {
    let mut last: Option<u32> = None;
    log.lines()
        .map(|raw| {
            let body = strip_prefixes(raw);
            let port = match port_of(body) {
                Some(p) => Some(p),
                None if body.trim_start().starts_with("res ") => last,
                None => None,
            };
            last = port;
            (body, port)
        })
        .collect()
}

fn names_channel(body: &str, chan: &str) -> bool {
    body.strip_prefix(chan).is_some_and(|r| r.starts_with(':'))
}

/// The device a line names, for [`all_events`].
fn device_named(body: &str) -> Option<String> {
    if let Some(i) = body.find("dev ") {
        let name: String = body
            .get(i + 4..)
            .unwrap_or("")
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if !name.is_empty() {
            return Some(name);
        }
    }
    if let Some(i) = body.find('[') {
        let name: String = body
            .get(i + 1..)
            .unwrap_or("")
            .chars()
            .take_while(|c| *c != ']')
            .collect();
        if name.starts_with("sd") || name.starts_with("vd") || name.starts_with("nvme") {
            return Some(name);
        }
    }
    if let Some(rest) = body.strip_prefix('(') {
        return rest.split(':').next().map(str::to_string);
    }
    let first = body.split([':', '.']).next().unwrap_or("");
    if first.starts_with("ata")
        && first.len() > 3
        && first.chars().skip(3).all(|c| c.is_ascii_digit())
    {
        return Some(first.to_string());
    }
    None
}

/// What a kernel log line reports, if anything disk-health related.
pub fn classify(body: &str) -> Option<KernelEventKind> {
    let low = body.to_ascii_lowercase();
    // Transport CRC errors first: "{ ICRC ABRT }" lines also carry "error:".
    if body.contains("ICRC")
        || body.contains("BadCRC")
        || low.contains("interface crc error")
        || low.contains("uncorrectable parity/crc error")
    {
        return Some(KernelEventKind::CrcError);
    }
    if low.contains("comreset failed") {
        return Some(KernelEventKind::ComresetFailed);
    }
    // "limiting SATA link speed to 1.5 Gbps"; on PATA and emulated IDE the same step-down
    // is of the transfer mode: "ata1.00: limiting speed to MWDMA1:PIO2" (libata-eh.c
    // ata_down_xfermask_limit).
    if low.contains("limiting sata link speed") || low.contains(": limiting speed to ") {
        return Some(KernelEventKind::LinkSpeedLimited);
    }
    // ahci(4) (sys/dev/ahci/ahci.c ahci_reset()): "ahcich0: AHCI reset: device not ready
    // after 31000ms": the port was reset and the drive did not come back ready.
    if low.contains("hard resetting link") || low.contains("ahci reset: device not ready") {
        return Some(KernelEventKind::LinkReset);
    }
    // ahci(4) "ahcich0: Timeout on slot N port M" (sys/dev/ahci/ahci.c ahci_timeout()): the
    // controller gave up waiting for the port, marks the channel's error fatal and resets
    // the channel once its commands are ended (ch->fatalerr -> ahci_reset()), a COMRESET of
    // the link. The same text from siis(4), mvs(4) and fsl_sata. The disk's own "CAM status:
    // Command timeout" line stays an I/O timeout.
    if low.contains("timeout on slot") {
        return Some(KernelEventKind::LinkReset);
    }
    // CAM: "(ada0:ahcich4:0:0:0): lost device" - the disk dropped off its SATA/ATA channel
    // (cam_periph.c / ata_xpt.c on a link-down); on USB ("(da0:umass-sim0:...)") it is an
    // unplug and means nothing.
    if low.contains("): lost device") && !low.contains("umass") {
        return Some(KernelEventKind::LinkReset);
    }
    // libata's Emask decoding: "(ATA bus error)" is a transport fault, like a CRC error.
    // "exception Emask 0x10" is AC_ERR_ATA_BUS (include/linux/libata.h: 1 << 4) on the
    // port line itself, whose decoded "(ATA bus error)" may sit on a continuation line.
    // SError bits 10B8B (8b/10b decode), Dispar (disparity), LinkSeq, Handshk, TrStaTr and
    // UnrecovData are damaged frames on the wire (libata-eh.c ata_eh_analyze_serror).
    if low.contains("(ata bus error)")
        || low.contains("exception emask 0x10 ")
        || (low.contains("serror: {")
            && [
                "10B8B",
                "Dispar",
                "LinkSeq",
                "Handshk",
                "TrStaTr",
                "UnrecovData",
            ]
            .iter()
            .any(|w| has_word(body, w)))
    {
        return Some(KernelEventKind::CrcError);
    }
    // "exception Emask 0x0 SAct 0x3ffffff8 SErr 0x50000 action 0x6 frozen": SErr bit 16 is
    // PHYRdyChg (SERR_PHYRDY_CHG, include/linux/libata.h), the PHY dropping out of the ready
    // state. With queued commands outstanding (SAct non-zero) the link fell away under I/O,
    // which is link power management, a loose cable or a sagging supply; a hot-plug of an
    // idle port has SAct 0 and stays noise (below).
    if low.contains("exception emask")
        && hex_field(&low, "sact ").is_some_and(|v| v != 0)
        && hex_field(&low, "serr ").is_some_and(|v| v & 0x1_0000 != 0)
    {
        return Some(KernelEventKind::LinkReset);
    }
    if low.contains("medium error")
        || low.contains("(media error)")
        || low.contains("unrecovered read error")
        || has_word(body, "UNC")
    {
        return Some(KernelEventKind::MediumError);
    }
    // libata: "cmd 60/... Emask 0x4 (timeout)"; CAM: "CAM status: Command timeout".
    // uas(4): "sd 0:0:0:0: [sda] tag#28 uas_eh_abort_handler 0 uas-tag 10 inflight: CMD OUT"
    // is the SCSI error handler aborting a command that ran past its timeout (uas.c
    // uas_eh_abort_handler, called from scsi_error.c after the request timed out).
    if low.contains("(timeout)")
        || low.contains("uas_eh_abort_handler")
        || low.contains("cam status: command timeout")
    {
        return Some(KernelEventKind::IoTimeout);
    }
    if low.contains("i/o error")
        || low.contains("cam status: ata status error")
        || low.contains("cam status: scsi status error")
        || low.contains("retries exhausted")
    {
        return Some(KernelEventKind::IoError);
    }
    None
}

/// The hex number after `key` ("sact " -> 0x3ffffff8) in a lower-cased libata line.
fn hex_field(low: &str, key: &str) -> Option<u64> {
    let rest = low.get(low.find(key)? + key.len()..)?.strip_prefix("0x")?;
    let digits: String = rest.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
    u64::from_str_radix(&digits, 16).ok()
}

fn has_word(s: &str, w: &str) -> bool {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|t| t == w)
}

/// The libata port of `disk`, when the log ties them: "sd H:C:T:L: [disk]" gives the SCSI
/// host H; "scsi H:C:T:L: Direct-Access ATA MODEL16" gives the model as SCSI inquiry shows
/// it (16 bytes); "ataN.00: ATA-x: MODEL, FW, ..." whose model starts with MODEL16 gives N.
pub fn ata_port_for(disk: &str, log: &str) -> Option<u32> {
    let tag = format!("[{disk}]");
    let mut hctl: Option<String> = None;
    for raw in log.lines() {
        let b = strip_prefixes(raw);
        if let Some(rest) = b.strip_prefix("sd ")
            && let Some((h, tail)) = rest.split_once(": ")
            && tail.starts_with(&tag)
        {
            hctl = Some(h.trim().to_string());
            break;
        }
    }
    let hctl = hctl?;
    let mut model: Option<String> = None;
    for raw in log.lines() {
        let b = strip_prefixes(raw);
        if let Some(rest) = b.strip_prefix("scsi ")
            && let Some((h, tail)) = rest.split_once(": ")
            && h.trim() == hctl
            && let Some(after) = tail.split_once(" ATA ").map(|(_, a)| a)
        {
            // Inquiry product is 16 bytes; the revision follows.
            let m: String = after.chars().take(16).collect();
            model = Some(m.trim().to_string());
        }
    }
    let model = model.filter(|m| !m.is_empty())?;
    let mut found: Option<u32> = None;
    for raw in log.lines() {
        let b = strip_prefixes(raw);
        let Some(rest) = b.strip_prefix("ata") else {
            continue;
        };
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        let Ok(n) = digits.parse::<u32>() else {
            continue;
        };
        let Some(after) = rest.get(digits.len()..) else {
            continue;
        };
        // "ata1.00: ATA-10: INTEL SSDSC2KG480G8, XCV10120, max UDMA/133"
        if let Some(id) = after
            .strip_prefix(".00: ATA-")
            .and_then(|x| x.split_once(": "))
            && id.1.starts_with(&model)
        {
            if found.is_some_and(|f| f != n) {
                return None; // ambiguous: two ports with this model
            }
            found = Some(n);
        }
    }
    found
}

/// [`ata_port_for`], else (for a pasted log, where no sysfs says it) the libata numbering
/// of [`port_by_host_number`].
pub fn ata_port_guess(disk: &str, log: &str) -> Option<u32> {
    if let Some(p) = ata_port_for(disk, log) {
        return Some(p);
    }
    let hctl = sd_address(disk, log)?;
    port_by_host_number(&hctl, log)
}

/// The SCSI address H:C:T:L the sd driver gave `disk` ("sd 0:0:0:1: [sdb] ..."), first seen.
fn sd_address(disk: &str, log: &str) -> Option<String> {
    let tag = format!("[{disk}]");
    log.lines().find_map(|raw| {
        let b = strip_prefixes(raw);
        let (h, tail) = b.strip_prefix("sd ")?.split_once(": ")?;
        tail.starts_with(&tag).then(|| h.trim().to_string())
    })
}

/// Without the "scsi H:0:0:0: Direct-Access ATA MODEL" line (a grep, a trimmed paste), the
/// libata numbering: port N registers SCSI host N-1 when the ports of one controller come up
/// in order, which is how ahci and the sata_* drivers number them (libata-core.c
/// ata_host_register gives ports print ids from 1, scsi_host_alloc numbers hosts from 0).
/// Used only when the ports the log names run 1..=N without a gap (one controller's ports,
/// numbered from 1) and port H+1 is among them.
fn port_by_host_number(hctl: &str, log: &str) -> Option<u32> {
    let host: u32 = hctl.split(':').next()?.trim().parse().ok()?;
    let port = host.checked_add(1)?;
    let ports = ports_in(log);
    let max = ports.iter().copied().max()?;
    let contiguous = (1..=max).all(|n| ports.contains(&n));
    (contiguous && ports.contains(&port)).then_some(port)
}

/// The libata ports ("ataN:" / "ataN.00:") the log has lines of, in order, once each.
pub fn ports_in(log: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for raw in log.lines() {
        if let Some(n) = port_of(strip_prefixes(raw))
            && !out.contains(&n)
        {
            out.push(n);
        }
    }
    out
}

/// N of a line starting "ataN:" or "ataN.MM:".
fn port_of(body: &str) -> Option<u32> {
    let rest = body.trim_start().strip_prefix("ata")?;
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let n = digits.parse::<u32>().ok()?;
    matches!(
        rest.get(digits.len()..).and_then(|r| r.chars().next()),
        Some(':') | Some('.') | Some(' ')
    )
    .then_some(n)
}

/// The write-cache state the sd driver reported for `disk` ("sd 0:0:0:0: [sda] Write cache:
/// disabled, read cache: enabled, ..." from sd.c sd_read_cache_type); the last line wins.
pub fn write_cache_of(disk: &str, log: &str) -> Option<bool> {
    let tag = format!("[{disk}] Write cache: ");
    log.lines().rev().find_map(|raw| {
        let b = strip_prefixes(raw);
        let rest = b.get(b.find(&tag)? + tag.len()..)?;
        if rest.starts_with("enabled") {
            Some(true)
        } else if rest.starts_with("disabled") {
            Some(false)
        } else {
            None
        }
    })
}

/// The SCSI INQUIRY vendor and product of `disk` as the scan line shows them: "sd 0:0:0:1:
/// [sdb] ..." gives the address, and "scsi 0:0:0:1: Direct-Access     Msft     Virtual Disk
/// 1.0  PQ: 0 ANSI: 5" holds the 8-byte vendor and 16-byte product fields, blank-padded
/// (scsi_scan.c scsi_add_lun prints them with %8.8s %16.16s).
pub fn inquiry_of(disk: &str, log: &str) -> Option<(String, String)> {
    let hctl = sd_address(disk, log)?;
    log.lines().find_map(|raw| {
        let b = strip_prefixes(raw);
        let (h, tail) = b.strip_prefix("scsi ")?.split_once(": ")?;
        if h.trim() != hctl {
            return None;
        }
        let fields = tail.strip_prefix("Direct-Access")?.trim_start();
        let vendor: String = fields.chars().take(8).collect();
        let model: String = fields.chars().skip(9).take(16).collect();
        let (vendor, model) = (vendor.trim().to_string(), model.trim().to_string());
        (!vendor.is_empty() || !model.is_empty()).then_some((vendor, model))
    })
}

/// What libata's IDENTIFY line says of NCQ on port `port`: "ata1.00: 61865984 sectors,
/// multi 1: LBA48 NCQ (depth 32), AA". libata-core.c ata_dev_config_ncq prints "NCQ (depth
/// N)" when host and drive queue N commands, "NCQ (depth H/D)" when the host queues fewer
/// than the drive (H = 0: the host has no NCQ, e.g. an AHCI port without it or sata_nv),
/// and "NCQ (not used)" when NCQ is turned off for the drive (a horkage or libata.force
/// noncq). A drive without NCQ gets no "NCQ" word at all, which says nothing here.
/// Returns (drive supports NCQ, commands are queued, drive depth); the last line wins.
pub fn ncq_of_port(port: u32, log: &str) -> Option<(bool, bool, Option<u32>)> {
    log.lines().rev().find_map(|raw| {
        let b = strip_prefixes(raw);
        if port_of(b) != Some(port) || !b.contains(" sectors, multi ") {
            return None;
        }
        let rest = b.get(b.find(" NCQ (")? + " NCQ (".len()..)?;
        let inner = rest.split(')').next()?;
        if inner == "not used" {
            return Some((true, false, None));
        }
        let depths = inner.strip_prefix("depth ")?;
        let (host, drive) = match depths.split_once('/') {
            Some((h, d)) => (h.trim().parse::<u32>().ok()?, d.trim().parse::<u32>().ok()?),
            None => {
                let n = depths.trim().parse::<u32>().ok()?;
                (n, n)
            }
        };
        Some((true, host > 1, Some(drive)))
    })
}

/// Whether the sd driver attached `disk` as removable media ("sd 7:0:0:0: [sdb] Attached
/// SCSI removable disk", sd.c sd_probe: the RMB bit of the INQUIRY data), which USB flash
/// sticks and card readers set.
pub fn is_removable(disk: &str, log: &str) -> bool {
    let tag = format!("[{disk}] Attached SCSI removable disk");
    log.lines().any(|raw| strip_prefixes(raw).contains(&tag))
}

/// The USB storage driver behind `disk` when the log shows it: "sd 0:0:0:0: [sda] ..."
/// gives SCSI host 0, and "scsi host0: usb-storage 2-1:1.0" (Bulk-Only Transport) or
/// "scsi host0: uas" (USB Attached SCSI) names the driver that registered that host
/// (drivers/usb/storage/usb.c, uas.c).
pub fn usb_driver_of(disk: &str, log: &str) -> Option<&'static str> {
    let tag = format!("[{disk}]");
    let host = log.lines().find_map(|raw| {
        let b = strip_prefixes(raw);
        let (h, tail) = b.strip_prefix("sd ")?.split_once(": ")?;
        tail.starts_with(&tag)
            .then(|| h.split(':').next().map(str::trim).map(str::to_string))
            .flatten()
    })?;
    let want = format!("scsi host{host}: ");
    log.lines().rev().find_map(|raw| {
        let b = strip_prefixes(raw);
        let drv = b.strip_prefix(&want)?;
        if drv.starts_with("usb-storage") {
            Some("usb-storage")
        } else if drv.trim() == "uas" {
            Some("uas")
        } else {
            None
        }
    })
}

/// libata ports with disk-health events in the log ("ata3: hard resetting link").
pub fn ports_with_events(log: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for (body, port) in port_lines(log) {
        if let Some(n) = port
            && classify(body).is_some()
            && !out.contains(&n)
        {
            out.push(n);
        }
    }
    out
}

/// Disks the log names: "sd H:C:T:L: [sdb] ..." attach lines and the block layer's
/// "I/O error, dev sda, sector N" (a partition counts for its disk), once each, in order.
pub fn disks_named(log: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |n: String| {
        if !n.is_empty() && !out.contains(&n) {
            out.push(n);
        }
    };
    for raw in log.lines() {
        let b = strip_prefixes(raw);
        if let Some(rest) = b.strip_prefix("sd ")
            && let Some((_, tail)) = rest.split_once(": [")
            && let Some((name, _)) = tail.split_once(']')
            && is_sd_name(name)
        {
            push(name.to_string());
        }
        if let Some(i) = b.find(", dev ").or_else(|| b.find("error on dev ")) {
            let after = b.get(i..).unwrap_or("");
            let after = after.split_once("dev ").map(|x| x.1).unwrap_or("");
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            let disk = name.trim_end_matches(|c: char| c.is_ascii_digit());
            if is_sd_name(disk) {
                push(disk.to_string());
            }
        }
    }
    out
}

fn is_sd_name(n: &str) -> bool {
    n.strip_prefix("sd")
        .is_some_and(|r| !r.is_empty() && r.len() <= 3 && r.chars().all(|c| c.is_ascii_lowercase()))
}

/// FreeBSD: the channel SIM of a CAM disk ("ahcich7" from "(ada2:ahcich7:0:0:0):" or from
/// the attach line "ada2 at ahcich7 bus 0 scbus7 target 0 lun 0", cam_periph.c
/// cam_periph_announce), so that channel lines ("ahcich7: Timeout on slot ...") count for
/// the disk.
pub fn cam_channel_for(disk: &str, log: &str) -> Option<String> {
    let tag = format!("({disk}:");
    let attach = format!("{disk} at ");
    log.lines().find_map(|raw| {
        let b = strip_prefixes(raw);
        let rest = match b.strip_prefix(&attach) {
            Some(r) if r.contains(" bus ") => r,
            _ => b.get(b.find(&tag)? + tag.len()..)?,
        };
        let chan: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        (!chan.is_empty()).then_some(chan)
    })
}

// ---- the Linux kernel log's source spec (see sources::spec) ----
use crate::sources::spec;

// The journal's short-monotonic form puts the stamp before the tag: "[  170.467178] kernel:
// sd 0:0:0:0: ..." (journalctl -o short-monotonic -k); dmesg -T prints "[Tue Oct 27
// 08:51:30 2020] "; RFC 5424 syslog "<3>1 2020-12-02T21:55:55.868+01:00 host kernel - - - ".
crate::rx!(
    pub LINUX_PREFIX,
    r"^(?:\[\s*\d+\.\d+\]\s*(?:kernel:\s*)?|\[\w{2,5}\.? \w{2,5}\.? [ \d]\d \d\d:\d\d:\d\d \d{4}\]\s*|<\d{1,3}>1 \d{4}-\d\d-\d\dT\S+ \S+ kernel - - - |(?:\w{3}\s+)?\w{3}\s+\d+\s+[\d:]+\s+(?:\d{4}\s+)?(?:\S+\s+)?kernel:\s*|<\d{1,3}>)"
);
crate::rx!(
    pub LINUX_DMESG_BARE,
    r"^(?:ata\d+(?:\.\d+)?: (?:SATA|ATA-|FORCE: |configured|exception|status|cmd|error|failed|hard resetting|limiting|COMRESET|softreset|link|EH|irq_stat|SError|\d+ sectors|Features|supports|Model|NCQ|DMA|qc timeout|found unknown|revalidation)|sd \d+:\d+:\d+:\d+: |scsi \d+:\d+:\d+:\d+: |scsi host\d+: |usb-storage \d+-[\d.]+:|usb \d+-[\d.]+: |ahci \d{4}:|nvme nvme\d+|blk_update_request|print_req_error|Buffer I/O error|end_request|I/O error, dev|Linux version \d)"
);

/// A timestamped, syslog-prefixed or printk-levelled line of Linux disk messages. Kernel
/// lines survive an indented paste (a Markdown code block, a quoted mail) and Markdown
/// inline code ("`ata1.00: FORCE: horkage modified (noncq)`").
fn start_prefixed(lines: &[&str]) -> spec::Start {
    let lt = lines
        .first()
        .copied()
        .unwrap_or("")
        .trim_start()
        .trim_start_matches('`');
    if !LINUX_PREFIX.is_match(lt) {
        return spec::Start::No;
    }
    let rest = LINUX_PREFIX.replace(lt, "");
    spec::Start::from(
        LINUX_DMESG_BARE.is_match(&rest)
            || rest.contains("ata")
            || rest.starts_with("sd ")
            || rest.starts_with("nvme")
            || rest.starts_with("ahci"),
    )
}

fn start_bare(lines: &[&str]) -> spec::Start {
    spec::Start::from(
        lines
            .first()
            .is_some_and(|t| LINUX_DMESG_BARE.is_match(t.trim_start().trim_start_matches('`'))),
    )
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "linux-dmesg",
    // After every tool's own lines and FreeBSD's syslog-prefixed ones (sources::dmesg), and
    // before FreeBSD's bare "ata1: " lines.
    starts: &[(231, start_prefixed), (240, start_bare)],
    member: |t, _| {
        let lt = t.trim_start().trim_start_matches('`');
        spec::Member::from(LINUX_PREFIX.is_match(lt) || LINUX_DMESG_BARE.is_match(lt))
    },
    tolerance: (1, 2),
    classify: |_, _| "linux-dmesg",
    ..spec::Recogniser::NONE
};

/// Linux dmesg / journalctl -k / /var/log/kern.log: USB serials ("SerialNumber: X"),
/// "serial=" of some drivers.
pub const LINUX_SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    fixture_dirs: &["linux/dmesg"],
    // The Linux probe reads dmesg, and the journal's kernel messages when dmesg gives
    // nothing (diskdoc-sys probe::linux collect_tools).
    live: &[
        spec::Live::Cmd(&["dmesg"]),
        spec::Live::Cmd(&["journalctl", "-k", "-b", "--no-pager"]),
    ],
    pasted_as: Some(spec::Live::Cmd(&["dmesg"])),
    // The disks the log names and the error events it holds (a healthy log has none).
    parse: Some(|t| {
        disks_named(t)
            .len()
            .saturating_add(all_events(t, "paste").len())
    }),
    secrets: &[
        spec::Secret::After("serialnumber", spec::SecretKind::Serial),
        spec::Secret::After("serial=", spec::SecretKind::Serial),
        spec::Secret::After("serial number", spec::SecretKind::Serial),
    ],
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        matches!(p, "dmesg" | "grep" | "egrep" | "journalctl" | "cat")
    })),
    ..spec::SourceSpec::named("linux-dmesg", "Linux dmesg")
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printk_levels_syslog_and_indent_are_stripped() {
        assert_eq!(
            strip_prefixes("<4>ata1: limiting SATA link speed to 1.5 Gbps").len(),
            42
        );
        assert!(strip_prefixes("    [   1.0] <6>ata1: hard resetting link").starts_with("ata1:"));
        assert!(
            strip_prefixes(
                "Sat May 11 14:45:54 2024 kern.info kernel: [    2.8] ata2: SATA link up"
            )
            .starts_with("ata2:")
        );
        // Not a level: kept.
        assert!(strip_prefixes("<unknown> x").starts_with("<unknown>"));
    }

    #[test]
    fn transport_errors_in_serror_and_emask() {
        for l in [
            "ata1: SError: { 10B8B Dispar }",
            "ata1: exception Emask 0x10 SAct 0x0 SErr 0x10000 action 0xe frozen",
            "ata1.00: limiting speed to MWDMA1:PIO2",
        ] {
            assert!(
                matches!(
                    classify(l),
                    Some(KernelEventKind::CrcError | KernelEventKind::LinkSpeedLimited)
                ),
                "{l}"
            );
        }
        assert_eq!(
            classify("(ada0:ahcich4:0:0:0): lost device"),
            Some(KernelEventKind::LinkReset)
        );
        assert_eq!(
            classify("(da0:umass-sim0:0:0:0): lost device"),
            None,
            "an unplug"
        );
        // Hot-plug noise alone is not an error; a PHY drop with commands queued is.
        assert_eq!(classify("ata1: SError: { PHYRdyChg }"), None);
        assert_eq!(
            classify("ata1.00: exception Emask 0x0 SAct 0x0 SErr 0x10000 action 0xe frozen"),
            None
        );
        assert_eq!(
            classify("ata1.00: exception Emask 0x0 SAct 0x3ffffff8 SErr 0x50000 action 0x6 frozen"),
            Some(KernelEventKind::LinkReset)
        );
        assert_eq!(
            classify("ata1.00: exception Emask 0x0 SAct 0x3 SErr 0x0 action 0x0"),
            None
        );
        assert_eq!(
            classify("ata3: SATA link down (SStatus 0 SControl 300)"),
            None
        );
    }

    #[test]
    fn usb_storage_and_uas_hosts() {
        let log = "[ 67.9] scsi host0: usb-storage 2-1:1.0\n\
[ 68.9] sd 0:0:0:0: [sda] 468862128 512-byte logical blocks: (240 GB/224 GiB)\n\
[ 69.0] scsi host1: uas\n\
[ 69.1] sd 1:0:0:0: [sdb] 100 512-byte logical blocks\n\
[ 69.2] sd 2:0:0:0: [sdc] 100 512-byte logical blocks\n";
        assert_eq!(usb_driver_of("sda", log), Some("usb-storage"));
        assert_eq!(usb_driver_of("sdb", log), Some("uas"));
        assert_eq!(usb_driver_of("sdc", log), None);
    }

    #[test]
    fn disks_ports_and_the_host_number_guess() {
        let log = "[ 7.6] sd 0:0:0:0: [sda] 62533296 512-byte logical blocks:\n\
[ 7.7] sd 1:0:0:0: [sdb] Write cache: disabled, read cache: enabled\n\
[ 7.74] print_req_error: I/O error, dev sdc3, sector 5\n\
[ 7.9] ata1: limiting SATA link speed to 3.0 Gbps\n\
[ 8.0] ata2: SATA link up 6.0 Gbps (SStatus 133 SControl 300)\n";
        assert_eq!(disks_named(log), ["sda", "sdb", "sdc"]);
        assert_eq!(ports_with_events(log), [1]);
        assert_eq!(ata_port_for("sda", log), None, "no model line ties them");
        assert_eq!(ata_port_guess("sda", log), Some(1));
        assert_eq!(ata_port_guess("sdb", log), Some(2));
        assert_eq!(write_cache_of("sdb", log), Some(false));
        assert_eq!(write_cache_of("sda", log), None);
        // A gap in the port numbers (ata1 and ata5): more than one controller, no guess.
        let gap = "sd 4:0:0:0: [sde] x\nata1: hard resetting link\nata5: hard resetting link\n";
        assert_eq!(ata_port_guess("sde", gap), None);
        // Garbage host numbers do not overflow.
        assert_eq!(
            ata_port_guess("sdz", "sd 4294967295:0:0:0: [sdz] x\nata1: x\n"),
            None
        );
    }

    #[test]
    fn dmesg_t_and_rfc5424_prefixes() {
        assert_eq!(
            strip_prefixes("[Tue Oct 27 08:51:30 2020] sd 3:0:0:1: [sde] tag#40 x"),
            "sd 3:0:0:1: [sde] tag#40 x"
        );
        assert_eq!(
            strip_prefixes(
                "<3>1 2020-12-02T21:55:55.868746+01:00 stkub15 kernel - - - blk_update_request: x"
            ),
            "blk_update_request: x"
        );
        assert_eq!(
            strip_prefixes("[Fr Aug 26 22:01:01 2022] ata2: hard resetting link"),
            "ata2: hard resetting link"
        );
        // A bracketed word that is no stamp stays.
        assert_eq!(strip_prefixes("[sda] x"), "[sda] x");
    }

    #[test]
    fn prefixes() {
        assert_eq!(strip_prefixes("[    7.96] ata1: x"), "ata1: x");
        assert_eq!(
            strip_prefixes("Dec 10 18:56:03 host kernel: ata1: x"),
            "ata1: x"
        );
        assert_eq!(strip_prefixes("> Dec 10 18:56:03 kernel: [ 1.0] sd"), "sd");
    }

    #[test]
    fn port_matching() {
        assert_eq!(port_of("ata3.00: failed command"), Some(3));
        assert_eq!(port_of("ata33.00: failed command"), Some(33));
        assert_eq!(port_of("ata2 (slot 4): SATA link up"), Some(2));
        assert_eq!(port_of("data3: x"), None);
    }

    #[test]
    fn inquiry_fields_of_the_scan_line() {
        // microsoft/WSL#7770 and geerlingguy/raspberry-pi-pcie-devices#600.
        let log = "[ 2.44] scsi 0:0:0:1: Direct-Access     Msft     Virtual Disk     1.0  PQ: 0 ANSI: 5\n\
                   [ 2.45] sd 0:0:0:1: [sdb] 701248 512-byte logical blocks\n\
                   [ 8.42] scsi 1:0:0:0: Direct-Access     ATA      ST4000NE001-2MA1 EN01 PQ: 0 ANSI: 5\n\
                   [ 8.43] sd 1:0:0:0: [sda] 7814037168 512-byte logical blocks\n";
        assert_eq!(
            inquiry_of("sdb", log),
            Some(("Msft".to_string(), "Virtual Disk".to_string()))
        );
        assert_eq!(
            inquiry_of("sda", log),
            Some(("ATA".to_string(), "ST4000NE001-2MA1".to_string()))
        );
        assert_eq!(inquiry_of("sdc", log), None);
    }

    #[test]
    fn libata_ncq_descriptions() {
        let l = |t: &str| format!("[ 1.5] ata1.00: 61865984 sectors, multi 1: LBA48 {t}\n");
        assert_eq!(
            ncq_of_port(1, &l("NCQ (depth 32), AA")),
            Some((true, true, Some(32)))
        );
        assert_eq!(
            ncq_of_port(1, &l("NCQ (depth 31/32), AA")),
            Some((true, true, Some(32)))
        );
        assert_eq!(
            ncq_of_port(1, &l("NCQ (depth 0/32)")),
            Some((true, false, Some(32)))
        );
        assert_eq!(
            ncq_of_port(1, &l("NCQ (not used)")),
            Some((true, false, None))
        );
        assert_eq!(ncq_of_port(1, &l("")), None);
        assert_eq!(ncq_of_port(2, &l("NCQ (depth 32)")), None);
        // Quoted as Markdown inline code.
        assert_eq!(
            ncq_of_port(
                1,
                "`ata1.00: 61865984 sectors, multi 1: LBA48 NCQ (not used)`"
            ),
            Some((true, false, None))
        );
    }

    #[test]
    fn an_empty_card_slot_is_no_io_error() {
        // nomadbsd/NomadBSD#127: a card reader's WRITE fails with "Medium not present".
        let log = "(da0:umass-sim0:0:0:0): WRITE(10). CDB: 2a 00 00 00 26 b8 00 00 08 00\n\
                   (da0:umass-sim0:0:0:0): CAM status: SCSI Status Error\n\
                   (da0:umass-sim0:0:0:0): SCSI status: Check Condition\n\
                   (da0:umass-sim0:0:0:0): SCSI sense: NOT READY asc:3a,0 (Medium not present)\n\
                   (da0:umass-sim0:0:0:0): Error 6, Unretryable error\n";
        assert!(events_for("da0", log, "k").is_empty());
        let real = log.replace(
            "NOT READY asc:3a,0 (Medium not present)",
            "MEDIUM ERROR asc:11,0 (Unrecovered read error)",
        );
        assert!(!events_for("da0", &real, "k").is_empty());
    }

    #[test]
    fn removable_media_is_told_by_the_attach_line() {
        let log = "sd 7:0:0:0: [sdb] Attached SCSI removable disk\n\
                   sd 0:0:0:0: [sda] Attached SCSI disk\n";
        assert!(is_removable("sdb", log));
        assert!(!is_removable("sda", log));
        assert!(!is_removable("sdc", log));
    }

    #[test]
    fn res_continuation_lines_belong_to_the_port_above() {
        // Both shapes dmesg gives the second half of ata_eh_link_report's printk.
        let log = "[ 1.0] ata2.00: cmd 61/08:18:00:d0:59/00:00:02:00:00/40 tag 3 ncq dma 4096 out\n\
                   \x20        res 40/00:01:00:4f:c2/00:00:00:00:00/00 Emask 0x4 (timeout)\n\
                   [ 2.0] ata1.00: cmd 60/08:00:00:e1:59/00:00:a2:00:00/40 tag 0 ncq 4096 in\n\
                   [ 2.1] res 40/00:10:d0:5d:a8/00:00:b2:00:00/40 Emask 0x4 (timeout)\n\
                   [ 3.0] usb 1-1: new device\n\
                   [ 3.1] res 40/00:10:d0:5d:a8/00:00:b2:00:00/40 Emask 0x4 (timeout)\n";
        assert_eq!(ports_with_events(log), vec![2, 1]);
        assert_eq!(events_for_port(2, log, "k").len(), 1);
        assert_eq!(events_for_port(1, log, "k").len(), 1);
        let all = all_events(log, "k");
        let named: Vec<_> = all.iter().map(|(d, _)| d.as_deref()).collect();
        assert_eq!(named, vec![Some("ata2"), Some("ata1"), None]);
    }

    #[test]
    fn disk_matching() {
        assert!(names_disk("Buffer I/O error on dev sda3, logical", "sda"));
        assert!(!names_disk("I/O error, dev sdab, sector 1", "sda"));
        assert!(names_disk("I/O error, dev nvme0n1p2, sector 1", "nvme0n1"));
        assert!(!names_disk("I/O error, dev nvme0n11, sector 1", "nvme0n1"));
    }

    #[test]
    fn freebsd_channel_lines_follow_the_disk() {
        let log = "ahcich0: Timeout on slot 29 port 0\nahcich0: is 00000000 cs 20000000 ss 00000000 rs 20000000 tfd 40 serr 00000000 cmd 0004dd17\n(ada0:ahcich0:0:0:0): READ_FPDMA_QUEUED. ACB: 60 08 00 00 00 40 00 00 00 00 08 00\n(ada0:ahcich0:0:0:0): CAM status: Command timeout\nahcich1: Timeout on slot 3 port 0\n";
        let ev = events_for("ada0", log, "file:/var/run/dmesg.boot");
        let kinds: Vec<KernelEventKind> = ev.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            vec![KernelEventKind::LinkReset, KernelEventKind::IoTimeout]
        );
        assert!(events_for("ada1", log, "k").is_empty());
        // Only an attach line ties the disk to its channel; the channel's own name as a
        // device (no disk line at all) gets its lines too. A console logger's stamp is
        // dropped.
        let log = "ada2 at ahcich2 bus 0 scbus2 target 0 lun 0\n[2021-12-10 20:56:10] ahcich2: Timeout on slot 4 port 0\n    ahcich2: Timeout on slot 6 port 0\n";
        assert_eq!(cam_channel_for("ada2", log).as_deref(), Some("ahcich2"));
        assert_eq!(events_for("ada2", log, "k").len(), 2);
        assert_eq!(events_for("ahcich2", log, "k").len(), 2);
    }

    #[test]
    fn kinds() {
        assert_eq!(
            classify(
                "sd 0:0:0:0: [sda] tag#28 uas_eh_abort_handler 0 uas-tag 10 inflight: CMD OUT "
            ),
            Some(KernelEventKind::IoTimeout)
        );
        use KernelEventKind::*;
        let k = |s: &str| classify(s);
        assert_eq!(k("ata1.00: error: { ICRC ABRT }"), Some(CrcError));
        assert_eq!(k("ata1.00: error: { UNC }"), Some(MediumError));
        assert_eq!(
            k("sd 0:0:0:0: [sda] Sense Key : Medium Error [current]"),
            Some(MediumError)
        );
        assert_eq!(k("ata4: COMRESET failed (errno=-16)"), Some(ComresetFailed));
        assert_eq!(
            k("(ada0:ahcich0:0:0:0): CAM status: Command timeout"),
            Some(IoTimeout)
        );
        assert_eq!(
            k("(da0:mps0:0:0:0): SCSI sense: MEDIUM ERROR asc:11,0"),
            Some(MediumError)
        );
        assert_eq!(k("ata1: SATA link up 6.0 Gbps"), None);
        assert_eq!(
            k(
                "ata2.00: cmd 60/08:00:00:00:00/00:00:00:00:00/e0 tag 0 dma 4096 in res 51/40:00:00:00:00/00:00:00:00:00/e0 Emask 0x9 (media error)"
            ),
            Some(MediumError)
        );
        assert_eq!(
            k("ata2: irq_stat 0x08000000, interface fatal error Emask 0x10 (ATA bus error)"),
            Some(CrcError)
        );
        assert_eq!(
            k("(ada0:ahcich0:0:0:0): ATA status: 51 (DRDY SERV ERR), error: 40 (UNC )"),
            Some(MediumError)
        );
        assert_eq!(
            k("(ada1:ahcich1:0:0:0): CAM status: Uncorrectable parity/CRC error"),
            Some(CrcError)
        );
        // ahci.c ahci_timeout(): the channel is reset after a slot times out.
        assert_eq!(k("ahcich0: Timeout on slot 29 port 0"), Some(LinkReset));
        assert_eq!(k("ata1: hard resetting link"), Some(LinkReset));
        assert_eq!(
            k("ata1: limiting SATA link speed to 3.0 Gbps"),
            Some(LinkSpeedLimited)
        );
        assert_eq!(
            k("blk_update_request: I/O error, dev sda, sector 2048 op 0x0:(READ)"),
            Some(IoError)
        );
        assert_eq!(
            k(
                "sd 2:0:0:0: [sdb] tag#0 Add. Sense: Unrecovered read error - auto reallocate failed"
            ),
            Some(MediumError)
        );
    }
}
