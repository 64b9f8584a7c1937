import LiteVisionGeometry
import Testing
import LiteVisionImaging

@Suite("Resampling: orientation")
struct OrientationTests {
    /// A 3×2 gray image 1 2 3 / 4 5 6 turned upright, written out by hand for every orientation.
    static let expected: [(ImageOrientation, Int, Int, [UInt8])] = [
        (.up, 3, 2, [1, 2, 3, 4, 5, 6]),
        (.upMirrored, 3, 2, [3, 2, 1, 6, 5, 4]),
        (.down, 3, 2, [6, 5, 4, 3, 2, 1]),
        (.downMirrored, 3, 2, [4, 5, 6, 1, 2, 3]),
        (.right, 2, 3, [4, 1, 5, 2, 6, 3]),  // EXIF 6: rotate 90° clockwise
        (.left, 2, 3, [3, 6, 2, 5, 1, 4]),  // EXIF 8: rotate 90° counter-clockwise
        (.leftMirrored, 2, 3, [1, 4, 2, 5, 3, 6]),  // EXIF 5: transpose
        (.rightMirrored, 2, 3, [6, 3, 5, 2, 4, 1]),  // EXIF 7: transverse
    ]

    @Test("hand-written expectations for the eight orientations", arguments: 0..<8)
    func handWritten(_ index: Int) {
        let (orientation, w, h, pixels) = Self.expected[index]
        let image = ImageBuffer(width: 3, height: 2, format: .gray8, pixels: [1, 2, 3, 4, 5, 6])
        let out = Resampler.orient(image, orientation)
        #expect(out.width == w && out.height == h)
        #expect(out.pixels == pixels, "\(orientation)")
        #expect(orientation.uprightSize(width: 3, height: 2) == (w, h))
    }

    /// An image whose every pixel is distinct, in `format`, with row padding.
    static func distinct(_ w: Int, _ h: Int, _ format: PixelFormat, padding: Int = 5) -> ImageBuffer {
        let bpp = format.bytesPerPixel
        let stride = w * bpp + padding
        var pixels = [UInt8](repeating: 0xEE, count: stride * h)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<bpp {
                    pixels[y * stride + x * bpp + c] = UInt8(truncatingIfNeeded: (y * w + x) * 7 + c * 61 + y)
                }
            }
        }
        return ImageBuffer(width: w, height: h, format: format, bytesPerRow: stride, pixels: pixels)
    }

    @Test("every pixel lands where storedPixel(forUprightX:) says, all formats", arguments: ImageOrientation.allCases)
    func pixelMapping(_ orientation: ImageOrientation) {
        for format in [PixelFormat.gray8, .rgb8, .rgba8, .bgra8] {
            for (w, h) in [(37, 41), (1, 5), (6, 1), (64, 33)] {
                let image = Self.distinct(w, h, format)
                let out = Resampler.orient(image, orientation)
                let bpp = format.bytesPerPixel
                #expect(out.format == format && out.bytesPerRow == out.width * bpp)
                var mismatches = 0
                for v in 0..<out.height {
                    for u in 0..<out.width {
                        let s = orientation.storedPixel(forUprightX: u, y: v, storedWidth: w, storedHeight: h)
                        for c in 0..<bpp
                        where out.pixels[(v * out.width + u) * bpp + c]
                            != image.pixels[s.y * image.bytesPerRow + s.x * bpp + c]
                        {
                            mismatches += 1
                        }
                    }
                }
                #expect(mismatches == 0, "\(orientation) \(format) \(w)x\(h)")
            }
        }
    }

    @Test("orienting then applying the inverse gives the original back", arguments: ImageOrientation.allCases)
    func inverse(_ orientation: ImageOrientation) {
        for format in [PixelFormat.gray8, .rgb8, .rgba8, .bgra8] {
            let image = Self.distinct(29, 18, format)
            let back = Resampler.orient(Resampler.orient(image, orientation), orientation.inverse)
            let packed = Resampler.orient(image, .up)  // the original without row padding
            #expect(back.width == 29 && back.height == 18)
            #expect(back.pixels == packed.pixels, "\(orientation) \(format)")
        }
    }

    @Test("the raw RGB8 variant equals the ImageBuffer variant", arguments: ImageOrientation.allCases)
    func rawRGB(_ orientation: ImageOrientation) {
        let image = Self.distinct(224, 224, .rgb8, padding: 0)
        var out = [UInt8](repeating: 0, count: 224 * 224 * 3)
        image.pixels.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                Resampler.orient(
                    rgb: src.baseAddress!, width: 224, height: 224, orientation: orientation,
                    into: dst.baseAddress!)
            }
        }
        #expect(out == Resampler.orient(image, orientation).pixels)
        let odd = Self.distinct(7, 3, .rgb8, padding: 0)
        var small = [UInt8](repeating: 0, count: 7 * 3 * 3)
        odd.pixels.withUnsafeBytes { src in
            small.withUnsafeMutableBytes { dst in
                Resampler.orient(
                    rgb: src.baseAddress!, width: 7, height: 3, orientation: orientation, into: dst.baseAddress!)
            }
        }
        #expect(small == Resampler.orient(odd, orientation).pixels)
    }

    @Test("rectangle mapping agrees with the pixel mapping and round-trips", arguments: ImageOrientation.allCases)
    func rectangles(_ orientation: ImageOrientation) {
        let (w, h) = (9, 5)
        for y in 0..<h {
            for x in 0..<w {
                // The upright pixel showing stored pixel (x, y).
                var found: (Int, Int)? = nil
                let size = orientation.uprightSize(width: w, height: h)
                for v in 0..<size.height {
                    for u in 0..<size.width {
                        let s = orientation.storedPixel(forUprightX: u, y: v, storedWidth: w, storedHeight: h)
                        if s.x == x && s.y == y { found = (u, v) }
                    }
                }
                let r = orientation.mapToUpright(
                    rect: BoundingBox(x: Double(x), y: Double(y), width: 1, height: 1), storedWidth: w, storedHeight: h)
                #expect(
                    found != nil && r.x == Double(found!.0) && r.y == Double(found!.1) && r.width == 1 && r.height == 1)
            }
        }
        let rect = BoundingBox(x: 1.5, y: 0.25, width: 4, height: 2.5)
        let up = orientation.mapToUpright(rect: rect, storedWidth: w, storedHeight: h)
        #expect(up.width == (orientation.swapsDimensions ? 2.5 : 4))
        let back = orientation.mapToStored(rect: up, storedWidth: w, storedHeight: h)
        #expect(back.x == rect.x && back.y == rect.y && back.width == rect.width && back.height == rect.height)
    }

    @Test("a 90° rotation moves the top-left stored corner to the top-right upright corner")
    func rightCorner() {
        let r = ImageOrientation.right.mapToUpright(
            rect: BoundingBox(x: 0, y: 0, width: 10, height: 20), storedWidth: 100, storedHeight: 50)
        #expect(r.x == 30 && r.y == 0 && r.width == 20 && r.height == 10)
    }
}
