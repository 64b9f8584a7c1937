#!/usr/bin/env bash
# Formats every Swift file git tracks with the toolchain's swift-format and the repository's .swift-format:
#   scripts/format.sh           format in place
#   scripts/format.sh --check   change nothing; list the files that are not formatted and exit 1 (CI runs this)
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -d '' files < <(git ls-files -z -- '*.swift')
if [[ "${1:-}" != "--check" ]]; then
  swift format format --configuration .swift-format --in-place --parallel "${files[@]}"
  exit 0
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp --parents -t "$scratch" "${files[@]}"
(cd "$scratch" && swift format format --configuration "$OLDPWD/.swift-format" --in-place --parallel "${files[@]}")
unformatted=()
for file in "${files[@]}"; do
  cmp -s "$file" "$scratch/$file" || unformatted+=("$file")
done
if ((${#unformatted[@]})); then
  echo "format: ${#unformatted[@]} of ${#files[@]} Swift files are not formatted (run scripts/format.sh):" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  exit 1
fi
echo "format: ${#files[@]} Swift files formatted as .swift-format says"
