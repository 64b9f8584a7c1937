#!/usr/bin/env bash
# Several live cameras at once: 1, 2, 4 and 8 RTSP streams of 640x480 at 30 fps (GStreamer's RTSP server on
# loopback, one server per stream) through
#   - LiteVision: one `litevision track URL1 … URLn --duration S --json` process (decode + detect + track per
#     stream, the streams sharing the cores through VideoPipeline), and
#   - MediaPipe Tasks' ObjectDetector in LIVE_STREAM mode, one process per stream (benchmarks/mediapipe_live_peer.py,
#     OpenCV decoding), for 1 and 4 streams,
# with the same localizer model (mobile_object_localizer_v1.tflite), one after the other in the same run. Prints
# one table: processed frames per second per stream (min / median), the share of the camera's frames processed,
# latency p50/p95/p99 (ms, all streams pooled), CPU time per processed frame (ms, all processes), peak RSS (MB, all
# processes), and the goals of issue 26.
#   scripts/bench-streams.sh [SECONDS]   (20 by default)
# LITEVISION_BENCH_NO_BUILD=1 measures the programs already in .build/release (built by scripts/test.sh, say)
# instead of building them.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
data=${LITEVISION_TEST_DATA:-$(cd .. && pwd)/shared}
scripts/setup.sh --bench >/dev/null
if [[ "${LITEVISION_BENCH_NO_BUILD:-}" != 1 ]]; then
  swift build -c release --product litevision >/dev/null
  swift build -c release --product litevision-media >/dev/null
fi
work=$(mktemp -d)
server_pids=()
cleanup() {
  for pid in "${server_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# The stream: cup.mp4 (a held cup) at 640x480, re-encoded at 30 fps without B-frames (as cameras send), long
# enough for every run to read live video throughout.
loops=$(((seconds + 20) / 8))
ffmpeg -v error -y -stream_loop "$loops" -i "$data/video/cup.mp4" -vf fps=30 -an -c:v libx264 -preset veryfast \
  -g 30 -bf 0 "$work/clip.mp4"

# Starts $1 RTSP servers; their URLs in the array `urls`.
start_servers() {
  urls=()
  for i in $(seq "$1"); do
    : >"$work/port.$i"
    # The server exits when its standard input closes: `sleep` holds it open until killed.
    (sleep 100000 | /usr/bin/python3 scripts/rtsp-test-server.py "$work/clip.mp4" /cam 0 "" "" 5 >"$work/port.$i") &
    server_pids+=($!)
    for _ in $(seq 100); do [[ -s "$work/port.$i" ]] && break; sleep 0.1; done
    urls+=("rtsp://127.0.0.1:$(head -1 "$work/port.$i")/cam")
  done
}
stop_servers() {
  {
    for pid in "${server_pids[@]}"; do pkill -P "$pid" || true; kill "$pid" || true; done
    wait || true
  } 2>/dev/null  # without bash's "Terminated" for each
  server_pids=()
}

for n in 1 2 4 8; do
  start_servers "$n"
  /usr/bin/time -f "%U %S %M" -o "$work/lv.$n.cpu" .build/release/litevision track --model-dir "$data/models" \
    --duration "$seconds" --json "$work/lv.$n.jsonl" "${urls[@]}" 2>/dev/null
  stop_servers
done
for n in 1 4; do
  start_servers "$n"
  peers=()
  for i in $(seq "$n"); do
    python3 benchmarks/mediapipe_live_peer.py "${urls[$((i - 1))]}" "$seconds" \
      "$data/models/mobile_object_localizer_v1.tflite" >"$work/mp.$n.$i.json" 2>/dev/null &
    peers+=($!)
  done
  wait "${peers[@]}"
  stop_servers
done

python3 - "$work" "$seconds" <<'PY'
import collections, json, statistics, sys
work, seconds = sys.argv[1], float(sys.argv[2])

def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]

