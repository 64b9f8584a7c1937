#!/usr/bin/env bash
# Installs what LiteVision needs, builds it, and labels a photo:
#   scripts/demo.sh [MODEL] [IMAGE|FOLDER ...]
# Defaults: ML Kit's bird classifier and bird photo from the shared data folder
# (LITEVISION_TEST_DATA, default ../shared).
set -euo pipefail
cd "$(dirname "$0")/.."
data=${LITEVISION_TEST_DATA:-../shared}
scripts/setup.sh
swift build -c release --product litevision 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' || true
test -x .build/release/litevision || { echo "demo: the build failed" >&2; exit 1; }
model=${1:-$data/models/bird.tflite}
shift || true
(($#)) || set -- "$data/images/bird.jpg"
exec .build/release/litevision label --model "$model" "$@"
