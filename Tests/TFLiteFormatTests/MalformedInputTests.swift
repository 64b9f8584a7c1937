import Foundation
import LiteVisionTestSupport
import Testing
import TFLiteFormat

@Suite("Malformed input: a clear error, never a crash")
struct MalformedInputTests {
    @Test func emptyAndTinyInput() {
        #expect(thrownError { try TFLiteModelFile(bytes: []) } == .empty(path: nil))
        let tiny = thrownError { try TFLiteModelFile(bytes: [0x1C, 0, 0]) }
        #expect(tiny?.kind == "notATFLiteModel")
        #expect(tiny?.description.contains("3 bytes") == true)
        let wrongIdentifier = thrownError { try TFLiteModelFile(bytes: [8, 0, 0, 0] + Array("EFGH".utf8) + [0, 0]) }
        #expect(wrongIdentifier?.kind == "notATFLiteModel")
        #expect(wrongIdentifier?.description.contains("\"EFGH\", not \"TFL3\"") == true)
    }

    @Test func jpegPassedAsAModel() {
        let path = TestData.image("bird.jpg")
        let error = thrownError { try TFLiteModelFile(contentsOfFile: path) }
        #expect(error?.kind == "notATFLiteModel")
        #expect(error?.description.contains("JPEG image") == true, "\(String(describing: error))")
        #expect(error?.description.contains("TFL3") == true)
    }

    @Test func textFilePassedAsAModel() {
        let error = thrownError { try TFLiteModelFile(contentsOfFile: TestData.model("automl_flowers.labels.txt")) }
        #expect(error?.kind == "notATFLiteModel")
        #expect(error?.description.contains("text file") == true, "\(String(describing: error))")
    }

    @Test func missingEmptyAndDirectoryPaths() throws {
        let directory = TestData.temporaryDirectory("tflitemodel")
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.tflite").path
        let missingError = thrownError { try TFLiteModelFile(contentsOfFile: missing) }
        #expect(missingError?.kind == "unreadableFile")
        #expect(missingError?.description.contains("no such file") == true, "\(String(describing: missingError))")

        let empty = directory.appendingPathComponent("empty.tflite").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(thrownError { try TFLiteModelFile(contentsOfFile: empty) } == .empty(path: empty))
        #expect(try LabelMap(contentsOfFile: empty) == LabelMap(labels: []))

        let directoryError = thrownError { try TFLiteModelFile(contentsOfFile: directory.path) }
        #expect(directoryError == .unreadableFile(path: directory.path, reason: "it is a directory"))
        #expect(thrownError { try LabelMap(contentsOfFile: missing) }?.kind == "unreadableFile")
    }

    @Test func rootOffsetPastTheEnd() {
        let bytes: [UInt8] = [0xF0, 0xFF, 0xFF, 0x7F] + Array("TFL3".utf8) + [UInt8](repeating: 0, count: 24)
        let error = thrownError { try TFLiteModelFile(bytes: bytes) }
        #expect(error?.kind == "truncatedOrCorrupt")
        #expect(error?.description.contains("Model table") == true)
    }

