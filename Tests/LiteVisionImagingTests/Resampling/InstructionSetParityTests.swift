import Testing

@testable import LiteVisionImaging

/// The AVX2 kernels (`CImagingKernels`) against the SSE2 Swift kernels on the same inputs: every pixel format
/// the resizer takes, both pass orders, single passes, odd, tiny and very wide or tall sizes, the clipped
/// rounding of huge windows, one and two threads. The bytes must be identical.
@Suite("Resampling: AVX2 and SSE2 kernels give identical bytes")
struct InstructionSetParityTests {
    /// (source width, source height, output width, output height), chosen to reach every kernel path and
    /// every remainder of the AVX2 loops (windows of 1 ... 6 + k vectors, rows of < 16, 16 ... 31 and ≥ 32 bytes).
    static let sizes: [(Int, Int, Int, Int)] = [
        (4096, 3040, 224, 224),  // the 12 MP photo size: horizontal first, through the ring
        (517, 606, 224, 224), (1001, 757, 223, 191), (640, 480, 192, 192), (641, 479, 300, 17),
        (300, 2000, 280, 100),  // vertical first (Pillow 13's order for tall reductions)
        (37, 3001, 5, 7),  // vertical first, short rows
        (5000, 3, 224, 2), (7919, 2, 3, 1),  // very wide
        (3, 4000, 2, 224), (1, 999, 1, 33),  // very tall and narrow
        (1, 1, 1, 1), (1, 1, 3, 2), (2, 3, 1, 1), (3, 7, 2, 2), (7, 5, 9, 11),  // tiny, upscaling
        (9, 13, 6, 13), (11, 40, 11, 9), (64, 48, 64, 48),  // one pass only, or none
        (100, 80, 224, 224), (333, 5, 60, 5), (6, 333, 6, 60),
        (40_000, 2, 1, 1), (16, 40_000, 16, 1), (20, 40_000, 1, 1),  // windows over 16,000 taps: clipped rounding
    ]

    /// The source formats with a row padding each (0 for the tight layout).
    static let layouts: [(PixelFormat, Int)] = [(.rgb8, 0), (.rgb8, 5), (.rgba8, 0), (.bgra8, 12), (.gray8, 3)]

    /// Resizes with the given kernels; returns the bytes and the kernel set that actually ran.
    static func resize(
        _ image: ImageBuffer, _ width: Int, _ height: Int, threads: Int, _ instructions: InstructionSet
    ) -> ([UInt8], InstructionSet) {
        var out = [UInt8](repeating: 0xA5, count: width * height * 3)
        let used = image.pixels.withUnsafeBytes { pixels in
            out.withUnsafeMutableBytes { destination in
                Resampler.resizeBilinearAntialiased(
                    pixels: pixels, width: image.width, height: image.height, bytesPerRow: image.bytesPerRow,
                    format: image.format, into: destination.baseAddress!, width: width, height: height,
                    plan: nil, threads: threads, instructions: instructions)
            }
        }
        return (out, used)
    }

    /// `rgb` laid out as `format` (gray: the first channel) with `padding` bytes after every row.
    static func layout(_ rgb: ImageBuffer, _ format: PixelFormat, padding: Int) -> ImageBuffer {
        guard format == .gray8 else { return ResamplingFixtures.relayout(rgb, as: format, padding: padding) }
        let stride = rgb.width + padding
        var pixels = [UInt8](repeating: 0xEE, count: stride * rgb.height)
        for y in 0..<rgb.height {
            for x in 0..<rgb.width { pixels[y * stride + x] = rgb.pixels[(y * rgb.width + x) * 3] }
        }
        return ImageBuffer(width: rgb.width, height: rgb.height, format: .gray8, bytesPerRow: stride, pixels: pixels)
    }

