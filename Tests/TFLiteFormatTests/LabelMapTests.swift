import Testing
import TFLiteFormat

@Suite("LabelMap")
struct LabelMapTests {
    private func labels(_ text: String) -> [String] {
        try! LabelMap(text: Array(text.utf8)).labels
    }

    @Test func lineEndings() {
        #expect(labels("a\nb\nc") == ["a", "b", "c"])
        #expect(labels("a\nb\nc\n") == ["a", "b", "c"])
        #expect(labels("a\r\nb\r\nc\r\n") == ["a", "b", "c"])
        #expect(labels("a\r\nb") == ["a", "b"])
        // Only the empty line after the final newline goes: inner and other trailing empty lines keep positions.
        #expect(labels("a\n\nc\n") == ["a", "", "c"])
        #expect(labels("a\n\n") == ["a", ""])
        #expect(labels("") == [])
        #expect(labels("\n") == [""])
        // Only a trailing carriage return is removed.
        #expect(labels("a\rb\n") == ["a\rb"])
        #expect(labels(" padded \n") == [" padded "])
    }

    @Test func byteOrderMarkAndEncoding() {
        #expect(try! LabelMap(text: [0xEF, 0xBB, 0xBF] + Array("chat\nchien".utf8)).labels == ["chat", "chien"])
        #expect(labels("Grünfink\n鳥\n") == ["Grünfink", "鳥"])
        // Invalid UTF-8 is repaired rather than rejected.
        #expect(try! LabelMap(text: [0x61, 0xFF, 0x0A, 0x62]).labels == ["a\u{FFFD}", "b"])
    }

    @Test func lookup() {
        let map = LabelMap(labels: ["zero", "one"])
        #expect(map.count == 2)
        #expect(map.label(at: 1) == "one")
        #expect(map.label(at: 2) == nil)
        #expect(map.label(at: -1) == nil)
    }
}

@Suite("Small public types")
struct PublicTypeTests {
    @Test func tensorElementTypeNumbering() {
        let expected: [(Int, TensorElementType)] = [
            (0, .float32), (1, .float16), (2, .int32), (3, .uint8), (4, .int64), (5, .string), (6, .bool),
            (7, .int16), (8, .complex64), (9, .int8), (10, .float64), (11, .complex128), (12, .uint64),
            (13, .resource), (14, .variant), (15, .uint32), (16, .uint16), (17, .int4), (18, .bfloat16),
        ]
        for (value, type) in expected {
            #expect(TensorElementType(schemaValue: value) == type)
            #expect(type.schemaValue == value)
        }
        #expect(TensorElementType(schemaValue: 99) == .other(99))
        #expect(TensorElementType.other(99).schemaValue == 99)
        #expect(TensorElementType.uint8.byteSize == 1)
        #expect(TensorElementType.float32.byteSize == 4)
        #expect(TensorElementType.string.byteSize == nil)
    }

    @Test func enumNumbering() {
        #expect(
            (0...7).map(AssociatedFileType.init(schemaValue:)) == [
                .unknown, .descriptions, .tensorAxisLabels, .tensorValueLabels, .tensorAxisScoreCalibration,
                .vocabulary, .scannIndexFile, .other(7),
            ])
        #expect(
            (0...4).map(BoundingBoxType.init(schemaValue:)) == [.unknown, .boundaries, .upperLeft, .center, .other(4)])
        #expect((0...2).map(CoordinateType.init(schemaValue:)) == [.ratio, .pixel, .other(2)])
        #expect((0...3).map(ColorSpace.init(schemaValue:)) == [.unknown, .rgb, .grayscale, .other(3)])
        #expect((0...3).map(ScoreTransformation.init(schemaValue:)) == [.identity, .log, .inverseLogistic, .other(3)])
    }

    @Test func quantizationAndElementCount() {
        let quantization = Quantization(scale: 0.5, zeroPoint: 128)
        #expect(quantization.dequantize(130) == 1)
        #expect(quantization.dequantize(128) == 0)
        #expect(TensorInfo(name: "t", shape: [1, 224, 224, 3], elementType: .uint8).elementCount == 150_528)
        #expect(TensorInfo(name: "t", shape: [], elementType: .uint8).elementCount == 1)
        #expect(TensorInfo(name: "t", shape: [1, -1], elementType: .uint8).elementCount == nil)
        #expect(TensorInfo(name: "t", shape: [Int.max, 2], elementType: .uint8).elementCount == nil)
    }

    @Test func errorMessagesReadAsSentences() {
        let errors: [ModelFileError] = [
            .unreadableFile(path: "/x.tflite", reason: "no such file or directory"), .empty(path: nil),
            .empty(path: "/x.tflite"), .notATFLiteModel(reason: "it is a JPEG"), .truncatedOrCorrupt("x"),
            .malformed("x"), .malformedMetadata("x"), .malformedAssociatedFiles("x"),
            .unsupportedAssociatedFile("x"), .missingAssociatedFile(name: "labels.txt"),
        ]
        for error in errors {
            #expect(error.description.hasSuffix("."))
            #expect(error.description.first?.isUppercase == true)
        }
        #expect(ModelFileError.empty(path: "/x.tflite").description == "The model file /x.tflite is empty (0 bytes).")
    }
}
