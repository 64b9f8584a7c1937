#!/usr/bin/env python3
"""MediaPipe Tasks ObjectDetector in LIVE_STREAM mode on a live RTSP stream, for `scripts/bench-streams.sh`.

Usage: mediapipe_live_peer.py URL SECONDS MODEL
Reads URL with OpenCV (FFmpeg backend, RTSP over TCP) on a thread of its own that keeps only the newest frame
(as a camera app does), feeds MediaPipe's ObjectDetector (running mode LIVE_STREAM, max_results=5) whenever the
previous result came back, and prints one JSON object: frames received and processed, processed frames per second,
latency p50/p95 in ms and every latency (from the moment OpenCV handed the decoded frame over to the result callback: the peer's
latency starts after its decoding, LiteVision's at the arrival of the frame's data, before decoding), and the
process's CPU time per processed frame and its peak RSS. MediaPipe does no tracking.
"""
import json, os, resource, statistics, sys, threading, time

url, seconds, model = sys.argv[1], float(sys.argv[2]), sys.argv[3]
os.environ.setdefault("OPENCV_FFMPEG_CAPTURE_OPTIONS", "rtsp_transport;tcp")
try:
    import cv2
    import mediapipe as mp
    from mediapipe.tasks import python as mp_tasks
    from mediapipe.tasks.python import vision
except Exception as error:
    print(json.dumps({"error": f"mediapipe or OpenCV is not installed: {error}"}))
    sys.exit(0)

capture = cv2.VideoCapture(url, cv2.CAP_FFMPEG)
if not capture.isOpened():
    print(json.dumps({"error": f"OpenCV cannot open {url}"}))
    sys.exit(0)

lock = threading.Condition()
latest = None  # (rgb, arrived) of the newest frame not yet taken
received = 0
running = True


def reader():
    global latest, received, running
    while running:
        ok, bgr = capture.read()
        if not ok:
            break
        arrived = time.perf_counter()
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        with lock:
            latest = (rgb, arrived)
            received += 1
            lock.notify_all()
    with lock:
        running = False
        lock.notify_all()


latencies = []
pending = threading.Semaphore(1)  # one frame in flight: the next is fed when the previous result is back
arrivals = {}


def on_result(result, image, timestamp_ms):
    latencies.append((time.perf_counter() - arrivals.pop(timestamp_ms)) * 1000)
    pending.release()


options = vision.ObjectDetectorOptions(
    base_options=mp_tasks.BaseOptions(model_asset_path=model),
    running_mode=vision.RunningMode.LIVE_STREAM, max_results=5, result_callback=on_result)
thread = threading.Thread(target=reader, daemon=True)
cpu_start = resource.getrusage(resource.RUSAGE_SELF)
with vision.ObjectDetector.create_from_options(options) as detector:
    thread.start()
    start = time.perf_counter()
    last_timestamp = -1
    while time.perf_counter() - start < seconds:
        pending.acquire()
        with lock:
            while latest is None and running:
                lock.wait(0.5)
            if latest is None:
                break
            rgb, arrived = latest
            latest = None
        timestamp = max(last_timestamp + 1, int((arrived - start) * 1000))
        last_timestamp = timestamp
        arrivals[timestamp] = arrived
        detector.detect_async(mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb), timestamp)
    elapsed = time.perf_counter() - start
    pending.acquire()  # the last result
cpu_end = resource.getrusage(resource.RUSAGE_SELF)
running = False
capture.release()
cpu = (cpu_end.ru_utime + cpu_end.ru_stime) - (cpu_start.ru_utime + cpu_start.ru_stime)
latencies = latencies[3:]  # warm-up
latencies.sort()
print(json.dumps({
    "received": received, "processed": len(latencies), "fps": len(latencies) / elapsed,
    "p50": statistics.median(latencies), "p95": latencies[min(len(latencies) - 1, int(len(latencies) * 0.95))],
    "cpuMsPerFrame": cpu * 1000 / max(1, len(latencies)), "cpuSeconds": cpu, "latencies": latencies,
    "maxRssMB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "version": mp.__version__}))
