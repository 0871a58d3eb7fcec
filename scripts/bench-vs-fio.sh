#!/usr/bin/env bash
# bench-vs-fio.sh: run diskdoc's read engine and fio side by side, in one run, on
#   (a) a zram device of our own holding 1 GiB of random data,
#   (b) a loop device over a 1 GiB image file of random data,
#   (c) a 1 GiB scratch file of random data, on ext4 on a zram device of our own and on the
#       filesystem under /var/tmp (the machine's own disk), compared only where
#       `diskdoc bench --device FILE` reads the file itself (it measures the disk under a
#       file, so otherwise one "not compared" line says what it measures instead),
# and print one line per test and device:
#   test device diskdoc=X fio=Y ratio=Z target>=T PASS/FAIL
# plus p50 and p99 latency lines per test (diskdoc's at most 5 % above fio's). Latency on
# both sides is the total per I/O: diskdoc's clock starts just before the submission call and
# stops at the reap, so fio's `lat` (slat + clat, --lat_percentiles=1) is its counterpart, not
# `clat` alone, which for io_uring starts only after io_uring_enter(2) has returned.
# Targets (issue 4): seq 1 MiB read >= 0.97x fio's bandwidth (psync QD1), 4 KiB random read
# >= 0.95x fio's IOPS at QD1 (psync) and QD32 (io_uring, else libaio); direct=1 everywhere.
# Writes (issue 18): the cdm preset's four writes (SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1,
# RND4K Q1T1) to a scratch file on ext4 on a zram device of our own, on ext4 on a loop
# device, and in a directory on the root filesystem (/var/tmp: the machine's own disk, which
# cannot be opened raw here); fio runs the very command line diskdoc prints for each ("fio
# equivalent: ..."), on its own file of the same size on the same filesystem, which fio lays
# out itself (untimed) at the start of every round, as diskdoc lays out its scratch file at
# the start of each of its runs. Target >= 0.97x; p50 and p99 within 5 % of fio's.
# Each tool runs ROUNDS times (default 15; 1 s per run, FIO_SECS changes it), paired, at the
# same raised priority; every line prints the median of each tool's values and the median of the per-round ratios,
# which is what the target is checked against. Per-round values go to stderr.
#
# Needs root (zram hot_add, losetup), fio and jq. Usage: [TARGETS="zram loop file write"]
#   [FIO_SECS=1] [FIO_EXTRA="--mem=..."] scripts/bench-vs-fio.sh [ROUNDS]
# (TARGETS may also name ext4 or rootfs for one of the two scratch files, and write-zram,
# write-loop or write-rootfs for one of the three write targets; FIO_EXTRA adds options to
# every fio run, for experiments such as fio with a huge-page buffer.)
# The last line counts the lines that passed and failed and names the commit measured.
# Exit status: 0 if every line passed, 1 otherwise, 2 if it could not run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-15}
SECS=${FIO_SECS:-1}
# Both tools run at the same raised priority so that other work on a shared machine disturbs
# them less (and equally).
PRIO=(nice -n -15)
for t in fio jq losetup; do
  command -v "$t" >/dev/null || { echo "bench-vs-fio: $t is not installed (apt-get install $t)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "bench-vs-fio: needs root (zram and loop devices)" >&2; exit 2; }
[ -w /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null || true

# DISKDOC_BIN: a diskdoc binary to use instead of building one (the smoke test passes its own).
if [ -n "${DISKDOC_BIN:-}" ]; then BIN=$DISKDOC_BIN
else cargo build --release --quiet; BIN=$PWD/target/release/diskdoc; fi
# TARGETS picks a subset (default all), whole words: any of zram loop file (= ext4 rootfs)
# write (= write-zram write-loop write-rootfs, the cdm writes).
TARGETS=${TARGETS:-zram loop file write}
want() { local t; for t in "$@"; do [[ " $TARGETS " == *" $t "* ]] && return 0; done; return 1; }

# The commit measured: the tree the binary was built from ("-dirty" when it had uncommitted
# changes to tracked files).
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || COMMIT="$COMMIT-dirty"

WORK=$(mktemp -d /var/tmp/bench-vs-fio.XXXXXX)
ZRAM=""; LOOP=""; FSZRAM=""; WZRAM=""; WLOOP=""
cleanup() {
  for m in "$WORK/mnt" "$WORK/wzram" "$WORK/wloop"; do
    mountpoint -q "$m" 2>/dev/null && umount "$m"
  done
  for l in $LOOP $WLOOP; do losetup -d "$l" 2>/dev/null || true; done
  for z in $ZRAM $FSZRAM $WZRAM; do
    echo 1 > "/sys/block/zram$z/reset" 2>/dev/null || true
    echo "$z" > /sys/class/zram-control/hot_remove 2>/dev/null || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

if want zram loop file ext4 rootfs; then head -c 1G /dev/urandom > "$WORK/random.img"; fi
if want loop; then cp "$WORK/random.img" "$WORK/loop.img"; fi
if want file rootfs; then cp "$WORK/random.img" "$WORK/scratch.dat"; fi
sync

# (a) our own zram device (never zram0: others use it).
if want zram; then
  ZRAM=$(cat /sys/class/zram-control/hot_add)
  echo 1G > "/sys/block/zram$ZRAM/disksize"
  dd if="$WORK/random.img" of="/dev/zram$ZRAM" bs=1M oflag=direct status=none
fi
# (b) a loop device over an image file (buffered backing file, warmed below: the host disk
# under /var/tmp is shared and would make the loop numbers mostly noise).
if want loop; then LOOP=$(losetup --find --show "$WORK/loop.img"); fi
# Warm the page cache behind the image and scratch file so both tools see the same state.
for f in "$WORK/loop.img" "$WORK/scratch.dat"; do [ -f "$f" ] && cat "$f" > /dev/null; done
# (c') the same scratch file on ext4 on a zram device of our own: the file path (ext4's
# O_DIRECT, extents) without the host's disk under it, whose cache made (c) swing 2x between
# rounds. (c) runs too and is judged too.
if want file ext4 && command -v mkfs.ext4 >/dev/null; then
  FSZRAM=$(cat /sys/class/zram-control/hot_add)
  echo 1200M > "/sys/block/zram$FSZRAM/disksize"
  mkfs.ext4 -q -F "/dev/zram$FSZRAM"
  mkdir -p "$WORK/mnt" && mount "/dev/zram$FSZRAM" "$WORK/mnt"
  dd if="$WORK/random.img" of="$WORK/mnt/scratch.dat" bs=1M oflag=direct status=none
fi

# diskdoc's outer zone spans a ninth of the device in whole MiB (plan::zone_jobs): give fio
# the same region for the sequential test; random reads cover the whole GiB in both.
ZONE_MIB=$((1024 / 9))
fio_job() { # dev rw bs engine depth size -> fio JSON
  "${PRIO[@]}" fio --name=cmp --filename="$1" --rw="$2" --bs="$3" --ioengine="$4" --iodepth="$5" \
      --direct=1 --time_based --runtime="$SECS" --size="$6" --norandommap --randrepeat=0 --lat_percentiles=1 ${FIO_EXTRA:-} \
      --output-format=json 2>/dev/null
}

QD32_ENGINE=io_uring
fio --name=probe --filename="$WORK/scratch.dat" --rw=read --bs=4k --ioengine=io_uring \
    --direct=1 --size=1M --runtime=1 --output-format=json >/dev/null 2>&1 || QD32_ENGINE=libaio

median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print 0; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# One round on one device. Prints eighteen numbers: diskdoc's "seq_Bps seq_p50_ns seq_p99_ns
# q1_iops q1_p50_ns q1_p99_ns q32_iops q32_p50_ns q32_p99_ns", then fio's, in the same order. The runs are ordered so that
# each diskdoc test sits right next to the fio run it is compared with (diskdoc's rand run does
# QD1 then QD32, so fio's QD1 goes just before it and fio's QD32 just after); the sequential pair
# alternates which tool goes first.
warm() { dd if="$1" of=/dev/null bs=1M count="$ZONE_MIB" iflag=direct status=none; }
round() { # dev round-number
  local a b fa fb fc
  # --time-based: diskdoc runs each test for the whole budget, as fio's time_based does, so
  # both tools measure windows of the same length.
  # Before each sequential run, one direct pass over the region puts it in the same state for
  # whichever tool comes next (the scratch file's virtio disk is cached by the host: without
  # this the tool going second read a region the first had just warmed).
  if (($2 % 2 == 0)); then
    warm "$1"; a=$("${PRIO[@]}" "$BIN" bench --device "$1" --tests seq --budget "$SECS" --time-based --json || true)
    warm "$1"; fa=$(fio_job "$1" read 1M psync 1 "${ZONE_MIB}M")
  else
    warm "$1"; fa=$(fio_job "$1" read 1M psync 1 "${ZONE_MIB}M")
    warm "$1"; a=$("${PRIO[@]}" "$BIN" bench --device "$1" --tests seq --budget "$SECS" --time-based --json || true)
  fi
  fb=$(fio_job "$1" randread 4k psync 1 1G)
  b=$("${PRIO[@]}" "$BIN" bench --device "$1" --tests rand --budget "$SECS" --time-based --json || true)
  fc=$(fio_job "$1" randread 4k "$QD32_ENGINE" 32 1G)
  # A run that printed nothing (diskdoc refused, fio failed) counts as zeros in its own
  # places, never shifting the other tool's numbers into them.
  echo "$(or_zeros 3 "$(jq -r '[.benchmarks[]|select(.test=="seq-read" and .label=="outer")][0] | "\(.bytes_per_sec // 0) \(.latency.p50_ns // 0) \(.latency.p99_ns // 0)"' <<<"$a" 2>/dev/null)")" \
       "$(or_zeros 6 "$(jq -r '[.benchmarks[]|select(.test=="rand-read")] | ([.[]|select(.label=="qd1")][0], [.[]|select(.label=="qd32")][0]) | "\(.iops // 0) \(.latency.p50_ns // 0) \(.latency.p99_ns // 0)"' <<<"$b" 2>/dev/null | tr '\n' ' ')")" \
       "$(or_zeros 3 "$(fio_vals read bw_bytes <<<"$fa" 2>/dev/null)")" "$(or_zeros 3 "$(fio_vals read iops <<<"$fb" 2>/dev/null)")" "$(or_zeros 3 "$(fio_vals read iops <<<"$fc" 2>/dev/null)")"
}
# N values, or N zeros when the text has fewer words (a run that printed nothing).
or_zeros() { # n text
  local -a w
  read -r -a w <<<"$2"
  if ((${#w[@]} >= $1)); then echo "${w[*]:0:$1}"; else printf '0 %.0s' $(seq "$1"); fi
}
# fio JSON on stdin -> "value p50_ns p99_ns" of its first job (rw: read or write).
fio_vals() { jq -r --arg rw "$1" --arg v "$2" '.jobs[0][$rw] | "\(.[$v]) \(.lat_ns.percentile["50.000000"] // 0) \(.lat_ns.percentile["99.000000"] // 0)"'; }

# Paired design: each round runs both tools back to back (alternating which goes first), and
# the verdict is the median over the rounds of the per-round ratio diskdoc/fio. Neighbouring
# runs share the machine's state of the moment (other guests, host cache), so their ratio is
# far steadier on a shared machine than a ratio of two bests or two medians taken apart.
run_device() { # label path
  local label=$1 dev=$2 r
  local -a ratios=() dv=() fv=()
  for ((r = 0; r < ROUNDS; r++)); do
    read -r -a V <<<"$(round "$dev" "$r")"
    D=("${V[@]:0:9}"); F=("${V[@]:9:9}")
    echo "# round $((r + 1)) $label diskdoc: ${D[*]} | fio: ${F[*]}" >&2
    collect
  done
  report seq-1MiB-read-MiB/s 1048576 0.97 rand-4KiB-qd1-IOPS 1 0.95 rand-4KiB-qd32-IOPS 1 0.95
}

# Append this round's D (diskdoc) and F (fio) values, and their ratios, to dv, fv, ratios.
collect() {
  local i
  for i in "${!D[@]}"; do
    ratios[i]+="$(awk -v a="${D[i]:-0}" -v b="${F[i]:-0}" 'BEGIN { print (b > 0) ? a / b : 0 }') "
    dv[i]+="${D[i]:-0} "; fv[i]+="${F[i]:-0} "
  done
}

# report NAME UNIT TARGET ... (one triple per test; values come in threes: rate, p50, p99).
# Prints the rate lines, then the p50 lines, then the p99 lines.
report() {
  local -a names=() units=() targets=()
  while (($# >= 3)); do names+=("$1"); units+=("$2"); targets+=("$3"); shift 3; done
  local k j i m dm fm name unit target
  for k in 0 1 2; do
    for j in "${!names[@]}"; do
      i=$((3 * j + k))
      m=$(tr ' ' '\n' <<<"${ratios[i]}" | grep . | median)
      dm=$(tr ' ' '\n' <<<"${dv[i]}" | grep . | median)
      fm=$(tr ' ' '\n' <<<"${fv[i]}" | grep . | median)
      case $k in
        0) name=${names[j]}; unit=${units[j]}; target=${targets[j]} ;;
        1) name="p50-${names[j]%-*}-us"; unit=1000; target=1.05 ;;
        2) name="p99-${names[j]%-*}-us"; unit=1000; target=1.05 ;;
      esac
      line "$name" "$label" "$dm" "$fm" "$m" "$target" "$unit"
    done
  done
}

# The cdm preset's writes on a scratch directory. diskdoc runs its four writes in one call
# (its scratch file laid out first, untimed); fio runs the command line diskdoc printed for
# each, on fio's own file of the same size laid out once with random data. The order of the
# two tools alternates between rounds.
CDM_W=("SEQ1M Q8T1" "SEQ1M Q1T1" "RND4K Q32T1" "RND4K Q1T1")
wround() { # dir fiofile round -> 12 diskdoc values then 12 fio values
  local a t cmd out="" fout=""
  local -a fj=()
  dd_run() { a=$("${PRIO[@]}" "$BIN" bench --preset cdm --tests write --scratch-dir "$1" --budget "$SECS" --json || true); }
  fio_run() {
    fj=()
    # A fresh file per round, laid out by fio itself before its first job starts (the line
    # says --overwrite=1: written and fsynced; not timed), as diskdoc creates and lays out a
    # new scratch file in each of its runs. In three pairs on ext4 on a loop device, fio's
    # Q1 random writes had a p50 of 35, 33, 19 us on a file created just before and 12, 21,
    # 11 us on one laid out minutes before: a file laid out once for all rounds measured a
    # calmer filesystem than diskdoc's.
    rm -f "$2"
    for t in "${CDM_W[@]}"; do
      cmd=$(jq -r --arg t "$t" '[.benchmarks[]|select(.test=="cdm-write" and .label==$t)][0].notes[]|select(startswith("fio equivalent: "))|sub("^fio equivalent: ";"")' <<<"$CMDS")
      cmd=$(sed -E "s#--filename=('[^']*'|[^ ]*)#--filename=$2#" <<<"$cmd")
      fj+=("$(eval "${PRIO[*]} $cmd --lat_percentiles=1 --output-format=json" 2>/dev/null || true)")
      # diskdoc flushes its file (untimed) after each write test; the same for fio's.
      sync "$2"
    done
  }
  if (($3 % 2 == 0)); then dd_run "$1"; fio_run "$1" "$2"; else fio_run "$1" "$2"; dd_run "$1"; fi
  for t in "${CDM_W[@]}"; do
    out+="$(jq -r --arg t "$t" '[.benchmarks[]|select(.test=="cdm-write" and .label==$t)][0] | "\(if ($t|startswith("SEQ")) then .bytes_per_sec else .iops end // 0) \(.latency.p50_ns // 0) \(.latency.p99_ns // 0)"' <<<"$a") "
  done
  local v
  for i in 0 1 2 3; do
    if ((i < 2)); then v=bw_bytes; else v=iops; fi
    fout+="$(fio_vals write "$v" <<<"${fj[i]}") "
  done
  echo "$out $fout"
}

run_writes() { # label dir
  local label=$1 dir=$2 r fiofile
  local -a ratios=() dv=() fv=()
  # One diskdoc run gives the fio command lines (they name its scratch file and its size).
  CMDS=$("$BIN" bench --preset cdm --tests write --scratch-dir "$dir" --budget "$SECS" --json)
  fiofile="$dir/fio-cdm.dat"
  for ((r = 0; r < ROUNDS; r++)); do
    read -r -a V <<<"$(wround "$dir" "$fiofile" "$r")"
    D=("${V[@]:0:12}"); F=("${V[@]:12:12}")
    echo "# round $((r + 1)) $label diskdoc: ${D[*]} | fio: ${F[*]}" >&2
    collect
  done
  rm -f "$fiofile"
  sync -f "$dir"
  report seq-1MiB-q8-write-MiB/s 1048576 0.97 seq-1MiB-q1-write-MiB/s 1048576 0.97 \
    rand-4KiB-q32-write-IOPS 1 0.97 rand-4KiB-q1-write-IOPS 1 0.97
}

FAILS=0; PASSES=0
line() { # test device diskdoc_median fio_median median_ratio target unit
  local verdict target=$6
  # Throughput targets are floors; p50 latency targets are ceilings.
  verdict=$(awk -v d="$3" -v f="$4" -v r="$5" -v t="$target" -v u="$7" -v lat="${1%%-*}" 'BEGIN{
    islat = (lat == "p50" || lat == "p99");
    ok = islat ? (r > 0 && r <= t) : (r >= t);
    printf "diskdoc=%.2f fio=%.2f ratio=%.3f target%s%.2f %s", d/u, f/u, r, islat ? "<=" : ">=", t, ok ? "PASS" : "FAIL" }')
  echo "$1 $2 $verdict"
  if [[ $verdict == *PASS ]]; then PASSES=$((PASSES + 1)); else FAILS=$((FAILS + 1)); fi
}

echo "# diskdoc $("$BIN" --version | awk '{print $2}') (commit $COMMIT) vs $(fio --version); load average $(cut -d' ' -f1-3 /proc/loadavg); rounds=$ROUNDS (paired, median of per-round ratios), ${SECS}s per run, QD32 fio engine: $QD32_ENGINE"
if want zram; then run_device "zram$ZRAM" "/dev/zram$ZRAM"; fi
if want loop; then run_device "$(basename "$LOOP")" "$LOOP"; fi
# `diskdoc bench --device FILE` measures the disk under the file (read-only), not the file:
# fio reading the file through its filesystem would not be the same measurement. A file
# target is compared only where diskdoc reads the file itself; otherwise one line says what
# diskdoc measures instead, and nothing is judged.
run_file() { # label path
  local got
  got=$("$BIN" bench --device "$2" --tests seq --budget 0.2 --json 2>/dev/null \
        | jq -r '[.benchmarks[].target][0] // empty' 2>/dev/null || true)
  if [ "$got" = "$2" ]; then run_device "$1" "$2"; return; fi
  echo "# $1: not compared: diskdoc bench --device $2 measures ${got:-the disk under it (here it could not open that disk)}, not the file; fio would read the file"
}
if want file ext4 && [ -n "$FSZRAM" ]; then run_file "scratch-file-ext4-zram" "$WORK/mnt/scratch.dat"; fi
if want file rootfs; then run_file "scratch-file-rootfs" "$WORK/scratch.dat"; fi
# The read targets' devices and files go before the writes start: the write targets need
# the space (the root filesystem's scratch files above all) and a quiet host cache.
drop_read_targets() {
  if mountpoint -q "$WORK/mnt" 2>/dev/null; then umount "$WORK/mnt"; fi
  if [ -n "$LOOP" ]; then losetup -d "$LOOP" 2>/dev/null || true; LOOP=""; fi
  for z in $ZRAM $FSZRAM; do
    echo 1 > "/sys/block/zram$z/reset" 2>/dev/null || true
    echo "$z" > /sys/class/zram-control/hot_remove 2>/dev/null || true
  done
  ZRAM=""; FSZRAM=""
  rm -f "$WORK/random.img" "$WORK/loop.img" "$WORK/scratch.dat"
}
drop_read_targets
# The cdm writes: ext4 on a zram device of our own, and ext4 on a loop device over an image
# file under /var/tmp (the loop's backing file goes through the host's page cache, as losetup
# sets it up by default). 5 GiB each, so diskdoc's 1 GiB scratch file and fio's fit together.
if want write write-zram && command -v mkfs.ext4 >/dev/null; then
  WZRAM=$(cat /sys/class/zram-control/hot_add)
  echo 5G > "/sys/block/zram$WZRAM/disksize"
  # Inode tables and journal written now: lazy init would write them in the background for
  # minutes after mount (ext4lazyinit), stalling whichever tool ran then (mke2fs(8) -E).
  mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "/dev/zram$WZRAM"
  mkdir -p "$WORK/wzram" && mount "/dev/zram$WZRAM" "$WORK/wzram"
  run_writes "cdm-write-ext4-zram" "$WORK/wzram"
fi
if want write write-loop && command -v mkfs.ext4 >/dev/null; then
  truncate -s 5G "$WORK/wloop.img"
  WLOOP=$(losetup --find --show "$WORK/wloop.img")
  mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$WLOOP"
  # -o discard: the blocks of each round's deleted scratch files are punched out of the
  # image (loop turns a discard into a hole), so the image under /var/tmp stays about as big
  # as the two live files instead of growing by both every round on a shared disk.
  mkdir -p "$WORK/wloop" && mount -o discard "$WLOOP" "$WORK/wloop"
  run_writes "cdm-write-ext4-$(basename "$WLOOP")" "$WORK/wloop"
  umount "$WORK/wloop"; losetup -d "$WLOOP"; WLOOP=""; rm -f "$WORK/wloop.img"
fi
# The root filesystem: a directory under /var/tmp (this script's work directory), where
# diskdoc sizes its scratch file from the free space like any user's run.
if want write write-rootfs; then
  mkdir -p "$WORK/wroot"
  run_writes "cdm-write-rootfs-$(findmnt -n -o FSTYPE -T "$WORK/wroot" 2>/dev/null || echo fs)" "$WORK/wroot"
fi
echo "# $((PASSES + FAILS)) lines: $PASSES PASS, $FAILS FAIL; commit measured: $COMMIT"
[ "$FAILS" = 0 ]
