//! The kernel's MMC/SD/e.MMC messages: the card's block device and its host controller.
//!
//! Linux: drivers/mmc/core/block.c names the card's disk ("mmcblk0: error -110 sending stop
//! command, original cmd response 0x900, card status 0x900", mmc_blk_cmd_recovery; "mmcblk0:
//! timed out sending r/w cmd command, card status 0x900", mmc_blk_cmd_error) and announces
//! it with its host ("mmcblk0: mmc0:aaaa SU08G 7.40 GiB", mmc_blk_alloc_req printing
//! mmc_card_id, the card's device name "mmcH:RCA"); the core and the host drivers name the
//! host ("mmc0: Card stuck being busy! __mmc_poll_for_busy", core/mmc_ops.c; "mmc0: error
//! -110 whilst initialising SD card", core/core.c mmc_rescan; "mmc0: cache flush error
//! -110", core/block.c; "mmc0: Timeout waiting for hardware interrupt.", host/sdhci.c
//! sdhci_timeout_timer, and the Raspberry Pi's sdhci-bcm2708 "... - cmd12." variant).
//! Error numbers are the kernel's errno: -110 ETIMEDOUT (the card did not answer in time),
//! -84 EILSEQ (include/linux/mmc/core.h: "CRC check failed, incorrect opcode in response or
//! bad end bit"), -123 ENOMEDIUM (the card is gone).
//!
//! FreeBSD: sys/dev/mmc/mmcsd.c prints a failed read, write or erase as "mmcsd0: Error
//! indicated: %d %s" with the request's error code and mmcsd_errmsg()'s name of it
//! (sys/dev/mmc/mmcreg.h: MMC_ERR_TIMEOUT 1 "Timeout", MMC_ERR_BADCRC 2 "Bad CRC",
//! MMC_ERR_FIFO 3 "FIFO", MMC_ERR_FAILED 4 "Failed", MMC_ERR_INVALID 5 "Invalid",
//! MMC_ERR_NO_MEMORY 6 "No memory"); the attach line names the bus ("mmcsd0: 63GB <SDHC
//! ...> at mmc1 50.0MHz/4bit/65535-block", mmcsd_attach).
//!
//! A host line concerns a card's disk only when the log ties them (the Linux attach line,
//! the FreeBSD one), or when the log shows one host and one card: a Raspberry Pi's Wi-Fi
//! is an SDIO card on a host of its own, whose errors are no disk's.

use crate::model::{KernelEvent, KernelEventKind};

// Linux's own MMC lines (see the module docs), so that a log of them alone is recognised,
// and an indented one continues a block: the card's disk reporting an error or its attach
// line, and the host's errors, its card's attach (core/bus.c mmc_add_card "mmc0: new ultra
// high speed SDR104 SDXC card at address d555", "new UHS-I speed SDR104 SDXC card" since
// 6.x, SDIO and combo cards too) and removal, and the SDHCI driver's failed reset
// (host/sdhci.c sdhci_reset "mmc2: Reset 0x4 never completed.") with its register dump
// (sdhci_dumpregs: "sdhci: Sys addr: 0x... | Version: 0x...", "mmc0: sdhci: ..." since 4.x).
// Names FreeBSD's kernel never prints (its mmc(4) says "mmc0: <MMC/SD bus> on sdhci_pci0",
// "mmcsd0: ..."). The one reader of these lines for the Linux recogniser.
crate::rx!(
    pub(crate) LINUX_MMC,
    r"^(?:mmcblk\d+(?:p\d+)?: (?:error -?\d+ |timed out sending |response CRC error sending |unknown error (?:-?\d+ )?sending |retrying |mmc\d+:)|mmc\d+: (?:running CQE recovery|cqhci: (?:timeout for tag|Failed to halt|Failed to clear tasks)|Timeout waiting for hardware|Card stuck being busy|error -\d+ |cache flush error -\d+|final write to SD card still running|card [0-9a-f]{4} removed|new [\w -]+ card at address|Reset 0x[0-9a-fA-F]+ never completed)|(?:mmc\d+: )?sdhci: )"
);

