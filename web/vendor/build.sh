#!/usr/bin/env bash
# Rebuilds the page's vendored bundles from the pinned npm packages (package.json and
# package-lock.json here). The output is committed, so `cargo build` and the page need no
# Node. To change a version: edit package.json, refresh the lock file outside web/
#   (mkdir -p target/web-vendor && cp web/vendor/package*.json target/web-vendor/ &&
#    (cd target/web-vendor && npm install --package-lock-only) &&
#    cp target/web-vendor/package-lock.json web/vendor/)
# then rebuild and commit all outputs:   bash web/vendor/build.sh
#
# npm installs into target/web-vendor/ (never under web/, which the UI server embeds).
# Each bundle is one line in BUNDLES: "<entry file> <output file> <legal comments>"; the
# licenses of everything bundled are gathered into THIRD_PARTY_LICENSES.txt beside the
# bundles. axe-core (accessibility audits) is for the browser tests only, never the page:
# its file and license are copied to crates/campus/tests/vendor/.
#
# check.sh runs this with OUT (where the bundles and the license file go) and WORK (where
# npm installs) set to a temporary folder, AXE_OUT too, and compares the results with the
# committed files.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${OUT:-$HERE}"
WORK="${WORK:-$ROOT/target/web-vendor}"
AXE_OUT="${AXE_OUT:-$ROOT/crates/campus/tests/vendor}"

# agui.js keeps no legal comments (its licenses are in THIRD_PARTY_LICENSES.txt); a2ui.js
# keeps the license headers of its sources at its end as well
BUNDLES=(
  "entry.js agui.js none"
  "a2ui-entry.js a2ui.js eof"
)

mkdir -p "$WORK" "$OUT" "$AXE_OUT"
cp "$HERE/package.json" "$HERE/package-lock.json" "$WORK/"
for b in "${BUNDLES[@]}"; do
  read -r entry _ <<<"$b"
  cp "$HERE/$entry" "$WORK/"
done
cd "$WORK"
npm ci --no-audit --no-fund
for b in "${BUNDLES[@]}"; do
  read -r entry out legal <<<"$b"
  npx --no-install esbuild "$entry" --bundle --format=esm --minify --target=es2022 \
    --platform=browser --legal-comments="$legal" --metafile="$out.meta.json" --outfile="$OUT/$out"
done
node "$HERE/licenses.mjs" ./*.meta.json > "$OUT/THIRD_PARTY_LICENSES.txt"

cp node_modules/axe-core/axe.min.js "$AXE_OUT/axe.min.js"
cp node_modules/axe-core/LICENSE "$AXE_OUT/axe-core.LICENSE"
echo "built: ${BUNDLES[*]}; axe-core $(node -p 'require("axe-core/package.json").version') for the tests"
