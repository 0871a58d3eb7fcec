#!/bin/bash
# diskdoc QEMU lab runner: boots a real Debian kernel under QEMU (TCG) with emulated AHCI, legacy
# IDE, NVMe, virtio-blk and MegaRAID SAS disks, runs one guest script per scenario and saves what
# it printed (diskdoc scan/check/bench JSON, raw sysfs files) on the host.
#
# Usage: tests/lab/run.sh [-o OUTDIR] [SCENARIO...]      (default: every scenario, in order)
#        tests/lab/run.sh --list
# Needs: Debian 12, root. Missing packages are installed with apt-get.
#
# Environment:
#   DISKDOC_LAB_CACHE    cache for the kernel .deb, the unpacked kernel (default /var/cache/diskdoc-lab)
#   DISKDOC_BIN          diskdoc binary to put in the guest (default: cargo build --release, then
#                        target/release/diskdoc)
#   DISKDOC_LAB_TIMEOUT  hard timeout per scenario in seconds (default 240)
#   DISKDOC_LAB_BOOT_WAIT  seconds the guest has to reach its scenario script before it is
#                        killed and booted once more (default 120; a normal TCG boot takes 5-15)
#   DISKDOC_LAB_ACCEL    QEMU accelerator: tcg (default), kvm, or auto (KVM when a probe guest boots
#                        under it within 20 s, else TCG). /dev/kvm on some hosts (kvm_pvm) aborts
#                        ("failed to set MSR") or crawls with an ordinary guest.
#   DISKDOC_LAB_JOBS     scenarios booted at once (default 2 on a host with 2+ CPUs)
#   DISKDOC_LAB_FIO=1    also put fio (and its ~80 MB of libraries) in the guest
#   DISKDOC_LAB_FIXTURES=DIR  also copy each scenario's raw guest facts (sysfs files, link targets,
#                        dmesg, dmsetup table, mounts) and diskdoc's evidence bundle (evidence.json)
#                        to DIR/<scenario>/ (tests/fixtures/qemu-sysfs; replayed by tests/it/lab.rs)
#
# Output, per scenario, in OUTDIR/<scenario>/: console.log (the guest kernel's console),
# serial.log (the raw scenario channel), one file per section the guest script emitted
# (e.g. scan.json, check.json, sysfs/...), <section>.rc with that command's exit code,
# exit_code (the guest script's status, or 124 timeout / 125 no result) and seconds.
# The runner's own exit status is 0 only when every scenario's guest script exited 0.
set -u -o pipefail

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$LAB_DIR/../.." && pwd)
CACHE=${DISKDOC_LAB_CACHE:-/var/cache/diskdoc-lab}
TIMEOUT=${DISKDOC_LAB_TIMEOUT:-240}
BOOT_WAIT=${DISKDOC_LAB_BOOT_WAIT:-120}
ACCEL=${DISKDOC_LAB_ACCEL:-tcg}
OUT=""
ALL_SCENARIOS=(ahci-hdd ahci-hdd-nocache piix-ide ahci-noncq align crypt nonsata read-error
               nvme-slow-link nvme-critical md-resync disk-busy sata-ssd-alpm)

log() { printf '[lab %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { log "error: $*"; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
        -o) OUT=$2; shift 2 ;;
        --list) printf '%s\n' "${ALL_SCENARIOS[@]}"; exit 0 ;;
        -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
        -*) die "unknown flag $1" ;;
        *) break ;;
    esac