/// What an MMC/SD line reports, if it is one of the family's error lines (Linux or
/// FreeBSD, see the module docs); None for any other line.
pub(crate) fn classify(body: &str) -> Option<KernelEventKind> {
    let body = body.trim();
    let (dev, rest) = body.split_once(": ")?;
    let low = rest.to_ascii_lowercase();
    if is_unit(dev, "mmcsd") {
        // "Error indicated: 4 Failed" (mmcsd.c, codes of mmcreg.h).
        let code: u32 = low
            .strip_prefix("error indicated: ")?
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        return match code {
            1 => Some(KernelEventKind::IoTimeout),
            // A transfer whose CRC the host found wrong: the bus, not the flash.
            2 => Some(KernelEventKind::CrcError),
            // The host controller's FIFO over- or underran: the controller's fault.
            3 => Some(KernelEventKind::TransportError),
            4 => Some(KernelEventKind::IoError),
            // 5 Invalid (a request the driver built wrong), 6 No memory: no device fault.
            _ => None,
        };
    }
    let card = card_disk(dev).is_some();
    let host = is_unit(dev, "mmc");
    if !card && !host {
        return None;
    }
    if low.starts_with("timed out sending ") || low.starts_with("card stuck being busy") {
        return Some(KernelEventKind::IoTimeout);
    }
    if low.starts_with("response crc error sending ") {
        return Some(KernelEventKind::CrcError);
    }
    if card && is_unknown_error(&low) {
        return Some(KernelEventKind::IoError);
    }
    // The e.MMC command queue engine (drivers/mmc/host/cqhci-core.c): "cqhci: timeout for
    // tag N" (cqhci_timeout: a queued request the card never completed), then the core's
    // recovery (core/core.c mmc_cqe_recovery, "running CQE recovery" from block.c's
    // mmc_blk_cqe_recovery) halting the engine, which may itself fail ("cqhci: Failed to
    // halt", "Failed to clear tasks", cqhci_halt/cqhci_clear_all_tasks). A request that
    // did not complete in time: the card or its link at the bus mode (HS400/HS200) the
    // host drove, not proven bad flash.
    if host
        && (low.starts_with("running cqe recovery")
            || low.starts_with("cqhci: timeout for tag")
            || low.starts_with("cqhci: failed to halt")
            || low.starts_with("cqhci: failed to clear tasks"))
    {
        return Some(KernelEventKind::IoTimeout);
    }
    if host && low.starts_with("timeout waiting for hardware") {
        return Some(KernelEventKind::IoTimeout);
    }
    // "error -110 sending stop command, ...", "error -84 transferring data, ...", "error
    // -110 whilst initialising SD card", "error -110 doing runtime resume", "cache flush
    // error -110".
    // Before 2.6.24 the MMC core passed its own codes, not errnos, and block.c printed them
    // positive ("mmcblk0: error 1 transferring data"): include/linux/mmc/mmc.h of 2.6.23
    // MMC_ERR_TIMEOUT 1, MMC_ERR_BADCRC 2, MMC_ERR_FIFO 3, MMC_ERR_FAILED 4,
    // MMC_ERR_INVALID 5.
    if let Some(rest) = low.strip_prefix("error ")
        && let Some(code) = rest.strip_suffix(" transferring data").or_else(|| {
            rest.split_once(" transferring data")
                .or_else(|| rest.split_once(" sending "))
                .map(|(c, _)| c)
        })
        && let Ok(n) = code.trim().parse::<u32>()
    {
        // The same codes as FreeBSD's mmcreg.h MMC_ERR_* (above), read the same way.
        return match n {
            1 => Some(KernelEventKind::IoTimeout),
            2 => Some(KernelEventKind::CrcError),
            3 => Some(KernelEventKind::TransportError),
            4 => Some(KernelEventKind::IoError),
            _ => None,
        };
    }
    let errno = low
        .strip_prefix("error -")
        .or_else(|| low.strip_prefix("cache flush error -"))?;
    let n: u32 = errno
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    match n {
        110 => Some(KernelEventKind::IoTimeout),
        84 => Some(KernelEventKind::CrcError),
        // ENOMEDIUM: the card was pulled; nothing failed.
        123 => None,
        _ => Some(KernelEventKind::IoError),
    }
}

