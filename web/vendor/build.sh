#!/usr/bin/env bash
# Rebuilds the page's vendored bundles from the pinned npm packages (package-lock.json).
# Output is committed, so `cargo build` and the page need no Node. Run after changing a
# version in package.json:   bash web/vendor/build.sh
# Each bundle is one line in BUNDLES: "<entry file> <output file>". Licenses of
# everything bundled are gathered into THIRD_PARTY_LICENSES.txt beside the bundles.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

BUNDLES=(
  "entry.js agui.js"
)

npm ci --no-audit --no-fund
for b in "${BUNDLES[@]}"; do
  read -r entry out <<<"$b"
  npx --no-install esbuild "$entry" --bundle --format=esm --minify --target=es2022 \
    --platform=browser --legal-comments=none --metafile="$out.meta.json" --outfile="$out"
done

# the licenses of every package that ended up in a bundle (from the metafiles)
node licenses.mjs ./*.meta.json > THIRD_PARTY_LICENSES.txt
rm -f ./*.meta.json
echo "built: ${BUNDLES[*]}"
