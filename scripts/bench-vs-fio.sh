#!/usr/bin/env bash
# bench-vs-fio.sh: run diskdoc's read engine and fio side by side, in one run, on
#   (a) a zram device of our own holding 1 GiB of random data,
#   (b) a loop device over a 1 GiB image file of random data,
#   (c) a 1 GiB scratch file of random data,
# and print one line per test and device:
#   test device diskdoc=X fio=Y ratio=Z target>=T PASS/FAIL
# plus a p50 latency line per test (diskdoc's p50 must be at most 5 % above fio's).
# Targets (issue 4): seq 1 MiB read >= 0.97x fio's bandwidth (psync QD1), 4 KiB random read
# >= 0.95x fio's IOPS at QD1 (psync) and QD32 (io_uring, else libaio); direct=1 everywhere.
# Each tool runs ROUNDS times (default 5), alternating, at the same raised priority, and the
# best round of each counts (the machine is shared; best-of-N compares what each tool can do,
# not who got the CPU).
#
# Needs root (zram hot_add, losetup), fio and jq. Usage: scripts/bench-vs-fio.sh [ROUNDS]
# Exit status: 0 if every line passed, 1 otherwise, 2 if it could not run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
SECS=${FIO_SECS:-2}
# Both tools run at the same raised priority so that other work on a shared machine disturbs
# them less (and equally).
PRIO=(nice -n -15)
for t in fio jq losetup; do
  command -v "$t" >/dev/null || { echo "bench-vs-fio: $t is not installed (apt-get install $t)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "bench-vs-fio: needs root (zram and loop devices)" >&2; exit 2; }
[ -w /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null || true

cargo build --release --quiet
BIN=$PWD/target/release/diskdoc

WORK=$(mktemp -d /var/tmp/bench-vs-fio.XXXXXX)
ZRAM=""; LOOP=""
cleanup() {
  [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null || true
  if [ -n "$ZRAM" ]; then
    echo 1 > "/sys/block/zram$ZRAM/reset" 2>/dev/null || true
    echo "$ZRAM" > /sys/class/zram-control/hot_remove 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

head -c 1G /dev/urandom > "$WORK/random.img"
cp "$WORK/random.img" "$WORK/loop.img"
cp "$WORK/random.img" "$WORK/scratch.dat"
sync

# (a) our own zram device (never zram0: others use it).
ZRAM=$(cat /sys/class/zram-control/hot_add)
echo 1G > "/sys/block/zram$ZRAM/disksize"
dd if="$WORK/random.img" of="/dev/zram$ZRAM" bs=1M oflag=direct status=none
# (b) a loop device over an image file (buffered backing file, warmed below: the host disk
# under /var/tmp is shared and would make the loop numbers mostly noise).
LOOP=$(losetup --find --show "$WORK/loop.img")
# Warm the page cache behind the image and scratch file so both tools see the same state.
cat "$WORK/loop.img" "$WORK/scratch.dat" > /dev/null

# diskdoc's outer zone spans a ninth of the device in whole MiB (plan::zone_jobs): give fio
# the same region for the sequential test; random reads cover the whole GiB in both.
ZONE_MIB=$((1024 / 9))
fio_job() { # dev rw bs engine depth size -> fio JSON
  "${PRIO[@]}" fio --name=cmp --filename="$1" --rw="$2" --bs="$3" --ioengine="$4" --iodepth="$5" \
      --direct=1 --time_based --runtime="$SECS" --size="$6" --norandommap --randrepeat=0 \
      --output-format=json 2>/dev/null
}

QD32_ENGINE=io_uring
fio --name=probe --filename="$WORK/scratch.dat" --rw=read --bs=4k --ioengine=io_uring \
    --direct=1 --size=1M --runtime=1 --output-format=json >/dev/null 2>&1 || QD32_ENGINE=libaio

best() { sort -g | tail -1; }
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
lowest() { sort -g | head -1; }

run_device() { # label path
  local label=$1 dev=$2 r
  local d_seq=() d_q1=() d_q32=() d_seq_p50=() d_q1_p50=() d_q32_p50=()
  local f_seq=() f_q1=() f_q32=() f_seq_p50=() f_q1_p50=() f_q32_p50=()
  for ((r = 0; r < ROUNDS; r++)); do
    # Tightly interleaved: diskdoc seq, fio seq, diskdoc rand, fio rand QD1, fio rand QD32.
    local j
    j=$("${PRIO[@]}" "$BIN" bench --device "$dev" --tests seq --budget "$SECS" --json || true)
    d_seq+=("$(jq -r '[.benchmarks[]|select(.test=="seq-read" and .label=="outer")][0].bytes_per_sec // 0' <<<"$j")")
    d_seq_p50+=("$(jq -r '[.benchmarks[]|select(.test=="seq-read" and .label=="outer")][0].latency.p50_ns // 0' <<<"$j")")
    j=$(fio_job "$dev" read 1M psync 1 "${ZONE_MIB}M")
    f_seq+=("$(jq -r '.jobs[0].read.bw_bytes' <<<"$j")")
    f_seq_p50+=("$(jq -r '.jobs[0].read.clat_ns.percentile["50.000000"]' <<<"$j")")
    j=$("${PRIO[@]}" "$BIN" bench --device "$dev" --tests rand --budget "$SECS" --json || true)
    d_q1+=("$(jq -r '[.benchmarks[]|select(.test=="rand-read" and .label=="qd1")][0].iops // 0' <<<"$j")")
    d_q1_p50+=("$(jq -r '[.benchmarks[]|select(.test=="rand-read" and .label=="qd1")][0].latency.p50_ns // 0' <<<"$j")")
    d_q32+=("$(jq -r '[.benchmarks[]|select(.test=="rand-read" and .label=="qd32")][0].iops // 0' <<<"$j")")
    d_q32_p50+=("$(jq -r '[.benchmarks[]|select(.test=="rand-read" and .label=="qd32")][0].latency.p50_ns // 0' <<<"$j")")
    j=$(fio_job "$dev" randread 4k psync 1 1G)
    f_q1+=("$(jq -r '.jobs[0].read.iops' <<<"$j")")
    f_q1_p50+=("$(jq -r '.jobs[0].read.clat_ns.percentile["50.000000"]' <<<"$j")")
    j=$(fio_job "$dev" randread 4k "$QD32_ENGINE" 32 1G)
    f_q32+=("$(jq -r '.jobs[0].read.iops' <<<"$j")")
    f_q32_p50+=("$(jq -r '.jobs[0].read.clat_ns.percentile["50.000000"]' <<<"$j")")
  done
  line "seq-1MiB-read-MiB/s" "$label" \
    "$(printf '%s\n' "${d_seq[@]}" | best)" "$(printf '%s\n' "${f_seq[@]}" | best)" 0.97 1048576
  line "rand-4KiB-qd1-IOPS" "$label" \
    "$(printf '%s\n' "${d_q1[@]}" | best)" "$(printf '%s\n' "${f_q1[@]}" | best)" 0.95 1
  line "rand-4KiB-qd32-IOPS" "$label" \
    "$(printf '%s\n' "${d_q32[@]}" | best)" "$(printf '%s\n' "${f_q32[@]}" | best)" 0.95 1
  # Medians of the rounds, for judging how much of a ratio is the shared machine's noise.
  awk -v l="$label" -v a="$(printf '%s\n' "${d_seq[@]}" | median)" -v b="$(printf '%s\n' "${f_seq[@]}" | median)" \
      -v c="$(printf '%s\n' "${d_q1[@]}" | median)" -v d="$(printf '%s\n' "${f_q1[@]}" | median)" \
      -v e="$(printf '%s\n' "${d_q32[@]}" | median)" -v f="$(printf '%s\n' "${f_q32[@]}" | median)" \
      'BEGIN { printf "# %s medians: seq MiB/s diskdoc=%.1f fio=%.1f; qd1 IOPS diskdoc=%.0f fio=%.0f; qd32 IOPS diskdoc=%.0f fio=%.0f\n", l, a/1048576, b/1048576, c, d, e, f }'
  p50 "p50-seq-1MiB-us" "$label" \
    "$(printf '%s\n' "${d_seq_p50[@]}" | lowest)" "$(printf '%s\n' "${f_seq_p50[@]}" | lowest)"
  p50 "p50-rand-qd1-us" "$label" \
    "$(printf '%s\n' "${d_q1_p50[@]}" | lowest)" "$(printf '%s\n' "${f_q1_p50[@]}" | lowest)"
  p50 "p50-rand-qd32-us" "$label" \
    "$(printf '%s\n' "${d_q32_p50[@]}" | lowest)" "$(printf '%s\n' "${f_q32_p50[@]}" | lowest)"
}

FAILS=0
line() { # test device diskdoc fio target unit-divisor
  local verdict
  verdict=$(awk -v d="$3" -v f="$4" -v t="$5" -v u="$6" 'BEGIN{
    r = (f > 0) ? d / f : 0;
    printf "diskdoc=%.1f fio=%.1f ratio=%.3f target>=%.2f %s", d/u, f/u, r, t, (r >= t) ? "PASS" : "FAIL" }')
  echo "$1 $2 $verdict"
  [[ $verdict == *PASS ]] || FAILS=$((FAILS + 1))
}
p50() { # test device diskdoc_ns fio_ns: diskdoc's median may be at most 5 % above fio's
  local verdict
  verdict=$(awk -v d="$3" -v f="$4" 'BEGIN{
    r = (f > 0) ? d / f : 0;
    printf "diskdoc=%.2f fio=%.2f ratio=%.3f target<=1.05 %s", d/1000, f/1000, r, (r > 0 && r <= 1.05) ? "PASS" : "FAIL" }')
  echo "$1 $2 $verdict"
  [[ $verdict == *PASS ]] || FAILS=$((FAILS + 1))
}

echo "# diskdoc $("$BIN" --version | awk '{print $2}') vs $(fio --version); rounds=$ROUNDS, ${SECS}s per run, QD32 fio engine: $QD32_ENGINE"
run_device "zram$ZRAM" "/dev/zram$ZRAM"
run_device "$(basename "$LOOP")" "$LOOP"
run_device "scratch-file" "$WORK/scratch.dat"
echo "# $FAILS line(s) failed"
[ "$FAILS" = 0 ]
