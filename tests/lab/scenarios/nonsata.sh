# Scenario 6 (guest): NVMe, virtio-blk and a MegaRAID logical disk; SATA checks must not fire.
dump_overview
for d in nvme0n1 vda sda; do
    LAB_PREFIX=$d/
    dump_disk "$d"
    diskdoc_all "$d"
done
exit 0
