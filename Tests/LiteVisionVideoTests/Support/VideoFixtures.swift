import Foundation
import LiteVisionImaging
import LiteVisionTestSupport
import LiteVisionVideo

/// Paths, generated copies and pixel statistics shared by the video tests.
enum VideoFixtures {
    /// A video from the shared test data.
    static func video(_ name: String) -> String { TestData.path("video/\(name)") }

    /// The bytes of a shared video.
    static func bytes(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: video(name)))
    }

    /// Decodes every frame, handing each to `body`; returns how decoding ended (`nil` for a normal end).
    @discardableResult
    static func decodeAll(_ decoder: VideoDecoder, _ body: (DecodedFrame) -> Void = { _ in }) -> VideoError? {
        do {
            while let frame = try decoder.nextFrame() { body(frame) }
            return nil
        } catch {
            return error
        }
    }

    /// The name of an error's case, for tallies.
    static func kind(_ error: VideoError) -> String {
        switch error {
        case .fileNotReadable: "fileNotReadable"
        case .notAVideo: "notAVideo"
        case .unsupportedCodec: "unsupportedCodec"
        case .corrupt: "corrupt"
        case .tooLarge: "tooLarge"
        case .encoder: "encoder"
        case .invalidArgument: "invalidArgument"
        case .systemResource: "systemResource"
        case .unsupportedLocation: "unsupportedLocation"
        case .deviceUnavailable: "deviceUnavailable"
        case .connectionFailed: "connectionFailed"
        case .streamLost: "streamLost"
        }
    }

    /// Fingerprints of every frame of a shared video, decoded intact.
    static func pristineFingerprints(_ name: String) throws -> [UInt64] {
        let decoder = try VideoDecoder(path: video(name))
        var prints: [UInt64] = []
        if let error = decodeAll(decoder, { prints.append(fingerprint($0.image)) }) { throw error }
        return prints
    }

    /// A cheap fingerprint of an image (every 7th byte hashed, FNV-1a), to compare frames across decodes.
    static func fingerprint(_ image: ImageBuffer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        image.pixels.withUnsafeBufferPointer { pixels in
            var index = 0
            while index < pixels.count {
                hash = (hash ^ UInt64(pixels[index])) &* 0x100_0000_01B3
                index += 7
            }
        }
        return hash
    }

    /// Mean of each channel of an RGB image.
    static func channelMeans(_ image: ImageBuffer) -> (red: Double, green: Double, blue: Double) {
        var sums = (0, 0, 0)
        image.pixels.withUnsafeBufferPointer { pixels in
            var index = 0
            while index + 2 < pixels.count {
                sums.0 += Int(pixels[index])
                sums.1 += Int(pixels[index + 1])
                sums.2 += Int(pixels[index + 2])
                index += 3
            }
        }
        let count = Double(image.width * image.height)
        return (Double(sums.0) / count, Double(sums.1) / count, Double(sums.2) / count)
    }

    /// Mean absolute difference of two images of the same size and format.
    static func meanAbsoluteDifference(_ a: ImageBuffer, _ b: ImageBuffer) -> Double {
        precondition(a.pixels.count == b.pixels.count)
        var total = 0
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                for index in 0..<pa.count { total += abs(Int(pa[index]) - Int(pb[index])) }
            }
        }
        return Double(total) / Double(a.pixels.count)
    }
}
