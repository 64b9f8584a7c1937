import Foundation
import LiteVisionTestSupport
import Testing

@testable import LiteVisionImaging

/// Band decoding of large JPEGs on several threads: the same bytes as TurboJPEG's whole-image decode for every
/// shared photo, scale and band layout, and damaged files left to the whole-image decode.
@Suite("Image decoding: JPEG bands on several threads")
struct JPEGBandDecoderTests {
    /// TurboJPEG's whole-image decode at `1/denominator`, on one thread: the reference.
    static func wholeDecode(_ bytes: [UInt8], denominator: Int) throws -> ImageBuffer {
        try bytes.withUnsafeBytes { raw in
            let view = ByteView(bytes: raw)
            return try TurboJPEGDecoder.withHandle { handle throws(ImageDecodingError) in
                let header = try TurboJPEGDecoder.readHeader(handle, view)
                return try TurboJPEGDecoder.decodeRGB(handle, view, header: header, denominator: denominator).0
            }
        }
    }

    /// `bytes` decoded in the bands of `plan`, or `nil` when the band decoder declines.
    static func bandDecode(_ bytes: [UInt8], denominator: Int, width: Int, height: Int, plan: JPEGBandPlan) -> [UInt8]?
    {
        var pixels = [UInt8](repeating: 0xA5, count: width * height * 3)
        let decoded = bytes.withUnsafeBytes { raw in
            pixels.withUnsafeMutableBufferPointer { buffer in
                JPEGBandDecoder.decode(
                    ByteView(bytes: raw), denominator: denominator, width: width, height: height,
                    into: buffer, plan: plan)
            }
        }
        return decoded ? pixels : nil
    }

    /// Band layouts that probe every kind of boundary: a one-row first band, boundaries just before, on and
    /// after an iMCU row, an odd row in the middle, a one-row last band, four uneven bands, and the plans
    /// ``JPEGBandPlan`` makes for two and three threads.
    static func plans(width: Int, height: Int, rowsPerIMCURow step: Int, compressedBytes: Int) -> [JPEGBandPlan] {
        var cuts: [[Int]] = [[1], [step - 1], [step], [step + 1], [height / 2 | 1], [height - 1]]
        cuts.append([height / 7, height / 3 + 1, (height * 3) / 4 + 3])
        for threads in [2, 3] {
            if let plan = JPEGBandPlan(
                width: width, height: height, compressedBytes: compressedBytes, rowsPerIMCURow: step,
                threads: threads, minimumPixelCount: 0)
            {
                cuts.append(Array(plan.boundaries.dropFirst().dropLast()))
            }
        }
        var seen = Set<[Int]>()
        return cuts.compactMap { cut in
            let boundaries = [0] + cut + [height]
            guard zip(boundaries, boundaries.dropFirst()).allSatisfy({ $0 < $1 }), seen.insert(boundaries).inserted
            else { return nil }
            return JPEGBandPlan(boundaries: boundaries)
        }
    }

    /// Checks every plan of ``plans(width:height:rowsPerIMCURow:compressedBytes:)`` at every scale; returns how
    /// many band decodes matched. `name` labels failures.
    static func checkAllPlans(_ bytes: [UInt8], name: String) throws -> Int {
        var checked = 0
        for denominator in [1, 2, 4, 8] {
            let reference = try wholeDecode(bytes, denominator: denominator)
            let step = try #require(rowsPerIMCURow(bytes, denominator: denominator), "\(name): no layout")
            for plan in plans(
                width: reference.width, height: reference.height, rowsPerIMCURow: step, compressedBytes: bytes.count)
            {
                let pixels = bandDecode(
                    bytes, denominator: denominator, width: reference.width, height: reference.height, plan: plan)
                let difference = Self.difference(pixels, reference)
                #expect(difference == nil, "\(name) at 1/\(denominator), bands \(plan.boundaries): \(difference ?? "")")
                checked += 1
            }
        }
        return checked
    }

    /// Where `pixels` first differ from `reference`'s, or `nil` when they are the same (a short text: an expectation
    /// on two 37 MB arrays would print them whole).
    static func difference(_ pixels: [UInt8]?, _ reference: ImageBuffer) -> String? {
        guard let pixels else { return "the band decoder declined the file" }
        guard pixels.count == reference.pixels.count else {
            return "\(pixels.count) bytes, not \(reference.pixels.count)"
        }
        guard let offset = pixels.indices.first(where: { pixels[$0] != reference.pixels[$0] }) else { return nil }
        let row = offset / (reference.width * 3)
        return "first difference in row \(row), column \(offset % (reference.width * 3) / 3)"
    }

    /// The output rows per iMCU row libjpeg reports, or `nil` for a file that is not a single scan.
    static func rowsPerIMCURow(_ bytes: [UInt8], denominator: Int) -> Int? {
        bytes.withUnsafeBytes { raw in
            JPEGBandDecoder.layout(ByteView(bytes: raw), denominator: denominator)
                .flatMap { $0.single_scan != 0 ? Int($0.rows_per_imcu_row) : nil }
        }
    }

