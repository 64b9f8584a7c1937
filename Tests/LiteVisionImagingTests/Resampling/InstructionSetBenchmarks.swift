import Foundation
import Testing

@testable import LiteVisionImaging

/// The AVX2 kernels against the SSE2 fallback, interleaved in one run (the ratio is what to read on a shared
/// machine). Run only on demand, in a release build:
/// `LITEVISION_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter InstructionSetBenchmarks`.
@Suite(
    "InstructionSetBenchmarks", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["LITEVISION_BENCH"] != nil))
struct InstructionSetBenchmarks {
    @Test("resize and YUV timings, AVX2 and SSE2 alternating")
    func timings() throws {
        let cases: [(Int, Int, Int, Int, PixelFormat)] = [
            (4096, 3040, 224, 224, .rgb8), (640, 480, 192, 192, .bgra8), (300, 2000, 280, 100, .rgb8),
        ]
        for (sw, sh, dw, dh, format) in cases {
            let rgb = ResamplingFixtures.noise(sw, sh)
            let image = format == .rgb8 ? rgb : ResamplingFixtures.relayout(rgb, as: format)
            let plan = ResizePlan(sourceWidth: sw, sourceHeight: sh, width: dw, height: dh)
            var out = [UInt8](repeating: 0, count: dw * dh * 3)
            for threads in [1, 2] {
                var samples: [InstructionSet: [Double]] = [.sse2: [], .avx2: []]
                for _ in 0..<(sw * sh > 4_000_000 ? 20 : 60) {
                    for instructions in [InstructionSet.sse2, .avx2] {
                        let start = DispatchTime.now().uptimeNanoseconds
                        image.pixels.withUnsafeBytes { pixels in
                            out.withUnsafeMutableBytes {
                                Resampler.resizeBilinearAntialiased(
                                    pixels: pixels, width: sw, height: sh, bytesPerRow: image.bytesPerRow,
                                    format: format, into: $0.baseAddress!, width: dw, height: dh, plan: plan,
                                    threads: threads, instructions: instructions)
                            }
                        }
                        samples[instructions]!.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                    }
                }
                Self.report("\(sw)x\(sh) \(format) -> \(dw)x\(dh) \(threads)T", samples)
            }
        }
        for (w, h) in [(640, 480), (1280, 720)] {
            let y = ResamplingFixtures.random(w * h, seed: 1), c = ResamplingFixtures.random(w * h / 2, seed: 2)
            var samples: [InstructionSet: [Double]] = [.sse2: [], .avx2: []]
            for _ in 0..<100 {
                for instructions in [InstructionSet.sse2, .avx2] {
                    let start = DispatchTime.now().uptimeNanoseconds
                    _ = try y.withUnsafeBytes { yb in
                        try c.withUnsafeBytes { cb in
                            try PixelConversion.semiPlanar(
                                y: yb, yBytesPerRow: w, chroma: cb, chromaBytesPerRow: w, planeName: "CbCr",
                                cbFirst: true, width: w, height: h, range: .full, instructions: instructions)
                        }
                    }
                    samples[instructions]!.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                }
            }
            Self.report("NV12 \(w)x\(h) -> RGB", samples)
        }
    }

    static func report(_ label: String, _ samples: [InstructionSet: [Double]]) {
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        let sse2 = median(samples[.sse2]!), avx2 = median(samples[.avx2]!)
        print(
            String(
                format: "BENCH %-36@ median SSE2 %7.3f ms  AVX2 %7.3f ms  (AVX2 / SSE2 %.2f)", label as NSString, sse2,
                avx2, avx2 / sse2))
    }
}
