#!/usr/bin/env bash
# Builds the DocC documentation of the LiteVision module (catalog: Sources/LiteVision/LiteVision.docc) into
# .build/docs/LiteVision.doccarchive:
#   scripts/docs.sh
# Every DocC warning (a broken symbol link ``Like/this``, an unresolved <doc:Article>, a malformed topic group),
# in the catalog or in a doc comment of the module's sources, fails the script: DocC runs with
# --warnings-as-errors.
#
# It documents the module as the release build compiled it (`swift build -c release -Xswiftc -enable-testing`,
# the build scripts/test.sh makes; run here first unless DOCS_SKIP_BUILD=1): swift-symbolgraph-extract reads
# .build/release/Modules/LiteVision.swiftmodule, then `docc convert` renders the catalog with that symbol graph.
# (swift-docc-plugin's `generate-documentation` would make a second, debug build of the module and its
# dependencies first: about 4.5 minutes of CI on 2 cores, for the same symbols.)
set -euo pipefail
cd "$(dirname "$0")/.."

docs=.build/docs
archive=$docs/LiteVision.doccarchive
diagnostics=$docs/diagnostics.json
graphs=$docs/symbol-graphs
mkdir -p "$docs"
rm -rf "$diagnostics" "$graphs" "$archive"
mkdir -p "$graphs"

toolchain=$(dirname "$(readlink -f "$(command -v swift)")")
extract=${SWIFT_SYMBOLGRAPH_EXTRACT:-$toolchain/swift-symbolgraph-extract}
docc=${DOCC:-$toolchain/docc}
[[ -x "$extract" ]] || { echo "docs: swift-symbolgraph-extract not found (set SWIFT_SYMBOLGRAPH_EXTRACT)" >&2; exit 1; }
[[ -x "$docc" ]] || { echo "docs: docc not found (set DOCC)" >&2; exit 1; }

start=$SECONDS
if [[ "${DOCS_SKIP_BUILD:-0}" != 1 ]]; then
  build_log=$(mktemp)
  if ! swift build -c release --target LiteVision -Xswiftc -enable-testing >"$build_log" 2>&1; then
    cat "$build_log" >&2; rm -f "$build_log"
    echo "docs: the release build of LiteVision failed" >&2
    exit 1
  fi
  rm -f "$build_log"
fi
modules=.build/release/Modules
[[ -f $modules/LiteVision.swiftmodule ]] || { echo "docs: no $modules/LiteVision.swiftmodule (build first)" >&2; exit 1; }

# `import LiteVision` re-exports single types of lower modules (Sources/LiteVision/Exports.swift:
# `@_exported import struct LiteVisionGeometry.BoundingBox`, ...); they are part of its API and its catalog links
# to them. Only those types come in (-experimental-allowed-reexported-modules), not their whole modules.
reexported=$(sed -nE 's/^@_exported import +(struct|enum|class|protocol|typealias|func|var|let|actor) +([A-Za-z0-9_]+)\..*/\2/p' \
  Sources/LiteVision/Exports.swift | sort -u | paste -sd, -)
# The C modules LiteVision's interface imports: SwiftPM's generated module maps, the package's own, and the
# system libraries' headers.
clang_args=()
for map in .build/release/*.build/module.modulemap Sources/C*/module.modulemap Sources/C*/include/module.modulemap; do
  [[ -f $map ]] && clang_args+=(-Xcc "-fmodule-map-file=$PWD/$map")
done
for folder in Sources/C*/include Sources/C*; do [[ -d $folder ]] && clang_args+=(-Xcc "-I$PWD/$folder"); done
for flag in $(pkg-config --cflags-only-I libpng libturbojpeg 2>/dev/null); do clang_args+=(-Xcc "$flag"); done

set +e
# -omit-extension-block-symbols: the extension of the re-exported ImageOrientation (init(deviceOrientation:
# cameraPosition:)) is documented on ImageOrientation's own page, not on a second "extension" page.
"$extract" -module-name LiteVision -target "$(uname -m)-unknown-linux-gnu" -I "$modules" \
  -minimum-access-level public -skip-inherited-docs -omit-extension-block-symbols -output-dir "$graphs" \
  -experimental-allowed-reexported-modules="$reexported" "${clang_args[@]}"
status=$?
if ((status == 0)); then
  "$docc" convert Sources/LiteVision/LiteVision.docc --additional-symbol-graph-dir "$graphs" \
    --output-path "$archive" --fallback-display-name LiteVision --fallback-bundle-identifier LiteVision \
    --warnings-as-errors --diagnostics-file "$diagnostics" >/dev/null
  status=$?
fi
set -e
elapsed=$((SECONDS - start))

# Sorts DocC's diagnostics by where they come from: the catalog, or the doc comments of the Swift sources.
summary=""
if [[ -s "$diagnostics" ]]; then
  summary=$(python3 - "$diagnostics" "$PWD" <<'PY'
import json, sys
from urllib.parse import unquote, urlparse
data = json.load(open(sys.argv[1]))
root = sys.argv[2].rstrip("/") + "/"
catalog, sources, other = [], [], []
for d in data.get("diagnostics", []):
    if d.get("severity") not in ("warning", "error"):
        continue
    where = d.get("source") or ""
    path = unquote(urlparse(where).path) if where.startswith("file:") else where
    path = path[len(root):] if path.startswith(root) else path
    line = ((d.get("range") or {}).get("start") or {}).get("line") or 0
    entry = (path, line, d.get("summary", "").strip())
    if ".docc/" in path:
        catalog.append(entry)
    elif path.endswith(".swift"):
        sources.append(entry)
    else:
        other.append(entry)
for title, items in (("in the DocC catalog (Sources/LiteVision/LiteVision.docc)", catalog),
                     ("in doc comments of the Swift sources (links to symbols that are not public API)", sources),
                     ("elsewhere", other)):
    if items:
        print(f"docs: {len(items)} warning(s) {title}:")
        for path, line, summary in sorted(set(items)):
            print(f"  {path}{':' + str(line) if line else ''}: {summary}")
PY
) || summary="docs: could not read $diagnostics"
fi

if ((status != 0)) || [[ -n "$summary" ]]; then
  [[ -n "$summary" ]] && echo "$summary" >&2
  echo "docs: FAILED after ${elapsed}s: DocC warnings are errors here (symbol graph extraction or docc convert" \
       "exited with $status); fix each broken symbol link or reference listed above and run scripts/docs.sh again" >&2
  exit 1
fi
echo "docs: LiteVision documentation built without warnings in ${elapsed}s: $archive"
