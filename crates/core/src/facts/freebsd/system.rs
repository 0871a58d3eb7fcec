//! Machine-wide FreeBSD facts: the OS, CPU, memory and host name, from kern.ostype,
//! kern.osrelease, hw.model, hw.physmem and kern.hostname first, the boot messages
//! (/var/run/dmesg.boot) second.

use super::captures::{Global, key};
use crate::facts::{Fact, SystemFacts};
use crate::plan::{Item, freebsd as plan};

pub(super) fn fill(sys: &mut SystemFacts, g: &Global) {
    let dk = g.dmesg_key();
    let dm = g.dmesg.as_ref();
    // A sysctl value, trimmed, with its key.
    let sc = |item: &Item| -> Option<(String, String)> {
        let v = g.data(item, "")?.trim();
        (!v.is_empty()).then(|| (v.to_string(), key(item, "")))
    };
    let from_dmesg = |v: Option<String>, missing: &str| -> Fact<String> {
        match (v, dm) {
            (Some(v), _) => Fact::known(v, dk.clone()),
            (None, Some(_)) => Fact::unknown(missing),
            (None, None) => Fact::unknown(g.why(&plan::DMESG_BOOT, "")),
        }
    };
    // kern.ostype / kern.osrelease / hw.model / hw.physmem first, the boot messages second.
    sys.os_name = match sc(&plan::OSTYPE) {
        Some((v, k)) => Fact::known(v, k),
        None => from_dmesg(
            dm.and_then(|m| m.banner.as_ref())
                .map(|_| "FreeBSD".to_string()),
            "no FreeBSD banner in dmesg.boot",
        ),
    };
    sys.os_release = match sc(&plan::OSRELEASE) {
        Some((v, k)) => Fact::known(v, k),
        None => from_dmesg(
            dm.and_then(|m| m.release.clone()),
            "no FreeBSD banner in dmesg.boot",
        ),
    };
    sys.cpu_model = match sc(&plan::HW_MODEL) {
        Some((v, k)) => Fact::known(v, k),
        None => from_dmesg(
            dm.and_then(|m| m.cpu_model.clone()),
            "no CPU: line in dmesg.boot",
        ),
    };
    // Features2 AESNI: the CPU implements the AES-NI instructions (aesni(4)).
    sys.aes_ni = match (dm.and_then(|m| m.aesni()), dm) {
        (Some(v), _) => Fact::known(v, dk.clone()),
        (None, Some(_)) => Fact::unknown("no Features2= line in dmesg.boot"),
        (None, None) => Fact::unknown(g.why(&plan::DMESG_BOOT, "")),
    };
    sys.ram_bytes = match (
        sc(&plan::HW_PHYSMEM).and_then(|(v, k)| Some((v.parse::<u64>().ok()?, k))),
        dm.and_then(|m| m.real_memory_bytes),
    ) {
        (Some((v, k)), _) => Fact::known(v, k),
        (None, Some(v)) => Fact::known(v, dk.clone()),
        (None, None) => {
            Fact::unknown("neither hw.physmem nor a \"real memory\" line in dmesg.boot")
        }
    };
    sys.hostname = match sc(&plan::HOSTNAME) {
        Some((v, k)) => Fact::known(v, k),
        None => Fact::unknown(g.why(&plan::HOSTNAME, "")),
    };
    sys.aes_driver = Fact::unknown(
        "kldstat is not captured; `geli list` shows per provider whether crypto is hardware or software",
    );
    sys.is_root = Fact::unknown("not recorded in FreeBSD bundles");
}