    @Test("every single-scan shared photo: the same bytes as the whole-image decode, for every band layout and scale")
    func sharedPhotos() throws {
        // The shared photos hold 4:2:0, 4:2:2, 4:4:0 and 4:4:4 sampling, with and without restart markers.
        var single = 0
        for name in TestData.imageNames where !name.hasSuffix(".png") {
            let bytes = try CodecTestHelpers.photoBytes(name)
            guard Self.rowsPerIMCURow(bytes, denominator: 1) != nil else { continue }
            single += 1
            #expect(try Self.checkAllPlans(bytes, name: name) >= 4 * 4, "\(name): too few layouts checked")
        }
        #expect(single >= 14, "only \(single) shared photos are single-scan JPEGs")
    }

    @Test("made photos: odd sizes in 4:2:0 and 4:4:4, grayscale, and images smaller than an iMCU row")
    func madePhotos() throws {
        let photo = try ImageDecoder().decode(try CodecTestHelpers.photoBytes("liberty.jpg")).image
        let cases: [(String, ImageBuffer, Int)] = [
            ("1001x997 4:2:0", CodecTestHelpers.crop(photo, x: 3, y: 5, width: 1001, height: 997), 80),
            ("999x1003 4:4:4", CodecTestHelpers.crop(photo, x: 100, y: 7, width: 999, height: 1003), 95),
            ("37x19 4:2:0", CodecTestHelpers.crop(photo, x: 900, y: 900, width: 37, height: 19), 80),
            ("5x3 4:4:4", CodecTestHelpers.crop(photo, x: 901, y: 901, width: 5, height: 3), 95),
            ("1x40 4:2:0", CodecTestHelpers.crop(photo, x: 1200, y: 400, width: 1, height: 40), 80),
        ]
        for (name, image, quality) in cases {
            #expect(try Self.checkAllPlans(try JPEGEncoder.encode(image, quality: quality), name: name) > 0)
        }
        let gray = ImageBuffer(
            width: 1001, height: 997, format: .gray8,
            pixels: (0..<(1001 * 997)).map { UInt8(truncatingIfNeeded: ($0 % 1001) * 3 + ($0 / 1001) / 2) })
        #expect(try Self.checkAllPlans(try JPEGEncoder.encode(gray), name: "grayscale") > 0)
    }

    @Test("progressive and CMYK JPEGs are decoded whole (band decoding declines them)")
    func declinedFiles() throws {
        // A progressive file is read whole before its first row comes out: every band would decode all of it.
        let progressive = try CodecTestHelpers.photoBytes("cats_and_dogs.jpg")
        #expect(Self.rowsPerIMCURow(progressive, denominator: 1) == nil)
        let declined =
            Self.bandDecode(
                progressive, denominator: 1, width: 1200, height: 600, plan: JPEGBandPlan(boundaries: [0, 300, 600]))
            == nil
        #expect(declined)
        let cmyk = try JPEGEncoder.encodeCMYK(
            [UInt8](repeating: 40, count: 64 * 32 * 4), width: 64, height: 32)
        #expect(Self.rowsPerIMCURow(cmyk, denominator: 1) == nil)
        // The decoder with threads still decodes both, as one thread does.
        for bytes in [progressive, cmyk] {
            let same =
                try ImageDecoder(threadCount: 2).decode(bytes).image.pixels == ImageDecoder().decode(bytes).image.pixels
            #expect(same)
        }
    }

    @Test(
        "a damaged file: bands decline it, and a decoder with threads fails or warns exactly as with one",
        arguments: DamagedFiles.JPEGDamage.allCases)
    func damagedFiles(_ damage: DamagedFiles.JPEGDamage) throws {
        for name in ["bird.jpg"] {  // 3 MP: over the size at which a decoder with threads uses bands
            let bytes = try #require(DamagedFiles.jpeg(try CodecTestHelpers.photoBytes(name), damage))
            let reference = try Self.wholeDecode(try CodecTestHelpers.photoBytes(name), denominator: 1)
            let step = try #require(Self.rowsPerIMCURow(bytes, denominator: 1))
            for plan in Self.plans(
                width: reference.width, height: reference.height, rowsPerIMCURow: step, compressedBytes: bytes.count)
            {
                let pixels = Self.bandDecode(
                    bytes, denominator: 1, width: reference.width, height: reference.height, plan: plan)
                let declined = pixels == nil  // (not an expectation on the array: it would print 9 MB)
                #expect(declined, "\(name), \(damage): bands \(plan.boundaries) decoded a damaged file")
            }
            for allowsDamage in [false, true] {
                let one = Result { try ImageDecoder(allowsDamagedData: allowsDamage).decode(bytes) }
                let two = Result { try ImageDecoder(allowsDamagedData: allowsDamage, threadCount: 2).decode(bytes) }
                switch (one, two) {
                case (.success(let one), .success(let two)):
                    let samePixels = one.image.pixels == two.image.pixels
                    #expect(samePixels && one.warning == two.warning && one.warning != nil, "\(name), \(damage)")
                case (.failure(let one), .failure(let two)):
                    #expect("\(one)" == "\(two)", "\(name), \(damage)")
                default:
                    Issue.record("\(name), \(damage), lenient \(allowsDamage): \(one) with one thread, \(two) with two")
                }
            }
        }
    }

