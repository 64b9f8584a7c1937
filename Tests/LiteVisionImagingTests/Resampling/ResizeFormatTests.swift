import LiteVisionGeometry
import Testing
import LiteVisionImaging

@Suite("Resampling: formats, strides and orientation")
struct ResizeFormatTests {
    /// Size pairs covering both passes in each order, single passes and upscaling.
    static let sizes: [(Int, Int, Int, Int)] = [
        (517, 606, 224, 224), (100, 80, 224, 224), (300, 200, 300, 150), (300, 200, 120, 200),
        (50, 400, 45, 40), (64, 48, 64, 48), (3, 7, 2, 2),
    ]

    @Test("rgba8, bgra8 and padded rgb8 give exactly the RGB result", arguments: 0..<sizes.count)
    func fourByteFormats(_ index: Int) {
        let (sw, sh, dw, dh) = Self.sizes[index]
        let rgb = ResamplingFixtures.noise(sw, sh)
        let expected = Resampler.resizeBilinearAntialiased(rgb, width: dw, height: dh).pixels
        for (format, padding) in [(PixelFormat.rgba8, 0), (.bgra8, 12), (.rgb8, 7), (.rgba8, 3)] {
            let image = ResamplingFixtures.relayout(rgb, as: format, padding: padding)
            let out = Resampler.resizeBilinearAntialiased(image, width: dw, height: dh)
            #expect(out.pixels == expected, "\(format) padding \(padding) \(sw)x\(sh)->\(dw)x\(dh)")
            // Converting first gives the same bytes too.
            let converted = Resampler.resizeBilinearAntialiased(PixelConversion.toRGB(image), width: dw, height: dh)
            #expect(converted.pixels == expected)
        }
    }

    @Test("gray8 resizes like the RGB image with three equal channels", arguments: 0..<sizes.count)
    func gray(_ index: Int) {
        let (sw, sh, dw, dh) = Self.sizes[index]
        let gray = ImageBuffer(
            width: sw, height: sh, format: .gray8, pixels: ResamplingFixtures.random(sw * sh, seed: 7))
        let out = Resampler.resizeBilinearAntialiased(gray, width: dw, height: dh)
        let expected = Resampler.resizeBilinearAntialiased(PixelConversion.toRGB(gray), width: dw, height: dh)
        #expect(out.pixels == expected.pixels)
    }

    @Test("the raw-pointer variant with a plan equals the ImageBuffer variant")
    func rawPointer() {
        let image = ResamplingFixtures.relayout(ResamplingFixtures.noise(640, 480), as: .bgra8, padding: 64)
        let plan = ResizePlan(sourceWidth: 640, sourceHeight: 480, width: 192, height: 192)
        #expect(plan.matches(sourceWidth: 640, sourceHeight: 480, width: 192, height: 192))
        var out = [UInt8](repeating: 0, count: 192 * 192 * 3)
        image.pixels.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                Resampler.resizeBilinearAntialiased(
                    pixels: src, width: 640, height: 480, bytesPerRow: image.bytesPerRow,
                    format: .bgra8, into: dst.baseAddress!, width: 192, height: 192,
                    plan: plan, threads: 2)
            }
        }
        #expect(out == Resampler.resizeBilinearAntialiased(image, width: 192, height: 192, threads: 1).pixels)
        #expect(ResamplingFixtures.fnv1a(out) == 0x1137_fb3b_ad1e_684a)  // Pillow's hash (PillowParityTests)
    }

    @Test(
        "resizing in stored orientation then orienting is close to orienting then resizing",
        arguments: ImageOrientation.allCases)
    func resizeThenOrient(_ orientation: ImageOrientation) {
        let image = ResamplingFixtures.smooth(517, 606)
        let upright = Resampler.orient(image, orientation)
        let direct = Resampler.resizeBilinearAntialiased(upright, width: 224, height: 192)
        let stored = orientation.swapsDimensions ? (192, 224) : (224, 192)
        let small = Resampler.resizeBilinearAntialiased(image, width: stored.0, height: stored.1)
        let viaStored = Resampler.orient(small, orientation)
        #expect(viaStored.width == 224 && viaStored.height == 192)
        var total = 0, worst = 0
        for (a, b) in zip(direct.pixels, viaStored.pixels) {
            let d = abs(Int(a) - Int(b))
            total += d
            worst = max(worst, d)
        }
        let mean = Double(total) / Double(direct.pixels.count)
        print("orientation \(orientation): mean |diff| \(mean), max \(worst)")
        #expect(mean < 0.05)
        #expect(worst <= 2)
    }
}
