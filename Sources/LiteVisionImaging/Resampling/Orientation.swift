import LiteVisionGeometry

/// Turning stored pixels upright (all eight EXIF orientations, any pixel format).
extension Resampler {
    /// The upright image for `source` stored with `orientation`, in the same pixel format, rows
    /// tightly packed. Width and height are swapped for the four 90° cases.
    package static func orient(_ source: ImageBuffer, _ orientation: ImageOrientation) -> ImageBuffer {
        let size = orientation.uprightSize(width: source.width, height: source.height)
        let bpp = source.format.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * bpp)
        source.pixels.withUnsafeBytes { input in
            pixels.withUnsafeMutableBytes { output in
                orientPixels(
                    input.baseAddress!, width: source.width, height: source.height,
                    bytesPerRow: source.bytesPerRow, bytesPerPixel: bpp, orientation: orientation,
                    into: output.baseAddress!)
            }
        }
        return ImageBuffer(width: size.width, height: size.height, format: source.format, pixels: pixels)
    }

    /// Turns tightly packed RGB8 pixels (`width`×`height` as stored) upright into `destination`,
    /// which must hold `width * height * 3` bytes and must not overlap the source. This is the path
    /// for small images (a model input resized in stored orientation).
    package static func orient(
        rgb source: UnsafeRawPointer, width: Int, height: Int,
        orientation: ImageOrientation, into destination: UnsafeMutableRawPointer
    ) {
        precondition(width > 0 && height > 0, "orient: size must be positive")
        orientPixels(
            source, width: width, height: height, bytesPerRow: width * 3, bytesPerPixel: 3,
            orientation: orientation, into: destination)
    }

    /// Turns borrowed pixels of any format upright into tightly packed rows at `destination`.
    /// - Parameters:
    ///   - pixels: must hold `bytesPerRow * (height - 1) + width * format.bytesPerPixel` bytes.
    ///   - destination: `width * height * format.bytesPerPixel` bytes, not overlapping the source.
    package static func orient(
        pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int,
        format: PixelFormat, orientation: ImageOrientation,
        into destination: UnsafeMutableRawPointer
    ) {
        let bpp = format.bytesPerPixel
        precondition(width > 0 && height > 0 && bytesPerRow >= width * bpp, "orient: inconsistent sizes")
        precondition(pixels.count >= bytesPerRow * (height - 1) + width * bpp, "orient: source buffer too small")
        orientPixels(
            pixels.baseAddress!, width: width, height: height, bytesPerRow: bytesPerRow,
            bytesPerPixel: bpp, orientation: orientation, into: destination)
    }

    /// Upright pixel `(u, v)` is read at `start + u * stepU + v * stepV` bytes into the source.
    static func orientPixels(
        _ source: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int,
        bytesPerPixel bpp: Int, orientation: ImageOrientation,
        into destination: UnsafeMutableRawPointer
    ) {
        let lastX = (width - 1) * bpp, lastY = (height - 1) * bytesPerRow
        let (start, stepU, stepV): (Int, Int, Int)
        switch orientation {
        case .up: (start, stepU, stepV) = (0, bpp, bytesPerRow)
        case .upMirrored: (start, stepU, stepV) = (lastX, -bpp, bytesPerRow)
        case .down: (start, stepU, stepV) = (lastX + lastY, -bpp, -bytesPerRow)
        case .downMirrored: (start, stepU, stepV) = (lastY, bpp, -bytesPerRow)
        case .right: (start, stepU, stepV) = (lastY, -bytesPerRow, bpp)
        case .left: (start, stepU, stepV) = (lastX, bytesPerRow, -bpp)
        case .leftMirrored: (start, stepU, stepV) = (0, bytesPerRow, bpp)
        case .rightMirrored: (start, stepU, stepV) = (lastX + lastY, -bytesPerRow, -bpp)
        }
        let size = orientation.uprightSize(width: width, height: height)
        let rowBytes = size.width * bpp
        if stepU == bpp {
            // Rows stay rows: one copy per row.
            for v in 0..<size.height {
                (destination + v * rowBytes).copyMemory(from: source + start + v * stepV, byteCount: rowBytes)
            }
            return
        }
        let from = source + start
        switch bpp {
        case 1: OrientKernel.copy(UInt8.self, from, stepU, stepV, size.width, size.height, destination)
        case 3: OrientKernel.copy3(from, stepU, stepV, size.width, size.height, destination)
        default: OrientKernel.copy(UInt32.self, from, stepU, stepV, size.width, size.height, destination)
        }
    }
}

/// Pixel-gathering loops of ``Resampler/orient(_:_:)``, in 32×32 tiles so that column walks
/// through the source stay within a few cache lines.
enum OrientKernel {
    static let tile = 32

    /// Pixels of one fixed-size scalar type (1 or 4 bytes).
    @inline(__always)
    static func copy<T: FixedWidthInteger>(
        _: T.Type, _ source: UnsafeRawPointer, _ stepU: Int, _ stepV: Int,
        _ width: Int, _ height: Int, _ destination: UnsafeMutableRawPointer
    ) {
        let size = MemoryLayout<T>.size
        var v0 = 0
        while v0 < height {
            let v1 = min(v0 + tile, height)
            var u0 = 0
            while u0 < width {
                let u1 = min(u0 + tile, width)
                for v in v0..<v1 {
                    let src = source + v &* stepV
                    let dst = destination + v &* width &* size
                    for u in u0..<u1 {
                        dst.storeBytes(
                            of: src.loadUnaligned(fromByteOffset: u &* stepU, as: T.self),
                            toByteOffset: u &* size, as: T.self)
                    }
                }
                u0 = u1
            }
            v0 = v1
        }
    }

    /// Three-byte pixels.
    @inline(__always)
    static func copy3(
        _ source: UnsafeRawPointer, _ stepU: Int, _ stepV: Int,
        _ width: Int, _ height: Int, _ destination: UnsafeMutableRawPointer
    ) {
        var v0 = 0
        while v0 < height {
            let v1 = min(v0 + tile, height)
            var u0 = 0
            while u0 < width {
                let u1 = min(u0 + tile, width)
                for v in v0..<v1 {
                    let src = source + v &* stepV
                    let dst = destination + v &* width &* 3
                    for u in u0..<u1 {
                        let s = src + u &* stepU
                        let d = dst + u &* 3
                        d.storeBytes(of: s.loadUnaligned(as: UInt16.self), as: UInt16.self)
                        d.storeBytes(of: s.load(fromByteOffset: 2, as: UInt8.self), toByteOffset: 2, as: UInt8.self)
                    }
                }
                u0 = u1
            }
            v0 = v1
        }
    }
}
