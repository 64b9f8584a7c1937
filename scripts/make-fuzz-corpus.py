#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (scripts/fuzz.sh) from the shared test data, into OUT/TARGET/.

    scripts/make-fuzz-corpus.py SHARED OUT

model: every shared .tflite; zip: the associated-files zip cut from each model; labels: the shared label files
and those inside the zips; exif: the EXIF block of each photo that has one, and made ones for all 8
orientations; image: small JPEG and PNG copies of the photos (Pillow), in several orientations and subsamplings;
mediapipe-image: the same, and PNGs with alpha, a palette or 16-bit samples, CMYK and gray JPEGs, and an XMP segment
before the EXIF one (how MediaPipe's EXIF reading differs); manifest: a few AutoML manifests; coco and mot: small
evaluation files made here; mot-detections: small detection files for `track --detections`, made here. Nothing here is committed: the corpus is made from the shared data each time.
"""

import io
import json
import os
import struct
import sys
import zipfile

from PIL import Image


def write(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as out:
        out.write(data)


def exif_block(orientation):
    # A little-endian TIFF header with one IFD entry: Orientation (0x0112), SHORT, 1 value.
    return b"II*\x00" + struct.pack("<IHHHIHHI", 8, 1, 0x0112, 3, 1, orientation, 0, 0)


def write_mediapipe_variants(folder, small):
    """Files whose decoding differs most between stb_image (MediaPipe's decoder) and libjpeg-turbo/libpng."""
    def encoded(image, kind, **options):
        buffer = io.BytesIO()
        image.save(buffer, kind, **options)
        return buffer.getvalue()
    write(folder, "rgba.png", encoded(small.convert("RGBA"), "PNG"))
    write(folder, "gray-alpha.png", encoded(small.convert("LA"), "PNG"))
    write(folder, "palette.png", encoded(small.quantize(16), "PNG", transparency=3))
    write(folder, "gray16.png", encoded(small.convert("I").point(lambda value: value * 257).convert("I;16"), "PNG"))
    write(folder, "cmyk.jpg", encoded(small.convert("CMYK"), "JPEG", quality=80))
    write(folder, "gray.jpg", encoded(small.convert("L"), "JPEG", quality=80))
    plain = encoded(small, "JPEG", quality=80)
    xmp = b"http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta/>"
    exif = b"Exif\x00\x00" + exif_block(6)
    segments = b"".join(b"\xff\xe1" + struct.pack(">H", len(data) + 2) + data for data in (xmp, exif))
    write(folder, "xmp-then-exif.jpg", plain[:2] + segments + plain[2:])


def write_detection_seeds(folder):
    """Detection files for `track --detections`: two boxes crossing (10 columns, rows out of order), and the
    text's variants the reader accepts (7 columns, spaces, CRLF, a byte-order mark, blank lines, a trailing
    comma, a gap of frames)."""
    rows = []
    for frame in range(1, 21):
        rows.append(f"{frame},-1,{10 + 6 * frame:.2f},50.00,30.00,60.00,0.9000,-1,-1,-1")
        if frame % 5:
            rows.append(f"{frame},-1,{150 - 6 * frame:.2f},48.50,28.00,58.00,{0.3 + frame / 40:.4f},-1,-1,-1")
    rows = rows[1::2] + rows[0::2]
    write(folder, "crossing.txt", ("\n".join(rows) + "\n").encode())
    write(folder, "seven.txt", b"1,-1,10,20,30,40,0.9\n3,-1,12,21,30,40,0.5\n3,-1,200,100,25,50,0.2\n")
    write(folder, "spaces.txt", b"1 -1 10 20 30 40 0.9\r\n\n2 -1 11 20 30 40 0.8 -1 -1 -1\r\n")
    write(folder, "bom-crlf.txt", b"\xef\xbb\xbf1, -1, 10, 20, 30, 40, 0.9,\r\n \t\r\n2,-1,1e1,2e1,3e1,4e1,.8\r\n")
    write(folder, "gap.txt", b"40,-1,0.5,0.5,1,1,1\n2,-1,-5,-5,10,10,0.01\n")
    # The extremes the parser lets through to the tracker: the coordinate bound, subnormal sizes, huge scores.
    write(folder, "extremes.txt", b"1,-1,-1000000,1000000,1000000,1e-300,3.4e38\n"
          b"1,-1,1000000,-1000000,5e-324,1000000,-3.4e38\n2,-1,-1000000,1000000,1000000,1e-300,3.4e38\n"
          b"2,-1,0,0,1000000,1000000,1\n3,-1,0,0,1000000,1000000,1\n3,-1,0,0,1e-300,1e-300,1\n"
          b"4,-1,10,10,5e-324,5e-324,0.9\n5,-1,999999,999999,1000000,1000000,-1e-45\n")


def main():
    shared, out = sys.argv[1], sys.argv[2]
    models = os.path.join(shared, "models")
    for name in sorted(os.listdir(models)):
        path = os.path.join(models, name)
        data = open(path, "rb").read()
        if name.endswith(".tflite"):
            write(f"{out}/model", name, data)
            start = data.find(b"PK\x03\x04")
            if start > 0:
                write(f"{out}/zip", name + ".zip", data[start:])
                with zipfile.ZipFile(io.BytesIO(data[start:])) as archive:
                    for member in archive.namelist():
                        write(f"{out}/labels", f"{name}-{member}", archive.read(member))
        elif name.endswith(".txt"):
            write(f"{out}/labels", name, data)
    for orientation in range(1, 9):
        write(f"{out}/exif", f"orientation-{orientation}.tiff", exif_block(orientation))
    images = os.path.join(shared, "images")
    for index, name in enumerate(sorted(os.listdir(images))):
        with Image.open(os.path.join(images, name)) as photo:
            exif = photo.info.get("exif")
            if exif and exif.startswith(b"Exif\x00\x00"):
                write(f"{out}/exif", name + ".tiff", exif[6:])
            small = photo.convert("RGB")
            small.thumbnail((96, 96))
            buffer = io.BytesIO()
            subsampling = [0, 1, 2][index % 3]
            orientation = index % 8 + 1
            small.save(buffer, "JPEG", quality=80, subsampling=subsampling, exif=b"Exif\x00\x00" + exif_block(orientation),
                       progressive=index % 2 == 1)
            for target in ("image", "mediapipe-image"):
                write(f"{out}/{target}", name + ".jpg", buffer.getvalue())
            buffer = io.BytesIO()
            (small.convert("L") if index % 2 else small).save(buffer, "PNG")
            for target in ("image", "mediapipe-image"):
                write(f"{out}/{target}", name + ".png", buffer.getvalue())
            if index == 0:
                write_mediapipe_variants(f"{out}/mediapipe-image", small)
    for index, manifest in enumerate([
        {"modelFile": "model.tflite", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"},
        {"modelFile": "model.tflite", "modelType": "OBJECT_DETECTION"},
        {"modelFile": "/abs/model.tflite"},
    ]):
        write(f"{out}/manifest", f"manifest-{index}.json", json.dumps(manifest).encode())
    # eval detect's COCO files and eval track's MOTChallenge files: small ones made here.
    truth = {"images": [{"id": 1, "file_name": "a.jpg"}, {"id": 2}],
             "categories": [{"id": 1, "name": "person"}, {"id": 3, "name": "car"}],
             "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [10, 20, 30, 40], "area": 1200,
                              "iscrowd": 0},
                             {"id": 2, "image_id": 2, "category_id": 3, "bbox": [0.5, 1e1, 100, 90.25], "iscrowd": 1}]}
    write(f"{out}/coco", "truth.json", json.dumps(truth, indent=1).encode())
    write(f"{out}/coco", "results.json", json.dumps([{"image_id": 1, "category_id": 1, "bbox": [11, 19, 30, 41],
                                                      "score": 0.9}, {"image_id": 2, "category_id": 3,
                                                      "bbox": [0, 10, 99, 90], "score": 0.5}]).encode())
    write(f"{out}/coco", "escapes.json", b'{"images": [], "categories": [{"id": 1, "name": "\\u00e9\\ud83d\\ude00"}], "annotations": []}')
    write(f"{out}/mot", "gt.txt", b"1,1,10,10,20,40,1,1,1\n1,2,50,10,20,40,1,2,1\n2,1,12,10,20,40,1,1,1\n3,2,52,11,20,40,0,7,1\n")
    write(f"{out}/mot", "results.txt", b"1,5,11,10,20,40,0.9,-1,-1,-1\n2,5,13,11,20,41,0.8,-1,-1,-1\n2,6,50,10,20,40,0.7,-1,-1,-1\n")
    write(f"{out}/mot", "spaces.txt", b"1 1 10 10 20 40\r\n\n2 1 10.5 10 20 40\r\n")
    write_detection_seeds(f"{out}/mot-detections")


if __name__ == "__main__":
    main()
