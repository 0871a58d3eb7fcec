//! Native MBR / GPT / BSD-label parsing from raw device bytes (read-only captures).
//! References: UEFI 2.10 section 5.3 (GPT), the classic MBR layout, FreeBSD bsdlabel(8).
