import LiteVisionTestSupport
import Testing
import TFLiteFormat

/// Where the parts of bird.tflite's zip lie, read by hand (independently of the reader under test).
struct BirdZipLayout {
    let bytes: [UInt8]
    let endRecord: Int
    let directory: Int
    let firstLocalHeader: Int

    init() throws {
        bytes = try modelBytes("bird.tflite")
        endRecord = bytes.count - 22
        guard bytes[endRecord..<(endRecord + 4)].elementsEqual([0x50, 0x4B, 0x05, 0x06]) else {
            throw FixtureError("bird.tflite does not end with an end-of-central-directory record")
        }
        directory = Int(Self.read32(bytes, endRecord + 16))
        firstLocalHeader = Int(Self.read32(bytes, directory + 42))
    }

    static func read32(_ bytes: [UInt8], _ position: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[position + $1]) << (8 * UInt32($1)) }
    }

    /// A copy of the model with a 32-bit little-endian value written at `position`.
    func with32(_ value: UInt32, at position: Int) -> [UInt8] {
        var copy = bytes
        for index in 0..<4 { copy[position + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
        return copy
    }

    /// A copy of the model with a 16-bit little-endian value written at `position`.
    func with16(_ value: UInt16, at position: Int) -> [UInt8] {
        var copy = bytes
        copy[position] = UInt8(truncatingIfNeeded: value)
        copy[position + 1] = UInt8(truncatingIfNeeded: value >> 8)
        return copy
    }
}

@Suite("Associated files (the zip appended to a model)")
struct AssociatedFilesTests {
    let bird: BirdZipLayout

    init() throws {
        bird = try BirdZipLayout()
    }

    @Test func birdLayoutIsWhatTheReaderFinds() throws {
        // Offsets in the central directory are relative to the start of the file, not of the zip.
        #expect(bird.firstLocalHeader == 3_532_472)
        let files = try AssociatedFiles(bytes: bird.bytes)
        #expect(files.names == ["0-labels-en.txt", "0-labels.txt"])
        #expect(files.contains("0-labels.txt"))
        #expect(!files.contains("labels.txt"))
        let english = try #require(try files.data(named: "0-labels-en.txt"))
        #expect(english.count == 37_132)
        #expect(Array(english.prefix(12)) == Array("Haemorhous c".utf8))
    }

    @Test func localHeaderOffsetPastTheFileData() {
        let bytes = bird.with32(0x7FFF_FFF0, at: bird.directory + 42)
        let error = thrownError { try TFLiteModelFile(bytes: bytes) }
        #expect(error?.kind == "malformedAssociatedFiles")
        #expect(error?.description.contains("local header offset of \"0-labels-en.txt\"") == true)
    }

    @Test func localHeaderOffsetPointingAtTheWrongPlace() throws {
        let model = try TFLiteModelFile(bytes: bird.with32(UInt32(bird.firstLocalHeader - 1), at: bird.directory + 42))
        #expect(model.associatedFiles.names.count == 2)
        let error = thrownError { try model.labelMap(forOutput: 0) }
        #expect(error?.kind == "malformedAssociatedFiles")
        #expect(error?.description.contains("not a valid zip local header") == true)
        // The other file is still readable.
        #expect(try model.associatedFiles.data(named: "0-labels.txt")?.count == 18_631)
    }

    @Test func localHeaderNamingAnotherFile() throws {
        // Point the second entry at the first entry's local header.
        let secondEntry = bird.directory + 46 + "0-labels-en.txt".utf8.count
        let model = try TFLiteModelFile(bytes: bird.with32(UInt32(bird.firstLocalHeader), at: secondEntry + 42))
        let error = thrownError { try model.associatedFiles.data(named: "0-labels.txt") }
        #expect(error?.kind == "malformedAssociatedFiles")
        #expect(error?.description.contains("names a different file") == true)
    }

    @Test func corruptSizes() throws {
        // Compressed size differs from the uncompressed size of a stored entry.
        let mismatched = try TFLiteModelFile(bytes: bird.with32(37_133, at: bird.directory + 20))
        #expect(thrownError { try mismatched.labelMap(forOutput: 0) }?.description.contains("sizes differ") == true)

        // Both sizes larger: the data would run into the central directory.
        var huge = bird.with32(0x7000_0000, at: bird.directory + 20)
        for index in 0..<4 { huge[bird.directory + 24 + index] = huge[bird.directory + 20 + index] }
        let hugeModel = try TFLiteModelFile(bytes: huge)
        let hugeError = thrownError { try hugeModel.labelMap(forOutput: 0) }
        #expect(hugeError?.kind == "malformedAssociatedFiles")
        #expect(hugeError?.description.contains("runs past the end of the file data") == true)

        // Both sizes a little larger: inside the file, but the CRC-32 no longer matches.
        var longer = bird.with32(37_140, at: bird.directory + 20)
        for index in 0..<4 { longer[bird.directory + 24 + index] = longer[bird.directory + 20 + index] }
        let longerModel = try TFLiteModelFile(bytes: longer)
        #expect(thrownError { try longerModel.labelMap(forOutput: 0) }?.description.contains("CRC-32") == true)
    }

    @Test func corruptedFileContentsFailTheCRC() throws {
        var bytes = bird.bytes
        bytes[bird.firstLocalHeader + 30 + 15 + 100] ^= 0x20
        let model = try TFLiteModelFile(bytes: bytes)
        let error = thrownError { try model.labelMap(forOutput: 0) }
        #expect(error?.kind == "malformedAssociatedFiles")
        #expect(error?.description.contains("fails its CRC-32 check") == true)
    }

    @Test func corruptEndRecordAndDirectory() {
        let directorySize = thrownError { try TFLiteModelFile(bytes: bird.with32(120, at: bird.endRecord + 12)) }
        #expect(directorySize?.kind == "malformedAssociatedFiles")

        let tooLarge = thrownError { try TFLiteModelFile(bytes: bird.with32(0x7FFF_0000, at: bird.endRecord + 12)) }
        #expect(tooLarge?.kind == "malformedAssociatedFiles")

        let directoryOffset = thrownError {
            try TFLiteModelFile(bytes: bird.with32(UInt32(bird.directory + 1), at: bird.endRecord + 16))
        }
        #expect(directoryOffset?.kind == "malformedAssociatedFiles")

        var counts = bird.with16(500, at: bird.endRecord + 8)
        counts[bird.endRecord + 10] = counts[bird.endRecord + 8]
        counts[bird.endRecord + 11] = counts[bird.endRecord + 9]
        let entryCount = thrownError { try TFLiteModelFile(bytes: counts) }
        #expect(entryCount?.description.contains("claims 500 entries") == true)

        let signature = thrownError { try TFLiteModelFile(bytes: bird.with32(0x0201_4B51, at: bird.directory)) }
        #expect(signature?.kind == "malformedAssociatedFiles")
        #expect(signature?.description.contains("central directory entry 0") == true)

        let nameLength = thrownError { try TFLiteModelFile(bytes: bird.with16(0xFFFF, at: bird.directory + 28)) }
        #expect(nameLength?.description.contains("runs past the end of the directory") == true)
    }

    @Test func unsupportedFeatures() throws {
        var zip64 = bird.with16(0xFFFF, at: bird.endRecord + 8)
        zip64[bird.endRecord + 10] = 0xFF
        zip64[bird.endRecord + 11] = 0xFF
        #expect(thrownError { try TFLiteModelFile(bytes: zip64) }?.kind == "unsupportedAssociatedFile")

        let bzip2 = try TFLiteModelFile(bytes: bird.with16(12, at: bird.directory + 10))
        let methodError = thrownError { try bzip2.labelMap(forOutput: 0) }
        #expect(methodError?.kind == "unsupportedAssociatedFile")
        #expect(methodError?.description.contains("compression method 12") == true)

        let encrypted = try TFLiteModelFile(bytes: bird.with16(1, at: bird.directory + 8))
        #expect(thrownError { try encrypted.labelMap(forOutput: 0) }?.description.contains("encrypted") == true)
    }

    @Test func endRecordWhoseCommentDoesNotReachTheEndIsIgnored() throws {
        let model = try TFLiteModelFile(bytes: bird.with16(5, at: bird.endRecord + 20))
        #expect(model.associatedFiles.isEmpty)
        #expect(thrownError { try model.labelMap(forOutput: 0) } == .missingAssociatedFile(name: "0-labels-en.txt"))
    }

    @Test func birdWithADeflatedZip() throws {
        let original = try TFLiteModelFile(bytes: bird.bytes)
        let english = try #require(try original.associatedFiles.data(named: "0-labels-en.txt"))
        let neutral = try #require(try original.associatedFiles.data(named: "0-labels.txt"))
        let flatBuffer = Array(bird.bytes[..<bird.firstLocalHeader])
        let zip = ZipFixture.archive(
            [
                .init(name: "0-labels-en.txt", data: english, deflate: true),
                .init(name: "0-labels.txt", data: neutral, deflate: true),
            ],
            start: flatBuffer.count)
        #expect(zip.count < 40_000, "deflate should shrink the labels (\(zip.count) bytes)")
        let model = try TFLiteModelFile(bytes: flatBuffer + zip)
        #expect(try model.labelMap(forOutput: 0) == original.labelMap(forOutput: 0))
        #expect(try model.labelMap(forOutput: 0)?.label(at: 567) == "Ardea cinerea (Grey Heron)")
    }

    @Test func labelFileBombsAreRefusedBeforeDecompressing() throws {
        let flatBuffer = Array(bird.bytes[..<bird.firstLocalHeader])
        // 80 MB of line breaks deflate to about 80 KB: refused from its declared size, before inflating.
        let bomb = [UInt8](repeating: 0x0A, count: 80 << 20)
        let zip = ZipFixture.archive(
            [.init(name: "0-labels-en.txt", data: bomb, deflate: true)], start: flatBuffer.count)
        #expect(zip.count < 200_000)
        let model = try TFLiteModelFile(bytes: flatBuffer + zip)
        let error = thrownError { try model.labelMap(forOutput: 0) }
        #expect(error?.kind == "malformedAssociatedFiles")
        #expect(error?.description.contains("is 83886080 bytes, more than the 67108864 bytes") == true)
        // Within the size limit, but more lines than any label map has: refused before a label is made.
        let lines = [UInt8](repeating: 0x0A, count: 1_500_000)
        let many = ZipFixture.archive(
            [.init(name: "0-labels-en.txt", data: lines, deflate: true)], start: flatBuffer.count)
        let manyLines = try TFLiteModelFile(bytes: flatBuffer + many)
        #expect(thrownError { try manyLines.labelMap(forOutput: 0) } == .tooManyLabels(count: 1_500_000))
    }

    @Test func standaloneZipsAndDeflateErrors() throws {
        let text = Array(String(repeating: "label\n", count: 200).utf8)
        let zip = ZipFixture.archive(
            [
                .init(name: "a.txt", data: text, deflate: true),
                .init(name: "empty.txt", data: [], deflate: true),
                .init(name: "b.txt", data: [1, 2, 3]),
            ], start: 0)
        let files = try AssociatedFiles(bytes: zip)
        #expect(files.names == ["a.txt", "empty.txt", "b.txt"])
        // Far larger than its compressed size: the output buffer has to grow several times.
        let big = (0..<400_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let bigZip = ZipFixture.archive([.init(name: "big.bin", data: big, deflate: true)], start: 0)
        #expect(bigZip.count < 20_000)
        #expect(try AssociatedFiles(bytes: bigZip).data(named: "big.bin") == big)
        #expect(try files.data(named: "a.txt") == text)
        #expect(try files.data(named: "empty.txt") == [])
        #expect(try files.data(named: "b.txt") == [1, 2, 3])
        #expect(try AssociatedFiles(bytes: [1, 2, 3]).isEmpty)
        #expect(AssociatedFiles().names.isEmpty)

        // Positions inside this zip: local header (30 bytes) + name (5 bytes), then the deflated data.
        let deflatedSize = Int(BirdZipLayout.read32(zip, 18))
        let directory = Int(BirdZipLayout.read32(zip, zip.count - 22 + 16))

        var corrupt = zip
        for offset in 0..<deflatedSize { corrupt[35 + offset] = 0xFF }
        let corruptError = thrownError { try AssociatedFiles(bytes: corrupt).data(named: "a.txt") }
        #expect(corruptError?.kind == "malformedAssociatedFiles")
        #expect(corruptError?.description.contains("cannot decompress \"a.txt\"") == true)

        var smaller = zip
        smaller[directory + 24] = 10
        smaller[directory + 25] = 0
        let smallerError = thrownError { try AssociatedFiles(bytes: smaller).data(named: "a.txt") }
        #expect(smallerError?.description.contains("longer than its size says") == true)

        var larger = zip
        larger[directory + 25] = 0x06  // 1 536 + low byte: more than the stream holds
        let largerError = thrownError { try AssociatedFiles(bytes: larger).data(named: "a.txt") }
        #expect(largerError?.kind == "malformedAssociatedFiles")

        var bomb = zip
        for index in 0..<4 { bomb[directory + 24 + index] = 0x7F }
        let bombError = thrownError { try AssociatedFiles(bytes: bomb).data(named: "a.txt") }
        #expect(bombError?.description.contains("claims") == true)
    }

    @Test func fuzzedZipNeverCrashes() throws {
        // Mutations of the zip area of a small model: local headers, data, central directory, end record.
        let original = ModelFixture.model(metadata: ModelFixture.metadata()) { ModelFixture.labelZip(start: $0) }
        let zipStart = try #require(localHeaderPosition(of: "labels.txt", in: original))
        var generator = SeededGenerator(seed: 0x21_9F)
        var thrown = 0
        for _ in 0..<1_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                bytes[Int.random(in: zipStart..<bytes.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            if let model = try? TFLiteModelFile(bytes: bytes) {
                for name in model.associatedFiles.names where (try? model.associatedFiles.data(named: name)) == nil {
                    thrown += 1
                }
                _ = try? model.labelMap(forOutput: 0)
            } else {
                thrown += 1
            }
        }
        #expect(thrown > 100)
    }
}
