#!/usr/bin/env bash
# steady-state-check.sh: is diskdoc's default (short, stop-when-sure) run the steady state?
# Each figure of a default diskdoc run, with the 95 % confidence interval it states, against
# fio's long run of the same job: the "fio equivalent" line diskdoc printed beside that
# figure, run as printed except --runtime (FIO_SECS, default 60), --time_based (so fio runs
# the whole time) and no --io_size. Targets, all created here and removed at the end (never
# a device or file this script did not make):
#   zram       a zram device holding 1 GiB of random data: `diskdoc bench --device DEV
#              --tests seq,rand` (defaults: each test stops once its rate is known within
#              +-3 % at 95 % confidence, or at its budget), lines seq-read outer, rand-read
#              qd1 and qd32
#   loop       the same on a loop device with direct I/O over a 1 GiB image under /var/tmp
#   ext4       ext4 on a 4 GiB zram device: `diskdoc bench --preset cdm --scratch-dir MNT`
#              (no --device: the reads read diskdoc's scratch file, and stop by the same
#              rule; the writes run their whole budget), the eight cdm lines
# Output, one line per figure:
#   TARGET LINE diskdoc=X +-C% (stop: stable|budget, S s) fio_60s=Y ratio=X/Y holds=yes|no within5=yes|no
#   ... diskdoc_60s=Z short/long=X/Z holds_own=yes|no within5_own=yes|no long/fio=Z/Y
# The second part (OWN=1, the default; OWN=0 leaves it out) is diskdoc's own run of the same
# tests for the whole FIO_SECS (--budget FIO_SECS --time-based): short/long is the stop
# rule's error with the engine held fixed, long/fio the engines' difference.
# holds: fio's figure lies inside diskdoc's stated interval X*(1 +- C/100). SEQ figures are
# MB/s (decimal, as diskdoc prints them), RND figures IOPS. The load average is printed at
# the start and the end: on a shared machine a 60 s run sees the load change under it.
# Needs root, fio, jq, losetup and mkfs.ext4. Usage:
#   [FIO_SECS=60] [TARGETS="zram loop ext4"] [DISKDOC_BIN=...] scripts/steady-state-check.sh
# Exit status: 0 if fio's figure is within 5 % of diskdoc's on every line, 1 otherwise, 2 if
# it could not run.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${FIO_SECS:-60}
TARGETS=${TARGETS:-zram loop ext4}
OWN=${OWN:-1}
for t in fio jq losetup mkfs.ext4; do
  command -v "$t" >/dev/null || { echo "steady-state-check: $t is not installed (apt-get install fio jq util-linux e2fsprogs)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "steady-state-check: needs root (zram, loop devices, huge pages)" >&2; exit 2; }
[ -w /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null || true
[ -w /sys/class/zram-control/hot_add ] || { echo "steady-state-check: no zram (modprobe zram)" >&2; exit 2; }
want() { [[ " $TARGETS " == *" $1 "* ]]; }

if [ -n "${DISKDOC_BIN:-}" ]; then BIN=$DISKDOC_BIN
else cargo build --release --quiet; BIN=$PWD/target/release/diskdoc; fi
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || COMMIT="$COMMIT-dirty"

GiB=1073741824
WORK=$(mktemp -d /var/tmp/steady-state.XXXXXX)
FAILS=0
# shellcheck source=scripts/lib/scratch-devices.sh
. scripts/lib/scratch-devices.sh

head -c $GiB /dev/urandom > "$WORK/random.img"
# The printed lines of 1 MiB reads say --iomem=mmaphuge (fio's huge pages, as diskdoc's
# buffers are): reserve what the note beside them asks for, give the old value back after.
HUGE_OLD=$(cat /proc/sys/vm/nr_hugepages)
echo $((HUGE_OLD + 16)) > /proc/sys/vm/nr_hugepages

# The fio line diskdoc printed for result (test, label) in JSON, made a long steady run.
long_line() { # json test label
  jq -r --arg t "$2" --arg l "$3" '[.benchmarks[]? | select(.test == $t and .label == $l)][0].notes[]?
      | select(startswith("fio equivalent: ")) | sub("^fio equivalent: "; "")' "$1" | head -n 1 |
    sed -E -e 's/ --runtime=[^ ]+//' -e 's/ --time_based//' -e 's/ --io_size=[^ ]+//' \
      -e "s/\$/ --runtime=$SECS --time_based --output-format=json/"
}
# The figure, interval, stop reason and seconds of result (test, label) in a diskdoc JSON.
figure() { # json test label seq
  jq -r --arg t "$2" --arg l "$3" --argjson seq "$4" \
    '[.benchmarks[]? | select(.test == $t and .label == $l)][0]
     | "\(if $seq == 1 then (.bytes_per_sec // 0) / 1e6 else (.iops // 0) end) \(.ci95_pct // "none") \(.stop_reason // "none") \((.elapsed_ns // 0) / 1e9)"' "$1"
}
# One line of output: target json test label. $json.long, when there, is diskdoc's own run
# of the same tests for the whole of SECS (--budget SECS --time-based): the steady state of
# diskdoc's engine, which tells the stop rule's error (short vs long, same engine) apart from
# the engines' difference (long vs fio).
check() {
  local tgt=$1 json=$2 t=$3 l=$4 seq=0 line fio_out dd ci stop el fig long=0 _c _s _e
  [[ $l == SEQ* || $t == seq-read ]] && seq=1
  read -r dd ci stop el < <(figure "$json" "$t" "$l" "$seq")
  [ -s "$json.long" ] && read -r long _c _s _e < <(figure "$json.long" "$t" "$l" "$seq")
  line=$(long_line "$json" "$t" "$l")
  if [ -z "$line" ]; then echo "$tgt $t-$l: diskdoc printed no fio line (result missing?)"; FAILS=$((FAILS + 1)); return; fi
  # The printed line is a shell command line (its words are quoted for sh); run it as one.
  fio_out=$(nice -n -15 sh -c "$line" 2>"$WORK/fio.err" || true)
  fig=$(jq -r --argjson seq "$seq" '[.jobs[0].read, .jobs[0].write] | map(select(.io_bytes > 0))[0]
        | if $seq == 1 then .bw_bytes / 1e6 else .iops end' <<<"$fio_out" 2>/dev/null || echo 0)
  awk -v tgt="$tgt" -v name="$t-$l" -v dd="$dd" -v ci="$ci" -v stop="$stop" -v el="$el" -v fio="$fig" -v secs="$SECS" -v long="$long" '
    BEGIN {
      gsub(/ /, "-", name)
      if (fio + 0 <= 0 || dd + 0 <= 0) { printf "%s %s diskdoc=%s fio_%ss=%s: no figure\n", tgt, name, dd, secs, fio; exit 1 }
      r = dd / fio
      hold = (ci == "none") ? "no-interval" : ((fio >= dd * (1 - ci / 100) && fio <= dd * (1 + ci / 100)) ? "yes" : "no")
      w5 = (r >= 0.95 && r <= 1 / 0.95) ? "yes" : "no"
      own = ""
      if (long + 0 > 0) {
        ro = dd / long
        owns = (ro >= 0.95 && ro <= 1 / 0.95) ? "yes" : "no"
        ownh = (ci == "none") ? "no-interval" : ((long >= dd * (1 - ci / 100) && long <= dd * (1 + ci / 100)) ? "yes" : "no")
        own = sprintf(" diskdoc_%ss=%.1f short/long=%.3f holds_own=%s within5_own=%s long/fio=%.3f", secs, long, ro, ownh, owns, long / fio)
      }
      printf "%s %s diskdoc=%.1f +-%s%% (stop: %s, %.2f s) fio_%ss=%.1f ratio=%.3f holds=%s within5=%s%s\n",
        tgt, name, dd, (ci == "none") ? "?" : sprintf("%.1f", ci), stop, el, secs, fio, r, hold, w5, own
      exit (w5 == "yes") ? 0 : 1
    }' || FAILS=$((FAILS + 1))
}

echo "# diskdoc $("$BIN" --version | awk '{print $2}') (commit $COMMIT) default runs vs $(fio --version) ${SECS}s steady state; load average $(cut -d' ' -f1-3 /proc/loadavg) at the start ($(nproc) CPUs); targets: $TARGETS"
raw() { # target device
  local j=$WORK/$1.json
  nice -n -15 "$BIN" bench --device "$2" --tests seq,rand --json > "$j" 2>"$WORK/$1.err" || true
  [ "$OWN" = 1 ] && { nice -n -15 "$BIN" bench --device "$2" --tests seq,rand --budget "$SECS" --time-based --json > "$j.long" 2>>"$WORK/$1.err" || true; }
  check "$1" "$j" seq-read outer; check "$1" "$j" rand-read qd1; check "$1" "$j" rand-read qd32
}
if want zram; then
  newzram 1G; dd if="$WORK/random.img" of="$DEV" bs=1M oflag=direct status=none; raw zram "$DEV"
fi
if want loop; then
  cp "$WORK/random.img" "$WORK/loop.img"; sync; newloop "$WORK/loop.img"; raw loop "$DEV"
fi
if want ext4; then
  newzram 4G; newext4 "$DEV" "$WORK/mnt"
  j=$WORK/ext4.json
  nice -n -15 "$BIN" bench --preset cdm --scratch-dir "$WORK/mnt" --json > "$j" 2>"$WORK/ext4.err" || true
  [ "$OWN" = 1 ] && { nice -n -15 "$BIN" bench --preset cdm --scratch-dir "$WORK/mnt" --budget "$SECS" --time-based --json > "$j.long" 2>>"$WORK/ext4.err" || true; }
  for l in "SEQ1M Q8T1" "SEQ1M Q1T1" "RND4K Q32T1" "RND4K Q1T1"; do check ext4 "$j" cdm-read "$l"; done
  for l in "SEQ1M Q8T1" "SEQ1M Q1T1" "RND4K Q32T1" "RND4K Q1T1"; do check ext4 "$j" cdm-write "$l"; done
fi
echo "# load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; lines not within 5 %: $FAILS; commit measured: $COMMIT"
[ "$FAILS" = 0 ]
