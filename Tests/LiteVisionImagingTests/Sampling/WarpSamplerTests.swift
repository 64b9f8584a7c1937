import Foundation
import LiteVisionGeometry
import Testing

@testable import LiteVisionImaging

/// The `.mediapipe` sampler: its tables and exceptions give, for every output pixel, what OpenCV's per-pixel
/// expression gives (``OpenCVWarpMatrix/position(_:_:)`` evaluated pixel by pixel, then four taps mixed), in
/// every orientation and pixel format, for both mappings. (Its speed is measured by the benchmarks.)
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
                mix(upright, x: x, y: y, into: &out, at: v * width + u)
            }
        }
        return out
    }

    /// Output pixel `u, v` from four taps around stored position `x, y` (1/32 pixels), clamped to the image.
    static func mix(_ image: ImageBuffer, x: Int, y: Int, into out: inout [UInt8], at index: Int) {
        let x0 = min(max(x >> 5, 0), image.width - 1), x1 = min(max((x >> 5) + 1, 0), image.width - 1)
        let y0 = min(max(y >> 5, 0), image.height - 1), y1 = min(max((y >> 5) + 1, 0), image.height - 1)
        let fx = x & 31, fy = y & 31
        for c in 0..<3 {
            func p(_ px: Int, _ py: Int) -> Int { Int(image.pixels[py * image.bytesPerRow + px * 3 + c]) }
            let sum =
                (p(x0, y0) * (32 - fx) + p(x1, y0) * fx) * (32 - fy) + (p(x0, y1) * (32 - fx) + p(x1, y1) * fx) * fy
            out[index * 3 + c] = UInt8((sum * 32 + 16384) >> 15)
        }
    }

    /// The turn MediaPipe is given for each unmirrored orientation (clockwise degrees that make the stored pixels
    /// upright: EXIF 6, `.right`, is 90), written here rather than read from `WarpPlan`, so that a swapped
    /// `.left`/`.right` there fails this test.
    static let rotationDegrees: [ImageOrientation: Int] = [.up: 0, .right: 90, .down: 180, .left: 270]

    /// `.rotatedRectangle`, pixel by pixel: MediaPipe's turned region (OpenCV's matrix from the stored pixels)
    /// for its four rotations; for mirrored orientations the upright position `u × (uprightWidth / width)` carried
    /// to the stored image by the orientation's continuous map (a flipped axis is `size − p`, found here from the
    /// orientation's pixel map), rounded to 1/32 there.
    static func rotatedReference(
        _ stored: ImageBuffer, orientation: ImageOrientation, width: Int, height: Int
    ) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        if let degrees = Self.rotationDegrees[orientation] {
            let matrix = OpenCVWarpMatrix(
                storedWidth: stored.width, storedHeight: stored.height, rotationDegrees: degrees, width: width,
                height: height)
            for v in 0..<height {
                for u in 0..<width {
                    let (x, y) = matrix.position(u, v)
                    mix(stored, x: x, y: y, into: &out, at: v * width + u)
                }
            }
            return out
        }
        let upright = orientation.uprightSize(width: stored.width, height: stored.height)
        func pixel(_ x: Int, _ y: Int) -> (x: Int, y: Int) {
            orientation.storedPixel(forUprightX: x, y: y, storedWidth: stored.width, storedHeight: stored.height)
        }
        // stored = origin + x·across + y·down, from the pixel map; a flipped stored axis starts at its size.
        let origin = pixel(0, 0), right = pixel(1, 0), below = pixel(0, 1)
        let across = (x: right.x - origin.x, y: right.y - origin.y),
            down = (x: below.x - origin.x, y: below.y - origin.y)
        let start = (
            x: across.x < 0 || down.x < 0 ? Double(stored.width) : 0,
            y: across.y < 0 || down.y < 0 ? Double(stored.height) : 0
        )
        // The scale first, then the product, as OpenCV's matrix has it: exact halves (v × 103/192 × 32 = 51.5
        // for v = 3) round as they do there.
        let scale = (x: Double(upright.width) / Double(width), y: Double(upright.height) / Double(height))
        for v in 0..<height {
            for u in 0..<width {
                let ux = Double(u) * scale.x, uy = Double(v) * scale.y
                let sx = start.x + ux * Double(across.x) + uy * Double(down.x)
                let sy = start.y + ux * Double(across.y) + uy * Double(down.y)
                mix(
                    stored, x: Int((sx * 32).rounded(.toNearestOrEven)), y: Int((sy * 32).rounded(.toNearestOrEven)),
                    into: &out, at: v * width + u)
            }
        }
        return out
    }

    static func sample(
        _ stored: ImageBuffer, orientation: ImageOrientation, mapping: WarpPlan.Mapping = .uprightPixels,
        width: Int, height: Int
    ) -> [UInt8] {
        let plan = WarpPlan(
            sourceWidth: stored.width, sourceHeight: stored.height, bytesPerRow: stored.bytesPerRow,
            bytesPerPixel: stored.format.bytesPerPixel, orientation: orientation, mapping: mapping,
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

    @Test(
        "Turned rectangles (.rotatedRectangle): tables plus exceptions equal the per-pixel definition, every orientation",
        arguments: [(654, 103, 192, 192), (1199, 17, 192, 192), (17, 19, 320, 320), (833, 419, 224, 300), (2, 3, 7, 5)])
    func turnedRectangleMatchesPerPixelDefinition(size: (Int, Int, Int, Int)) {
        let (sw, sh, w, h) = size
        let stored = ResamplingFixtures.noise(sw, sh)
        for orientation in ImageOrientation.allCases {
            let expected = Self.rotatedReference(stored, orientation: orientation, width: w, height: h)
            let sampled = Self.sample(stored, orientation: orientation, mapping: .rotatedRectangle, width: w, height: h)
            let differing = zip(sampled, expected).filter { $0 != $1 }.count
            #expect(differing == 0, "\(sw)x\(sh) -> \(w)x\(h) \(orientation): \(differing) bytes differ")
        }
    }

    @Test("A 1x1 image fills the output with its pixel, every orientation and mapping")
    func onePixel() {
        let stored = ResamplingFixtures.noise(1, 1)
        let pixel = Array(stored.pixels.prefix(3))
        for orientation in ImageOrientation.allCases {
            for mapping in [WarpPlan.Mapping.uprightPixels, .rotatedRectangle] {
                let sampled = Self.sample(stored, orientation: orientation, mapping: mapping, width: 9, height: 4)
                #expect(sampled == [[UInt8]](repeating: pixel, count: 36).flatMap { $0 }, "\(orientation) \(mapping)")
            }
        }
    }
}