    @Test func truncatedBirdModel() throws {
        let bytes = try modelBytes("bird.tflite")
        let zipStart = try #require(localHeaderPosition(of: "0-labels-en.txt", in: bytes))
        #expect(zipStart == 3_532_472)

        // Exact places: just past the header, half, 60 %: the tables of subgraph 0 lie near the end.
        for length in [8, 12, 33, 64, 1_000, bytes.count / 2, bytes.count * 6 / 10, zipStart - 1_000] {
            let error = thrownError { try TFLiteModelFile(bytes: Array(bytes[..<length])) }
            #expect(error?.kind == "truncatedOrCorrupt", "length \(length): \(String(describing: error))")
            #expect(error?.description.contains("-byte model") == true)
        }

        // Coarse steps over the whole file: an error or, once the FlatBuffer is whole, a model.
        var length = 0
        while length < bytes.count {
            let prefix = Array(bytes[..<length])
            if let error = thrownError({ try TFLiteModelFile(bytes: prefix) }) {
                #expect(["empty", "notATFLiteModel", "truncatedOrCorrupt"].contains(error.kind), "length \(length)")
                #expect(length < zipStart, "length \(length): \(error)")
            } else {
                #expect(length >= zipStart - 1_000, "length \(length) parsed")
            }
            length += length < 64 ? 1 : bytes.count / 97
        }

        // Cut where the zip starts: the FlatBuffer is intact but the label files are gone.
        let model = try TFLiteModelFile(bytes: Array(bytes[..<zipStart]))
        #expect(model.metadata?.outputTensors.count == 1)
        #expect(model.associatedFiles.isEmpty)
        #expect(thrownError { try model.labelMap(forOutput: 0) } == .missingAssociatedFile(name: "0-labels-en.txt"))

        // Cut inside the zip: its directory (at the end) is gone, so again no files.
        for cut in [zipStart + 100, bytes.count - 30, bytes.count - 1] {
            let partial = try TFLiteModelFile(bytes: Array(bytes[..<cut]))
            #expect(partial.associatedFiles.isEmpty, "cut at \(cut)")
        }
    }

    @Test func fuzzedBirdFlatBufferNeverCrashes() throws {
        let original = try modelBytes("bird.tflite")
        let zipStart = try #require(localHeaderPosition(of: "0-labels-en.txt", in: original))
        // Where the tables are: the root, buffer list and metadata near the start; subgraph 0, its tensors
        // and the operator codes just before the zip; weights in between.
        let regions = [0..<2_048, 3_499_800..<zipStart, 0..<zipStart]
        var generator = SeededGenerator(seed: 0xB1_4D)
        var thrown = 0, parsed = 0
        var bytes = original
        for iteration in 0..<300 {
            let region = regions[iteration % regions.count]
            var changed: [(Int, UInt8)] = []
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: region, using: &generator)
                changed.append((position, bytes[position]))
                if Bool.random(using: &generator) {
                    bytes[position] ^= 1 << UInt8.random(in: 0...7, using: &generator)
                } else {
                    bytes[position] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            if exercise(bytes) { parsed += 1 } else { thrown += 1 }
            for (position, value) in changed.reversed() { bytes[position] = value }
        }
        #expect(bytes == original)
        #expect(thrown + parsed == 300)
        #expect(thrown > 20, "the mutations should hit the structure often")
    }

    @Test func fuzzedMetadataNeverCrashes() throws {
        let original = try modelBytes("mobile_object_localizer_v1.tflite")
        let model = try TFLiteModelFile(bytes: original)
        #expect(model.metadata != nil)
        // The metadata FlatBuffer of this model starts at byte 1364 and is 1496 bytes long.
        let metadataRange = 1_364..<(1_364 + 1_496)
        #expect(Array(original[(metadataRange.lowerBound + 4)..<(metadataRange.lowerBound + 8)]) == Array("M001".utf8))
        var generator = SeededGenerator(seed: 0x3E7A)
        var thrown = 0
        var bytes = original
        for _ in 0..<300 {
            let position = Int.random(in: metadataRange, using: &generator)
            let saved = bytes[position]
            bytes[position] = UInt8.random(in: 0...255, using: &generator)
            if !exercise(bytes) { thrown += 1 }
            bytes[position] = saved
        }
        #expect(thrown > 10)
    }
}

/// The position of the zip local header of `name` in `bytes`, found by scanning (independently of the reader).
func localHeaderPosition(of name: String, in bytes: [UInt8]) -> Int? {
    let signature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
    let nameBytes = Array(name.utf8)
    var position = 0
    while position + 30 + nameBytes.count <= bytes.count {
        if bytes[position] == 0x50, bytes[position..<(position + 4)].elementsEqual(signature),
            bytes[(position + 30)..<(position + 30 + nameBytes.count)].elementsEqual(nameBytes)
        {
            return position
        }
        position += 1
    }
    return nil
}
