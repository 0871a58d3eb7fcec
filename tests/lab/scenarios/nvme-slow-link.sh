# Issue 17 (guest): pcie-link-limited must fire from the drive-class rule (2.5 GT/s x1 is
# 250 MB/s, below a SATA SSD) while the link itself trained to what both ends offer.
dump_overview
for f in current_link_speed max_link_speed current_link_width max_link_width; do
    for p in /sys/block/nvme0n1/device/device /sys/block/nvme0n1/device/device/..; do
        [ -f "$p/$f" ] && put_file "$(readlink -f "$p")/$f"
    done
done
LAB_PREFIX=nvme0n1/
dump_disk nvme0n1
diskdoc_all nvme0n1
exit 0
