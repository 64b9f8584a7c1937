import CTurboJPEG

/// Encodes images as JPEG with libjpeg-turbo: the live view's MJPEG pictures (`track --serve`, a frame each while
/// someone watches), test fixtures and debug output.
package enum JPEGEncoder {
    /// Encodes an image as a baseline JPEG.
    ///
    /// - Parameters:
    ///   - image: RGB8, RGBA8 or BGRA8 (alpha is dropped) or Gray8 (written as a grayscale JPEG).
    ///   - quality: 1...100. At 90 and above chroma is not subsampled (4:4:4), below it is 4:2:0.
    ///     The accurate DCT is used.
    ///   - exifOrientation: when given, an APP1 EXIF segment with this `Orientation` tag value is
    ///     inserted right after the SOI marker. 1...8 are the meaningful values; any 16-bit value is
    ///     accepted so tests can also write invalid ones.
    /// - Returns: the JPEG file bytes.
    package static func encode(
        _ image: ImageBuffer, quality: Int = 95,
        exifOrientation: Int? = nil
    ) throws(ImageEncodingError) -> [UInt8] {
        let pixelFormat: TJPF
        switch image.format {
        case .rgb8: pixelFormat = TJPF_RGB
        case .rgba8: pixelFormat = TJPF_RGBA
        case .bgra8: pixelFormat = TJPF_BGRA
        case .gray8: pixelFormat = TJPF_GRAY
        }
        let subsampling: TJSAMP = image.format == .gray8 ? TJSAMP_GRAY : (quality >= 90 ? TJSAMP_444 : TJSAMP_420)
        return try compress(
            image.pixels, width: image.width, height: image.height, pitch: image.bytesPerRow,
            pixelFormat: pixelFormat, subsampling: subsampling, quality: quality,
            exifOrientation: exifOrientation)
    }

    /// Encodes CMYK samples as a JPEG (libjpeg-turbo writes it as YCCK with an Adobe marker).
    ///
    /// The samples are stored as given, 4 bytes per pixel, tightly packed. Readers (Pillow,
    /// Photoshop, ``ImageDecoder``) take CMYK JPEG samples to be inverted: 255 means no ink.
    package static func encodeCMYK(
        _ pixels: [UInt8], width: Int, height: Int,
        quality: Int = 95
    ) throws(ImageEncodingError) -> [UInt8] {
        guard width > 0, height > 0, pixels.count >= width * height * 4 else {
            throw .invalidSize(width: width, height: height, reason: "expected \(width * height * 4) CMYK bytes")
        }
        return try compress(
            pixels, width: width, height: height, pitch: width * 4, pixelFormat: TJPF_CMYK,
            subsampling: TJSAMP_444, quality: quality, exifOrientation: nil)
    }

    private static func compress(
        _ pixels: [UInt8], width: Int, height: Int, pitch: Int, pixelFormat: TJPF,
        subsampling: TJSAMP, quality: Int,
        exifOrientation: Int?
    ) throws(ImageEncodingError) -> [UInt8] {
        guard (1...100).contains(quality) else { throw .invalidQuality(quality) }
        guard width <= 65_535, height <= 65_535 else {
            throw .invalidSize(width: width, height: height, reason: "JPEG allows at most 65,535 pixels per side")
        }
        var exif: [UInt8] = []
        if let exifOrientation {
            guard let value = UInt16(exactly: exifOrientation) else { throw .invalidEXIFOrientation(exifOrientation) }
            exif = EXIFSegmentBuilder.orientationSegment(value: value)
        }
        guard let handle = tjInitCompress() else { throw .encoderFailed("libjpeg-turbo could not create a compressor") }
        defer { tjDestroy(handle) }
        let bound = Int(tjBufSize(Int32(width), Int32(height), Int32(subsampling.rawValue)))
        // The JPEG is written `exif.count` bytes in, so the segment can be slipped in after SOI
        // without copying the compressed data.
        var failure: String?
        var output = [UInt8](unsafeUninitializedCapacity: exif.count + bound) { buffer, initialized in
            var destination: UnsafeMutablePointer<UInt8>? = buffer.baseAddress! + exif.count
            var size: UInt = UInt(bound)
            let status = pixels.withUnsafeBufferPointer { source in
                tjCompress2(
                    handle, source.baseAddress, Int32(width), Int32(pitch), Int32(height),
                    Int32(pixelFormat.rawValue), &destination, &size, Int32(subsampling.rawValue),
                    Int32(quality), TJFLAG_NOREALLOC | TJFLAG_ACCURATEDCT)
            }
            if status != 0 {
                failure = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
                initialized = 0
            } else {
                initialized = exif.count + Int(size)
            }
        }
        if let failure { throw .encoderFailed("libjpeg-turbo: \(failure)") }
        if !exif.isEmpty {
            // Before: [gap of exif.count][FF D8][rest]. After: [FF D8][exif segment][rest].
            output.replaceSubrange(0..<(exif.count + 2), with: [0xFF, 0xD8] + exif)
        }
        return output
    }
}
