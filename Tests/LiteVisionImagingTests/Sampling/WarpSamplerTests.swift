import Foundation
import LiteVisionGeometry
import Testing

@testable import LiteVisionImaging

/// The `.mediapipe` sampler: its tables and exceptions give, for every output pixel, what OpenCV's per-pixel
/// expression gives (``OpenCVWarpMatrix/position(_:_:)`` evaluated pixel by pixel, then four taps mixed), in
/// every orientation and pixel format; and its cost.
@Suite("Warp sampler (.mediapipe)")
struct WarpSamplerTests {
    /// Output pixel by pixel from the matrix: the definition the tables must reproduce.
    static func reference(_ upright: ImageBuffer, width: Int, height: Int) -> [UInt8] {
        let matrix = OpenCVWarpMatrix(
            sourceWidth: upright.width, sourceHeight: upright.height, width: width, height: height)
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for v in 0..<height {
            for u in 0..<width {
                let (x, y) = matrix.position(u, v)
                let x0 = min(max(x >> 5, 0), upright.width - 1), x1 = min(max((x >> 5) + 1, 0), upright.width - 1)
                let y0 = min(max(y >> 5, 0), upright.height - 1), y1 = min(max((y >> 5) + 1, 0), upright.height - 1)
                let fx = x & 31, fy = y & 31
                for c in 0..<3 {
                    func p(_ px: Int, _ py: Int) -> Int { Int(upright.pixels[py * upright.bytesPerRow + px * 3 + c]) }
                    let sum =
                        (p(x0, y0) * (32 - fx) + p(x1, y0) * fx) * (32 - fy) + (p(x0, y1) * (32 - fx) + p(x1, y1) * fx)
                        * fy
                    out[(v * width + u) * 3 + c] = UInt8((sum * 32 + 16384) >> 15)
                }
            }
        }
        return out
    }

    static func sample(_ stored: ImageBuffer, orientation: ImageOrientation, width: Int, height: Int) -> [UInt8] {
        let plan = WarpPlan(
            sourceWidth: stored.width, sourceHeight: stored.height, bytesPerRow: stored.bytesPerRow,
            bytesPerPixel: stored.format.bytesPerPixel, orientation: orientation, mapping: .uprightPixels,
            width: width, height: height)
        var out = [UInt8](repeating: 0, count: width * height * 3)
        stored.pixels.withUnsafeBytes { pixels in
            out.withUnsafeMutableBytes {
                WarpSampler.sample(pixels.baseAddress!, format: stored.format, plan: plan, into: $0.baseAddress!)
            }
        }
        return out
    }

    @Test(
        "Tables plus exceptions equal OpenCV's per-pixel positions, every orientation and format",
        arguments: [
            (654, 103, 192, 192), (443, 467, 192, 192), (1199, 17, 192, 192), (17, 19, 320, 320), (833, 419, 300, 300),
        ])
    func matchesPerPixelDefinition(size: (Int, Int, Int, Int)) {
        let (sw, sh, w, h) = size
        let upright = ResamplingFixtures.noise(sw, sh)
        let expected = Self.reference(upright, width: w, height: h)
        for orientation in ImageOrientation.allCases {
            let stored = Resampler.orient(upright, orientation.inverse)
            #expect(Self.sample(stored, orientation: orientation, width: w, height: h) == expected, "\(orientation)")
        }
        for format in [PixelFormat.rgba8, .bgra8] {
            let stored = ResamplingFixtures.relayout(upright, as: format, padding: 8)
            #expect(Self.sample(stored, orientation: .up, width: w, height: h) == expected, "\(format)")
        }
    }

    @Test("Cost next to the exact resize: 12 MP and 517x606 images to 224x224 and 320x320")
    func cost() {
        func median(_ run: () -> Void) -> Duration {
            var samples: [Duration] = []
            for _ in 0..<30 {
                let begin = ContinuousClock.now
                run()
                samples.append(ContinuousClock.now - begin)
            }
            return samples.sorted()[samples.count / 2]
        }
        for (sw, sh) in [(4096, 3040), (517, 606)] {
            let image = ResamplingFixtures.noise(sw, sh)
            for size in [224, 320] {
                let start = ContinuousClock.now
                let plan = WarpPlan(
                    sourceWidth: sw, sourceHeight: sh, bytesPerRow: image.bytesPerRow, bytesPerPixel: 3,
                    orientation: .up, mapping: .uprightPixels, width: size, height: size)
                let planned = ContinuousClock.now - start
                var out = [UInt8](repeating: 0, count: size * size * 3)
                let resizePlan = ResizePlan(
                    sourceWidth: sw, sourceHeight: sh, width: size, height: size, transposed: false)
                let (sampled, exact) = image.pixels.withUnsafeBytes { pixels in
                    out.withUnsafeMutableBytes { out in
                        (
                            median {
                                WarpSampler.sample(
                                    pixels.baseAddress!, format: .rgb8, plan: plan, into: out.baseAddress!)
                            },
                            median {
                                Resampler.resizeBilinearAntialiased(
                                    image, into: out.baseAddress!, width: size, height: size, plan: resizePlan)
                            }
                        )
                    }
                }
                print(
                    "cost \(sw)x\(sh) -> \(size)x\(size): .mediapipe \(sampled) (plan \(planned), \(plan.exceptions.count) exceptions), .exact \(exact)"
                )
                #expect(sampled < .milliseconds(5))
            }
        }
    }
}
