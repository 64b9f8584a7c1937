#!/usr/bin/env bash
# Live-stream benchmark: a 640x480 RTSP stream at 30 fps (GStreamer's RTSP server on loopback) through
#   - LiteVision: `litevision track rtsp://... --duration S --json` (decode + detect + track, the newest frame
#     whenever the detector is ready), and
#   - MediaPipe Tasks' ObjectDetector in LIVE_STREAM mode fed the same stream decoded by OpenCV
#     (benchmarks/mediapipe_live_peer.py),
# the same localizer model (mobile_object_localizer_v1.tflite), one after the other in the same run. Prints one
# table: processed frames per second, latency p50/p95 (ms), CPU time per processed frame (ms), and the ratios.
#   scripts/bench-live.sh [SECONDS]   (20 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
data=${LITEVISION_TEST_DATA:-$(cd .. && pwd)/shared}
scripts/setup.sh --bench >/dev/null
swift build -c release --product litevision >/dev/null
swift build -c release --product litevision-media >/dev/null
work=$(mktemp -d)
server_pid=""
cleanup() {
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The stream: cup.mp4 (a held cup) at 640x480, re-encoded at 30 fps without B-frames (as cameras send), long
# enough for both runs to read live video throughout.
loops=$(((seconds + 20) / 8))
ffmpeg -v error -y -stream_loop "$loops" -i "$data/video/cup.mp4" -vf fps=30 -an -c:v libx264 -preset veryfast \
  -g 30 -bf 0 "$work/clip.mp4"

start_server() {
  mkfifo "$work/stdin.$1"
  /usr/bin/python3 scripts/rtsp-test-server.py "$work/clip.mp4" /cam 0 "" "" 5 <"$work/stdin.$1" >"$work/port.$1" &
  server_pid=$!
  exec 9>"$work/stdin.$1"  # the server exits when this closes
  for _ in $(seq 50); do [[ -s "$work/port.$1" ]] && break; sleep 0.1; done
  url="rtsp://127.0.0.1:$(head -1 "$work/port.$1")/cam"
}
stop_server() {
  exec 9>&-
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

# LiteVision: CPU time from the kernel's accounting of the process (user + system).
start_server lv
/usr/bin/time -f "%U %S" -o "$work/lv.cpu" .build/release/litevision track --model-dir "$data/models" \
  --duration "$seconds" --json "$work/lv.jsonl" "$url" 2>/dev/null
stop_server

start_server mp
python3 benchmarks/mediapipe_live_peer.py "$url" "$seconds" "$data/models/mobile_object_localizer_v1.tflite" \
  >"$work/mp.json"
stop_server

python3 - "$work" "$seconds" <<'EOF'
import json, statistics, sys
work, seconds = sys.argv[1], float(sys.argv[2])
lines = [json.loads(l) for l in open(f"{work}/lv.jsonl")]
latencies = sorted(l["latencyMs"] for l in lines[3:])
user, system = map(float, open(f"{work}/lv.cpu").read().split()[:2])
ours = {"fps": len(lines) / seconds, "p50": statistics.median(latencies),
        "p95": latencies[min(len(latencies) - 1, int(len(latencies) * 0.95))],
        "cpu": (user + system) * 1000 / len(lines)}
peer = json.load(open(f"{work}/mp.json"))
if "error" in peer:
    sys.exit(f"bench-live: the MediaPipe peer failed: {peer['error']}")
theirs = {"fps": peer["fps"], "p50": peer["p50"], "p95": peer["p95"], "cpu": peer["cpuMsPerFrame"]}
print(f"RTSP 640x480 at 30 fps for {seconds:g} s, mobile_object_localizer_v1; MediaPipe {peer['version']} "
      f"LIVE_STREAM fed by OpenCV; 2 cores.\n")
print("| measurement | LiteVision (detect + track) | MediaPipe (detect) | ours ÷ theirs | target | met |")
print("|---|---|---|---|---|---|")
rows = [("processed frames per second", "fps", "every frame at 30 fps", lambda v: v["fps"] >= 29),
        ("latency p50, ms", "p50", "≤ 0.5× MediaPipe", lambda v: v["p50"] <= 0.5 * theirs["p50"]),
        ("latency p95, ms", "p95", "", None),
        ("CPU per processed frame, ms", "cpu", "", None)]
for name, key, target, check in rows:
    met = "" if check is None else ("yes" if check(ours) else "**no**")
    print(f"| {name} | {ours[key]:.2f} | {theirs[key]:.2f} | {ours[key] / theirs[key]:.2f}× | {target} | {met} |")
EOF
