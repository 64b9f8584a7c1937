import Foundation
import Testing
import LiteVisionImaging

@Suite("Resampling: YUV and pixel conversions")
struct YUVConversionTests {
    /// BT.601 RGB → YCbCr (the forward transform, to build test frames), rounded.
    static func ycbcr(_ r: Int, _ g: Int, _ b: Int, _ range: YUVRange) -> (UInt8, UInt8, UInt8) {
        let (rf, gf, bf) = (Double(r), Double(g), Double(b))
        let y = 0.299 * rf + 0.587 * gf + 0.114 * bf
        let cb = -0.168736 * rf - 0.331264 * gf + 0.5 * bf
        let cr = 0.5 * rf - 0.418688 * gf - 0.081312 * bf
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
        switch range {
        case .full: return (byte(y), byte(128 + cb), byte(128 + cr))
        case .video: return (byte(16 + y * 219 / 255), byte(128 + cb * 224 / 255), byte(128 + cr * 224 / 255))
        }
    }

    /// The inverse BT.601 equations in floating point (the reference for the fixed-point code).
    static func rgb(_ y: UInt8, _ cb: UInt8, _ cr: UInt8, _ range: YUVRange) -> (Int, Int, Int) {
        let cbv = Double(cb) - 128, crv = Double(cr) - 128
        let (yv, rk, gbk, grk, bk): (Double, Double, Double, Double, Double) =
            range == .full
            ? (Double(y), 1.402, 0.344136, 0.714136, 1.772)
            : ((Double(y) - 16) * 255 / 219, 1.596027, 0.391762, 0.812968, 2.017232)
        func byte(_ v: Double) -> Int { Int(max(0, min(255, v.rounded()))) }
        return (byte(yv + rk * crv), byte(yv - gbk * cbv - grk * crv), byte(yv + bk * cbv))
    }

    /// A frame in the three layouts, with row padding filled with 0xEE.
    struct Frame {
        var y: [UInt8], yStride: Int
        var nv12: [UInt8], nv21: [UInt8], nvStride: Int
        var u: [UInt8], v: [UInt8], uvStride: Int
        let width: Int, height: Int

        init(width: Int, height: Int, padding: Int, luma: (Int, Int) -> UInt8, chroma: (Int, Int) -> (UInt8, UInt8)) {
            self.width = width
            self.height = height
            let cw = (width + 1) / 2, ch = (height + 1) / 2
            yStride = width + padding
            nvStride = 2 * cw + padding
            uvStride = cw + padding
            y = [UInt8](repeating: 0xEE, count: yStride * height)
            nv12 = [UInt8](repeating: 0xEE, count: nvStride * ch)
            nv21 = nv12
            u = [UInt8](repeating: 0xEE, count: uvStride * ch)
            v = u
            for r in 0..<height { for c in 0..<width { y[r * yStride + c] = luma(c, r) } }
            for r in 0..<ch {
                for c in 0..<cw {
                    let (cb, cr) = chroma(c, r)
                    nv12[r * nvStride + 2 * c] = cb; nv12[r * nvStride + 2 * c + 1] = cr
                    nv21[r * nvStride + 2 * c] = cr; nv21[r * nvStride + 2 * c + 1] = cb
                    u[r * uvStride + c] = cb; v[r * uvStride + c] = cr
                }
            }
        }

        func convert(_ range: YUVRange) throws -> [ImageBuffer] {
            let w = width, h = height
            return try y.withUnsafeBytes { yb in
                try [
                    nv12.withUnsafeBytes {
                        try PixelConversion.nv12ToRGB(
                            y: yb, yBytesPerRow: yStride, cbcr: $0, cbcrBytesPerRow: nvStride, width: w, height: h,
                            range: range)
                    },
                    nv21.withUnsafeBytes {
                        try PixelConversion.nv21ToRGB(
                            y: yb, yBytesPerRow: yStride, crcb: $0, crcbBytesPerRow: nvStride, width: w, height: h,
                            range: range)
                    },
                    u.withUnsafeBytes { ub in
                        try v.withUnsafeBytes { vb in
                            try PixelConversion.i420ToRGB(
                                y: yb, yBytesPerRow: yStride, u: ub, uBytesPerRow: uvStride,
                                v: vb, vBytesPerRow: uvStride, width: w, height: h, range: range)
                        }
                    },
                ]
            }
        }
    }

