#!/usr/bin/env bash
# Rebuilds the page's vendored bundles from the pinned npm packages (package.json and
# package-lock.json here). The output is committed, so `cargo build` and the page need no
# Node. Run after changing a version in package.json:   bash web/vendor/build.sh
#
# npm installs into target/web-vendor/ (never under web/, which the UI server embeds).
# Each bundle is one line in BUNDLES: "<entry file> <output file>"; the licenses of
# everything bundled are gathered into THIRD_PARTY_LICENSES.txt beside the bundles.
# axe-core (accessibility audits) is for the browser tests only, never the page: its
# file and license are copied to crates/campus/tests/vendor/.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
WORK="$ROOT/target/web-vendor"
TESTS="$ROOT/crates/campus/tests/vendor"

BUNDLES=(
  "entry.js agui.js"
)

mkdir -p "$WORK" "$TESTS"
cp "$HERE/package.json" "$HERE/package-lock.json" "$WORK/"
for b in "${BUNDLES[@]}"; do
  read -r entry _ <<<"$b"
  cp "$HERE/$entry" "$WORK/"
done
cd "$WORK"
npm ci --no-audit --no-fund
for b in "${BUNDLES[@]}"; do
  read -r entry out <<<"$b"
  npx --no-install esbuild "$entry" --bundle --format=esm --minify --target=es2022 \
    --platform=browser --legal-comments=none --metafile="$out.meta.json" --outfile="$HERE/$out"
done
node "$HERE/licenses.mjs" ./*.meta.json > "$HERE/THIRD_PARTY_LICENSES.txt"

cp node_modules/axe-core/axe.min.js "$TESTS/axe.min.js"
cp node_modules/axe-core/LICENSE "$TESTS/axe-core.LICENSE"
echo "built: ${BUNDLES[*]}; axe-core $(node -p 'require("axe-core/package.json").version') for the tests"
