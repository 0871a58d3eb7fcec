# Helpers sourced by the lab's guest scenario scripts (bash). Everything printed on stdout goes to
# the host over ttyS1; `emit`, `run` and the put_*/dump_* helpers wrap output in
# @@LAB-BEGIN/@@LAB-END sections that tests/lab/run.sh splits into files.

# Sections are named $LAB_PREFIX<name>: a scenario with phases sets LAB_PREFIX=phase/.
LAB_PREFIX=${LAB_PREFIX:-}

# emit NAME FILE RC: send FILE's bytes as section NAME, ending with a newline. Bash builtins
# only: every fork costs tens of milliseconds under TCG. RC "-" means "no status to record".
emit() {
    local name=$LAB_PREFIX$1 file=$2 rc=$3 body=""
    IFS= read -r -d '' body <"$file"
    echo "@@LAB-BEGIN $name"
    if [ -n "$body" ]; then
        if [[ $body == *$'\n' ]]; then printf '%s' "$body"; else printf '%s\n' "$body"; fi
    fi
    echo "@@LAB-END $name $rc"
}

# run NAME CMD...: run CMD, send its stdout as section NAME (and stderr as NAME.stderr when
# not empty); returns CMD's status.
run() {
    local name=$1
    shift
    "$@" >/tmp/lab.out 2>/tmp/lab.err
    local rc=$?
    emit "$name" /tmp/lab.out "$rc"
    [ -s /tmp/lab.err ] && emit "$name.stderr" /tmp/lab.err -
    return $rc
}

# must CMD...: a setup step that has to work; on failure report it and stop the scenario.
must() {
    if ! "$@" >/tmp/lab.must 2>&1; then
        echo "@@LAB-BEGIN setup-error"
        echo "setup step failed: $*"
        cat /tmp/lab.must
        echo "@@LAB-END setup-error 1"
        exit 4
    fi
}

# put_file PATH: send a sysfs (or any small text) file as section sysfs<PATH>; files that cannot
# be read (write-only attributes such as rescan_controller) are skipped.
put_file() {
    local f=$1 body=""
    [ -f "$f" ] || return 0
    { IFS= read -r -d '' body <"$f"; } 2>/dev/null
    [ -n "$body" ] || { : <"$f"; } 2>/dev/null || return 0
    printf '%s' "$body" >/tmp/lab.file
    emit "sysfs$f" /tmp/lab.file -
}

# put_dir DIR: every readable text attribute directly in DIR (not recursive). PCI config space,
# ROMs and resource maps are binary and skipped.
put_dir() {
    local d=$1 f
    [ -d "$d" ] || return 0
    for f in "$d"/*; do
        case "${f##*/}" in
            config | rom | resource* | vpd | descriptors | remove | rescan | reset* | delete | \
            stat | inflight | events* | diskseq | uevent | inquiry | vpd_pg*) continue ;;
        esac
        [ -f "$f" ] && [ ! -L "$f" ] && put_file "$f"
    done
}

# put_link PATH: the target of a sysfs symlink and its realpath, as sections sysfs<PATH>.link
# and sysfs<PATH>.realpath (files beside the directory, so a fixture tree can hold both).
put_link() {
    local p=$1
    [ -e "$p" ] || [ -L "$p" ] || return 0
    readlink "$p" >/tmp/lab.link 2>/dev/null && emit "sysfs$p.link" /tmp/lab.link -
    readlink -f "$p" >/tmp/lab.link 2>/dev/null && emit "sysfs$p.realpath" /tmp/lab.link -
}

# pci_dev_of DISK: the sysfs directory of the PCI function the disk hangs off (the deepest
# dddd:bb:dd.f component of the disk's realpath).
pci_dev_of() {
    local p pci="" cur=""
    p=$(readlink -f "/sys/block/$1")
    local IFS=/
    for part in $p; do
        [ -n "$part" ] || continue
        cur="$cur/$part"
        [[ $part =~ ^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]$ ]] && pci=$cur
    done
    echo "$pci"
}

# dump_disk DISK: the sysfs facts diskdoc's Linux probe reads for DISK, as fixture sections.
dump_disk() {
    local d=$1 real pci ata n
    put_link "/sys/block/$d"
    put_dir "/sys/block/$d"
    put_dir "/sys/block/$d/queue"
    put_dir "/sys/block/$d/device"
    put_link "/sys/block/$d/device/driver"
    for n in /sys/block/"$d"/device/scsi_disk/*; do
        [ -d "$n" ] && put_dir "$n"
    done
    for n in /sys/block/"$d"/"$d"*; do
        [ -f "$n/partition" ] && put_dir "$n"
    done
    for n in /sys/block/"$d"/holders/* /sys/block/"$d"/slaves/* /sys/block/"$d"/"$d"*/holders/*; do
        [ -e "$n" ] && put_link "$n"
    done
    # device-mapper: name, uuid (CRYPT-LUKS2-... for LUKS), suspended.
    put_dir "/sys/block/$d/dm"
    pci=$(pci_dev_of "$d")
    if [ -n "$pci" ]; then
        for n in class vendor device subsystem_vendor subsystem_device revision; do
            put_file "$pci/$n"
        done
        put_link "$pci/driver"
    fi
    # libata: the ataN port in the path names the link and device objects.
    real=$(readlink -f "/sys/block/$d")
    ata=$(echo "$real" | grep -o '/ata[0-9]*/' | head -1 | tr -d '/')
    if [ -n "$ata" ]; then
        put_dir "/sys/class/ata_port/$ata"
        for n in /sys/class/ata_link/link"${ata#ata}" /sys/class/ata_link/link"${ata#ata}".*; do
            [ -e "$n" ] && put_dir "$n"
        done
        for n in /sys/class/ata_device/dev"${ata#ata}".*; do
            [ -e "$n" ] && put_dir "$n"
        done
    fi
    # NVMe: the controller object holds model, serial, firmware, transport.
    case "$d" in nvme*) put_dir "/sys/block/$d/device" ;; esac
}

# dump_overview: listing of /sys/block with link targets and the kernel log, as sections
# ls-sys-block and dmesg.txt.
dump_overview() {
    ls -l /sys/block >/tmp/lab.ls 2>&1
    emit ls-sys-block /tmp/lab.ls -
    dmesg >/tmp/lab.ls 2>&1
    emit dmesg.txt /tmp/lab.ls -
}

# diskdoc_all DISK [BENCH-ARGS...]: scan (with the evidence bundle), check and, when bench args
# are given, a short bench of DISK, as sections scan.json, evidence.json, check.json, bench.json.
diskdoc_all() {
    local d=$1
    shift
    rm -f /tmp/evidence.json
    run scan.json diskdoc scan --json --no-redact --device "$d" --evidence-out /tmp/evidence.json
    [ -f /tmp/evidence.json ] && emit evidence.json /tmp/evidence.json -
    run check.json diskdoc check --json --no-redact --device "$d"
    [ $# -gt 0 ] && run bench.json diskdoc bench --json --no-redact --device "$d" "$@"
    return 0
}
