#!/usr/bin/env bash
# The .deb end to end, as root on Debian: build it (`cargo deb`, which builds the dist
# profile; the metadata is [package.metadata.deb] in Cargo.toml), install it with dpkg, use
# what it installed (the binary, the manual page, the bash completion, the systemd units),
# lint it, remove it and check that no file of it is left. Needs cargo-deb (`cargo install
# cargo-deb --locked`); lintian runs when installed (`apt-get install lintian`), and under
# CI=true it must be. Exit status 0 only when every step passed and lintian reported no error.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf 'deb-test: %s\n' "$*"; }
fail() { say "FAIL: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "needs root (dpkg -i); run it as root or through .ci/run"
command -v cargo-deb >/dev/null || fail "cargo-deb is missing: cargo install cargo-deb --locked"
# Never replace or remove a diskdoc the machine's owner installed.
if dpkg-query -W -f='${db:Status-Status}' diskdoc 2>/dev/null | grep -qx installed; then
  fail "a diskdoc package is already installed here; remove it first (dpkg -r diskdoc)"
fi

start=$(date +%s)
deb=$(cargo deb)
say "built $deb ($(stat -c %s "$deb") bytes) in $(($(date +%s) - start)) s"
dpkg-deb --info "$deb" | sed -n 's/^ \(Package\|Version\|Architecture\|Depends\|Recommends\|Suggests\|Section\|Installed-Size\):/  \1:/p'
say "contents:"
dpkg-deb --contents "$deb" | awk '{print "  " $1, $3, $6, $7, $8}'
mapfile -t files < <(dpkg-deb --contents "$deb" | awk '$1 !~ /^d/ {sub(/^\./, "", $6); print $6}')

installed=0
cleanup() {
  if [ "$installed" -eq 1 ]; then dpkg -r diskdoc >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT

dpkg -i "$deb"
installed=1
status=$(dpkg-query -W -f='${db:Status-Status}' diskdoc)
[ "$status" = installed ] || fail "dpkg reports diskdoc as '$status' after dpkg -i"

# The installed files, used the way a user would.
[ "$(command -v diskdoc)" = /usr/bin/diskdoc ] || fail "diskdoc on PATH is $(command -v diskdoc), not /usr/bin/diskdoc"
version=$(/usr/bin/diskdoc --version)
say "installed: $version"
[[ "$version" == "diskdoc $(dpkg-query -W -f='${Version}' diskdoc | sed 's/-[^-]*$//')"* ]] ||
  fail "diskdoc --version says '$version', the package is $(dpkg-query -W -f='${Version}' diskdoc)"
/usr/bin/diskdoc --list-checks | grep -q '^write-cache-disabled ' || fail "diskdoc --list-checks lacks write-cache-disabled"
man_path=$(man -w diskdoc) || fail "man -w diskdoc finds no manual page"
say "man -w diskdoc: $man_path"
[ "$man_path" = /usr/share/man/man1/diskdoc.1.gz ] || fail "manual page at $man_path, expected /usr/share/man/man1/diskdoc.1.gz"
man -l "$man_path" 2>/dev/null | grep -q 'diskdoc' || fail "man cannot render $man_path"
for f in /usr/share/bash-completion/completions/diskdoc /usr/share/zsh/vendor-completions/_diskdoc \
  /usr/share/fish/vendor_completions.d/diskdoc.fish; do
  [ -s "$f" ] || fail "completion $f missing or empty"
done
# Load the bash completion and ask it for the subcommands, as bash does on TAB.
words=$(bash -c 'source /usr/share/bash-completion/completions/diskdoc
  COMP_WORDS=(diskdoc rep); COMP_CWORD=1; COMP_LINE="diskdoc rep"; COMP_POINT=${#COMP_LINE}
  _diskdoc diskdoc rep diskdoc; printf "%s\n" "${COMPREPLY[@]}"')
[ "$words" = replay ] || fail "bash completion of 'diskdoc rep' gave '$words', expected replay"
say "bash completion of 'diskdoc rep': $words"
if command -v systemd-analyze >/dev/null; then
  # Checks the units' syntax and that ExecStart's bare "diskdoc" resolves to /usr/bin/diskdoc.
  systemd-analyze verify /lib/systemd/system/diskdoc.service /lib/systemd/system/diskdoc.timer ||
    fail "systemd-analyze verify rejects the installed units"
  say "systemd-analyze verify: diskdoc.service and diskdoc.timer pass"
fi

lint=0
if command -v lintian >/dev/null; then
  say "lintian:"
  # --fail-on error: warnings and infos are printed, errors fail.
  lintian --fail-on error --tag-display-limit 0 "$deb" | sed 's/^/  /' || lint=1
elif [ "${CI:-}" = true ]; then
  fail "lintian is not installed (apt-get install lintian)"
else
  say "SKIP lintian: not installed (apt-get install lintian)"
fi

dpkg -r diskdoc
installed=0
left=$(dpkg-query -W -f='${db:Status-Status}' diskdoc 2>/dev/null || true)
[ -z "$left" ] || [ "$left" = not-installed ] || fail "after dpkg -r dpkg still lists diskdoc as '$left'"
for f in "${files[@]}"; do
  [ ! -e "$f" ] || fail "$f is still there after dpkg -r"
done
# Directories only this package uses go with it too.
for d in /usr/share/doc/diskdoc /usr/share/doc/diskdoc/examples; do
  [ ! -e "$d" ] || fail "$d is still there after dpkg -r"
done
say "removed: none of the ${#files[@]} files is left, dpkg lists no diskdoc"
[ "$lint" -eq 0 ] || fail "lintian reported errors (above)"
say "PASS"
