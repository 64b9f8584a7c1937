#!/usr/bin/env python3
"""MediaPipe Tasks peer measurements for `litevision-bench` (run by it; prints one JSON object).

Usage: mediapipe_peer.py SHARED_DIR REPEATS
Measures, per model (bird.tflite, object_labeler.tflite), with MediaPipe Tasks' Python ImageClassifier
in IMAGE mode, max_results=10, its default score threshold:
  decoded/<image>: classify an already decoded mp.Image (median ms)
  file/<image>:    mp.Image.create_from_file + classify (median ms)
  batch:           every photo in images/, file to labels, images per second
and the cold start of a fresh process: import + create + first result (median ms).
"""
import json, os, statistics, subprocess, sys, time

shared, repeats = sys.argv[1], int(sys.argv[2])
try:
    import mediapipe as mp
    from mediapipe.tasks import python as mp_tasks
    from mediapipe.tasks.python import vision
except Exception as error:  # the benchmark reports the peer as missing
    print(json.dumps({"error": f"mediapipe is not installed: {error}"}))
    sys.exit(0)

MODELS = ["bird.tflite", "object_labeler.tflite"]
images_dir = os.path.join(shared, "images")
photos = sorted(f for f in os.listdir(images_dir) if f.lower().endswith((".jpg", ".jpeg", ".png")))


def median_ms(fn, n):
    fn()  # warm up
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def classifier(model):
    options = vision.ImageClassifierOptions(
        base_options=mp_tasks.BaseOptions(model_asset_path=os.path.join(shared, "models", model)),
        running_mode=vision.RunningMode.IMAGE, max_results=10)
    return vision.ImageClassifier.create_from_options(options)


result = {"version": mp.__version__, "models": {}}
for model in MODELS:
    out = {}
    with classifier(model) as c:
        for name in ["grace_hopper.jpg", "beach.jpg"]:
            image = mp.Image.create_from_file(os.path.join(images_dir, name))
            out[f"decoded/{name}"] = median_ms(lambda: c.classify(image), repeats)
        for name in ["grace_hopper.jpg", "bird.jpg", "beach.jpg"]:
            path = os.path.join(images_dir, name)
            out[f"file/{name}"] = median_ms(lambda: c.classify(mp.Image.create_from_file(path)), repeats)
        start = time.perf_counter()
        for name in photos:
            c.classify(mp.Image.create_from_file(os.path.join(images_dir, name)))
        out["batch_images_per_second"] = len(photos) / (time.perf_counter() - start)
    cold_script = (
        "import mediapipe as mp\n"
        "from mediapipe.tasks import python as t\nfrom mediapipe.tasks.python import vision as v\n"
        f"o=v.ImageClassifierOptions(base_options=t.BaseOptions(model_asset_path={os.path.join(shared, 'models', model)!r}),"
        "running_mode=v.RunningMode.IMAGE,max_results=10)\n"
        f"c=v.ImageClassifier.create_from_options(o); c.classify(mp.Image.create_from_file({os.path.join(images_dir, 'bird.jpg')!r}))\n")
    colds = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", cold_script], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        colds.append((time.perf_counter() - start) * 1000)
    out["cold_start_ms"] = statistics.median(colds)
    result["models"][model] = out
print(json.dumps(result))
