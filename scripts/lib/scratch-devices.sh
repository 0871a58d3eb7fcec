# scratch-devices.sh: the devices the comparison scripts make for themselves and remove at
# the end (zram devices, loop devices with direct I/O, ext4 mounts, reserved huge pages).
# Sourced by scripts/bench-vs-fio.sh and scripts/steady-state-check.sh after they set WORK
# (a directory of their own, removed at the end); `trap cleanup EXIT INT TERM` is set here.
# Never touches a device it did not create (never zram0: others use it).
ZRAMS=(); LOOPS=(); MOUNTS=(); HUGE_OLD=""; DEV=""
cleanup() {
  local m l z
  for m in "${MOUNTS[@]}"; do if mountpoint -q "$m" 2>/dev/null; then umount "$m" || true; fi; done
  for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null || true; done
  for z in "${ZRAMS[@]}"; do
    echo 1 > "/sys/block/zram$z/reset" 2>/dev/null || true
    echo "$z" > /sys/class/zram-control/hot_remove 2>/dev/null || true
  done
  if [ -n "$HUGE_OLD" ]; then echo "$HUGE_OLD" > /proc/sys/vm/nr_hugepages; fi
  # The session's scheduling group, if the script raised it (bench-vs-fio.sh).
  if [ -n "${AG_OLD:-}" ]; then echo "$AG_OLD" > /proc/self/autogroup 2>/dev/null || true; fi
  rm -rf "$WORK"
}

# newzram and newloop set DEV (not printed: a $(...) subshell would lose the cleanup list).
newzram() { # size -> DEV=/dev/zramN (never zram0: others use it)
  local z; z=$(cat /sys/class/zram-control/hot_add); ZRAMS+=("$z")
  echo "$1" > "/sys/block/zram$z/disksize"; DEV=/dev/zram$z; }
newloop() { # image -> DEV=/dev/loopN, direct I/O on
  DEV=$(losetup --find --show --direct-io=on "$1"); LOOPS+=("$DEV"); }
newext4() { # device mountpoint
  # Inode tables and journal written now: lazy init would write them in the background for
  # minutes after mount (ext4lazyinit), stalling whichever tool ran then (mke2fs(8) -E).
  mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$1"
  mkdir -p "$2"; mount "$1" "$2"; MOUNTS+=("$2"); }
trap cleanup EXIT INT TERM
