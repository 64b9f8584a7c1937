#!/usr/bin/env bash
# Installs what LiteVision and its tests need, then runs the whole test suite.
# The tests read the shared models and photos in place from LITEVISION_TEST_DATA (default ../shared).
set -euo pipefail
cd "$(dirname "$0")/.."
export LITEVISION_TEST_DATA=${LITEVISION_TEST_DATA:-$(cd .. && pwd)/shared}
if [[ ! -d "$LITEVISION_TEST_DATA/models" ]]; then
  echo "test: no shared test data at $LITEVISION_TEST_DATA (set LITEVISION_TEST_DATA to the folder with models/ and images/)" >&2
  exit 2
fi
# How long each stage took, printed as it ends (CI allows 90 minutes; the run should stay under 30).
stage_start=$SECONDS
stage_done() {
  echo "test: $1 took $((SECONDS - stage_start)) s"
  stage_start=$SECONDS
}
scripts/setup.sh --dev
stage_done setup
# The tests' servers and clients count against it (CI's log shows it when a connection fails).
echo "test: open-file limit $(ulimit -Sn) (hard $(ulimit -Hn))"
# Cheap checks first: formatting (.swift-format) and the layering rule (dependencies point down).
scripts/format.sh --check
python3 scripts/check-layering.py
stage_done "format and layering checks"
# Release mode (the image kernels are SIMD code, very slow unoptimized), with -enable-testing for the few
# tests that reach internals through @testable import.
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
build_status=0
swift build -c release --build-tests -Xswiftc -enable-testing >"$build_log" 2>&1 || build_status=$?
grep -vE '^\[[0-9]+/[0-9]+\]|^(Compiling|Emitting|Linking|Write|Wrapping|Building|Planning)' "$build_log" || true
if ((build_status != 0)); then
  echo "test: the build failed (exit $build_status)" >&2
  exit "$build_status"
fi
stage_done "release build"
# The DocC catalog of LiteVision: a broken symbol link fails the run.
DOCS_SKIP_BUILD=1 scripts/docs.sh
stage_done "documentation"
# The output is also kept, so that a failure ends with its summary: CI shows only the last lines of a run.
test_log=$(mktemp)
side_log=$(mktemp)
side_pid=
# The side lane below runs as a process group of its own: stopped whole (servers included) if this script ends early.
stop_side() {
  if [[ -n "$side_pid" ]]; then kill -TERM -- -"$side_pid" 2>/dev/null || true; fi
}
trap 'stop_side; rm -f "$build_log" "$test_log" "$side_log"' EXIT
test_status=0
live='LiteVisionMQTTTests\.|LiveViewCLITests|LiveTrackCLITests|MQTTTrackCLITests|SeveralSourcesCLITests'
live+='|VideoPipelineTests|VideoTests/(Network|LoopbackStreamServers|Locations)/'
swift test -c release --skip-build -Xswiftc -enable-testing \
  --skip "ModelMutationTests|LiteVisionRegistryTests\.|$live" 2>&1 | tee "$test_log" || test_status=$?
# The registry's tests run servers in the test process and time their answers, and the live suites (cameras, network
# streams, the live view, MQTT) run real-time streams for seconds and time their ends: neither runs beside the many
# synchronous tests above (which hold Swift concurrency's threads, two on a two-core machine, for minutes), each in a
# process of its own. The live suites also run one test at a time (about 4 minutes instead of 1.5): side by side on
# two slower cores, four cameras got 56 frames each in 8 s where 60 were asked, and a cancelled pipeline took 14 s to
# stop while the other suites' streams held the cores.
# Both mostly wait (the live suites use 0.6 of a core on average, the registry's tests 0.8), so the registry's tests,
# then the registry's HTTP API fuzzed against its OpenAPI document (schemathesis, scripts/api-fuzz.sh), run beside the
# live suites: in a trial on 2 cores, 256 s instead of 446 one after the other, the live suites taking 250 s instead
# of 237. The registry's tests run from the test binary itself: SwiftPM lets one `swift test` at a time use the build
# folder, a second waits for the first. (The two processes pick free loopback ports each on its own: a port one
# frees could be taken by the other before it is bound again, a rare race the separate runs did not have.)
if ((test_status == 0)); then
  set -m
  (
    side_status=0
    .build/release/LiteVisionPackageTests.xctest --testing-library swift-testing \
      --filter 'LiteVisionRegistryTests\.' || side_status=$?
    ((side_status != 0)) || API_FUZZ_SKIP_BUILD=1 scripts/api-fuzz.sh || side_status=$?
    exit "$side_status"
  ) >"$side_log" 2>&1 </dev/null &
  side_pid=$!
  set +m
  swift test -c release --skip-build -Xswiftc -enable-testing --no-parallel --filter "$live" 2>&1 |
    tee -a "$test_log" || test_status=$?
  side_status=0
  wait "$side_pid" || side_status=$?
  side_pid=
  tee -a "$test_log" <"$side_log"
  ((side_status == 0)) || test_status=$side_status
fi
# The mutated-model suite measures the peak memory of its process, so it runs alone.
if ((test_status == 0)); then
  swift test -c release --skip-build -Xswiftc -enable-testing --filter ModelMutationTests 2>&1 |
    tee -a "$test_log" || test_status=$?
fi
if ((test_status != 0)); then
  echo "test: the tests or the API fuzzing failed (exit $test_status); what failed:" >&2
  grep -aE '✘|error: |Fatal error|Test Case .* failed|^api-fuzz: ' "$test_log" | grep -av '^✘ Test run with' |
    head -60 >&2 || true
  exit "$test_status"
fi
stage_done "tests and API fuzzing"
# Each fuzz harness replayed on its seed corpus with the release build (seconds).
scripts/fuzz.sh replay
stage_done "fuzz corpus replay"
# Then each target fuzzed briefly by libFuzzer with AddressSanitizer (an unoptimized build of its own, about 3
# minutes where an optimized one takes 9, then FUZZ_SECONDS each, 10 by default, one per core at a time): new code
# paths that crash fail the run. Longer runs, optimized: `scripts/fuzz.sh all 600`, their latest numbers in
# docs/fuzzing-and-sanitizers.md.
# A slow input counts as a hang after 30 s here (10 s by default): the CI host may be busy.
FUZZ_BUILD=debug FUZZ_TIMEOUT=30 scripts/fuzz.sh all "${FUZZ_SECONDS:-10}"
stage_done "libFuzzer, ${FUZZ_SECONDS:-10} s per target"
