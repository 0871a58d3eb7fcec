//! Parallel-ATA transfer modes held below what drive and host can do, as the kernel log says
//! it. libata (drivers/ata/libata-core.c, ata_dev_xfermask) prints
//! "ata1.00: limited to UDMA/33 due to 40-wire cable" when the host reports a 40-wire (or
//! undetected) cable, the UDMA/66+ modes needing the 80-conductor cable (ATA/ATAPI-5
//! section 9.13); the drive's own maximum is in its IDENTIFY line
//! ("ata1.00: ATA-8: WDC WD1600BEVS-00VAT0, 11.01A11, max UDMA/133") and the host's in the
//! port line ("ata1: PATA max UDMA/100 cmd 0x1f0 ..."). The old IDE driver
//! (drivers/ide/ide-iops.c, eighty_ninty_three) printed "hda: host side 80-wire cable
//! detection failed, limiting max speed to UDMA33" and "hda: UDMA/100 mode selected"
//! (ide-xfer-mode.c) for the mode it set: when the same drive model runs a faster mode
//! under another driver in the same paste, the 40-wire detection is wrong, not the cable.

use crate::model::PataMode;
use crate::sources::kernel_log::strip_prefixes;

/// The UDMA mode number's rate in MB/s (ATA/ATAPI-7 table "Ultra DMA data transfer
/// timing": modes 0-6 at 16.7, 25, 33.3, 44.4, 66.7, 100, 133 MB/s), named as libata names
/// it ("UDMA/33" is mode 2). Takes the MB/s figure libata prints and gives it back when it
/// is one of those.
fn udma_rate(s: &str) -> Option<u32> {
    let digits: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
    let n: u32 = digits.parse().ok()?;
    [16, 25, 33, 44, 66, 100, 133].contains(&n).then_some(n)
}

/// "UDMA/100" anywhere after `key` in `line`: the rate.
fn udma_after(line: &str, key: &str) -> Option<u32> {
    let at = line.find(key)?;
    let rest = line.get(at + key.len()..)?;
    let u = rest.find("UDMA/")?;
    udma_rate(rest.get(u + "UDMA/".len()..)?)
}

/// One disk the log shows capped by its cable: the libata device ("1.00") and what is known.
#[derive(Debug, Clone, PartialEq)]
pub struct CableLimit {
    /// libata port number.
    pub port: u32,
    pub mode: PataMode,
}

