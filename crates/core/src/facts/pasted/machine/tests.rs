use super::*;

#[test]
fn architecture_from_smartctl_build_string_or_uname() {
    let cases = [
        (
            "smartctl 6.4 2014-10-07 r4002 [armv7l-linux-4.4.0-00156-gc9ba6e8] (local build)",
            Some("armv7l"),
        ),
        (
            "smartctl 7.3 2022-02-28 r5338 [aarch64-linux-6.1.21-v8+] (local build)",
            Some("aarch64"),
        ),
        (
            "Linux zuzi 5.10.160-rockchip #3 SMP Thu Jun 15 2023 aarch64 aarch64 aarch64 GNU/Linux",
            Some("aarch64"),
        ),
        (
            "Linux pi 5.10.103-v7l+ #1529 SMP Tue Mar 8 12:24:00 GMT 2022 armv7l GNU/Linux",
            Some("armv7l"),
        ),
        // Near misses: a PC's build and uname, smartctl on Windows, another tool's brackets.
        (
            "smartctl 7.4 2023-08-01 r5530 [x86_64-linux-6.8.0] (local build)",
            None,
        ),
        (
            "smartctl 7.2 2020-12-30 r5155 [x86_64-w64-mingw32-w10-b19045] (sf-7.2-1)",
            None,
        ),
        (
            "Linux box 6.8.0-45-generic #45-Ubuntu SMP x86_64 x86_64 x86_64 GNU/Linux",
            None,
        ),
        ("ata1: [armv7l-linux-4.4]", None),
    ];
    for (line, want) in cases {
        assert_eq!(
            smartctl_arch(line).or_else(|| uname_arch(line)),
            want,
            "{line}"
        );
    }
}

#[test]
fn boards_named_by_the_kernel_cpuinfo_or_the_benchmark_banner() {
    let cases = [
        (
            "[    0.000000] Machine model: Kosagi Novena Dual/Quad",
            Some("Kosagi Novena Dual/Quad (device-tree machine)"),
        ),
        (
            "Model\t\t: Raspberry Pi Compute Module 4 Rev 1.0",
            Some("Raspberry Pi Compute Module 4 Rev 1.0"),
        ),
        (
            "Raspberry Pi 4 Model B Rev 1.4",
            Some("Raspberry Pi 4 Model B Rev 1.4"),
        ),
        (
            "  Raspberry Pi disk benchmarks",
            Some("Raspberry Pi (named by the disk-benchmark script's banner)"),
        ),
        // Near misses: parted's "Model:" line, prose about a Pi.
        ("Model: ATA WDC WD10EZEX-08W (scsi)", None),
        ("Raspberry Pi 4 with a USB SSD is slow", None),
    ];
    for (line, want) in cases {
        assert_eq!(board(line).as_deref(), want, "{line}");
    }
}
