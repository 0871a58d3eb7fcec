//! The machine a paste came from, as far as its lines name it: the board (the kernel's
//! "Machine model:" line, /proc/cpuinfo's "Model" or /proc/device-tree/model of a Raspberry
//! Pi, the banner of Jeff Geerling's Raspberry Pi disk-benchmark script) and the CPU
//! architecture (smartctl's build string "[armv7l-linux-4.4.0]", the machine field of
//! `uname -a`). It fills `SystemFacts::cpu_model`, which a live run reads from
//! /proc/cpuinfo ("model name", or the board's "Model" on 64-bit ARM kernels), so the checks
//! that ask whether a SATA or PCIe port is a SoC's (facts::soc) read both alike.
//!
//! References: Linux arch/arm/kernel/devtree.c setup_machine_fdt and arch/arm64/kernel/
//! setup.c print "Machine model: %s" (device-tree machines only); smartmontools utility.cpp
//! format_version_info ("[%s-linux-%s]" from uname(2): machine, release); coreutils uname(1)
//! -a ("... MACHINE PROCESSOR HARDWARE-PLATFORM OPERATING-SYSTEM"); geerlingguy
//! raspberry-pi-dramble setup/benchmarks/disk-benchmark.sh (`printf "Raspberry Pi disk
//! benchmarks\n"`).

use crate::facts::soc::DEVICE_TREE;
use crate::model::{Fact, SystemFacts};
use crate::pasted::Pasted;

/// The architectures this reads (uname's machine field): the ones facts::soc asks about.
fn soc_arch(word: &str) -> Option<&str> {
    let w = word.trim();
    let ok = w.starts_with("armv")
        || w == "aarch64"
        || w == "arm64"
        || w.starts_with("riscv")
        || w == "arm";
    (ok && w.len() <= 12 && w.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')).then_some(w)
}

/// The architecture of smartctl's first line ("smartctl 6.4 2014-10-07 r4002
/// [armv7l-linux-4.4.0-00156-gc9ba6e8] (local build)").
fn smartctl_arch(line: &str) -> Option<&str> {
    let t = line.trim();
    if !t.starts_with("smartctl ") {
        return None;
    }
    let inside = t.split_once('[')?.1.split_once(']')?.0;
    let (arch, rest) = inside.split_once('-')?;
    rest.starts_with("linux-").then(|| soc_arch(arch))?
}

/// The architecture `uname -a` prints ("Linux zuzi 5.10.160-rockchip #3 SMP ... aarch64
/// aarch64 aarch64 GNU/Linux"): the word before "GNU/Linux", the hardware platform, which on
/// Linux repeats the machine field (or is the machine itself where uname prints processor
/// and platform only when known).
fn uname_arch(line: &str) -> Option<&str> {
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.first() != Some(&"Linux") || w.last() != Some(&"GNU/Linux") || w.len() < 4 {
        return None;
    }
    let before = w.len().checked_sub(2)?;
    w.get(before).and_then(|a| soc_arch(a))
}

/// The kernel release of smartctl's build string or of `uname -a` when it is a Raspberry Pi
/// kernel build (sources::smartctl::raspberry_pi_kernel), which runs on nothing else.
fn rpi_release(line: &str) -> Option<&str> {
    let t = line.trim();
    let release = if t.starts_with("smartctl ") {
        t.split_once('[')?
            .1
            .split_once(']')?
            .0
            .split_once("-linux-")?
            .1
    } else {
        let w: Vec<&str> = t.split_whitespace().collect();
        (w.first() == Some(&"Linux") && w.last() == Some(&"GNU/Linux"))
            .then(|| w.get(2).copied())??
    };
    (crate::sources::smartctl::raspberry_pi_kernel(release) && release.len() <= 64)
        .then_some(release)
}

/// The board a line names: "Machine model: X" (marked a device-tree machine), a Raspberry
/// Pi's cpuinfo "Model : Raspberry Pi ..." or device-tree model "Raspberry Pi 4 Model B Rev
/// 1.4", or the disk-benchmark script's banner.
fn board(line: &str) -> Option<String> {
    let t = line.trim();
    if let Some((_, m)) = t.split_once("Machine model: ") {
        let m = m.trim();
        return (!m.is_empty() && m.len() <= 120).then(|| {
            if crate::facts::soc::is_soc_machine(m) {
                m.to_string()
            } else {
                format!("{m} ({DEVICE_TREE})")
            }
        });
    }
    if t == "Raspberry Pi disk benchmarks" {
        return Some("Raspberry Pi (named by the disk-benchmark script's banner)".to_string());
    }
    let v = match t.split_once(':') {
        Some((k, v)) if k.trim() == "Model" => v.trim(),
        _ => t,
    };
    (v.starts_with("Raspberry Pi ") && v.contains(" Rev ") && v.len() <= 80).then(|| v.to_string())
}

/// Fill `sys.cpu_model` from the paste's lines when no capture gave it.
pub(super) fn derive(sys: &mut SystemFacts, p: &Pasted) {
    yabs_header(sys, p);
    if sys.cpu_model.is_known() {
        return;
    }
    let mut found_board: Option<(String, usize)> = None;
    let mut found_arch: Option<(String, usize)> = None;
    let mut rpi: Option<String> = None;
    for l in p.lines {
        if rpi.is_none() {
            rpi = rpi_release(&l.text).map(str::to_string);
        }
        if found_board.is_none()
            && let Some(b) = board(&l.text)
        {
            found_board = Some((b, l.first));
        }
        if found_arch.is_none()
            && let Some(a) = smartctl_arch(&l.text).or_else(|| uname_arch(&l.text))
        {
            found_arch = Some((a.to_string(), l.first));
        }
    }
    let (value, line) = match (found_board, found_arch) {
        (Some((b, n)), Some((a, _))) => {
            let b = b
                .strip_suffix(&format!(" ({DEVICE_TREE})"))
                .map(str::to_string)
                .unwrap_or(b);
            (format!("{b} ({a})"), n)
        }
        (Some((b, n)), None) => (b, n),
        // A Raspberry Pi kernel names the board when no line does.
        (None, Some((a, n))) => match rpi {
            Some(r) => (format!("Raspberry Pi (kernel {r}) ({a})"), n),
            None => (a, n),
        },
        (None, None) => return,
    };
    sys.cpu_model = Fact::known(value, format!("pasted:line {line}"));
}

/// yabs.sh's "Basic System Information" (sources::yabs): the CPU's model name and its
/// AES-NI flag (both from /proc/cpuinfo, as a live run reads them) and `free`'s total RAM.
fn yabs_header(sys: &mut SystemFacts, p: &Pasted) {
    for b in p
        .blocks
        .iter()
        .filter(|b| b.tool.is(&crate::sources::yabs::SPEC))
    {
        let (h, _) = crate::sources::yabs::parse(&b.text);
        let key = || b.key.clone();
        if let Some(v) = h.processor.filter(|_| !sys.cpu_model.is_known()) {
            sys.cpu_model = Fact::known(v, key());
        }
        if let Some(v) = h.aes_ni.filter(|_| !sys.aes_ni.is_known()) {
            sys.aes_ni = Fact::known(v, key());
        }
        if let Some(v) = h.ram_bytes.filter(|_| !sys.ram_bytes.is_known()) {
            sys.ram_bytes = Fact::known(v, key());
        }
    }
}

#[cfg(test)]
mod tests;
