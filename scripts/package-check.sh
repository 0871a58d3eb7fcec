#!/usr/bin/env bash
# The four crates as crates.io would get them, without building them: `cargo package
# --workspace --no-verify`, then per .crate its size (compressed, what crates.io stores; must
# stay under 1 MiB) and that it holds no tests or fixtures (each Cargo.toml's `include` keeps
# them out), then `cargo publish --dry-run --workspace --no-verify`. Building each crate from
# its .crate takes minutes on a small machine: `cargo package --workspace` does that. Extra
# arguments go to both cargo commands (e.g. --allow-dirty with uncommitted changes).
set -euo pipefail
cd "$(dirname "$0")/.."
limit=$((1024 * 1024))
out=target/package
rm -f "$out"/diskdoc-*.crate
# diskdoc-web (publish = false) is the web page's module, shipped in docs/web, never as a crate.
cargo package --workspace --exclude diskdoc-web --no-verify --quiet "$@"
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
# What crates.io would check before storing them, in dependency order, without uploading
# (--workspace resolves diskdoc-sources, diskdoc-core and diskdoc-sys from the packages just made, not from
# crates.io, where they are not published yet).
if ! log=$(cargo publish --dry-run --workspace --exclude diskdoc-web --no-verify --quiet "$@" 2>&1); then
  printf '%s\n' "$log" >&2
  echo "FAIL: cargo publish --dry-run --workspace refused the crates (above)" >&2
  fail=1
fi
n=$(ls "$out"/diskdoc-*.crate | wc -l)
if [ "$n" -ne 4 ]; then
  echo "FAIL: expected 4 .crate files, found $n" >&2
  fail=1
fi
exit "$fail"
