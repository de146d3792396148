#!/usr/bin/env bash
# Fails when src/generated/ is not exactly what `npm run generate` produces from spec/openapi.yaml.
#
# Regenerates into a temporary directory (src/generated/ is left untouched) and compares the two
# trees. Does not use git, so it also catches uncommitted edits.
#
#   bash scripts/check-generated.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

if ! node_modules/.bin/tsx scripts/generate.ts --out "$tmp/generated" >"$tmp/generate.log" 2>&1; then
  cat "$tmp/generate.log" >&2
  echo "check-generated: generation from spec/openapi.yaml failed (see above)." >&2
  exit 1
fi

if [ ! -d src/generated ]; then
  echo "check-generated: src/generated/ is missing. Run \`npm run generate\` and commit the result." >&2
  exit 1
fi

if ! diff -ru src/generated "$tmp/generated" >"$tmp/diff.txt"; then
  echo "check-generated: src/generated/ is out of date with spec/openapi.yaml (or was edited by hand)." >&2
  echo "Run \`npm run generate\` and commit the result. Differences (on disk -> regenerated):" >&2
  head -n 200 "$tmp/diff.txt" >&2
  exit 1
fi

echo "check-generated: src/generated/ is up to date."
