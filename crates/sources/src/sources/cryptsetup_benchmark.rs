//! `cryptsetup benchmark` (cryptsetup(8), src/cryptsetup.c action_benchmark): the speed of
//! each cipher in memory, no disk involved ("# Tests are approximate using memory only (no
//! storage IO)."). The PBKDF lines ("PBKDF2-sha256  74727 iterations per second for
//! 256-bit key", "argon2id  4 iterations, 1048576 memory, 4 parallel threads (CPUs) for
//! 256-bit key (requested 2000 ms time)") say how long unlocking takes; the table says how
//! fast the CPU can encrypt and decrypt, which caps every dm-crypt/LUKS volume on the
//! machine ("#     Algorithm |       Key |      Encryption |      Decryption", rows such as
//! "        aes-xts        512b      1834.2 MiB/s      1850.7 MiB/s", "N/A" for a cipher the
//! kernel lacks). Rates are printed in MiB/s (cryptsetup's benchmark uses 1024 * 1024).

use crate::sources::spec;

/// One row of the cipher table.
#[derive(Debug, Clone, PartialEq)]
pub struct CipherSpeed {
    /// "aes-xts", "serpent-cbc", "adiantum".
    pub cipher: String,
    pub key_bits: u32,
    pub encrypt_bytes_per_sec: f64,
    pub decrypt_bytes_per_sec: f64,
}

crate::rx!(
    ROW,
    r"^\s*([a-z0-9]+(?:-[a-z0-9]+)*)\s+(\d+)b\s+([\d.,]+)\s+([KMG]iB)/s\s+([\d.,]+)\s+([KMG]iB)/s\s*$"
);
crate::rx!(
    NA_ROW,
    r"^\s*[a-z0-9]+(?:-[a-z0-9]+)*\s+\d+b\s+N/A\s+N/A\s*$"
);
crate::rx!(
    HEADER,
    r"^#?\s*Algorithm\s*\|\s*Key\s*\|\s*Encryption\s*\|\s*Decryption\s*$"
);
crate::rx!(
    MEMORY_ONLY,
    r"^#?\s*Tests are approximate using memory only"
);
crate::rx!(
    PBKDF,
    r"^(PBKDF2-\S+\s+\d+ iterations per second|argon2i?d?\s+\d+ iterations, \d+ memory)"
);

fn unit(u: &str) -> f64 {
    match u {
        "KiB" => 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        _ => 1024.0 * 1024.0,
    }
}

/// The cipher rows of a `cryptsetup benchmark` output, in order.
pub fn parse(text: &str) -> Vec<CipherSpeed> {
    text.lines()
        .filter_map(|l| {
            let line = crate::sources::util::clean_line(l);
            let c = ROW.captures(line.as_str())?;
            // A decimal comma in some locales ("128,2 MiB/s").
            let num = |i: usize| c.get(i)?.as_str().replace(',', ".").parse::<f64>().ok();
            let u = |i: usize| c.get(i).map(|m| unit(m.as_str())).unwrap_or(1.0);
            Some(CipherSpeed {
                cipher: c.get(1)?.as_str().to_string(),
                key_bits: c.get(2)?.as_str().parse().ok()?,
                encrypt_bytes_per_sec: num(3)? * u(4),
                decrypt_bytes_per_sec: num(5)? * u(6),
            })
        })
        .collect()
}

fn is_member(t: &str) -> bool {
    HEADER.is_match(t)
        || MEMORY_ONLY.is_match(t)
        || PBKDF.is_match(t)
        || ROW.is_match(t)
        || NA_ROW.is_match(t)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "cryptsetup-benchmark",
    starts: &[(150, |l| {
        spec::on_first(l, |t| {
            HEADER.is_match(t.trim()) || MEMORY_ONLY.is_match(t.trim())
        })
    })],
    member: |t, _| spec::Member::from(is_member(t.trim())),
    tolerance: (1, 1),
    classify: |_, _| "cryptsetup-benchmark",
    ..spec::Recogniser::NONE
};

/// cryptsetup(8) benchmark: pasted beside a slow LUKS volume; no live capture (diskdoc
/// measures the layer itself, the layer-cost test).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, t| {
        p == "cryptsetup" && t.contains("benchmark")
    })),
    ..spec::SourceSpec::named("cryptsetup-benchmark", "cryptsetup benchmark")
};

#[cfg(test)]
mod tests;
