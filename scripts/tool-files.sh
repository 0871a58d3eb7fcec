#!/usr/bin/env bash
# tool-files.sh: which product files know a tool, counted as ISSUE25-STATUS.md point 8 counts
# them: `.rs` files under crates/ whose product code has the tool's name as a word. Left out:
# comment lines (first non-blank characters `//`), everything from a file's first
# `#[cfg(test)]` on, and the test helpers crates/core/src/checks/testutil*. Prose in a
# user-facing string counts (a fix that says "run `smartctl -a`" knows the tool).
# With --spelled, a name that is only a module path does not count: the word next to `::`
# (`sources::smartctl::apply`), in a `use` statement or a `mod` line. What is left is where
# a file spells the tool itself: its command line, its output's words, prose naming it.
# Usage: scripts/tool-files.sh [--spelled] [TOOL...]   (default: smartctl camcontrol lspci)
# Prints, per tool, "TOOL: N files" and the files, one a line, indented.
set -euo pipefail
cd "$(dirname "$0")/.."
spelled=0
if [ "${1:-}" = --spelled ]; then spelled=1; shift; fi
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(smartctl camcontrol lspci)
for tool in "${tools[@]}"; do
  files=()
  while IFS= read -r f; do
    case "$f" in crates/core/src/checks/testutil*) continue ;; esac
    if awk -v tool="$tool" -v spelled="$spelled" '
      /^[[:space:]]*#\[cfg\(test\)\]/ { exit }
      /^[[:space:]]*\/\// { next }
      spelled && in_use { if (index($0, ";")) in_use = 0; next }
      spelled && /^[[:space:]]*(pub(\([a-z]+\))? )?use / { if (!index($0, ";")) in_use = 1; next }
      spelled && /^[[:space:]]*(pub(\([a-z]+\))? )?mod / { next }
      {
        # The name as a word: not inside a longer identifier or word (smartctl_attr,
        # camcontrol_identify, a "smartctl-like" word counts as the name).
        line = $0
        while ((i = index(line, tool)) > 0) {
          before = (i > 1) ? substr(line, i - 1, 1) : ""
          after = substr(line, i + length(tool), 1)
          path = substr(line, i + length(tool), 2) == "::" || (i > 2 && substr(line, i - 2, 2) == "::")
          if (before !~ /[A-Za-z0-9_]/ && after !~ /[A-Za-z0-9_]/ && !(spelled && path)) { found = 1; exit }
          line = substr(line, i + length(tool))
        }
      }
      END { exit found ? 0 : 1 }
    ' "$f"; then
      files+=("$f")
    fi
  done < <(git ls-files -- 'crates/*.rs' | sort)
  echo "$tool: ${#files[@]} files"
  for f in "${files[@]}"; do echo "  $f"; done
done