    static let colors: [(Int, Int, Int)] = [
        (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0), (128, 128, 128),
        (255, 255, 0), (0, 255, 255), (255, 0, 255), (200, 120, 40), (30, 60, 90),
    ]

    @Test(
        "known colours come back within ±2 in every layout and range, odd sizes and padded strides",
        arguments: [YUVRange.full, .video])
    func knownColors(_ range: YUVRange) throws {
        for (r, g, b) in Self.colors {
            let (y, cb, cr) = Self.ycbcr(r, g, b, range)
            for (w, h, padding) in [(17, 9, 0), (33, 5, 13), (1, 1, 3), (2, 3, 1)] {
                let frame = Frame(
                    width: w, height: h, padding: padding, luma: { _, _ in y }, chroma: { _, _ in (cb, cr) })
                for image in try frame.convert(range) {
                    #expect(image.width == w && image.height == h && image.format == .rgb8)
                    var worst = 0
                    for i in 0..<(w * h) {
                        worst = max(
                            worst, abs(Int(image.pixels[3 * i]) - r), abs(Int(image.pixels[3 * i + 1]) - g),
                            abs(Int(image.pixels[3 * i + 2]) - b))
                    }
                    #expect(worst <= 2, "(\(r),\(g),\(b)) \(range) \(w)x\(h)")
                }
            }
        }
    }

    @Test("exact fixed-point values for pure red and mid gray")
    func exactValues() throws {
        // Full range: Y 76, Cb 85, Cr 255 (pure red) → R = (76*8192 + 4096 + 11485*127) >> 13 = 254.
        let red = try Frame(width: 9, height: 2, padding: 0, luma: { _, _ in 76 }, chroma: { _, _ in (85, 255) })
            .convert(.full)[0]
        #expect(Array(red.pixels[0..<3]) == [254, 0, 0])
        // Video range: Y 126, Cb = Cr = 128 → (126 - 16) * 255 / 219 = 128.08 → 128.
        let gray = try Frame(width: 9, height: 2, padding: 0, luma: { _, _ in 126 }, chroma: { _, _ in (128, 128) })
            .convert(.video)[2]
        #expect(Array(gray.pixels[24..<27]) == [128, 128, 128])
    }

    @Test(
        "random frames match the floating-point equations within ±1, per 2×2 chroma block",
        arguments: [YUVRange.full, .video])
    func randomFrames(_ range: YUVRange) throws {
        for (w, h) in [(37, 11), (64, 8), (9, 9), (16, 3)] {
            let ys = ResamplingFixtures.random(w * h, seed: UInt64(w * 31 + h))
            let cs = ResamplingFixtures.random(2 * ((w + 1) / 2) * ((h + 1) / 2), seed: UInt64(w + h * 17))
            let cw = (w + 1) / 2
            let frame = Frame(
                width: w, height: h, padding: 6, luma: { x, y in ys[y * w + x] },
                chroma: { x, y in (cs[2 * (y * cw + x)], cs[2 * (y * cw + x) + 1]) })
            let images = try frame.convert(range)
            var worst = 0
            for y in 0..<h {
                for x in 0..<w {
                    let c = (cs[2 * ((y / 2) * cw + x / 2)], cs[2 * ((y / 2) * cw + x / 2) + 1])
                    let e = Self.rgb(ys[y * w + x], c.0, c.1, range)
                    for image in images {
                        let p = (y * w + x) * 3
                        worst = max(
                            worst, abs(Int(image.pixels[p]) - e.0), abs(Int(image.pixels[p + 1]) - e.1),
                            abs(Int(image.pixels[p + 2]) - e.2))
                    }
                }
            }
            #expect(worst <= 1, "\(w)x\(h) \(range)")
            #expect(images[0].pixels == images[1].pixels && images[0].pixels == images[2].pixels)
        }
    }

