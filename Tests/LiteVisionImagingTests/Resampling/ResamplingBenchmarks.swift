import LiteVisionGeometry
import Foundation
import Testing
import LiteVisionImaging

/// Timings of the hot paths. Run only on demand, in a release build:
/// `LITEVISION_BENCH=1 swift test -c release --filter ResamplingBenchmarks`.
@Suite(
    "ResamplingBenchmarks", .serialized, .enabled(if: ProcessInfo.processInfo.environment["LITEVISION_BENCH"] != nil))
struct ResamplingBenchmarks {
    /// Best and median wall time of `body` over `runs` runs, in milliseconds.
    static func time(runs: Int = 30, _ body: () -> Void) -> (best: Double, median: Double) {
        body()
        var samples = [Double]()
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        samples.sort()
        return (samples[0], samples[samples.count / 2])
    }

    static func report(_ label: String, _ t: (best: Double, median: Double)) {
        print(String(format: "BENCH %-44@ best %7.3f ms  median %7.3f ms", label as NSString, t.best, t.median))
    }

    @Test("resize timings")
    func resize() {
        let cases: [(Int, Int, Int, Int, PixelFormat)] = [
            (517, 606, 224, 224, .rgb8), (2000, 1508, 224, 224, .rgb8), (4096, 3040, 224, 224, .rgb8),
            (640, 480, 192, 192, .bgra8), (640, 480, 192, 192, .rgb8), (100, 80, 224, 224, .rgb8),
        ]
        for (sw, sh, dw, dh, format) in cases {
            let rgb = ResamplingFixtures.noise(sw, sh)
            let image = format == .rgb8 ? rgb : ResamplingFixtures.relayout(rgb, as: format)
            let plan = ResizePlan(sourceWidth: sw, sourceHeight: sh, width: dw, height: dh)
            var out = [UInt8](repeating: 0, count: dw * dh * 3)
            for threads in [1, 2] {
                let t = Self.time(runs: sw * sh > 4_000_000 ? 15 : 60) {
                    out.withUnsafeMutableBytes {
                        Resampler.resizeBilinearAntialiased(
                            image, into: $0.baseAddress!, width: dw, height: dh,
                            plan: plan, threads: threads)
                    }
                }
                Self.report("\(sw)x\(sh) \(format) -> \(dw)x\(dh) \(threads)T", t)
            }
            let noPlan = Self.time(runs: 15) {
                out.withUnsafeMutableBytes {
                    Resampler.resizeBilinearAntialiased(image, into: $0.baseAddress!, width: dw, height: dh)
                }
            }
            Self.report("\(sw)x\(sh) \(format) -> \(dw)x\(dh) no plan", noPlan)
        }
        let planTime = Self.time(runs: 15) {
            _ = ResizePlan(sourceWidth: 4096, sourceHeight: 3040, width: 224, height: 224)
        }
        Self.report("ResizePlan 4096x3040 -> 224x224", planTime)
    }

    @Test("photos stored turned by 90°: the upright pass order against the stored one")
    func transposedOrder() {
        for (sw, sh, dw, dh) in [
            (4032, 3024, 224, 224), (3024, 4032, 224, 224), (4096, 3040, 224, 224), (2000, 1508, 224, 224),
        ] {
            let image = ResamplingFixtures.noise(sw, sh)
            var out = [UInt8](repeating: 0, count: dw * dh * 3)
            for transposed in [false, true] {
                let plan = ResizePlan(sourceWidth: sw, sourceHeight: sh, width: dw, height: dh, transposed: transposed)
                for threads in [1, 2] {
                    let t = Self.time(runs: sw * sh > 4_000_000 ? 15 : 60) {
                        out.withUnsafeMutableBytes {
                            Resampler.resizeBilinearAntialiased(
                                image, into: $0.baseAddress!, width: dw, height: dh, plan: plan, threads: threads)
                        }
                    }
                    Self.report(
                        "\(sw)x\(sh) -> \(dw)x\(dh) \(transposed ? "transposed" : "stored order") \(threads)T", t)
                }
            }
        }
    }

    @Test("pixel conversion timings")
    func conversions() throws {
        let (w, h) = (640, 480)
        let y = ResamplingFixtures.random(w * h, seed: 1), c = ResamplingFixtures.random(w * h / 2, seed: 2)
        let u = Array(c[0..<(w * h / 4)]), v = Array(c[(w * h / 4)...])
        for range in [YUVRange.full, .video] {
            let t = Self.time(runs: 60) {
                y.withUnsafeBytes { yb in
                    c.withUnsafeBytes { cb in
                        _ = try? PixelConversion.nv12ToRGB(
                            y: yb, yBytesPerRow: w, cbcr: cb, cbcrBytesPerRow: w,
                            width: w, height: h, range: range)
                    }
                }
            }
            Self.report("NV12 640x480 -> RGB \(range)", t)
        }
        let t = Self.time(runs: 60) {
            y.withUnsafeBytes { yb in
                u.withUnsafeBytes { ub in
                    v.withUnsafeBytes { vb in
                        _ = try? PixelConversion.i420ToRGB(
                            y: yb, yBytesPerRow: w, u: ub, uBytesPerRow: w / 2, v: vb,
                            vBytesPerRow: w / 2, width: w, height: h, range: .video)
                    }
                }
            }
        }
        Self.report("I420 640x480 -> RGB video", t)
        let bgra = ResamplingFixtures.relayout(ResamplingFixtures.noise(w, h), as: .bgra8)
        Self.report("toRGB BGRA 640x480", Self.time(runs: 60) { _ = PixelConversion.toRGB(bgra) })
    }

    @Test("orientation timings")
    func orient() {
        let image = ResamplingFixtures.noise(224, 224)
        var out = [UInt8](repeating: 0, count: 224 * 224 * 3)
        for orientation in [ImageOrientation.right, .down, .leftMirrored] {
            let t = Self.time(runs: 200) {
                image.pixels.withUnsafeBytes { src in
                    out.withUnsafeMutableBytes { dst in
                        Resampler.orient(
                            rgb: src.baseAddress!, width: 224, height: 224, orientation: orientation,
                            into: dst.baseAddress!)
                    }
                }
            }
            Self.report("orient 224x224 RGB \(orientation)", t)
        }
        let big = ResamplingFixtures.noise(2000, 1508)
        let t = Self.time(runs: 10) { _ = Resampler.orient(big, .right) }
        Self.report("orient 2000x1508 RGB right (ImageBuffer)", t)
    }
}
