#!/usr/bin/env python3
"""MediaPipe Tasks ObjectDetector peer for `litevision-bench video` (prints one JSON object).

Usage: mediapipe_detector_peer.py FRAMES.rgb WIDTH HEIGHT COUNT MODEL
Runs MediaPipe's ObjectDetector in VIDEO mode (max_results=5) over COUNT raw RGB frames (the frames
LiteVision's benchmark decoded, so both see the same pixels) and reports per-frame latency p50/p99 (ms) and
frames per second. MediaPipe does no tracking.
"""
import json, statistics, sys, time
import numpy as np

path, width, height, count, model = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
try:
    import mediapipe as mp
    from mediapipe.tasks import python as mp_tasks
    from mediapipe.tasks.python import vision
except Exception as error:
    print(json.dumps({"error": f"mediapipe is not installed: {error}"}))
    sys.exit(0)

frames = np.fromfile(path, dtype=np.uint8).reshape(count, height, width, 3)
options = vision.ObjectDetectorOptions(
    base_options=mp_tasks.BaseOptions(model_asset_path=model),
    running_mode=vision.RunningMode.VIDEO, max_results=5)
times = []
with vision.ObjectDetector.create_from_options(options) as detector:
    for i in range(count):
        image = mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(frames[i]))
        start = time.perf_counter()
        detector.detect_for_video(image, int(i * 1000 / 30))
        times.append((time.perf_counter() - start) * 1000)
times = times[3:]  # warm-up
times.sort()
print(json.dumps({"p50": statistics.median(times), "p99": times[min(len(times) - 1, int(len(times) * 0.99))],
                  "fps": 1000 / statistics.mean(times), "version": mp.__version__}))