rows = []
for n in (1, 2, 4, 8):
    by_source = collections.defaultdict(list)
    for line in open(f"{work}/lv.{n}.jsonl"):
        record = json.loads(line)
        by_source[record["source"]].append(record)
    user, system, rss = open(f"{work}/lv.{n}.cpu").read().split()[:3]
    fps, kept, latencies = [], [], []
    for records in by_source.values():
        records = records[3:]  # warm-up
        span = records[-1]["timestamp"] - records[0]["timestamp"]
        fps.append((len(records) - 1) / span)
        kept.append(min(1.0, (len(records) - 1) / (span * 30)))
        latencies += [r["latencyMs"] for r in records]
    fps += [0.0] * (n - len(by_source))  # a stream with no record at all
    processed = sum(len(r) for r in by_source.values())
    rows.append(("LiteVision", n, min(fps), statistics.median(fps), min(kept + [0.0] * (n - len(by_source))),
                 latencies, (float(user) + float(system)) * 1000 / processed, float(rss) / 1024))
peer_version = None
for n in (1, 4):
    peers = [json.load(open(f"{work}/mp.{n}.{i}.json")) for i in range(1, n + 1)]
    failed = [p["error"] for p in peers if "error" in p]
    if failed:
        sys.exit(f"bench-streams: the MediaPipe peer failed: {failed[0]}")
    peer_version = peers[0]["version"]
    fps = [p["fps"] for p in peers]
    rows.append(("MediaPipe", n, min(fps), statistics.median(fps), min(min(1.0, f / 30) for f in fps),
                 sum((p["latencies"] for p in peers), []),
                 sum(p["cpuSeconds"] for p in peers) * 1000 / sum(p["processed"] for p in peers),
                 sum(p["maxRssMB"] for p in peers)))

print(f"RTSP 640x480 at 30 fps, {seconds:g} s per run, mobile_object_localizer_v1 on 2 cores. LiteVision: one "
      f"process, detect + track; MediaPipe {peer_version}: LIVE_STREAM, one process per stream, detect only.\n")
print("| engine | streams | fps per stream, min / median | frames kept, min | latency p50 / p95 / p99, ms "
      "| CPU per frame, ms | peak RSS, MB |")
print("|---|---|---|---|---|---|---|")
cpu = {}
for engine, n, low, mid, kept, latencies, cpu_ms, rss in rows:
    cpu[(engine, n)] = cpu_ms
    p50, p95, p99 = (percentile(latencies, p) for p in (0.5, 0.95, 0.99))
    print(f"| {engine} | {n} | {low:.1f} / {mid:.1f} | {kept * 100:.0f} % | {p50:.1f} / {p95:.1f} / {p99:.1f} "
          f"| {cpu_ms:.2f} | {rss:.0f} |")

def row(engine, n):
    return next(r for r in rows if r[0] == engine and r[1] == n)

four, eight = row("LiteVision", 4), row("LiteVision", 8)
goals = [
    ("4 streams: ≥ 28.5 fps each", four[2] >= 28.5, f"min {four[2]:.1f}"),
    ("4 streams: p95 latency ≤ 60 ms", percentile(four[5], 0.95) <= 60, f"{percentile(four[5], 0.95):.1f} ms"),
    ("8 streams: min ≥ 0.9 × median fps", eight[2] >= 0.9 * eight[3], f"{eight[2]:.1f} / {eight[3]:.1f}"),
    ("8 streams: p95 latency ≤ 100 ms", percentile(eight[5], 0.95) <= 100, f"{percentile(eight[5], 0.95):.1f} ms"),
]
for n in (1, 4):
    ratio = cpu[("LiteVision", n)] / cpu[("MediaPipe", n)]
    goals.append((f"{n} stream{'s' if n > 1 else ''}: CPU per frame ≤ 0.5× MediaPipe's", ratio <= 0.5, f"{ratio:.2f}×"))
print("\n| goal | measured | met |\n|---|---|---|")
for name, met, measured in goals:
    print(f"| {name} | {measured} | {'yes' if met else '**no**'} |")
PY
