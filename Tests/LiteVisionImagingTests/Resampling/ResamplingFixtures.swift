import LiteVisionImaging

/// Deterministic synthetic images and helpers shared by the resampling tests.
///
/// The same formulas are used by the Python script (see `PillowParityTests`) that produced the
/// baked Pillow expectations, so Swift and Pillow resize identical pixels.
enum ResamplingFixtures {
    /// "Noise": `(x*7 + y*13 + c*50 + ((x*x + 3*y*y + x*y*c) >> 5)) % 256` — high-frequency content.
    static func noise(_ w: Int, _ h: Int) -> ImageBuffer {
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<3 {
                    let v = (x * 7 + y * 13 + c * 50 + ((x * x + 3 * y * y + x * y * c) >> 5)) % 256
                    pixels[(y * w + x) * 3 + c] = UInt8(v)
                }
            }
        }
        return ImageBuffer(width: w, height: h, format: .rgb8, pixels: pixels)
    }

    /// "Smooth": `(x*200/w + y*55/h + c*30 + ((x/16 + y/16) % 2) * 20) % 256` — gradients with edges.
    static func smooth(_ w: Int, _ h: Int) -> ImageBuffer {
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<3 {
                    let v = (x * 200 / w + y * 55 / h + c * 30 + ((x / 16 + y / 16) % 2) * 20) % 256
                    pixels[(y * w + x) * 3 + c] = UInt8(v)
                }
            }
        }
        return ImageBuffer(width: w, height: h, format: .rgb8, pixels: pixels)
    }

    /// Pseudo-random bytes (xorshift), for fuzzing.
    static func random(_ count: Int, seed: UInt64) -> [UInt8] {
        var s = seed | 1
        return (0..<count).map { _ in
            s ^= s << 13; s ^= s >> 7; s ^= s << 17
            return UInt8(truncatingIfNeeded: s >> 24)
        }
    }

    /// 64-bit FNV-1a of `bytes`.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }

    /// The same image re-laid out in `format` with `padding` extra bytes at the end of every row.
    static func relayout(_ rgb: ImageBuffer, as format: PixelFormat, padding: Int = 0, alpha: UInt8 = 77) -> ImageBuffer
    {
        let bpp = format.bytesPerPixel
        let stride = rgb.width * bpp + padding
        var pixels = [UInt8](repeating: 0xEE, count: stride * rgb.height)
        for y in 0..<rgb.height {
            for x in 0..<rgb.width {
                let s = y * rgb.bytesPerRow + x * 3
                let (r, g, b) = (rgb.pixels[s], rgb.pixels[s + 1], rgb.pixels[s + 2])
                let d = y * stride + x * bpp
                switch format {
                case .rgb8: pixels[d] = r; pixels[d + 1] = g; pixels[d + 2] = b
                case .rgba8: pixels[d] = r; pixels[d + 1] = g; pixels[d + 2] = b; pixels[d + 3] = alpha
                case .bgra8: pixels[d] = b; pixels[d + 1] = g; pixels[d + 2] = r; pixels[d + 3] = alpha
                case .gray8: pixels[d] = r
                }
            }
        }
        return ImageBuffer(width: rgb.width, height: rgb.height, format: format, bytesPerRow: stride, pixels: pixels)
    }
}

/// A plain, unoptimised transcription of Pillow's bilinear resize (for RGB8), used to cross-check the
/// SIMD implementation on many random sizes. It is itself checked against the baked Pillow hashes.
enum ReferenceResize {
    struct Axis {
        var first: [Int] = [], count: [Int] = [], weights: [[Int32]] = []
    }

    static func axis(_ inSize: Int, _ outSize: Int) -> Axis {
        let scale = Double(inSize) / Double(outSize)
        let fs = max(scale, 1.0)
        let support = fs
        var a = Axis()
        for i in 0..<outSize {
            let center = (Double(i) + 0.5) * scale
            let lo = max(Int(center - support + 0.5), 0)
            let hi = min(Int(center + support + 0.5), inSize)
            var w = [Double]()
            for x in lo..<max(hi, lo) {
                let d = abs((Double(x) - center + 0.5) / fs)
                w.append(d < 1 ? 1 - d : 0)
            }
            let total = w.reduce(0, +)
            a.first.append(lo)
            a.count.append(w.count)
            a.weights.append(w.map { Int32(0.5 + (total != 0 ? $0 / total : $0) * 4_194_304.0) })
        }
        return a
    }

    static func clip(_ v: Int32) -> UInt8 { UInt8(max(0, min(255, v >> 22))) }

    /// Resizes tightly packed RGB8 `pixels` of `w`×`h` to `dw`×`dh`. Like Pillow 13, the vertical
    /// pass goes first when both sizes change, the height shrinks and `(h - dh) > 2 * (w - dw)`.
    static func resize(_ pixels: [UInt8], _ w: Int, _ h: Int, _ dw: Int, _ dh: Int) -> [UInt8] {
        if dw != w && dh < h && (h - dh) > 2 * (w - dw) {
            let columns = resize(pixels, w, h, w, dh)
            return resize(columns, w, dh, dw, dh)
        }
        var src = pixels, sw = w
        if dw != w {
            let ax = axis(w, dw)
            var tmp = [UInt8](repeating: 0, count: dw * h * 3)
            for y in 0..<h {
                for x in 0..<dw {
                    for c in 0..<3 {
                        var s: Int32 = 1 << 21
                        for t in 0..<ax.count[x] {
                            s += Int32(src[(y * sw + ax.first[x] + t) * 3 + c]) * ax.weights[x][t]
                        }
                        tmp[(y * dw + x) * 3 + c] = clip(s)
                    }
                }
            }
            src = tmp
            sw = dw
        }
        if dh != h {
            let ax = axis(h, dh)
            var out = [UInt8](repeating: 0, count: sw * dh * 3)
            for y in 0..<dh {
                for i in 0..<(sw * 3) {
                    var s: Int32 = 1 << 21
                    for t in 0..<ax.count[y] { s += Int32(src[(ax.first[y] + t) * sw * 3 + i]) * ax.weights[y][t] }
                    out[y * sw * 3 + i] = clip(s)
                }
            }
            src = out
        }
        return src
    }
}