/// core/block.c mmc_blk_cmd_error's default case, "mmcblk0: unknown error -1 sending
/// read/write command, card status 0x900" ("unknown error %d sending ...", the number
/// missing in some vendor trees): the host driver failed the request with an error code
/// the core does not know (a DMA setup failure, an -EPERM or -ENOMEM of the driver), not
/// with the card's timeout (-ETIMEDOUT) or a damaged response (-EILSEQ). `low` is the
/// lowercased text after the card's name. The card's status word names nothing wrong of
/// its own (0x900 is "transfer state, ready for data"), so the failure is the host's
/// request, whose cause the line does not show: no evidence of the card's flash.
pub fn is_unknown_error(low: &str) -> bool {
    let Some(rest) = low.trim_start().strip_prefix("unknown error ") else {
        return false;
    };
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.trim_start().starts_with("sending ")
}

/// The same, on a whole kernel log line of a card ("[ 3.1] mmcblk1: unknown error -5
/// sending ...").
pub fn is_unknown_error_line(line: &str) -> bool {
    line.split_once(": ").is_some_and(|(dev, rest)| {
        dev.rsplit(' ').next().and_then(card_disk).is_some()
            && is_unknown_error(&rest.to_ascii_lowercase())
    })
}

/// MediaTek's MSDC host driver of the MT7620/MT7621 SoCs (OpenWrt's ramips mtk-mmc sd.c,
/// from MediaTek's SDK) retunes its sampling delays after a transfer's CRC error
/// (msdc_tune_bread, msdc_tune_bwrite, msdc_tune_cmdrsp) and logs each try, "msdc0 ->
/// TUNE_BWRITE<FAIL> DSPL<0> DATWRDLY<-1> ... <- msdc_tune_bwrite() : L<1546>": a try that
/// failed is a transfer between host and card that arrived damaged again, a link error.
pub(crate) fn msdc_tune_failed(body: &str) -> bool {
    msdc_line(body).is_some_and(|r| {
        r.starts_with("TUNE_") && r.split(' ').next().is_some_and(|w| w.ends_with("<FAIL>"))
    })
}

/// The message of an MSDC driver line, "msdc0 -> ..." (see [`msdc_tune_failed`]).
pub(crate) fn msdc_line(body: &str) -> Option<&str> {
    body.split_once(" -> ")
        .filter(|(h, _)| is_unit(h, "msdc"))
        .map(|(_, r)| r)
}

/// Whether `dev` is `prefix` followed by a unit number ("mmc0", "mmcsd1").
fn is_unit(dev: &str, prefix: &str) -> bool {
    dev.strip_prefix(prefix)
        .is_some_and(|u| !u.is_empty() && u.bytes().all(|b| b.is_ascii_digit()))
}

/// The card's disk of a Linux block device name: "mmcblk0" for itself and its partitions
/// ("mmcblk0p2"); None for the e.MMC's boot and RPMB areas ("mmcblk0boot0", "mmcblk0rpmb"),
/// which no file system sits on, and for any other name.
fn card_disk(dev: &str) -> Option<&str> {
    let rest = dev.strip_prefix("mmcblk")?;
    let unit = rest.bytes().take_while(u8::is_ascii_digit).count();
    let tail = rest.get(unit..)?;
    let part = tail.is_empty()
        || tail
            .strip_prefix('p')
            .is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    (unit > 0 && part).then(|| dev.get(..6 + unit)).flatten()
}

/// The host ("mmc1") of a failed card initialisation: core/sd.c mmc_attach_sd "mmc1: error
/// -110 whilst initialising SD card" and core/mmc.c mmc_attach_mmc "... MMC card" (the card
/// answered the host's first commands and then failed; ETIMEDOUT or EILSEQ), and the
/// attempt's own step before it, sd.c sd_read_ext_regs "mmc1: error -110 reading general
/// info of SD ext reg". core/sdio.c's "... SDIO card" is a Wi-Fi or Bluetooth function,
/// no disk: not one.
fn init_failure_host(body: &str) -> Option<&str> {
    let (host, rest) = body.trim().split_once(": ")?;
    let what = rest.strip_prefix("error -")?.split_once(' ')?.1;
    (is_unit(host, "mmc")
        && (what.ends_with(" ext reg")
            || what == "whilst initialising SD card"
            || what == "whilst initialising MMC card"))
        .then_some(host)
}