/// Every libata device the log shows "limited to UDMA/NN due to 40-wire cable", with the
/// drive's and host's maxima when the log has them. ATAPI devices are left out: an optical
/// drive's UDMA/33 is its own maximum, and it is no disk.
pub fn cable_limits(log: &str) -> Vec<CableLimit> {
    let lines: Vec<&str> = log.lines().map(strip_prefixes).collect();
    let mut out: Vec<CableLimit> = Vec::new();
    for l in &lines {
        let Some((dev, rest)) = l.split_once(": limited to UDMA/") else {
            continue;
        };
        if !rest.contains("40-wire cable") {
            continue;
        }
        let Some(cur) = udma_rate(rest) else {
            continue;
        };
        let Some((port_s, _)) = dev.strip_prefix("ata").and_then(|d| d.split_once('.')) else {
            continue;
        };
        let Ok(port) = port_s.parse::<u32>() else {
            continue;
        };
        let dev_tag = format!("{dev}: ");
        let ident = lines
            .iter()
            .filter_map(|x| x.strip_prefix(dev_tag.as_str()))
            .find(|x| x.starts_with("ATA-") || x.starts_with("ATAPI"));
        if ident.is_some_and(|x| x.starts_with("ATAPI")) {
            continue;
        }
        let model = ident.and_then(|x| {
            let after = x.split_once(": ")?.1;
            let m = after.split(',').next()?.trim();
            (!m.is_empty()).then(|| m.to_string())
        });
        let drive_max = ident.and_then(|x| udma_after(x, "max "));
        let port_tag = format!("ata{port}: PATA max ");
        let host_max = lines
            .iter()
            .find_map(|x| x.strip_prefix(port_tag.as_str()))
            .and_then(|x| udma_rate(x.strip_prefix("UDMA/")?));
        let faster_elsewhere = model
            .as_deref()
            .and_then(|m| ide_mode_of_model(&lines, m, cur));
        if out.iter().any(|c| c.port == port) {
            continue;
        }
        out.push(CableLimit {
            port,
            mode: PataMode {
                current_udma_mb_s: Some(cur),
                drive_max_udma_mb_s: drive_max,
                host_max_udma_mb_s: host_max,
                cable_40_wire: true,
                model,
                line: (*l).to_string(),
                faster_elsewhere,
            },
        });
    }
    for l in &lines {
        let Some((port, dev, msg)) = libata_device(l) else {
            continue;
        };
        let Some(cur) = msg.strip_prefix("configured for UDMA/").and_then(udma_rate) else {
            continue;
        };
        if cur != 33 || out.iter().any(|c| c.port == port) {
            continue;
        }
        // libata's error handler steps a mode down after transfer errors (libata-eh.c
        // ata_down_xfermask_limit: "limiting speed to UDMA/33:PIO4"): then the errors, not the
        // cable, set the mode.
        if lines
            .iter()
            .filter_map(|x| x.strip_prefix("ata"))
            .filter(|x| x.contains("limiting speed to"))
            .any(|x| x.split(['.', ':']).next() == Some(port.to_string().as_str()))
        {
            continue;
        }
        let ident = lines
            .iter()
            .filter_map(|x| libata_device(x))
            .find(|(p, d, m)| {
                *p == port && *d == dev && (m.starts_with("ATA-") || m.starts_with("ATAPI"))
            })
            .map(|(_, _, m)| m);
        let Some(ident) = ident.filter(|x| !x.starts_with("ATAPI")) else {
            continue;
        };
        let Some(drive_max) = udma_after(ident, "max ") else {
            continue;
        };
        let host_line = format!("ata{port}: PATA max UDMA/");
        let Some(host_max) = lines
            .iter()
            .find_map(|x| x.strip_prefix(host_line.as_str()))
            .and_then(udma_rate)
        else {
            continue;
        };
        if drive_max <= cur || host_max <= cur {
            continue;
        }
        // "ATA-8: MODEL, FW, max UDMA/133" names the model; 2.6.17's "ATA-6, max UDMA/100,
        // 312581808 sectors: LBA48" does not.
        let model = ident
            .split_once(": ")
            .filter(|(v, _)| v.chars().skip(4).all(|c| c.is_ascii_digit()))
            .and_then(|(_, after)| after.split(',').next())
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .map(str::to_string);
        let faster_elsewhere = model
            .as_deref()
            .and_then(|m| ide_mode_of_model(&lines, m, cur));
        out.push(CableLimit {
            port,
            mode: PataMode {
                current_udma_mb_s: Some(cur),
                drive_max_udma_mb_s: Some(drive_max),
                host_max_udma_mb_s: Some(host_max),
                cable_40_wire: true,
                model,
                line: (*l).to_string(),
                faster_elsewhere,
            },
        });
    }
    out
}

/// A libata device line: its port, device number and message. libata names a device
/// "ata1.00: " since 2.6.19 (ata_dev_printk with the link and device number) and "ata2: dev
/// 0 " before it (libata-core.c of 2.6.17, printk "ata%u: dev %u ...").
fn libata_device(l: &str) -> Option<(u32, u32, &str)> {
    let (head, msg) = l.split_once(": ")?;
    let head = head.strip_prefix("ata")?;
    if let Some((p, d)) = head.split_once('.') {
        return Some((p.parse().ok()?, d.parse().ok()?, msg));
    }
    let port: u32 = head.parse().ok()?;
    let (d, rest) = msg.strip_prefix("dev ")?.split_once(' ')?;
    Some((port, d.parse().ok()?, rest))
}

/// The old IDE driver's line for the same model at a faster mode: "hda: WDC WD1600BEVS-00VAT0,
/// ATA DISK drive" then "hda: UDMA/100 mode selected". Returns that mode line.
fn ide_mode_of_model(lines: &[&str], model: &str, cur: u32) -> Option<String> {
    let name = lines.iter().find_map(|l| {
        let (n, rest) = l.split_once(": ")?;
        let is_hd = n.len() >= 3
            && n.starts_with("hd")
            && n.get(2..)
                .is_some_and(|s| s.chars().all(|c| c.is_ascii_lowercase()));
        (is_hd && rest.starts_with(model) && rest.contains("ATA DISK drive")).then_some(n)
    })?;
    let tag = format!("{name}: UDMA/");
    lines.iter().find_map(|l| {
        let rest = l.strip_prefix(tag.as_str())?;
        let rate = udma_rate(rest)?;
        (rest.contains("mode selected") && rate > cur).then(|| (*l).to_string())
    })
}

#[cfg(test)]
mod tests;
