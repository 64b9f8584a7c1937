import Foundation
import LiteVisionImaging
import LiteVisionTestSupport
import Testing

/// Small tools shared by the codec tests (fixture building, statistics, byte surgery).
enum CodecTestHelpers {
    /// The bytes of a shared photo.
    static func photoBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestData.image(name))))
    }

    /// Mean of each RGB channel of an RGB8 image.
    static func meanRGB(_ image: ImageBuffer) -> (r: Double, g: Double, b: Double) {
        var sums = [0, 0, 0]
        for y in 0..<image.height {
            let row = y * image.bytesPerRow
            for x in 0..<image.width {
                for c in 0..<3 { sums[c] += Int(image.pixels[row + x * 3 + c]) }
            }
        }
        let n = Double(image.width * image.height)
        return (Double(sums[0]) / n, Double(sums[1]) / n, Double(sums[2]) / n)
    }

    /// The RGB bytes of one pixel.
    static func pixel(_ image: ImageBuffer, x: Int, y: Int) -> [UInt8] {
        let offset = y * image.bytesPerRow + x * 3
        return Array(image.pixels[offset..<(offset + 3)])
    }

    /// A tightly packed copy of a rectangle of an RGB8 image (tests must not depend on Resampling).
    static func crop(_ image: ImageBuffer, x: Int, y: Int, width: Int, height: Int) -> ImageBuffer {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for row in y..<(y + height) {
            let start = row * image.bytesPerRow + x * 3
            pixels += image.pixels[start..<(start + width * 3)]
        }
        return ImageBuffer(width: width, height: height, format: .rgb8, pixels: pixels)
    }

    /// Mean absolute difference between two RGB8 images of the same size.
    static func meanAbsoluteDifference(_ a: ImageBuffer, _ b: ImageBuffer) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var total = 0
        for y in 0..<a.height {
            for i in 0..<(a.width * 3) {
                total += abs(Int(a.pixels[y * a.bytesPerRow + i]) - Int(b.pixels[y * b.bytesPerRow + i]))
            }
        }
        return Double(total) / Double(a.width * a.height * 3)
    }

    /// A real-photo fixture: a crop of `dogs.jpg` (decoded once).
    static let photoCrop: ImageBuffer = {
        let decoded = try! ImageDecoder().decode(try! photoBytes("dogs.jpg"))
        return crop(decoded.image, x: 200, y: 100, width: 64, height: 48)
    }()

    /// Decodes `rounds` randomly damaged copies of each file of `originals` (1 to 8 bytes overwritten, half of
    /// them also cut at a random length, from a generator seeded with `seed`) with `decoder`, recording an issue
    /// for a decoded image of the wrong size or an error without a message. Returns how many decoded and failed.
    static func decodeRandomlyDamaged(
        _ originals: [(bytes: [UInt8], rounds: Int)], with decoder: ImageDecoder, seed: UInt64
    ) -> (decoded: Int, failed: Int) {
        var generator = SeededGenerator(seed: seed)
        var outcomes = (decoded: 0, failed: 0)
        for (original, rounds) in originals {
            for _ in 0..<rounds {
                var damaged = original
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
                        in: 0...255, using: &generator)
                }
                if Bool.random(using: &generator) {
                    damaged = Array(damaged.prefix(Int.random(in: 0...damaged.count, using: &generator)))
                }
                do {
                    let decoded = try decoder.decode(damaged)
                    #expect(decoded.image.pixels.count == decoded.image.width * decoded.image.height * 3)
                    outcomes.decoded += 1
                } catch {
                    #expect(!error.description.isEmpty)
                    outcomes.failed += 1
                }
            }
        }
        return outcomes
    }

    /// CRC-32 as PNG uses it (ISO-HDLC polynomial).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// A PNG chunk with a correct CRC.
    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian32(UInt32(data.count)) + typeBytes + data + bigEndian32(crc32(typeBytes + data))
    }

    /// A PNG made of the signature, an IHDR declaring `width` x `height` 8-bit RGB, and `rest`.
    static func pngHeader(width: UInt32, height: UInt32, rest: [UInt8] = []) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr = bigEndian32(width) + bigEndian32(height) + [8, 2, 0, 0, 0]
        return signature + pngChunk("IHDR", ihdr) + rest
    }

    /// `png` with an extra chunk inserted right after IHDR (which ends at byte 33).
    static func insertingChunk(_ chunk: [UInt8], into png: [UInt8]) -> [UInt8] {
        Array(png[0..<33]) + chunk + Array(png[33...])
    }

    /// Offset of the first `FF marker` in a JPEG's header (a simple scan; fine for our own fixtures).
    static func offset(ofMarker marker: UInt8, in jpeg: [UInt8]) -> Int? {
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF {
            if jpeg[position + 1] == marker { return position }
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            position += 2 + length
        }
        return nil
    }

    /// Offset of the first byte of entropy-coded data (right after the SOS segment).
    static func scanDataOffset(in jpeg: [UInt8]) -> Int? {
        guard let sos = offset(ofMarker: 0xDA, in: jpeg) else { return nil }
        return sos + 2 + (Int(jpeg[sos + 2]) << 8 | Int(jpeg[sos + 3]))
    }
}
