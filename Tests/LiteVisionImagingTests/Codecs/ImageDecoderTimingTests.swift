import Testing
import LiteVisionImaging
import LiteVisionTestSupport

/// Prints decode times (not asserted: they depend on the machine and the build configuration).
@Suite struct ImageDecoderTimingTests {
    @Test func printDecodeTimes() throws {
        let decoder = ImageDecoder()
        for name in ["bird.jpg", "beach.jpg"] {
            let bytes = try CodecTestHelpers.photoBytes(name)
            for minimum in [nil, (600, 600), (224, 224)] as [(width: Int, height: Int)?] {
                var best = Duration.seconds(1000)
                var size = ""
                for _ in 0..<3 {
                    let start = ContinuousClock.now
                    let decoded = try decoder.decode(bytes, minimumSize: minimum)
                    best = min(best, ContinuousClock.now - start)
                    size = "\(decoded.image.width)x\(decoded.image.height) (1/\(decoded.scaleDenominator))"
                }
                let label = minimum.map { "min \($0.width)x\($0.height)" } ?? "full"
                print("decode \(name) \(label) -> \(size): \(best)")
            }
        }
    }
}