done
SCENARIOS=("$@")
[ ${#SCENARIOS[@]} -eq 0 ] && SCENARIOS=("${ALL_SCENARIOS[@]}")
for s in "${SCENARIOS[@]}"; do
    [ -f "$LAB_DIR/scenarios/$s.qemu" ] && [ -f "$LAB_DIR/scenarios/$s.sh" ] \
        || die "no scenario named $s (have: ${ALL_SCENARIOS[*]})"
done
[ "$(id -u)" -eq 0 ] || die "the lab needs root (apt-get, depmod, disk images); run it as root"
[ -z "$OUT" ] && OUT=$(mktemp -d /tmp/diskdoc-lab.XXXXXX)
mkdir -p "$OUT" "$CACHE" || die "cannot create $OUT or $CACHE"
OUT=$(cd "$OUT" && pwd)

# ---- 1. packages ------------------------------------------------------------------------
# Host side: qemu, busybox, cpio, kmod (depmod/modprobe -d). Guest side: the tools the scenario
# scripts run (sfdisk, sgdisk, cryptsetup, mke2fs) and the ones diskdoc's probe may call.
need_pkgs=()
for p in qemu-system-x86 busybox-static cpio zstd fdisk gdisk cryptsetup-bin e2fsprogs kmod \
         util-linux dmsetup mdadm; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need_pkgs+=("$p")
done
[ "${DISKDOC_LAB_FIO:-0}" = 1 ] && ! command -v fio >/dev/null && need_pkgs+=(fio)
if [ ${#need_pkgs[@]} -gt 0 ]; then
    log "installing ${need_pkgs[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 || die "apt-get update failed"
    apt-get install -y -qq "${need_pkgs[@]}" >&2 || die "apt-get install ${need_pkgs[*]} failed"
fi

# ---- 2. kernel (cached) -----------------------------------------------------------------
# linux-image-amd64 is a metapackage; the versioned package it depends on holds vmlinuz and the
# modules. The .deb ships no modules.dep, hence depmod -b on the unpacked tree.
kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
if [ -z "$kpkg" ]; then
    apt-get update -qq >&2
    kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
fi
[ -n "$kpkg" ] || die "cannot resolve linux-image-amd64 to a versioned kernel package"
KVER=${kpkg#linux-image-}
KROOT=$CACHE/kernel-$KVER
if [ ! -f "$KROOT/.ready" ]; then
    mkdir -p "$CACHE/debs"
    deb=$(ls "$CACHE"/debs/"${kpkg}"_*.deb 2>/dev/null | head -1)
    if [ -z "$deb" ]; then
        log "downloading $kpkg"
        (cd "$CACHE/debs" && apt-get download "$kpkg" >&2) || die "apt-get download $kpkg failed"
        deb=$(ls "$CACHE"/debs/"${kpkg}"_*.deb | head -1)
    fi
    log "unpacking $(basename "$deb")"
    rm -rf "$KROOT"
    dpkg -x "$deb" "$KROOT" || die "dpkg -x $deb failed"
    depmod -b "$KROOT" "$KVER" || die "depmod failed"
    touch "$KROOT/.ready"
fi
VMLINUZ=$KROOT/boot/vmlinuz-$KVER
[ -f "$VMLINUZ" ] || die "no $VMLINUZ"

# ---- 3. diskdoc binary ------------------------------------------------------------------
BIN=${DISKDOC_BIN:-}
if [ -z "$BIN" ]; then
    log "cargo build --release"
    (cd "$REPO" && cargo build --release --bin diskdoc >&2) || die "cargo build failed"
    BIN=$REPO/target/release/diskdoc
fi
[ -x "$BIN" ] || die "no diskdoc binary at $BIN"

# ---- 4. initramfs -------------------------------------------------------------------------
# One uncompressed cpio (the kernel unpacks it without decompressing, which is what TCG is slow
# at) holding busybox, bash, the tools with the libraries ldd lists, the modules, diskdoc and the
# guest scripts.
WORK=$(mktemp -d /tmp/diskdoc-lab-work.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
IR=$WORK/root
mkdir -p "$IR"/{bin,sbin,bb,dev,proc,sys,tmp,run,mnt,etc,lab,usr/bin,usr/sbin,usr/local/bin}

copy_with_libs() { # copy a binary (following symlinks) and every library ldd lists
    local src=$1 dst=${2:-$1}
    mkdir -p "$IR$(dirname "$dst")"
    cp -L "$src" "$IR$dst" || return 1
    ldd "$src" 2>/dev/null | awk '/=>/ && $3 ~ /^\//{print $3} /^\t\//{print $1}' | while read -r lib; do
        [ -e "$IR$lib" ] && continue
        mkdir -p "$IR$(dirname "$lib")"
        cp -L "$lib" "$IR$lib"
    done
}

cp /bin/busybox "$IR/bin/busybox" || die "busybox-static missing"
# Applets live in /bb, last in PATH: Debian's static busybox shell would otherwise run its own
# fdisk/blockdev/mke2fs ahead of the real tools, and diskdoc's tool lookup (fixed system dirs)
# must find the util-linux tools, not applets.
for a in $(/bin/busybox --list); do ln -sf /bin/busybox "$IR/bb/$a"; done
copy_with_libs /bin/bash /bin/bash
ln -sf bash "$IR/bin/sh"
tools=(sfdisk sgdisk blockdev cryptsetup dmsetup mke2fs mkfs.ext4 lsblk blkid wipefs dmesg uname
       smartctl hdparm sdparm lspci nvme mdadm kmod stty timeout cat ls readlink dd sync)
[ "${DISKDOC_LAB_FIO:-0}" = 1 ] && tools+=(fio)
for t in "${tools[@]}"; do
    p=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$t") || continue
    copy_with_libs "$p" "$p" || die "cannot copy $p"
done
# libgcc_s is dlopen()ed by glibc for pthread_cancel/backtraces (cryptsetup's libargon2 threads).
for l in /lib/x86_64-linux-gnu/libgcc_s.so.1; do [ -e "$l" ] && copy_with_libs "$l"; done
ln -sf /usr/bin/kmod "$IR/sbin/modprobe"
copy_with_libs "$BIN" /usr/local/bin/diskdoc
cp "$LAB_DIR/init" "$IR/init" && chmod 755 "$IR/init"
cp "$LAB_DIR"/scenarios/*.sh "$LAB_DIR/lib.sh" "$IR/lab/"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$IR/etc/passwd"
printf 'root:x:0:\n' >"$IR/etc/group"

# Modules: each one with the dependency chain `modprobe --show-depends` resolves, in load order;
# the guest init insmods /lab/modules.list top to bottom (no modprobe logic needed at boot).
MODS=(ahci ata_piix nvme virtio_pci virtio_blk megaraid_sas sd_mod sg dm_mod dm_crypt loop ext4 raid1
      xts ecb cbc aesni_intel crc32c_generic sha256_generic af_alg algif_skcipher algif_hash)
: >"$WORK/modules.list"
for m in "${MODS[@]}"; do
    modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" 2>/dev/null | awk '$1=="insmod"{print $2}'
done | awk '!seen[$0]++' | while read -r ko; do
    rel=${ko#"$KROOT"}
    mkdir -p "$IR$(dirname "$rel")"
    cp "$ko" "$IR$rel"
    echo "$rel" >>"$WORK/modules.list"
done
cp "$WORK/modules.list" "$IR/lab/modules.list"
cp "$KROOT/lib/modules/$KVER"/modules.{dep,dep.bin,alias,alias.bin,builtin,builtin.bin,order,symbols,symbols.bin,softdep} \
    "$IR/lib/modules/$KVER/" 2>/dev/null
[ -s "$IR/lab/modules.list" ] || die "no modules resolved from $KROOT"
INITRD=$WORK/initrd.cpio
(cd "$IR" && find . -print0 | cpio --null -o -H newc --quiet >"$INITRD") || die "cpio failed"
# DISKDOC_LAB_ACCEL=auto: use KVM only if a guest actually boots to init under it within 20 s
# (on kvm_pvm hosts it aborts with "failed to set MSR" or crawls in the decompressor), else TCG.
if [ "$ACCEL" = auto ]; then
    ACCEL=tcg
    if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
        mkdir -p "$WORK/probe/lab" && echo kvm-probe >"$WORK/probe/lab/scenario"
        (cd "$WORK/probe" && find . -print0 | cpio --null -o -H newc --quiet) | cat - "$INITRD" >"$WORK/probe.cpio"
        timeout --kill-after=2 20 qemu-system-x86_64 -accel kvm -machine q35 -cpu host -m 256 \
            -nodefaults -display none -no-reboot -no-user-config \
            -kernel "$VMLINUZ" -initrd "$WORK/probe.cpio" -append "console=ttyS0 panic=-1 lab.wait=" \
            -serial null -serial "file:$WORK/probe.out" >/dev/null 2>&1
        grep -q '@@LAB-EXIT' "$WORK/probe.out" 2>/dev/null && ACCEL=kvm
    fi
    log "accelerator probe: $ACCEL"
fi
log "initramfs $(du -h "$INITRD" | cut -f1), kernel $KVER, accel $ACCEL, $(wc -l <"$IR/lab/modules.list") modules"

# ---- 5. scenarios -------------------------------------------------------------------------
# Split the scenario channel into files. The guest prints
#   @@LAB-BEGIN <name> / ... / @@LAB-END <name> <rc>   and finally   @@LAB-EXIT <rc>
# (serial output carries \r\n line ends; \r is dropped).
split_sections() {
    local serial=$1 dir=$2
    tr -d '\r' <"$serial" | awk -v dir="$dir" '
        /^@@LAB-BEGIN / { name=$2; if (name ~ /\.\./ || name ~ /^\//) name="bad-name"; 
                          f=dir "/" name; d=f; sub(/\/[^\/]*$/, "", d); system("mkdir -p \"" d "\"");
                          printf "" > f; cur=f; next }
        /^@@LAB-END /   { if (cur != "") { close(cur); if ($3 != "-") { print $3 > (cur ".rc"); close(cur ".rc") } } cur=""; next }
        /^@@LAB-EXIT /  { print $2 > (dir "/exit_code"); next }
        { if (cur != "") print > cur }'
}

run_scenario() {
    local s=$1 sdir IMG MACHINE SMP MEM LAB_WAIT APPEND_EXTRA DEVICES start end secs qrc rc fdir qpid hung waited attempt
    sdir=$OUT/$s
    rm -rf "$sdir"; mkdir -p "$sdir"
    # The .qemu file is bash: it sets MACHINE, SMP, MEM, LAB_WAIT, APPEND_EXTRA (kernel
    # arguments) and the DEVICES array, and may
    # create disk images under $IMG.
    IMG=$WORK/img-$s; mkdir -p "$IMG"
    MACHINE=q35; SMP=1; MEM=512; LAB_WAIT=sda; APPEND_EXTRA=""; DEVICES=()
    # shellcheck source=/dev/null
    source "$LAB_DIR/scenarios/$s.qemu" || { echo 126 >"$sdir/exit_code"; return; }
    # Per-scenario cpio first: an uncompressed archive placed after another is still read, but
    # keep the tiny one first so a future compressed base stays last (LAB-NOTES trap).
    mkdir -p "$WORK/sc-$s/lab"
    printf '%s\n' "$s" >"$WORK/sc-$s/lab/scenario"
    (cd "$WORK/sc-$s" && find . -print0 | cpio --null -o -H newc --quiet >"$WORK/sc-$s.cpio")
    cat "$WORK/sc-$s.cpio" "$INITRD" >"$WORK/initrd-$s.cpio"
    # One more boot when the guest kernel died or hung before the scenario began (a panic on the
    # console, or no @@LAB-BEGIN on the scenario channel within BOOT_WAIT seconds): that is the
    # host, not the disk under test; the first console is kept beside the second. A clean CI run
    # lost nvme-slow-link that way: its 2-vCPU guest stopped after the mtrr lines (secondary CPU
    # bring-up under TCG on a loaded host) and sat there until the 240 s timeout.
    for attempt in 1 2; do
        start=$(date +%s.%N)
        # no_timer_check (Documentation/admin-guide/kernel-parameters.txt: "Disables the code which
        # tests for broken timer IRQ sources"): under TCG on a loaded host the guest's IO-APIC timer
        # check can miss its ticks and the kernel panics "IO-APIC + timer doesn't work" before init
        # (a clean CI run lost ahci-hdd that way at a host load of 12); the lab asserts disks, not
        # the guest's timer wiring.
        : >"$sdir/serial.log"
        timeout --kill-after=5 "$TIMEOUT" qemu-system-x86_64 \
            -accel "$ACCEL" -machine "$MACHINE" -cpu max -smp "$SMP" -m "$MEM" \
            -nodefaults -display none -no-reboot -no-user-config \
            -kernel "$VMLINUZ" -initrd "$WORK/initrd-$s.cpio" \
            -append "console=ttyS0 panic=-1 loglevel=5 no_timer_check lab.wait=$LAB_WAIT $APPEND_EXTRA" \
            -serial "file:$sdir/console.log" -serial "file:$sdir/serial.log" \
            "${DEVICES[@]}" >"$sdir/qemu.log" 2>&1 &
        qpid=$!
        hung=0
        waited=0
        while kill -0 "$qpid" 2>/dev/null; do
            sleep 1
            waited=$((waited + 1))
            if [ "$attempt" = 1 ] && [ "$waited" -ge "$BOOT_WAIT" ] \
                && ! grep -q '@@LAB-BEGIN' "$sdir/serial.log" 2>/dev/null; then
                hung=1
                kill -TERM "$qpid" 2>/dev/null
                break
            fi
        done
        wait "$qpid"
        qrc=$?
        if [ "$attempt" = 1 ] && ! grep -q '@@LAB-BEGIN' "$sdir/serial.log" 2>/dev/null \
            && { [ "$hung" = 1 ] || grep -q 'Kernel panic' "$sdir/console.log" 2>/dev/null; }; then
            if [ "$hung" = 1 ]; then
                log "scenario $s: the guest did not reach the scenario in ${BOOT_WAIT}s; booting once more"
            else
                log "scenario $s: the guest kernel panicked before the scenario began; booting once more"
            fi
            mv "$sdir/console.log" "$sdir/console-first-boot.log"
            continue
        fi
        break
    done
    end=$(date +%s.%N)
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.1f", b-a}')
    echo "$secs" >"$sdir/seconds"
    split_sections "$sdir/serial.log" "$sdir"
    if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
        echo 124 >"$sdir/exit_code"
    elif [ ! -f "$sdir/exit_code" ]; then
        echo 125 >"$sdir/exit_code"
    fi
    rc=$(cat "$sdir/exit_code")
    log "scenario $s: exit $rc in ${secs}s (qemu $qrc) -> $sdir"
    if [ "$rc" != 0 ]; then
        log "---- last console lines of $s ----"; tail -n 25 "$sdir/console.log" | tr -d '\r' >&2
        log "---- qemu stderr ----"; cat "$sdir/qemu.log" >&2
    fi
    rm -rf "$IMG"
    if [ -n "${DISKDOC_LAB_FIXTURES:-}" ] && [ "$rc" = 0 ]; then
        fdir=$DISKDOC_LAB_FIXTURES/$s
        rm -rf "$fdir"; mkdir -p "$fdir"
        (cd "$sdir" && find . -type f ! -name '*.rc' ! -name '*.stderr' \
            \( ! -name '*.json' -o -name evidence.json \) \
            ! -name console.log ! -name serial.log ! -name qemu.log ! -name seconds ! -name exit_code \
            -print0 | cpio --null -pdm --quiet "$fdir")
    fi
}

# Scenarios are independent guests: run DISKDOC_LAB_JOBS of them at once (default 2 when the
# host has 2 or more CPUs; each TCG vCPU is one host thread).
JOBS=${DISKDOC_LAB_JOBS:-$(( $(nproc) >= 2 ? 2 : 1 ))}
for s in "${SCENARIOS[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    run_scenario "$s" &
done
wait
overall=0
for s in "${SCENARIOS[@]}"; do
    [ "$(cat "$OUT/$s/exit_code" 2>/dev/null)" = 0 ] || overall=1
done
log "results in $OUT"
echo "$OUT"
exit $overall
