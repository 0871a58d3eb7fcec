#!/usr/bin/env bash
# The three crates as crates.io would get them: `cargo package --workspace --no-verify`
# (verifying builds each crate again from its .crate, minutes on a small machine; run
# `cargo package --workspace` for that), then, per .crate: its size (compressed, what
# crates.io stores, must stay under 1 MiB) and that it holds no tests or fixtures, which
# `include` in each Cargo.toml keeps out. Extra arguments go to cargo package
# (e.g. --allow-dirty in a work tree with uncommitted changes).
set -euo pipefail
cd "$(dirname "$0")/.."
limit=$((1024 * 1024))
out=target/package
rm -f "$out"/diskdoc-*.crate
cargo package --workspace --no-verify --quiet "$@"
fail=0
for crate in "$out"/diskdoc-*.crate; do
  size=$(stat -c %s "$crate")
  files=$(tar -tzf "$crate" | wc -l)
  unpacked=$(tar -xzOf "$crate" | wc -c)
  printf '%-28s %8d bytes (%d unpacked), %d files\n' "$(basename "$crate")" "$size" "$unpacked" "$files"
  if [ "$size" -ge "$limit" ]; then
    echo "  FAIL: $(basename "$crate") is $size bytes, over the 1 MiB limit" >&2
    fail=1
  fi
  # Paths inside a .crate are NAME-VERSION/...; tests/ and fixtures belong to the repository.
  if tar -tzf "$crate" | grep -E '^[^/]+/(tests|target|scripts)/|proptest-regressions' >&2; then
    echo "  FAIL: $(basename "$crate") holds the files above, which its include list should keep out" >&2
    fail=1
  fi
done
n=$(ls "$out"/diskdoc-*.crate | wc -l)
if [ "$n" -ne 3 ]; then
  echo "FAIL: expected 3 .crate files, found $n" >&2
  fail=1
fi
exit "$fail"