    @Test("a decoder with threads uses bands on a large photo and gives the whole-image decode's bytes")
    func decoderUsesBands() throws {
        let bytes = try CodecTestHelpers.photoBytes("beach.jpg")
        let decoded = try ImageDecoder(threadCount: 2).decode(bytes)
        let reference = try Self.wholeDecode(bytes, denominator: 1)
        #expect(decoded.bandCount == 2)
        #expect(Self.difference(decoded.image.pixels, reference) == nil)
        // One thread, a photo under a megapixel, a progressive photo: decoded whole.
        #expect(try ImageDecoder().decode(bytes).bandCount == 1)
        #expect(try ImageDecoder(threadCount: 2).decode(CodecTestHelpers.photoBytes("dogs.jpg")).bandCount == 1)
        let progressive = try CodecTestHelpers.photoBytes("cats_and_dogs.jpg")
        #expect(try ImageDecoder(threadCount: 8, bandMinimumPixelCount: 0).decode(progressive).bandCount == 1)
        // More threads than cores: no more bands than cores (and never more than JPEGBandPlan.maximumBandCount).
        let many = try ImageDecoder(threadCount: 64).decode(bytes)
        #expect(many.bandCount == min(Resampler.defaultThreadCount, JPEGBandPlan.maximumBandCount))
        #expect(Self.difference(many.image.pixels, reference) == nil)
    }

    @Test("bands only where TurboJPEG scales by exactly 1/d (it picks 5/8 for a 3x3 image asked at 1/2)")
    func otherScalingFactor() throws {
        // libjpeg in the bands always scales by 1/d; TurboJPEG picks the largest factor giving the requested size,
        // which differs only when both sides are a few pixels (too small for two bands anyway: the check guards).
        #expect(!JPEGScaling.turboJPEGScales(width: 3, height: 3, by: 2))
        #expect(!JPEGScaling.turboJPEGScales(width: 4, height: 4, by: 8))
        #expect(JPEGScaling.turboJPEGScales(width: 3, height: 2000, by: 2))
        #expect(JPEGScaling.turboJPEGScales(width: 4096, height: 3040, by: 8))
        #expect(JPEGScaling.turboJPEGScales(width: 1, height: 1, by: 1))
    }

    @Test("band plans: aligned, ascending, upper bands larger, equal estimated costs; none when one thread is better")
    func plansAreBalanced() throws {
        let plan = try #require(
            JPEGBandPlan(width: 4096, height: 3040, compressedBytes: 3_413_776, rowsPerIMCURow: 16, threads: 2))
        #expect(plan.bandCount == 2)
        #expect(plan.boundaries.allSatisfy { $0 % 16 == 0 || $0 == 3040 })
        // Band 0 decodes its rows; band 1 also entropy-decodes band 0's: band 0 gets more rows (about 70 %).
        let first = Double(plan.rows(ofBand: 0).count) / 3040
        #expect(first > 0.6 && first < 0.8, "first band \(first)")
        for threads in [3, 4, 8] {
            let many = try #require(
                JPEGBandPlan(
                    width: 4096, height: 3040, compressedBytes: 3_413_776, rowsPerIMCURow: 16, threads: threads))
            #expect(many.bandCount == min(threads, JPEGBandPlan.maximumBandCount))
            let counts = (0..<many.bandCount).map { many.rows(ofBand: $0).count }
            #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 >= $1 }, "\(counts)")
            // Estimated cost of each band (the plan's model): entropy up to its end, the rest for its rows.
            let entropy = 7.8 * 3_413_776 / 3040 + 0.25 * 4096, rest = 2.2 * 4096
            let costs = (0..<many.bandCount).map { band in
                entropy * Double(many.rows(ofBand: band).upperBound) + rest * Double(many.rows(ofBand: band).count)
            }
            // Rounding a boundary to an iMCU row moves it by up to 8 rows, which changes the band above by up to
            // (entropy + rest)·8 and the band below by rest·8; two neighbouring boundaries can add up.
            let slack = (entropy + 2 * rest) * 16
            #expect(costs.max()! - costs.min()! <= slack, "\(threads) threads: \(costs)")
        }
        #expect(JPEGBandPlan(width: 4096, height: 3040, compressedBytes: 1, rowsPerIMCURow: 16, threads: 1) == nil)
        #expect(JPEGBandPlan(width: 1000, height: 999, compressedBytes: 1, rowsPerIMCURow: 16, threads: 2) == nil)
        #expect(
            JPEGBandPlan(width: 100_000, height: 16, compressedBytes: 1, rowsPerIMCURow: 16, threads: 2) == nil,
            "one iMCU row cannot be shared")
    }
}
