import Testing
import LiteVisionImaging

/// Bit-exactness against Pillow's `Image.resize(size, Image.BILINEAR)`.
///
/// The expected FNV-1a hashes were computed once, by hand, with Pillow 13.0.0 and NumPy 2.4.6:
///
/// ```python
/// import numpy as np
/// from PIL import Image
/// def noise(w, h):
///     x = np.arange(w, dtype=np.int64)[None, :, None]; y = np.arange(h, dtype=np.int64)[:, None, None]
///     c = np.arange(3, dtype=np.int64)[None, None, :]
///     return ((x * 7 + y * 13 + c * 50 + ((x * x + 3 * y * y + x * y * c) >> 5)) % 256).astype(np.uint8)
/// def smooth(w, h):
///     (x, y, c as above)
///     v = (x * 200 // w + y * 55 // h + c * 30 + ((x // 16 + y // 16) % 2) * 20) % 256
///     return np.ascontiguousarray(np.broadcast_to(v, (h, w, 3)).astype(np.uint8))
/// def fnv(b):
///     h = 0xcbf29ce484222325
///     for byte in b: h ^= byte; h = (h * 0x100000001b3) & 0xffffffffffffffff
///     return h
/// out = np.asarray(Image.fromarray(noise(sw, sh), 'RGB').resize((dw, dh), Image.BILINEAR))
/// print(hex(fnv(out.tobytes())), out.astype(np.int64).sum())
/// ```
@Suite("Resampling: Pillow parity")
struct PillowParityTests {
    /// (source width, height, destination width, height, FNV-1a of Pillow's output, byte sum).
    static let noiseCases: [(Int, Int, Int, Int, UInt64, Int)] = [
        (4096, 3040, 224, 224, 0xe7bb_9a8c_08d1_79c9, 19_192_716),
        (517, 606, 224, 224, 0x1144_e5e9_8435_6dd5, 19_187_154),
        (100, 80, 224, 224, 0x202d_6c47_68e7_6995, 19_175_606),
        (2000, 1508, 224, 224, 0x9a30_3994_ef10_da69, 19_190_706),
        (640, 480, 192, 192, 0x1137_fb3b_ad1e_684a, 14_100_413),
        (300, 200, 300, 150, 0x0af2_933f_1845_f07c, 17_221_645),  // vertical pass only
        (300, 200, 120, 200, 0x2e32_429a_fff5_afdb, 9_179_010),  // horizontal pass only
        (1, 500, 1, 37, 0x67f4_ecf7_9399_1d9b, 13_992),
        (500, 1, 37, 1, 0xd3bf_fbe0_c82a_8109, 14_164),
        (1, 1, 5, 7, 0x4ff3_e2f8_6985_9601, 5_250),
        (7, 3, 224, 224, 0x89e1_0eb2_315b_0d6d, 12_687_392),
        (333, 777, 123, 45, 0x7e53_6783_bb38_01dd, 2_117_214),
        (224, 224, 224, 224, 0x46ba_ff23_8d34_5e89, 19_190_240),  // no pass: a copy
        (50, 60, 51, 59, 0x5d31_905c_f5f5_e1c4, 1_151_125),
        (3, 1000, 2, 10, 0xb171_c9e0_7a13_5f99, 7_654),
    ]

    /// The same for the smooth pattern: (sw, sh, dw, dh, FNV-1a).
    static let smoothCases: [(Int, Int, Int, Int, UInt64)] = [
        (4096, 3040, 224, 224, 0xd017_637b_3ca5_2135),
        (517, 606, 224, 224, 0x43e2_ee29_fa6c_721f),
        (100, 80, 224, 224, 0xa745_3088_ac5c_7f3c),
        (2000, 1508, 224, 224, 0x9fc2_5296_098c_4932),
        (640, 480, 192, 192, 0x48e0_efc1_9e55_f1fb),
        (1, 500, 1, 37, 0x6a63_db99_d8f2_edac),
        (500, 1, 37, 1, 0x65f8_2dd8_3234_e798),
        (333, 777, 123, 45, 0x3033_cfee_5a13_d967),
    ]

    @Test("noise pattern matches Pillow byte for byte", arguments: 0..<noiseCases.count)
    func noise(_ index: Int) {
        let (sw, sh, dw, dh, hash, sum) = Self.noiseCases[index]
        let out = Resampler.resizeBilinearAntialiased(ResamplingFixtures.noise(sw, sh), width: dw, height: dh)
        #expect(out.pixels.reduce(0) { $0 + Int($1) } == sum, "\(sw)x\(sh)->\(dw)x\(dh)")
        #expect(ResamplingFixtures.fnv1a(out.pixels) == hash, "\(sw)x\(sh)->\(dw)x\(dh)")
    }

    @Test("smooth pattern matches Pillow byte for byte", arguments: 0..<smoothCases.count)
    func smooth(_ index: Int) {
        let (sw, sh, dw, dh, hash) = Self.smoothCases[index]
        let out = Resampler.resizeBilinearAntialiased(ResamplingFixtures.smooth(sw, sh), width: dw, height: dh)
        #expect(ResamplingFixtures.fnv1a(out.pixels) == hash, "\(sw)x\(sh)->\(dw)x\(dh)")
    }

    @Test("single-threaded and multi-threaded runs agree")
    func threads() {
        let image = ResamplingFixtures.noise(2000, 1508)
        let one = Resampler.resizeBilinearAntialiased(image, width: 224, height: 224, threads: 1)
        let four = Resampler.resizeBilinearAntialiased(image, width: 224, height: 224, threads: 4)
        #expect(one.pixels == four.pixels)
        #expect(ResamplingFixtures.fnv1a(one.pixels) == 0x9a30_3994_ef10_da69)
    }

    @Test("the transcribed reference resize matches the Pillow hashes (it validates the fuzz test)")
    func referenceMatchesPillow() {
        for (sw, sh, dw, dh, hash, _) in Self.noiseCases where sw * sh <= 400_000 {
            let out = ReferenceResize.resize(ResamplingFixtures.noise(sw, sh).pixels, sw, sh, dw, dh)
            #expect(ResamplingFixtures.fnv1a(out) == hash, "\(sw)x\(sh)->\(dw)x\(dh)")
        }
    }

    @Test("random sizes agree with the reference resize")
    func fuzz() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            return Int(seed % UInt64(n))
        }
        for round in 0..<60 {
            let sw = 1 + next(round < 30 ? 40 : 300), sh = 1 + next(round < 30 ? 40 : 300)
            let dw = 1 + next(round < 30 ? 40 : 260), dh = 1 + next(round < 30 ? 40 : 260)
            let pixels = ResamplingFixtures.random(sw * sh * 3, seed: UInt64(round + 1))
            let image = ImageBuffer(width: sw, height: sh, format: .rgb8, pixels: pixels)
            let out = Resampler.resizeBilinearAntialiased(image, width: dw, height: dh, threads: 1 + round % 3)
            let expected = ReferenceResize.resize(pixels, sw, sh, dw, dh)
            #expect(out.pixels == expected, "\(sw)x\(sh)->\(dw)x\(dh)")
        }
    }
}
