#!/usr/bin/env bash
# Runs the test suites that exercise memory and threads under the sanitizers, each in a build folder of its own:
#
#   scripts/sanitize.sh address   AddressSanitizer: the parsers (model, metadata, zip, EXIF), the codecs, the
#                                 runtime binding, bad input, parity (every shared photo and model), mutated models,
#                                 video frames of every size to 64x64 and odd sizes (library and `track --annotate`),
#                                 models with control flow
#   scripts/sanitize.sh thread    ThreadSanitizer: the concurrency tests (JPEG band decoding, a labeler and a
#                                 detector shared by concurrent tasks and threads, batch labeling, downloads and
#                                 ModelManager)
#   scripts/sanitize.sh           both
#
# Release builds (the image kernels are far too slow unoptimized; reports still name the functions), each a full
# build of its own, so a run takes a while on two cores: CI does not run it, docs/fuzzing-and-sanitizers.md records the last clean run.
set -euo pipefail
cd "$(dirname "$0")/.."
export LITEVISION_TEST_DATA=${LITEVISION_TEST_DATA:-$(cd .. && pwd)/shared}
kinds=("${1:-address}")
[[ $# -eq 0 ]] && kinds=(address thread)

address_suites='TFLiteFormatTests|LiteVisionImagingTests|LiteRTTests|BadInputTests|DamagedInputTests|DamagedInputCLITests|LabelingParityTests|DetectionParityTests|DetectionModeTests|CustomDetectorTests|ModelMutationTests|LabelerBehaviourTests|YUVFrameTests|PictureLayoutTests|VideoTests/Sizes|OddVideoSizeCLITests|ControlFlowModelTests|ControlFlowModelCLITests'
thread_suites='JPEGBandDecoderTests|LabelerBehaviourTests|SharedDetectorTests|ModelManagerTests|RemoteModelDownloadTests|RemoteModelFeatureTests|ModelDownloadTests'

for kind in "${kinds[@]}"; do
  case $kind in
    address) suites=$address_suites; export ASAN_OPTIONS=detect_leaks=0 ;;
    thread) suites=$thread_suites ;;
    *) echo "sanitize: unknown sanitizer '$kind' (address or thread)" >&2; exit 2 ;;
  esac
  scratch=.build-$kind
  echo "sanitize: building the tests with the $kind sanitizer into $scratch"
  # -enable-testing for the suites that reach internals through @testable import.
  if ! swift build -c release --build-tests --sanitize "$kind" --scratch-path "$scratch" -Xswiftc -enable-testing \
    >"$scratch.log" 2>&1; then
    grep -E 'error' "$scratch.log" >&2 || tail -20 "$scratch.log" >&2
    echo "sanitize: the $kind build failed (log: $scratch.log)" >&2
    exit 1
  fi
  echo "sanitize: running $suites"
  LITEVISION_MUTANTS=${LITEVISION_MUTANTS:-300} swift test -c release --skip-build --sanitize "$kind" \
    --scratch-path "$scratch" -Xswiftc -enable-testing --filter "$suites"
  echo "sanitize: $kind: clean"
done
