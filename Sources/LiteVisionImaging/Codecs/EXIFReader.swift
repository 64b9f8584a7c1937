import LiteVisionGeometry

/// Reads the EXIF `Orientation` tag of JPEG and PNG files without decoding any pixels.
///
/// Cameras often store a photo sideways and record in the EXIF `Orientation` tag (0x0112) how to
/// turn it upright. These functions find that tag; they never trust a length or an offset from the
/// file, and return `nil` for anything missing or malformed rather than failing.
package enum EXIFReader {
    /// The orientation recorded in a JPEG file's EXIF data, or `nil` when there is none.
    ///
    /// Looks at the first APP1 segment that starts with `Exif\0\0` (before the image data), parses
    /// its TIFF header (`II` or `MM`) and IFD0, and reads tag 0x0112. Values outside 1...8, missing
    /// tags and malformed EXIF give `nil`.
    package static func orientation(inJPEG bytes: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard let tiff = exifPayload(inJPEG: ByteView(bytes: bytes)) else { return nil }
        return orientation(inTIFF: tiff)
    }

    /// The orientation recorded in a PNG file's `eXIf` chunk, or `nil` when there is none.
    package static func orientation(inPNG bytes: UnsafeRawBufferPointer) -> ImageOrientation? {
        var tiff: ByteView?
        PNGChunkScanner.forEachChunk(in: ByteView(bytes: bytes)) { chunk in
            guard chunk.type == "eXIf" else { return true }
            tiff = chunk.data
            return false
        }
        return tiff.flatMap(orientation(inTIFF:))
    }

    /// The orientation in raw EXIF data as found in a JPEG APP1 segment after `Exif\0\0` or in a
    /// PNG `eXIf` chunk: a TIFF header followed by IFD0. `nil` when absent, invalid or malformed.
    package static func orientation(inEXIF tiff: UnsafeRawBufferPointer) -> ImageOrientation? {
        orientation(inTIFF: ByteView(bytes: tiff))
    }

    static func orientation(inTIFF tiff: ByteView) -> ImageOrientation? {
        TIFFOrientationParser.orientationValue(in: tiff).flatMap { ImageOrientation(exifValue: $0) }
    }

    /// The TIFF payload of the first `Exif\0\0` APP1 segment, as Pillow and most readers use it.
    static func exifPayload(inJPEG bytes: ByteView) -> ByteView? {
        let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]  // "Exif\0\0"
        var found: ByteView?
        JPEGMarkerScanner.forEachSegment(in: bytes) { segment in
            guard segment.marker == 0xE1, segment.payload.matches(exifHeader, at: 0) else { return true }
            found = segment.payload.slice(
                offset: exifHeader.count,
                length: segment.payload.count - exifHeader.count)
            return false
        }
        return found
    }
}
