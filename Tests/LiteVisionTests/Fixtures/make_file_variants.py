"""Image files that MediaPipe's Image.create_from_file reads in ways of its own, for MediaPipeParityTests.

Usage: python3 make_file_variants.py SOURCE_PHOTO OUT_FOLDER

Writes, from a 301x203 crop of SOURCE_PHOTO (decoded and cropped by Pillow), PNGs with alpha, a palette with
transparency, 16-bit samples or Adam7 interlacing; JPEGs progressive, CMYK, 4:2:2 and with restart markers; JPEGs
whose EXIF orientation MediaPipe (easyexif) reads differently from most readers (big-endian, stored as LONG or BYTE,
values 0 and 9, after an XMP segment, with a broken GPS directory); a PNG with an eXIf chunk; and gray files
(gray.jpg, gray.png, gray-alpha.png) that MediaPipe decodes but whose classification fails. Prints nothing.
"""

import io
import os
import struct
import sys
import zlib

import numpy as np
from PIL import Image


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(pixels, color_type, depth, extra=b"", interlaced=False):
    """A PNG of `pixels` (rows, columns[, channels]; big-endian uint16 for 16-bit) written by hand."""
    height, width = pixels.shape[:2]
    if interlaced:
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        parts = [pixels[y::dy, x::dx] for x, y, dx, dy in passes]
    else:
        parts = [pixels]
    raw = b"".join(b"\x00" + row.tobytes() for part in parts if part.size for row in part)
    header = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 1 if interlaced else 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


def jpeg(image, **options):
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=90, **options)
    return buffer.getvalue()


def tiff(orientation, kind=3, big_endian=False, gps_entries=None):
    """A TIFF header and IFD0 holding Orientation (as `kind`: 3 SHORT, 4 LONG, 1 BYTE) and, when `gps_entries` is
    given, a GPS directory declaring that many entries (more than fit in the data: easyexif then fails)."""
    order = ">" if big_endian else "<"
    value = {3: struct.pack(order + "H", orientation) + b"\0\0", 4: struct.pack(order + "I", orientation),
             1: bytes([orientation, 0, 0, 0])}[kind]
    entries = [struct.pack(order + "HHI", 0x0112, kind, 1) + value]
    if gps_entries is not None:
        entries.append(struct.pack(order + "HHII", 0x8825, 4, 1, 8 + 2 + 12 * 2 + 4))
    ifd = struct.pack(order + "H", len(entries)) + b"".join(entries) + struct.pack(order + "I", 0)
    gps = struct.pack(order + "H", gps_entries) if gps_entries is not None else b""
    return (b"MM" if big_endian else b"II") + struct.pack(order + "HI", 42, 8) + ifd + gps


def with_segments(data, *payloads):
    """The JPEG `data` with APP1 segments holding `payloads` right after its SOI marker."""
    segments = b"".join(b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload for payload in payloads)
    return data[:2] + segments + data[2:]


def main():
    source, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with Image.open(source) as photo:
        crop = photo.convert("RGB").crop((40, 30, 341, 233))
    rgb = np.asarray(crop)
    gray = np.asarray(crop.convert("L"))
    ramp = (np.arange(rgb.shape[1]) * 255 // rgb.shape[1]).astype(np.uint8)[None, :].repeat(rgb.shape[0], 0)
    noise = np.random.RandomState(7).randint(0, 256, rgb.shape).astype(np.uint16)
    plain = jpeg(crop)
    files = {
        "rgba.png": png(np.dstack([rgb, ramp]), 6, 8),
        "rgb16.png": png((rgb.astype(np.uint16) * 256 + noise).astype(">u2"), 2, 16),
        "interlaced.png": png(rgb, 2, 8, interlaced=True),
        "progressive.jpg": jpeg(crop, progressive=True),
        "cmyk.jpg": jpeg(crop.convert("CMYK")),
        "s422.jpg": jpeg(crop, subsampling=1),
        "restart.jpg": jpeg(crop, restart_marker_blocks=3),
        "exif6-big-endian.jpg": with_segments(plain, b"Exif\0\0" + tiff(6, big_endian=True)),
        "exif6-long.jpg": with_segments(plain, b"Exif\0\0" + tiff(6, kind=4)),
        "exif6-byte.jpg": with_segments(plain, b"Exif\0\0" + tiff(6, kind=1)),
        "exif0.jpg": with_segments(plain, b"Exif\0\0" + tiff(0)),
        "exif9.jpg": with_segments(plain, b"Exif\0\0" + tiff(9)),
        "exif5-after-xmp.jpg": with_segments(
            plain, b"http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>", b"Exif\0\0" + tiff(5)),
        "exif8-broken-gps.jpg": with_segments(plain, b"Exif\0\0" + tiff(8, gps_entries=5000)),
        "exif7.jpg": with_segments(plain, b"Exif\0\0" + tiff(7)),
        "png-exif6.png": png(rgb, 2, 8, extra=chunk(b"eXIf", tiff(6))),
        "gray.jpg": jpeg(crop.convert("L")),
        "gray.png": png(gray, 0, 8),
        "gray-alpha.png": png(np.dstack([gray, ramp]), 4, 8),
    }
    palette = crop.quantize(64)
    transparency = bytes(range(0, 256, 4))
    files["palette-transparency.png"] = png(
        np.asarray(palette), 3, 8, extra=chunk(b"PLTE", bytes(palette.getpalette()[:64 * 3]))
        + chunk(b"tRNS", transparency))
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as handle:
            handle.write(data)


if __name__ == "__main__":
    main()