/// The hosts whose card came up in the end: the last of the host's failed initialisations
/// ([`init_failure_host`]) and card attach lines (core/bus.c mmc_add_card "mmc0: new high
/// speed SDHC card at address 59b4") is an attach. mmc_rescan retries a card that failed to
/// initialise, and one that then attaches is working: its failed tries were retries (a
/// Raspberry Pi's old sdhci driver printed three "error -84 whilst initialising SD card"
/// before each good boot, raspberrypi/firmware#127), at most info.
pub(crate) fn settled_hosts(log: &str) -> Vec<String> {
    let mut last: Vec<(String, bool)> = Vec::new();
    for raw in log.lines() {
        let b = super::strip_prefixes(raw).trim();
        let attach = b
            .split_once(": new ")
            .filter(|(h, r)| is_unit(h, "mmc") && r.contains(" card at address "))
            .map(|(h, _)| h);
        let Some((host, up)) = attach
            .map(|h| (h, true))
            .or_else(|| init_failure_host(b).map(|h| (h, false)))
        else {
            continue;
        };
        match last.iter_mut().find(|(h, _)| h == host) {
            Some(e) => e.1 = up,
            None => last.push((host.to_string(), up)),
        }
    }
    last.into_iter()
        .filter(|(_, up)| *up)
        .map(|(h, _)| h)
        .collect()
}

/// The SDHCI hosts that are not there, and their cards: sdhci.c sdhci_reset printed "mmc2:
/// Reset 0x4 never completed." (the controller did not clear its reset bits within the
/// timeout) and the register dump after it (sdhci_dumpregs) reads all ones: a PCI or ACPI
/// device that is powered off or was never enabled answers every read with all bits set
/// (PCIe Base spec 2.3.2), so the controller itself is absent, a firmware or platform
/// fault (a Chromebook's legacy firmware leaving the eMMC/SD controller off). The card
/// errors and I/O errors that follow say nothing of the card's medium.
pub(crate) fn dead_hosts(log: &str) -> Vec<String> {
    let lines: Vec<&str> = log
        .lines()
        .map(|r| super::strip_prefixes(r).trim())
        .collect();
    let mut out: Vec<String> = Vec::new();
    for (i, b) in lines.iter().enumerate() {
        let Some(host) = b
            .split_once(": Reset 0x")
            .filter(|(h, r)| is_unit(h, "mmc") && r.ends_with(" never completed."))
            .map(|(h, _)| h)
        else {
            continue;
        };
        let values: Vec<&str> = lines
            .iter()
            .skip(i + 1)
            .take(24)
            .filter_map(|l| l.split("sdhci: ").nth(1))
            .flat_map(|l| l.split_whitespace())
            .filter_map(|w| w.strip_prefix("0x"))
            .collect();
        let ones = |v: &&str| {
            let t = v.trim_start_matches('0');
            !t.is_empty() && t.chars().all(|c| c == 'f' || c == 'F')
        };
        if values.len() >= 8 && values.iter().all(ones) && !out.iter().any(|h| h == host) {
            out.push(host.to_string());
            out.extend(disk_of_host(log, host));
        }
    }
    out
}

/// Whether a line is of a host or card in `dead` ([`dead_hosts`]): its device prefix, or
/// the disk the block layer names (`named`, "mmcblk2p3" of "dev mmcblk2p3").
pub(crate) fn on_dead_host(body: &str, named: Option<&str>, dead: &[String]) -> bool {
    let dev = body.split_once(": ").map_or("", |(d, _)| d);
    [Some(dev), named]
        .into_iter()
        .flatten()
        .map(|d| card_disk(d).unwrap_or(d))
        .any(|d| dead.iter().any(|x| x == d))
}

/// Whether `body` is a failed initialisation of a host in `settled` ([`settled_hosts`]): a
/// retry that worked, no error of the card's.
pub(crate) fn is_retried_init(body: &str, settled: &[String]) -> bool {
    init_failure_host(body).is_some_and(|h| settled.iter().any(|s| s == h))
}

