#!/usr/bin/env bash
# Fuzzes LiteVision's parsers of untrusted bytes with libFuzzer (AddressSanitizer on), from seed corpora made
# from the shared test data.
#
#   scripts/fuzz.sh TARGET [SECONDS]     one target: model, zip, exif, image, mediapipe-image, labels, manifest,
#                                        coco, mot, mot-detections (default 60 s)
#   scripts/fuzz.sh all [SECONDS]        every target, SECONDS each, FUZZ_JOBS at a time (default: the cores)
#   scripts/fuzz.sh build                the libFuzzer binary alone
#   scripts/fuzz.sh mutants [COUNT]      the seeded mutated-model test (runtime included), COUNT mutants
#   scripts/fuzz.sh replay               every target once on each input of its seed corpus, with the release
#                                        build's litevision-fuzz (no libFuzzer, no sanitizer): what CI runs, in
#                                        seconds, so that a harness or parser that breaks on a seed fails the run
#
# FUZZ_BUILD=debug builds the libFuzzer binary unoptimized: about 3 minutes instead of 9 on 2 cores, for 1.5 to 5.3
# times fewer inputs per second (and Swift's assertions on). CI uses it for its 10-second runs; long runs should keep
# the default, release. FUZZ_SKIP_BUILD=1 uses the libFuzzer binary of that build as it is.
#
# Inputs that crash are written to .build-fuzz/crashes/TARGET/; replay one with
# `swift run litevision-fuzz TARGET FILE`, or under AddressSanitizer with
# `LITEVISION_FUZZ_TARGET=TARGET .build-fuzz/release/litevision-fuzz FILE` (debug/ for FUZZ_BUILD=debug). New corpus
# entries libFuzzer finds go to .build-fuzz/corpus/TARGET-found/.
set -euo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$0")/.."
export LITEVISION_TEST_DATA=${LITEVISION_TEST_DATA:-$(cd .. && pwd)/shared}
targets=(model zip exif image mediapipe-image labels manifest coco mot mot-detections)
target=${1:?usage: scripts/fuzz.sh TARGET|all|build|replay|mutants [SECONDS|COUNT]}
amount=${2:-60}
# libFuzzer reads 0 seconds as no limit: a whole number from 1 up only.
if [[ ! $amount =~ ^[1-9][0-9]{0,6}$ ]]; then
  echo "fuzz: SECONDS or COUNT must be a whole number from 1 to 9999999, not '$amount'" >&2
  exit 2
fi
# The seed corpora of every target, made from the shared data when any target's folder is missing (before runs that
# read them start side by side).
make_corpus_if_missing() {
  local each
  for each in "${targets[@]}"; do
    if [[ ! -d .build-fuzz/corpus/$each ]]; then
      python3 scripts/make-fuzz-corpus.py "$LITEVISION_TEST_DATA" .build-fuzz/corpus
      return
    fi
  done
}

if [[ $target == mutants ]]; then
  swift build -c release --build-tests -Xswiftc -enable-testing >/dev/null
  LITEVISION_MUTANTS=$amount swift test -c release --skip-build -Xswiftc -enable-testing --filter ModelMutationTests
  exit
fi
if [[ $target == replay ]]; then
  binary=.build/release/litevision-fuzz
  [[ -x $binary ]] || swift build -c release --product litevision-fuzz -Xswiftc -enable-testing >/dev/null
  make_corpus_if_missing
  for each in "${targets[@]}"; do
    folders=(".build-fuzz/corpus/$each")
    [[ -d ${folders[0]}-found ]] && folders+=("${folders[0]}-found")
    if [[ ! -d ${folders[0]} || -z $(find "${folders[0]}" -type f -print -quit) ]]; then
      echo "fuzz: no seed corpus for $each in .build-fuzz/corpus" >&2
      exit 1
    fi
    # xargs: any number of inputs, in as many runs as the command line allows.
    find "${folders[@]}" -type f -print0 | xargs -0 "$binary" "$each"
  done
  exit
