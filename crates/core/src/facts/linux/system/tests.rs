use super::*;

#[test]
fn parses_procfs_snippets() {
    assert_eq!(
            os_name("NAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n").as_deref(),
            Some("Debian GNU/Linux 12 (bookworm)")
        );
    assert_eq!(
        os_name("NAME=Alpine\nVERSION_ID=3.19.1").as_deref(),
        Some("Alpine 3.19.1")
    );
    let cpu = "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\nflags\t\t: fpu sse2 aes avx\n";
    assert_eq!(
        cpu_model(cpu).as_deref(),
        Some("Intel(R) Xeon(R) CPU @ 2.20GHz")
    );
    assert_eq!(cpu_has_aes(cpu), Some(true));
    assert_eq!(cpu_has_aes("flags : fpu sse2\n"), Some(false));
    let crypto = "name         : xts(aes)\ndriver       : xts(ecb(aes-generic))\npriority     : 100\n\n\
                      name         : __xts(aes)\ndriver       : __xts-aes-aesni\npriority     : 401\n\n\
                      name         : xts(aes)\ndriver       : xts-aes-aesni\npriority     : 401\n";
    assert_eq!(
        crypto_driver(crypto, "xts(aes)").as_deref(),
        Some("xts-aes-aesni")
    );
    assert_eq!(crypto_driver("", "xts(aes)"), None);
    assert_eq!(mem_total("MemTotal:       16384 kB\n"), Some(16384 * 1024));
    assert_eq!(is_root("Name:\tdiskdoc\nUid:\t1000\t0\t0\t0\n"), Some(true));
    assert_eq!(is_root("Uid:\t0\t1000\t1000\t1000\n"), Some(false));
    assert_eq!(is_root("Uid:"), None);
}
