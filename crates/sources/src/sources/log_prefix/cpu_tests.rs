//! The CPU field of vendor kernels (CONFIG_PRINTK_CPU_ID) after the dmesg stamp.

use super::strip_prefixes;

#[test]
fn an_exynos_cpu_field_after_the_stamp_is_a_prefix() {
    // ODROID XU4 (Hardkernel's Exynos 5422 kernel), DietPi issue 487.
    assert_eq!(
        strip_prefixes(
            "[ 1394.012800] [c0] usb 4-1.2: reset SuperSpeed USB device number 3 using xhci-hcd"
        ),
        "usb 4-1.2: reset SuperSpeed USB device number 3 using xhci-hcd"
    );
    assert_eq!(
        strip_prefixes(
            "[ 1394.027708] [c0] xhci-hcd xhci-hcd.2.auto: xHCI xhci_drop_endpoint called with \
             disabled ep dd9fad80"
        ),
        "xhci-hcd xhci-hcd.2.auto: xHCI xhci_drop_endpoint called with disabled ep dd9fad80"
    );
    // The unbracketed form of printk.c's "c%u ", and behind a syslog header.
    assert_eq!(
        strip_prefixes("[   12.5] c3 sd 0:0:0:0: [sda] Attached SCSI disk"),
        "sd 0:0:0:0: [sda] Attached SCSI disk"
    );
    assert_eq!(
        strip_prefixes("Jan 1 00:00:01 odroid kernel: [   12.5] [c7] usb 4-1: USB disconnect"),
        "usb 4-1: USB disconnect"
    );
}

#[test]
fn text_that_only_looks_like_a_cpu_field_stays() {
    // Near misses: a bracket that is no CPU, three digits, a word starting with c.
    assert_eq!(strip_prefixes("[   12.5] [c] x"), "[c] x");
    assert_eq!(strip_prefixes("[   12.5] [c123] x"), "[c123] x");
    assert_eq!(
        strip_prefixes("[   12.5] cfg80211: Loading compiled-in X.509 certificates"),
        "cfg80211: Loading compiled-in X.509 certificates"
    );
    assert_eq!(strip_prefixes("[   12.5] c2x: ok"), "c2x: ok");
    // Without a stamp before it, "[c0]" is text.
    assert_eq!(strip_prefixes("[c0] usb 4-1: x"), "[c0] usb 4-1: x");
}
