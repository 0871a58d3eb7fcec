# Issue 17 (guest): nvme-health must fire on the critical warning smartctl reads from the
# controller; pcie-link-limited stays silent on QEMU's default link.
dump_overview
LAB_PREFIX=nvme0n1/
dump_disk nvme0n1
diskdoc_all nvme0n1
exit 0