    @Test("this machine runs the AVX2 kernels, and forcing SSE2 takes effect")
    func dispatch() {
        #expect(InstructionSet.best == .avx2, "this processor has no AVX2: the AVX2 kernels cannot be compared")
        let image = ResamplingFixtures.noise(64, 48)
        #expect(Self.resize(image, 30, 20, threads: 1, .sse2).1 == .sse2)
        #expect(Self.resize(image, 30, 20, threads: 1, .avx2).1 == .avx2)
        #expect(Self.resize(image, 30, 20, threads: 1, .best).1 == .best)
    }

    @Test("identical bytes for every size, format and thread count", arguments: 0..<sizes.count)
    func parity(_ index: Int) {
        let (sw, sh, dw, dh) = Self.sizes[index]
        var sources = [ResamplingFixtures.noise(sw, sh)]
        if sw * sh <= 1_000_000 {
            // Random bytes, and all 255 (the largest sums the rounding sees).
            sources.append(
                ImageBuffer(
                    width: sw, height: sh, format: .rgb8, pixels: ResamplingFixtures.random(sw * sh * 3, seed: 99)))
            sources.append(
                ImageBuffer(width: sw, height: sh, format: .rgb8, pixels: [UInt8](repeating: 255, count: sw * sh * 3)))
        }
        for rgb in sources {
            for (format, padding) in Self.layouts {
                let image = Self.layout(rgb, format, padding: padding)
                for threads in [1, 2] {
                    let (fallback, usedFallback) = Self.resize(image, dw, dh, threads: threads, .sse2)
                    let (fast, usedFast) = Self.resize(image, dw, dh, threads: threads, .avx2)
                    #expect(usedFallback == .sse2 && usedFast == .avx2, "the forced kernels did not run")
                    let mismatch = fallback.indices.first { fallback[$0] != fast[$0] }
                    #expect(
                        mismatch == nil,
                        "\(format) padding \(padding) \(sw)x\(sh)->\(dw)x\(dh), \(threads) threads: first difference at byte \(mismatch ?? -1)"
                    )
                }
            }
        }
    }

    @Test(
        "YUV 4:2:0 to RGB: identical bytes for NV12, NV21 and I420",
        arguments: [
            (1, 1), (2, 2), (15, 3), (16, 2), (17, 5), (31, 7), (33, 9), (47, 4), (64, 3), (641, 479), (1280, 720),
        ])
    func yuv(_ size: (Int, Int)) throws {
        let (width, height) = size
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        for padding in [0, 13] {
            let yStride = width + padding, cStride = 2 * cw + padding, pStride = cw + padding
            let y = ResamplingFixtures.random(yStride * height, seed: 5)
            let c = ResamplingFixtures.random(cStride * ch, seed: 6)
            let u = ResamplingFixtures.random(pStride * ch, seed: 7),
                v = ResamplingFixtures.random(pStride * ch, seed: 8)
            for range in [YUVRange.full, .video] {
                for cbFirst in [true, false] {
                    let results = try [InstructionSet.sse2, .avx2].map { instructions in
                        try y.withUnsafeBytes { y in
                            try c.withUnsafeBytes { c in
                                try PixelConversion.semiPlanar(
                                    y: y, yBytesPerRow: yStride, chroma: c, chromaBytesPerRow: cStride,
                                    planeName: "CbCr", cbFirst: cbFirst, width: width, height: height, range: range,
                                    instructions: instructions
                                ).pixels
                            }
                        }
                    }
                    #expect(
                        results[0] == results[1], "\(width)x\(height) \(range) cbFirst \(cbFirst) padding \(padding)")
                }
                let planar = try [InstructionSet.sse2, .avx2].map { instructions in
                    try y.withUnsafeBytes { y in
                        try u.withUnsafeBytes { u in
                            try v.withUnsafeBytes { v in
                                try PixelConversion.i420ToRGB(
                                    y: y, yBytesPerRow: yStride, u: u, uBytesPerRow: pStride, v: v,
                                    vBytesPerRow: pStride, width: width, height: height, range: range,
                                    instructions: instructions
                                ).pixels
                            }
                        }
                    }
                }
                #expect(planar[0] == planar[1], "I420 \(width)x\(height) \(range) padding \(padding)")
            }
        }
    }
}
