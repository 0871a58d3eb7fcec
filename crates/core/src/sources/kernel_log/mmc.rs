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

use crate::model::KernelEventKind;

// Linux's own MMC lines (see the module docs), so that a log of them alone is recognised:
// the card's disk reporting an error or its attach line, and the host's errors.
crate::rx!(
    pub(crate) LINUX_MMC,
    r"^(?:mmcblk\d+(?:p\d+)?: (?:error -\d+ |timed out sending |response CRC error sending |unknown error sending |retrying |mmc\d+:[0-9a-f]{4} )|mmc\d+: (?:Timeout waiting for hardware|Card stuck being busy|error -\d+ (?:whilst initialising|doing runtime resume)|cache flush error -\d+|final write to SD card still running|card [0-9a-f]{4} removed|new [\w ]*(?:SD|SDHC|SDXC|MMC) card at address))"
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
    if card && low.starts_with("unknown error sending ") {
        return Some(KernelEventKind::IoError);
    }
    if host && low.starts_with("timeout waiting for hardware") {
        return Some(KernelEventKind::IoTimeout);
    }
    // "error -110 sending stop command, ...", "error -84 transferring data, ...", "error
    // -110 whilst initialising SD card", "error -110 doing runtime resume", "cache flush
    // error -110".
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
        let Some((dev, rest)) = b.split_once(": ") else {
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
    let mut cards: Vec<String> = Vec::new();
    for raw in log.lines() {
        let b = super::strip_prefixes(raw).trim();
        if let Some(c) = b.split_once(": ").and_then(|(d, _)| card_disk(d))
            && !cards.iter().any(|x| x == c)
        {
            cards.push(c.to_string());
        }
    }
    cards.retain(|card| {
        let host = host_for(card, log);
        log.lines().any(|raw| {
            let b = super::strip_prefixes(raw).trim();
            let dev = b.split_once(": ").map_or("", |(d, _)| d);
            (card_disk(dev) == Some(card.as_str()) || host.as_deref() == Some(dev))
                && classify(b).is_some()
        })
    });
    cards
}

#[cfg(test)]
mod tests;