/// A card that never came up: a host whose card failed to initialise two or more times
/// (mmc_rescan tried again) with no attach after the last failure ([`settled_hosts`]) and
/// no card disk the log ties to it. The card has no block device, so the events are the
/// pasted disk's; the kinds are [`classify`]'s (-110: the card did not answer in time).
pub fn unattached_init_failures(log: &str, from: &str) -> Vec<KernelEvent> {
    let settled = settled_hosts(log);
    let tied: Vec<String> = cards(log).iter().filter_map(|c| host_for(c, log)).collect();
    let lines: Vec<(&str, &str)> = log
        .lines()
        .map(|raw| super::strip_prefixes(raw).trim())
        .filter_map(|b| init_failure_host(b).map(|h| (h, b)))
        .filter(|(h, _)| !settled.iter().chain(&tied).any(|s| s == h))
        .collect();
    lines
        .iter()
        .filter(|(h, _)| {
            lines
                .iter()
                .filter(|(x, b)| x == h && b.contains(" whilst initialising "))
                .count()
                >= 2
        })
        .filter_map(|(_, b)| {
            Some(KernelEvent {
                kind: classify(b)?,
                line: b.to_string(),
                from: from.to_string(),
            })
        })
        .collect()
}

/// A host's errors in a log that names no card disk at all (no "mmcblk0..." line): a paste
/// of the host's lines alone ("mmc0: running CQE recovery", "mmc0: cqhci: Failed to halt")
/// is about the disk the poster has, the card on that host. A host that attached an SDIO
/// card (Wi-Fi, Bluetooth: core/bus.c mmc_add_card "new ... SDIO card") is no disk's, and a
/// failed initialisation is [`unattached_init_failures`]'s.
pub fn unnamed_host_errors(log: &str, from: &str) -> Vec<KernelEvent> {
    if !cards(log).is_empty() {
        return Vec::new();
    }
    let sdio: Vec<String> = log
        .lines()
        .map(|raw| super::strip_prefixes(raw).trim())
        .filter_map(|b| {
            let (h, r) = b.split_once(": new ")?;
            (is_unit(h, "mmc") && r.contains(" SDIO card ")).then(|| h.to_string())
        })
        .collect();
    log.lines()
        .map(|raw| super::strip_prefixes(raw).trim())
        .filter(|b| init_failure_host(b).is_none())
        .filter(|b| {
            b.split_once(": ")
                .is_some_and(|(h, _)| is_unit(h, "mmc") && !sdio.iter().any(|s| s == h))
                || msdc_tune_failed(b)
        })
        .filter_map(|b| {
            Some(KernelEvent {
                kind: if msdc_tune_failed(b) {
                    KernelEventKind::CrcError
                } else {
                    classify(b)?
                },
                line: b.to_string(),
                from: from.to_string(),
            })
        })
        .collect()
}

/// The SD/MMC host of a runtime-PM failure line: core/sd.c mmc_sd_runtime_resume and mmc.c
/// mmc_runtime_resume print "mmc0: error -110 doing runtime resume" when re-initialising
/// the card after the host let it power down failed (-ENOMEDIUM, a card taken out, is not
/// printed), and mmc_sd_runtime_suspend / mmc.c "error %d doing aggressive suspend" when
/// putting it down failed (MMC_CAP_AGGRESSIVE_PM).
pub fn runtime_pm_failure_host(body: &str) -> Option<&str> {
    let (host, rest) = body.trim().split_once(": ")?;
    let (num, what) = rest.strip_prefix("error -")?.split_once(' ')?;
    (is_unit(host, "mmc")
        && !num.is_empty()
        && num.bytes().all(|b| b.is_ascii_digit())
        && matches!(what, "doing runtime resume" | "doing aggressive suspend"))
    .then_some(host)
}

