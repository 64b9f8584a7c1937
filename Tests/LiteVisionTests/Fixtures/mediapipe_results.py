"""MediaPipe Tasks' results for LiteVision's `.mediapipe` parity test (MediaPipeParityTests).

Usage: python3 mediapipe_results.py JOB.json OUT.json

JOB.json: {"classifiers": [MODEL...], "detectors": [MODEL...], "images": [PHOTO...], "detection_threshold": T,
"rotations": {PHOTO: DEGREES}}.
Every photo is decoded with Pillow (libjpeg-turbo: the pixels LiteVision's decoder gives) and turned upright by
its EXIF orientation (as MediaPipe's Image.create_from_file does), then handed to MediaPipe as SRGB pixels, so
the comparison is about preprocessing and inference only. A photo in "rotations" is a camera frame: its pixels
go as they are, with ImageProcessingOptions(rotation_degrees=DEGREES). Writes {"classify": {model: {photo: [[index, score], ...]}},
"detect": {model: {photo: [[score, x, y, width, height], ...]}}}, keyed by file names.
Exits 3 with a message when MediaPipe Tasks is not installed.
"""

import json
import os
import sys

try:
    import numpy as np
    from PIL import Image, ImageOps
    import mediapipe as mp
    from mediapipe.tasks.python import BaseOptions, vision
    from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions
except ImportError as error:
    sys.stderr.write(
        f"MediaPipe Tasks is missing ({error}); scripts/setup.sh --dev installs mediapipe==1.2.2, Pillow and numpy\n")
    sys.exit(3)


def rgb(path, turn_upright):
    with Image.open(path) as image:
        image.load()
        pixels = (ImageOps.exif_transpose(image) if turn_upright else image).convert("RGB")
    return mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(np.asarray(pixels)))


def main():
    job_path, out_path = sys.argv[1], sys.argv[2]
    with open(job_path) as handle:
        job = json.load(handle)
    rotations = job.get("rotations", {})
    photos = {os.path.basename(path): rgb(path, path not in rotations) for path in job["images"]}
    processing = {
        os.path.basename(path): ImageProcessingOptions(rotation_degrees=degrees) for path, degrees in rotations.items()}
    result = {"classify": {}, "detect": {}}
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
