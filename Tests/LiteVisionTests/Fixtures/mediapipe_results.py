"""MediaPipe Tasks' results for LiteVision's `.mediapipe` parity test (MediaPipeParityTests).

Usage: python3 mediapipe_results.py JOB.json OUT.json

JOB.json: {"classifiers": [MODEL...], "detectors": [MODEL...], "images": [PHOTO...], "detection_threshold": T,
"rotations": {PHOTO: DEGREES}, "decode_only": [PHOTO...]}.
Every photo is opened as MediaPipe's users open files, with mp.Image.create_from_file (stb_image's pixels, turned by
the EXIF orientation as MediaPipe reads it). A photo in "rotations" is a camera frame instead: its pixels (a PNG,
read by Pillow) go as they are, as SRGB, with ImageProcessingOptions(rotation_degrees=DEGREES). Writes
{"classify": {model: {photo: [[index, score], ...]}}, "detect": {model: {photo: [[score, x, y, width, height], ...]}},
"pixels": {photo: [width, height, crc32]}}, keyed by file names; "pixels" describes each file's image as
create_from_file made it (upright), its CRC-32 over the RGB bytes, row by row (alpha left out, gray repeated three
times as MediaPipe's preprocessing turns gray into RGB). The "decode_only" photos (gray ones, whose classification
fails in MediaPipe) get their "pixels" only.
Exits 3 with a message when MediaPipe Tasks is not installed.
"""

import json
import os
import sys
import zlib

try:
    import numpy as np
    from PIL import Image
    import mediapipe as mp
    from mediapipe.tasks.python import BaseOptions, vision
    from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions
except ImportError as error:
    sys.stderr.write(
        f"MediaPipe Tasks is missing ({error}); scripts/setup.sh --dev installs mediapipe==1.2.2, Pillow and numpy\n")
    sys.exit(3)


def frame(path):
    with Image.open(path) as image:
        pixels = np.asarray(image.convert("RGB"))
    return mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(pixels))


def summary(image):
    """[width, height, CRC-32 of the RGB bytes] of an image made by create_from_file."""
    view = image.numpy_view()
    rgb = np.ascontiguousarray(np.repeat(view, 3, axis=2) if view.shape[2] == 1 else view[:, :, :3])
    return [image.width, image.height, zlib.crc32(rgb.tobytes())]


def main():
    job_path, out_path = sys.argv[1], sys.argv[2]
    with open(job_path) as handle:
        job = json.load(handle)
    rotations = job.get("rotations", {})
    photos = {
        os.path.basename(path): frame(path) if path in rotations else mp.Image.create_from_file(path)
        for path in job["images"]}
    processing = {
        os.path.basename(path): ImageProcessingOptions(rotation_degrees=degrees) for path, degrees in rotations.items()}
    result = {"classify": {}, "detect": {}, "pixels": {
        os.path.basename(path): summary(photos[os.path.basename(path)]) for path in job["images"]
        if path not in rotations}}
    for path in job.get("decode_only", []):
        result["pixels"][os.path.basename(path)] = summary(mp.Image.create_from_file(path))
    for model in job["classifiers"]:
        # A threshold of 0 means "the metadata's" to MediaPipe; 1e-9 keeps every score above zero.
        options = vision.ImageClassifierOptions(
            base_options=BaseOptions(model_asset_path=model), max_results=-1, score_threshold=1e-9)
        with vision.ImageClassifier.create_from_options(options) as classifier:
            scores = {}
            for name, image in photos.items():
                categories = classifier.classify(image, processing.get(name)).classifications[0].categories
                scores[name] = [[c.index, c.score] for c in categories]
            result["classify"][os.path.basename(model)] = scores
    for model in job["detectors"]:
        options = vision.ObjectDetectorOptions(
            base_options=BaseOptions(model_asset_path=model), max_results=-1,
            score_threshold=job["detection_threshold"])
        with vision.ObjectDetector.create_from_options(options) as detector:
            found = {}
            for name, image in photos.items():
                found[name] = [
                    [d.categories[0].score, d.bounding_box.origin_x, d.bounding_box.origin_y,
                     d.bounding_box.width, d.bounding_box.height]
                    for d in detector.detect(image, processing.get(name)).detections]
            result["detect"][os.path.basename(model)] = found
    with open(out_path, "w") as handle:
        json.dump(result, handle)


if __name__ == "__main__":
    main()
