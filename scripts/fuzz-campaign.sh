#!/usr/bin/env bash
# A fresh-seed fuzz campaign, run outside CI (CI replays fixed seeds only, so that it is
# deterministic; see tests/fuzz.rs). Every input that fails is copied into
# tests/fixtures/fuzz-regressions/, where CI replays it from then on; commit those files with
# the fix, and add the seed the campaign printed to FIXED_SEEDS in tests/fuzz.rs.
#
#   scripts/fuzz-campaign.sh [SECONDS] [ROUNDS]     (defaults: 300 s, 1 round)
#   DISKDOC_FUZZ_TARGETS=sources-registry,explain scripts/fuzz-campaign.sh 600   (only those targets)
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-300}
rounds=${2:-1}
out=$(cargo metadata --format-version 1 --no-deps 2>/dev/null | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
failed_dir="${out:-target}/tmp/fuzz-failures"
status=0
for r in $(seq 1 "$rounds"); do
  rm -rf "$failed_dir"
  echo "fuzz campaign round $r of $rounds, $secs s"
  DISKDOC_FUZZ_SECONDS=$secs cargo test --profile fuzz --test fuzz -- --nocapture \
    fuzz_every_untrusted_input_entry_point 2>&1 | grep '^fuzz:\|panicked\|took' || true
  if [ -d "$failed_dir" ] && [ -n "$(ls -A "$failed_dir")" ]; then
    status=1
    for f in "$failed_dir"/*; do
      cp -n "$f" tests/fixtures/fuzz-regressions/
      echo "new regression input: tests/fixtures/fuzz-regressions/$(basename "$f")"
    done
  fi
done
exit $status
