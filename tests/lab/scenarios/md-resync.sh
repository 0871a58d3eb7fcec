# Issue 17 (guest): an md RAID1 resyncing at a capped rate (1 MB/s, so it is still running when
# diskdoc looks); array-rebuilding must name md0, resync and the speed limits.
dump_overview
echo 1000 >/proc/sys/dev/raid/speed_limit_min
echo 1000 >/proc/sys/dev/raid/speed_limit_max
mdadm --create /dev/md0 --level=1 --raid-devices=2 --metadata=1.2 --run /dev/vda /dev/vdb \
    >/tmp/mdadm.out 2>&1 || { emit setup-error /tmp/mdadm.out -; exit 1; }
sleep 2
put_file /proc/mdstat
for f in sync_action sync_speed sync_speed_min sync_speed_max degraded; do
    put_file "/sys/block/md0/md/$f"
done
LAB_PREFIX=md0/
diskdoc_all md0
exit 0