/// The runtime-PM failures of a log ([`runtime_pm_failure_host`]), for power-management:
/// each is the host ("mmc0") and the line. The card is then removed and the filesystem on it
/// loses its journal; the host's lines that led to it come before (mmc_ops.c
/// __mmc_poll_for_busy "mmc0: Card stuck being busy!", the card held DAT0 low past the
/// timeout).
pub fn runtime_pm_failures(log: &str) -> Vec<(String, String)> {
    log.lines()
        .map(|raw| super::strip_prefixes(raw).trim())
        .filter_map(|b| Some((runtime_pm_failure_host(b)?.to_string(), b.to_string())))
        .collect()
}

/// The card disk ("mmcblk0") of `host` ([`host_for`]: its attach line "mmcblk0: mmc0:d555
/// SM02T 1.86 TiB", block.c mmc_blk_alloc_req, or the log's one card and one host).
pub fn disk_of_host(log: &str, host: &str) -> Option<String> {
    cards(log)
        .into_iter()
        .find(|c| host_for(c, log).as_deref() == Some(host))
}

/// The Linux card disks ("mmcblk0") a log names, in order, once each: by their own lines
/// ("mmcblk0: ...") or by the block layer's and buffer cache's error lines ("I/O error, dev
/// mmcblk1, sector 0", "Buffer I/O error on dev mmcblk1p2, ...", [`block_layer_card`]).
fn cards(log: &str) -> Vec<String> {
    let mut cards: Vec<String> = Vec::new();
    for raw in log.lines() {
        let b = super::strip_prefixes(raw).trim();
        if let Some(c) = b
            .split_once(": ")
            .and_then(|(d, _)| card_disk(d))
            .or_else(|| block_layer_card(b))
            && !cards.iter().any(|x| x == c)
        {
            cards.push(c.to_string());
        }
    }
    cards
}

/// The card disk a block-layer or buffer-cache line names after "dev " (block/blk-core.c
/// blk_print_req_error "I/O error, dev %s, sector %llu", fs/buffer.c "Buffer I/O error on
/// dev %pg, ...").
fn block_layer_card(b: &str) -> Option<&str> {
    let i = b.find(", dev ").or_else(|| b.find("error on dev "))?;
    let name = b.get(i..)?.split_once("dev ")?.1;
    let end = name
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(name.len());
    card_disk(name.get(..end)?)
}

/// A line's device prefix and message, with dw_mmc's host prefix read as the host's own:
/// drivers/mmc/host/dw_mmc.c logs through the host's class device ("mmc_host mmc1: Bus
/// speed (slot 0) = 400000Hz ..."), where the core and sdhci print "mmc1: ".
fn dev_and_message(b: &str) -> Option<(&str, &str)> {
    let (dev, rest) = b.split_once(": ")?;
    Some((dev.strip_prefix("mmc_host ").unwrap_or(dev), rest))
}

/// The bus clock a dw_mmc host set, from dw_mci_setup_bus's "Bus speed (slot %d) = %dHz
/// (slot req %dHz, actual %dHZ div = %d)" (drivers/mmc/host/dw_mmc.c), in Hz.
fn bus_clock_hz(rest: &str) -> Option<u64> {
    let r = rest.strip_prefix("Bus speed (slot ")?;
    let hz = r.split_once(") = ")?.1.split_once("Hz")?.0;
    hz.parse().ok()
}

/// The identification-mode clock: a host talks to a card at no more than 400 kHz until it
/// has initialised it (SD Physical Layer spec, fOD 0-400 kHz; the core's mmc_rescan tries
/// 400, 300, 200 and 100 kHz, drivers/mmc/core/core.c freqs[]).
const IDENTIFICATION_HZ: u64 = 400_000;

