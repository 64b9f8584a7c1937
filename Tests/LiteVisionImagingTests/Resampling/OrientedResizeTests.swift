import LiteVisionGeometry
import Testing
import LiteVisionImaging

/// Resizing pixels as stored and then turning the small result upright must give exactly the resize of the
/// upright image (what Pillow computes after `exif_transpose`). Mirroring commutes with Pillow's resize; a 90°
/// turn does not, because the two passes round to bytes in between: a plan made `transposed` runs them in the
/// upright image's order.
@Suite("Resampling: stored orientation, upright result")
struct OrientedResizeTests {
    /// (stored width, height, upright output width, height): both pass orders of Pillow 13 on the upright
    /// image, one-pass and upscaling cases, tiny and odd sizes.
    static let sizes: [(Int, Int, Int, Int)] = [
        (97, 61, 24, 24),  // upright 61×97 → 24×24 when turned: horizontal first upright
        (61, 97, 24, 24),
        (40, 300, 17, 9),  // tall reduction one way, wide the other
        (300, 40, 9, 17),
        (301, 203, 224, 224),  // shrinks one side, grows the other
        (7, 3, 31, 29),  // upscaling only
        (1, 50, 5, 3),
        (50, 1, 3, 5),
        (64, 48, 48, 64),  // one pass only after turning (same size on one axis)
        (333, 129, 45, 123),
    ]

    @Test("all eight orientations, RGB, against the plain Pillow transcription", arguments: ImageOrientation.allCases)
    func rgb(_ orientation: ImageOrientation) {
        var mismatches: [String] = []
        for (index, (w, h, dw, dh)) in Self.sizes.enumerated() {
            let stored = ImageBuffer(
                width: w, height: h, format: .rgb8,
                pixels: ResamplingFixtures.random(w * h * 3, seed: UInt64(17 + index)))
            let upright = Resampler.orient(stored, orientation)
            let expected = ReferenceResize.resize(upright.pixels, upright.width, upright.height, dw, dh)
            let actual = Self.resizeStored(stored, orientation, width: dw, height: dh)
            if actual != expected { mismatches.append("\(w)×\(h) → \(dw)×\(dh)") }
        }
        #expect(mismatches.isEmpty, "\(orientation): \(mismatches)")
    }

    @Test("four-byte and gray sources give the RGB result", arguments: ImageOrientation.allCases)
    func otherFormats(_ orientation: ImageOrientation) {
        for (index, (w, h, dw, dh)) in Self.sizes.enumerated() {
            let rgb = ImageBuffer(
                width: w, height: h, format: .rgb8,
                pixels: ResamplingFixtures.random(w * h * 3, seed: UInt64(91 + index)))
            let expected = Self.resizeStored(rgb, orientation, width: dw, height: dh)
            for format in [PixelFormat.rgba8, .bgra8] {
                let source = ResamplingFixtures.relayout(rgb, as: format, padding: 3)
                #expect(
                    Self.resizeStored(source, orientation, width: dw, height: dh) == expected,
                    "\(format) \(orientation) \(w)×\(h) → \(dw)×\(dh)")
            }
            let gray = ImageBuffer(
                width: w, height: h, format: .gray8, pixels: ResamplingFixtures.random(w * h, seed: UInt64(5 + index)))
            var grayRGB = [UInt8](repeating: 0, count: w * h * 3)
            for i in 0..<(w * h) { for c in 0..<3 { grayRGB[i * 3 + c] = gray.pixels[i] } }
            let fromGray = Self.resizeStored(gray, orientation, width: dw, height: dh)
            let fromRGB = Self.resizeStored(
                ImageBuffer(width: w, height: h, format: .rgb8, pixels: grayRGB), orientation, width: dw, height: dh)
            #expect(fromGray == fromRGB, "gray \(orientation) \(w)×\(h) → \(dw)×\(dh)")
        }
    }

    @Test("the check can fail: without the upright pass order, a turned image rounds differently")
    func orderMatters() {
        // 97×61 stored, turned to 61×97 upright, to 24×24: upright goes horizontal first, stored does not.
        let (w, h, dw, dh) = (97, 61, 24, 24)
        let stored = ImageBuffer(
            width: w, height: h, format: .rgb8, pixels: ResamplingFixtures.random(w * h * 3, seed: 3))
        let upright = Resampler.orient(stored, .right)
        let expected = ReferenceResize.resize(upright.pixels, upright.width, upright.height, dw, dh)
        let plain = Self.resizeStored(stored, .right, width: dw, height: dh, transposed: false)
        #expect(plain != expected)
        #expect(Self.resizeStored(stored, .right, width: dw, height: dh) == expected)
    }

    /// Resizes `stored` to the stored-orientation size of a `width`×`height` upright output, then turns the
    /// result upright: the path a model input takes.
    static func resizeStored(
        _ stored: ImageBuffer, _ orientation: ImageOrientation, width: Int, height: Int,
        transposed: Bool? = nil
    ) -> [UInt8] {
        let size = orientation.inverse.uprightSize(width: width, height: height)
        let plan = ResizePlan(
            sourceWidth: stored.width, sourceHeight: stored.height, width: size.width, height: size.height,
            transposed: transposed ?? orientation.swapsDimensions)
        var resized = [UInt8](repeating: 0, count: width * height * 3)
        resized.withUnsafeMutableBytes { out in
            Resampler.resizeBilinearAntialiased(
                stored, into: out.baseAddress!, width: size.width, height: size.height, plan: plan)
        }
        var upright = [UInt8](repeating: 0, count: width * height * 3)
        resized.withUnsafeBytes { input in
            upright.withUnsafeMutableBytes { output in
                Resampler.orient(
                    rgb: input.baseAddress!, width: size.width, height: size.height, orientation: orientation,
                    into: output.baseAddress!)
            }
        }
        return upright
    }
}