fi
if [[ $target == all ]]; then
  # One build (each run below would otherwise plan the whole package again), then every target, FUZZ_JOBS at a time
  # (default: one per core; a libFuzzer run uses one), each one's report printed whole, in order.
  lanes=${FUZZ_JOBS:-$(nproc)}
  if [[ ! $lanes =~ ^[1-9][0-9]{0,2}$ ]]; then
    echo "fuzz: FUZZ_JOBS must be a whole number from 1 to 999, not '$lanes'" >&2
    exit 2
  fi
  "$self" build
  make_corpus_if_missing
  reports=$(mktemp -d)
  status=0 pids=() reaped=0 failed=()
  # Each run is a process group of its own (set -m), so that one ended early stops with its libFuzzer.
  trap 'for pid in "${pids[@]:reaped}"; do kill -TERM -- -"$pid" 2>/dev/null || true; done; rm -rf "$reports"' EXIT
  reap() {
    wait "${pids[reaped]}" || { status=1; failed+=("${targets[reaped]}"); }
    cat "$reports/${targets[reaped]}"
    reaped=$((reaped + 1))
  }
  for each in "${targets[@]}"; do
    ((${#pids[@]} - reaped < lanes)) || reap
    set -m
    FUZZ_SKIP_BUILD=1 "$self" "$each" "$amount" >"$reports/$each" 2>&1 </dev/null &
    pids+=("$!")
    set +m
  done
  while ((reaped < ${#pids[@]})); do reap; done
  ((status == 0)) || echo "fuzz: failed: ${failed[*]} (their reports above)" >&2
  exit "$status"
fi
if [[ $target != build && ! " ${targets[*]} " =~ " $target " ]]; then
  echo "fuzz: unknown target '$target' (one of: ${targets[*]}, all, build, mutants, replay)" >&2
  exit 2
fi

scratch=.build-fuzz
configuration=${FUZZ_BUILD:-release}
if [[ $configuration != release && $configuration != debug ]]; then
  echo "fuzz: FUZZ_BUILD must be release or debug, not '$configuration'" >&2
  exit 2
fi
binary=$scratch/$configuration/litevision-fuzz
build_log='' fuzz_log=''
trap 'rm -f ${build_log:+"$build_log"} ${fuzz_log:+"$fuzz_log"}' EXIT
if [[ ${FUZZ_SKIP_BUILD:-0} != 1 ]]; then
  build_log=$(mktemp)
  if ! swift build -c "$configuration" --scratch-path "$scratch" --product litevision-fuzz --sanitize fuzzer \
    --sanitize address -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address >"$build_log" 2>&1; then
    grep -E 'error' "$build_log" >&2 || tail -20 "$build_log" >&2
    echo "fuzz: the fuzzing build failed" >&2
    exit 1
  fi
fi
[[ $target == build ]] && exit
if [[ ! -x $binary ]]; then
  echo "fuzz: no $binary (run scripts/fuzz.sh build with FUZZ_BUILD=$configuration)" >&2
  exit 1
fi
make_corpus_if_missing
# Crashing inputs of earlier runs stay in crashes/TARGET-earlier/ (kept for replaying), out of this run's verdict.
if compgen -G "$scratch/crashes/$target/*" >/dev/null; then
  mkdir -p "$scratch/crashes/$target-earlier" && mv "$scratch/crashes/$target"/* "$scratch/crashes/$target-earlier/"
fi
mkdir -p "$scratch/corpus/$target-found" "$scratch/crashes/$target"
# Memory is capped below the 1 GB every input must stay under; a slow input (over FUZZ_TIMEOUT seconds, 10 by
# default) counts as a hang.
fuzz_log=$(mktemp)
fuzz_status=0
LITEVISION_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=0 "$binary" \
  -max_total_time="$amount" -rss_limit_mb=1024 -malloc_limit_mb=1024 -timeout="${FUZZ_TIMEOUT:-10}" \
  -print_final_stats=1 -artifact_prefix="$scratch/crashes/$target/" "$scratch/corpus/$target-found" \
  "$scratch/corpus/$target" >"$fuzz_log" 2>&1 || fuzz_status=$?
grep -E '^#[0-9]+[[:space:]]+(DONE|INITED)|stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|Test unit written' \
  "$fuzz_log" || true
if compgen -G "$scratch/crashes/$target/*" >/dev/null; then
  echo "fuzz: $target: crashing inputs in $scratch/crashes/$target/" >&2
  exit 1
fi
# A fuzzer that did not run to its end (it failed to start, or stopped without writing an input) is a failure too.
if ((fuzz_status != 0)) || ! grep -q 'stat::number_of_executed_units' "$fuzz_log"; then
  tail -20 "$fuzz_log" >&2
  echo "fuzz: $target: libFuzzer did not finish its run (status $fuzz_status)" >&2
  exit 1
fi
echo "fuzz: $target: no crash in $amount s"