    @Test("planes too small, strides too short and empty sizes throw")
    func validation() {
        let y = [UInt8](repeating: 0, count: 10 * 4), c = [UInt8](repeating: 128, count: 10 * 2)
        y.withUnsafeBytes { yb in
            c.withUnsafeBytes { cb in
                #expect(throws: PixelBufferError.planeTooSmall(plane: "Y", byteCount: 40, required: 50)) {
                    try PixelConversion.nv12ToRGB(
                        y: yb, yBytesPerRow: 10, cbcr: cb, cbcrBytesPerRow: 10, width: 10, height: 5, range: .full)
                }
                #expect(throws: PixelBufferError.rowStrideTooSmall(plane: "Y", bytesPerRow: 8, minimum: 10)) {
                    try PixelConversion.nv12ToRGB(
                        y: yb, yBytesPerRow: 8, cbcr: cb, cbcrBytesPerRow: 10, width: 10, height: 4, range: .full)
                }
                // 5 rows of luma need 3 chroma rows of 8 bytes, 10 apart: 28 bytes.
                #expect(throws: PixelBufferError.planeTooSmall(plane: "CbCr", byteCount: 20, required: 28)) {
                    try PixelConversion.nv12ToRGB(
                        y: yb, yBytesPerRow: 8, cbcr: cb, cbcrBytesPerRow: 10, width: 8, height: 5, range: .full)
                }
                #expect(throws: PixelBufferError.rowStrideTooSmall(plane: "CbCr", bytesPerRow: 9, minimum: 10)) {
                    try PixelConversion.nv12ToRGB(
                        y: yb, yBytesPerRow: 10, cbcr: cb, cbcrBytesPerRow: 9, width: 9, height: 4, range: .full)
                }
                #expect(throws: PixelBufferError.invalidSize(width: 0, height: 4)) {
                    try PixelConversion.nv12ToRGB(
                        y: yb, yBytesPerRow: 10, cbcr: cb, cbcrBytesPerRow: 10, width: 0, height: 4, range: .full)
                }
                #expect(throws: PixelBufferError.planeTooSmall(plane: "V", byteCount: 20, required: 21)) {
                    try PixelConversion.i420ToRGB(
                        y: yb, yBytesPerRow: 10, u: cb, uBytesPerRow: 5, v: cb, vBytesPerRow: 16,
                        width: 10, height: 4, range: .video)
                }
                #expect(throws: PixelBufferError.rowStrideTooSmall(plane: "U", bytesPerRow: 4, minimum: 5)) {
                    try PixelConversion.i420ToRGB(
                        y: yb, yBytesPerRow: 10, u: cb, uBytesPerRow: 4, v: cb, vBytesPerRow: 5,
                        width: 10, height: 4, range: .video)
                }
                #expect(throws: Never.self) {
                    try PixelConversion.nv12ToRGB(
                        y: yb, yBytesPerRow: 10, cbcr: cb, cbcrBytesPerRow: 10, width: 10, height: 4, range: .full)
                }
            }
        }
    }

    @Test("toRGB drops alpha, maps BGRA, replicates gray and removes row padding")
    func toRGB() {
        let bgra = ImageBuffer(
            width: 2, height: 2, format: .bgra8, bytesPerRow: 10,
            pixels: [3, 2, 1, 9, 6, 5, 4, 9, 0xEE, 0xEE, 30, 20, 10, 9, 60, 50, 40, 9, 0xEE, 0xEE])
        #expect(PixelConversion.toRGB(bgra).pixels == [1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 50, 60])
        let rgba = ImageBuffer(width: 5, height: 1, format: .rgba8, pixels: Array(0..<20))
        #expect(PixelConversion.toRGB(rgba).pixels == [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 18])
        let gray = ImageBuffer(width: 3, height: 1, format: .gray8, pixels: [7, 8, 9])
        #expect(PixelConversion.toRGB(gray).pixels == [7, 7, 7, 8, 8, 8, 9, 9, 9])
        let rgb = ImageBuffer(width: 1, height: 2, format: .rgb8, bytesPerRow: 4, pixels: [1, 2, 3, 0, 4, 5, 6, 0])
        let packed = PixelConversion.toRGB(rgb)
        #expect(packed.pixels == [1, 2, 3, 4, 5, 6] && packed.bytesPerRow == 3)
    }
}
