#!/usr/bin/env bash
# Tracker quality: LiteVision's tracker next to roboflow's trackers 2.6.1 (SORT, ByteTrack, OC-SORT, BoT-SORT with
# camera-motion compensation off) on the same detections, scored by TrackEval. Sequences: MOT15's TUD-Campus and
# TUD-Stadtmitte (the ground truth py-motmetrics ships) and three simulated pedestrian scenes, plus sim-return (people
# leaving and coming back, for re-identification) when named with --sequences
# (benchmarks/tracking_scenes.py); the ground truth is turned into detector-like input by the seeded noise model of
# tracking_scenes.noisy_detections. LiteVision runs as `litevision track --detections` (its --timing line is the
# tracker's update loop alone); the peers' update() loop is timed in Python. Prints one table (HOTA, IDF1, MOTA,
# IDSW, frames per second of the tracker alone) and the goals of issue 28.
#   scripts/bench-tracking.sh [--seeds 1,2,3] [--level normal|heavy|Fn|Fh] [--sequences A,B] [--frame-step K]
#                             [--variant LABEL="ARGS"]... [--interpolate-peers N]
# --interpolate-peers N adds each peer with its gaps of up to N frames filled (as `track --interpolate N` fills
# LiteVision's), and compares a variant run with --interpolate N with them.
# --frame-step K plays every sequence at 1/K of its frame rate (every K-th frame: objects move K times farther between
# frames, as with a slower camera or a detector run on every K-th frame).
# Moving-camera variants of the simulated scenes (sim-crowd-pan, sim-crowd-shake, sim-crowd-zoom, ...: any sim scene
# with -pan, -shake or -zoom) are run with --sequences; --variant "LiteVision --camera-motion=--camera-motion auto"
# adds the row of camera-motion compensation (docs/tracking-quality.md).
# LITEVISION_BENCH_NO_BUILD=1 measures the `litevision` already in .build/release instead of building it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --dev >/dev/null
if [[ "${LITEVISION_BENCH_NO_BUILD:-}" != 1 ]]; then
  swift build -c release --product litevision >/dev/null
fi
exec python3 benchmarks/tracking_bench.py table --litevision .build/release/litevision "$@"
