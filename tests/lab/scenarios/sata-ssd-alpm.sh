# Issue 17 (guest): SATA SSDs with the AHCI link power policy set to med_power_with_dipm via
# sysfs. No link resets follow, so power-management passes (silent); trim-unavailable follows
# each disk's discard_max_bytes.
dump_overview
for h in /sys/class/scsi_host/host*; do
    [ -f "$h/link_power_management_policy" ] &&
        echo med_power_with_dipm >"$h/link_power_management_policy" 2>/dev/null
done
sleep 1
for d in sda sdb; do
    LAB_PREFIX=$d/
    dump_disk "$d"
    diskdoc_all "$d"
done
exit 0
