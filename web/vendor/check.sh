#!/usr/bin/env bash
# Proves the committed bundles are what the pinned packages build: rebuilds them from the
# lock file (npm ci, so a lock out of step with package.json fails too) into a temporary
# folder with build.sh and fails unless every output is byte-identical to the committed
# file. Run by .ci/run where node and npm exist:   bash web/vendor/check.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

OUT="$TMP/out" WORK="$TMP/work" AXE_OUT="$TMP/axe" bash "$HERE/build.sh" >"$TMP/build.log" 2>&1 || {
  cat "$TMP/build.log" >&2
  echo "web/vendor/check.sh: the rebuild failed" >&2
  exit 1
}

status=0
compare() {
  if cmp -s "$1" "$2"; then
    echo "same: ${2#"$ROOT"/}"
  else
    echo "differs from a rebuild: ${2#"$ROOT"/} (run bash web/vendor/build.sh and commit)" >&2
    status=1
  fi
}
for f in agui.js a2ui.js THIRD_PARTY_LICENSES.txt; do
  compare "$TMP/out/$f" "$HERE/$f"
done
compare "$TMP/axe/axe.min.js" "$ROOT/crates/campus/tests/vendor/axe.min.js"
compare "$TMP/axe/axe-core.LICENSE" "$ROOT/crates/campus/tests/vendor/axe-core.LICENSE"
exit "$status"