/// A card re-initialised by its host after a request of the card failed: the host's bus
/// clock set back to the identification rate ([`IDENTIFICATION_HZ`], dw_mmc's "Bus speed"
/// line) after an error line of the card. The block driver's recovery resets the card
/// (drivers/mmc/core/block.c mmc_blk_reset -> mmc_hw_reset) and initialises it again from
/// the slow clock up: the card and host lost each other on the bus, a link event. The
/// first clock line of a boot, before any error, is the card's first initialisation.
pub fn card_reinits(disk: &str, log: &str, from: &str) -> Vec<KernelEvent> {
    let Some(host) = host_for(disk, log) else {
        return Vec::new();
    };
    let mut errored = false;
    let mut out = Vec::new();
    for raw in log.lines() {
        let b = super::strip_prefixes(raw).trim();
        let own = b
            .split_once(": ")
            .and_then(|(d, _)| card_disk(d))
            .or_else(|| block_layer_card(b))
            == Some(disk);
        if own && super::classify(b).is_some() {
            errored = true;
            continue;
        }
        if errored
            && let Some((dev, rest)) = dev_and_message(b)
            && dev == host
            && bus_clock_hz(rest).is_some_and(|hz| hz <= IDENTIFICATION_HZ)
        {
            out.push(KernelEvent {
                kind: KernelEventKind::LinkReset,
                line: b.to_string(),
                from: from.to_string(),
            });
            errored = false;
        }
    }
    out
}

/// Whether an event line is a host's own report of a request the card did not complete in
/// time ("mmc1: running CQE recovery", "mmc0: cqhci: timeout for tag 5", "mmc0: Timeout
/// waiting for hardware interrupt.", "mmc0: Card stuck being busy!", "mmc0: error -110
/// ...": [`classify`]'s timeouts of a host line): the host and the card lost each other on
/// the bus, whatever the flash did.
pub fn is_host_timeout(line: &str) -> bool {
    dev_and_message(line.trim()).is_some_and(|(d, _)| is_unit(d, "mmc"))
        && classify(line) == Some(KernelEventKind::IoTimeout)
}

/// The MMC host whose lines concern `disk` (Linux "mmcblkN", FreeBSD "mmcsdN"): the host
/// its attach line names, else the only host of a log that shows one card and one host.
pub(crate) fn host_for(disk: &str, log: &str) -> Option<String> {
    let freebsd = is_unit(disk, "mmcsd");
    if !freebsd && card_disk(disk) != Some(disk) {
        return None;
    }
    let mut hosts: Vec<String> = Vec::new();
    let mut cards: Vec<String> = Vec::new();
    for raw in log.lines() {
        let b = super::strip_prefixes(raw).trim();
        if !freebsd
            && let Some(c) = block_layer_card(b)
            && !cards.iter().any(|x| x == c)
        {
            cards.push(c.to_string());
        }
        let Some((dev, rest)) = dev_and_message(b) else {
            continue;
        };
        if dev == disk {
            // Linux: "mmcblk0: mmc0:aaaa SU08G 7.40 GiB"; FreeBSD: "mmcsd0: 125GB <...> at
            // mmc0 150.0MHz/8bit/1016-block".
            let named = if freebsd {
                rest.split_once("> at ")
                    .and_then(|(_, r)| r.split_whitespace().next())
            } else {
                rest.split_once(':').map(|(h, _)| h)
            };
            if let Some(h) = named.filter(|h| is_unit(h, "mmc")) {
                return Some(h.to_string());
            }
        }
        let card = if freebsd {
            is_unit(dev, "mmcsd").then_some(dev)
        } else {
            card_disk(dev)
        };
        if let Some(c) = card
            && !cards.iter().any(|x| x == c)
        {
            cards.push(c.to_string());
        }
        if is_unit(dev, "mmc") && !hosts.iter().any(|x| x == dev) {
            hosts.push(dev.to_string());
        }
    }
    (cards.len() == 1 && hosts.len() == 1 && cards[0] == disk)
        .then(|| hosts.pop())
        .flatten()
}

/// The Linux cards' disks ("mmcblk0") whose own lines ("mmcblk0: error -110 ...") or
/// whose host's ([`host_for`]) report an error ([`classify`]), in order, once each.
pub(crate) fn cards_with_errors(log: &str) -> Vec<String> {
    let settled = settled_hosts(log);
    let mut cards = cards(log);
    cards.retain(|card| {
        let host = host_for(card, log);
        log.lines().any(|raw| {
            let b = super::strip_prefixes(raw).trim();
            let dev = b.split_once(": ").map_or("", |(d, _)| d);
            (card_disk(dev) == Some(card.as_str()) || host.as_deref() == Some(dev))
                && classify(b).is_some()
                && !is_retried_init(b, &settled)
        })
    });
    cards
}

#[cfg(test)]
mod tests;
