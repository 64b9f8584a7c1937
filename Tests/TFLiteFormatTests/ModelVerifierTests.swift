import LiteVisionTestSupport
import Testing

@testable import TFLiteFormat

/// Finds the positions of fields inside a real model, so that a test can corrupt exactly one of them.
struct ModelLocator {
    var bytes: [UInt8]
    private var reader: FlatBufferReader { FlatBufferReader(bytes: bytes, start: 0, end: bytes.count, domain: .model) }

    init(model name: String) throws {
        bytes = try modelBytes(name)
    }

    var model: FlatBufferTable { get throws { try reader.rootTable("model") } }

    func element(_ table: FlatBufferTable, _ field: Int, _ index: Int) throws -> FlatBufferTable {
        let vector = try #require(try reader.vector(table, field, elementSize: 4, "vector"))
        return try reader.tableElement(vector, index, "element")
    }

    func count(_ table: FlatBufferTable, _ field: Int) throws -> Int {
        try reader.vector(table, field, elementSize: 4, "vector")?.count ?? 0
    }

    var subgraph: FlatBufferTable { get throws { try element(try model, 2, 0) } }
    func tensor(_ index: Int) throws -> FlatBufferTable { try element(try subgraph, 0, index) }
    func op(_ index: Int) throws -> FlatBufferTable { try element(try subgraph, 3, index) }
    func buffer(_ index: Int) throws -> FlatBufferTable { try element(try model, 4, index) }

    /// The position of a field's value (which the test must know to be present).
    func field(_ table: FlatBufferTable, _ id: Int, width: Int = 4) throws -> Int {
        try #require(try reader.fieldPosition(table, id, width: width))
    }

    /// The position of element `index` of an integer vector field.
    func vectorElement(_ table: FlatBufferTable, _ id: Int, _ index: Int, size: Int = 4) throws -> Int {
        try #require(try reader.vector(table, id, elementSize: size, "vector")).start + index * size
    }

    /// Whether field `id` of `table` is present.
    func has(_ table: FlatBufferTable, _ id: Int) throws -> Bool {
        try reader.fieldPosition(table, id, width: 1) != nil
    }

    /// The index of the first operator whose options union has `type` (and whose options pass `condition`).
    func firstOperator(
        withOptions type: UInt8,
        where condition: (FlatBufferTable) throws -> Bool = { _ in true }
    ) throws -> Int {
        for index in 0..<(try count(try subgraph, 3))
        where try reader.scalar(try op(index), 3, default: UInt8(0)) == type
            && (try condition(try options(ofOperator: index)))
        {
            return index
        }
        throw ModelFileError.malformed("no operator with options \(type)")
    }

    /// The options table of operator `index`.
    func options(ofOperator index: Int) throws -> FlatBufferTable {
        try #require(try reader.table(try op(index), 4, "options"))
    }

    /// The 32-bit integer at `position`.
    func integer(at position: Int) -> Int32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: position, as: Int32.self) }
    }

    mutating func set<T: FixedWidthInteger>(_ value: T, at position: Int) {
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(position..<position + $0.count, with: $0) }
    }

    /// The error of parsing the corrupted bytes (nil when they parse).
    var error: ModelFileError? { thrownError { try TFLiteModelFile(bytes: bytes) } }
}

@Suite("Model verification: what the runtime would trust is checked first")
struct ModelVerifierTests {
    @Test(arguments: [
        "bird.tflite", "object_labeler.tflite", "mobilenet_v1_025_float.tflite", "automl_flowers.tflite",
        "coco_ssd_mobilenet_v1.tflite", "food_ssd_mobilenet_v2_tf2.tflite", "mobile_object_localizer_v1.tflite",
        "mobile_object_localizer_v1_nometadata.tflite", "salad_detector_automl.tflite",
    ])
    func everySharedModelVerifies(name: String) throws {
        _ = try TFLiteModelFile(bytes: modelBytes(name))
    }

    @Test func hugeAndNegativeDimensions() throws {
        var model = try ModelLocator(model: "bird.tflite")
        let inputTensor = Int(try model.integer(at: try model.vectorElement(try model.subgraph, 1, 0)))
        let height = try model.vectorElement(try model.tensor(inputTensor), 0, 1)
        model.set(Int32(1_048_588), at: height)
        #expect(model.error?.description.contains("larger than the 268435456-byte limit") == true)
        model.set(Int32(-5), at: height)
        #expect(model.error?.description.contains("negative dimension (-5)") == true)
    }

    @Test("Tensors each under the 256 MiB limit but over 512 MiB together are refused")
    func hugeTotalOfTensors() throws {
        var model = try ModelLocator(model: "bird.tflite")
        // The outputs of the first operators (tensors without constant data), each made about 200 MiB.
        var outputs: [Int] = []
        for index in 0..<3 {
            outputs.append(Int(try model.integer(at: try model.vectorElement(try model.op(index), 2, 0))))
        }
        try #require(Set(outputs).count == 3)
        func resize(_ tensor: Int) throws {
            let shape = try model.tensor(tensor)
            #expect(try model.count(shape, 0) == 4)
            let rest = try (2..<4).map { Int(model.integer(at: try model.vectorElement(shape, 0, $0))) }
            let type = try model.has(shape, 1) ? Int(model.bytes[try model.field(shape, 1, width: 1)]) : 0
            let elementBytes = try #require(ModelVerifier.elementBits(type)) / 8
            try #require(elementBytes > 0)
            model.set(Int32((200 << 20) / (elementBytes * rest[0] * rest[1])), at: try model.vectorElement(shape, 0, 1))
        }
        try resize(outputs[0])
        try resize(outputs[1])
        // Two such tensors may be under 512 MiB or refused for another reason (their operators' sizes), never for
        // the total; a third is over it.
        #expect(model.error?.description.contains("in all") != true)
        try resize(outputs[2])
        let message = try #require(model.error?.description)
        #expect(message.contains("tensors without constant data need more than the 536870912-byte limit in all"))
    }

    @Test("The 512 MiB limit adds up the tensors of every subgraph")
    func hugeTotalAcrossSubgraphs() throws {
        // A synthetic model of `count` subgraphs, each a custom operator from one float tensor of 100 MiB to another:
        // 200 MiB a subgraph.
        func model(subgraphs count: Int) -> [UInt8] {
            let elements = Int32(25 << 20)
            func subgraph(_ index: Int) -> FBNode {
                .table([
                    0: .node(
                        .tables([
                            .table([0: .node(.int32s([1, elements])), 1: .i8(0), 3: .node(.string("in"))]),
                            .table([0: .node(.int32s([1, elements])), 1: .i8(0), 3: .node(.string("out"))]),
                        ])),
                    1: .node(.int32s([0])), 2: .node(.int32s([1])),
                    3: .node(.tables([.table([0: .u32(0), 1: .node(.int32s([0])), 2: .node(.int32s([1]))])])),
                    4: .node(.string("subgraph \(index)")),
                ])
            }
            return FBWriter.buffer(
                root: .table([
                    0: .u32(3), 1: .node(ModelFixture.operatorCodes), 2: .node(.tables((0..<count).map(subgraph))),
                    3: .node(.string("Synthetic")), 4: .node(.tables([.table([:])])),
                ]), identifier: "TFL3")
        }
        #expect(thrownError { try TFLiteModelFile(bytes: model(subgraphs: 2)) } == nil)
        let message = try #require(thrownError { try TFLiteModelFile(bytes: model(subgraphs: 3)) }?.description)
        #expect(message.contains("need more than the 536870912-byte limit in all"), "\(message)")
        #expect(message.contains("subgraph 2"), "\(message)")
    }

    @Test func indicesOutOfRange() throws {
        let original = try ModelLocator(model: "bird.tflite")
        var model = original
        model.set(UInt32(100_000), at: try model.field(try model.tensor(3), 2))
        #expect(model.error?.description.contains("refers to buffer 100000") == true)
        model = original
        model.set(UInt32(999), at: try model.field(try model.op(0), 0))
        #expect(model.error?.description.contains("uses operator code 999") == true)
        model = original
        model.set(Int32(99_999), at: try model.vectorElement(try model.op(0), 1, 0))
        #expect(model.error?.description.contains("is tensor 99999") == true)
        model = original
        model.set(Int8(99), at: try model.field(try model.tensor(3), 1, width: 1))
        #expect(model.error?.description.contains("element type 99") == true)
    }

    @Test func tensorReadBeforeItIsWritten() throws {
        var model = try ModelLocator(model: "bird.tflite")
        let last = try model.count(try model.subgraph, 3) - 1
        let lastOutput = try model.vectorElement(try model.op(last), 2, 0)
        let written = model.bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: lastOutput, as: Int32.self) }
        model.set(written, at: try model.vectorElement(try model.op(0), 1, 0))
        #expect(model.error?.description.contains("reads tensor \(written) before any operator writes it") == true)
    }

    @Test func constantDataOfTheWrongSize() throws {
        var model = try ModelLocator(model: "bird.tflite")
        // The tensor read by the first operator as its weights (input 1) is constant.
        let weights = model.bytes.withUnsafeBytes {
            $0.loadUnaligned(fromByteOffset: try! model.vectorElement(try! model.op(0), 1, 1), as: Int32.self)
        }
        let bufferIndex = model.bytes.withUnsafeBytes {
            $0.loadUnaligned(fromByteOffset: try! model.field(try! model.tensor(Int(weights)), 2), as: UInt32.self)
        }
        let data = try model.vectorElement(try model.buffer(Int(bufferIndex)), 0, 0, size: 1)
        let length = model.bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: data - 4, as: UInt32.self) }
        model.set(length - 1, at: data - 4)
        #expect(
            model.error?.description.contains("constant data of tensor \(weights) of subgraph 0 is \(length - 1) bytes")
                == true)
    }

    @Test func optionsTheKernelsTrust() throws {
        let original = try ModelLocator(model: "bird.tflite")
        var model = original
        let conv = try model.firstOperator(withOptions: 1)
        model.set(Int32(0), at: try model.field(try model.options(ofOperator: conv), 1))
        #expect(model.error?.description.contains("a stride, filter size or dilation of 0") == true)
        // bird.tflite's convolutions leave the activation at its default; the float MobileNet's do not.
        var float = try ModelLocator(model: "mobilenet_v1_025_float.tflite")
        let activated = try float.firstOperator(withOptions: 1) { options in try float.has(options, 3) }
        float.set(UInt8(9), at: try float.field(try float.options(ofOperator: activated), 3, width: 1))
        #expect(float.error?.description.contains("activation function 9") == true)
        model = original
        model.set(UInt8(250), at: try model.field(try model.op(conv), 3, width: 1))
        #expect(model.error?.description.contains("options of type 250") == true)
        model = original
        model.set(UInt8(17), at: try model.field(try model.op(conv), 3, width: 1))  // ReshapeOptions on a convolution
        #expect(model.error?.description.contains("has no Conv2DOptions") == true)
    }

    @Test func fieldOutsideItsTable() throws {
        var model = try ModelLocator(model: "bird.tflite")
        let tensor = try model.tensor(2)
        model.set(UInt16(60_000), at: tensor.vtable + 4 + 2 * 1)  // the element type's offset
        // Tensors share vtables, so the first tensor using this one is named.
        #expect(model.error?.description.contains("lies outside its table") == true)
        #expect(model.error?.description.contains("field 1 of tensor ") == true)
    }

    @Test func schemaVersion() throws {
        var model = try ModelLocator(model: "bird.tflite")
        model.set(UInt32(4), at: try model.field(try model.model, 0))
        #expect(model.error?.description.contains("schema version 4") == true)
    }

    @Test func customNameCutAtItsZeroByteIsStillTheDetectionOperator() throws {
        var model = try ModelLocator(model: "coco_ssd_mobilenet_v1.tflite")
        let codes = try model.count(try model.model, 1)
        var nameLength: Int?
        for index in 0..<codes {
            let code = try model.element(try model.model, 1, index)
            guard try model.has(code, 1) else { continue }
            let field = try model.field(code, 1)
            let string = field + Int(UInt32(bitPattern: model.integer(at: field)))
            if model.integer(at: string) == 28 { nameLength = string }
        }
        let length = try #require(nameLength, "coco_ssd names TFLite_Detection_PostProcess (28 bytes)")
        // "TFLite_Detection_PostProcess\0": the runtime still finds the operator (it reads a C string), so its
        // options must still be verified.
        #expect(model.bytes[length + 4 + 29] == 0, "the string's padding ends it")
        model.set(UInt32(29), at: length)
        #expect(model.error == nil)
        let last = try model.count(try model.subgraph, 3) - 1
        let options = try #require(
            try FlatBufferReader(bytes: model.bytes, start: 0, end: model.bytes.count, domain: .model)
                .byteRange(try model.op(last), 5, "custom options"))
        model.bytes[options.upperBound - 1] = 3
        #expect(model.error?.description.contains("root width 3 is invalid") == true)
    }

    @Test func detectionSettingsTheKernelSizesItsOutputsFrom() throws {
        let original = try ModelLocator(model: "coco_ssd_mobilenet_v1.tflite")
        let last = try original.count(try original.subgraph, 3) - 1
        let options = try #require(
            try FlatBufferReader(bytes: original.bytes, start: 0, end: original.bytes.count, domain: .model)
                .byteRange(try original.op(last), 5, "custom options"))
        var verifier = FlexBufferVerifier(bytes: original.bytes, range: options, what: "detection")
        try verifier.verify()
        #expect(verifier.rootIntegers["max_detections"] == 10)
        #expect(verifier.rootIntegers["num_classes"] == 90)
        // The root map (coco's values are one byte wide): find max_detections' value and set it to 0.
        let bytes = original.bytes
        let rootWidth = Int(bytes[options.upperBound - 1])
        let map = options.upperBound - 2 - rootWidth - Int(bytes[options.upperBound - 2 - rootWidth])
        let width = 1 << Int(bytes[options.upperBound - 2] & 3)
        let count = Int(bytes[map - width])
        let keys = map - 3 * width - Int(bytes[map - 3 * width])
        let keyWidth = Int(bytes[map - 2 * width])
        let index = try #require(
            (0..<count).first { index in
                let key = keys + index * keyWidth - Int(bytes[keys + index * keyWidth])
                return bytes[key..<key + 15].elementsEqual(Array("max_detections".utf8) + [0])
            })
        var model = original
        model.bytes[map + index * width] = 0
        #expect(model.error?.description.contains("set max_detections to 0, outside 1–10000") == true)
    }

    @Test func detectionPostProcessOptions() throws {
        let original = try ModelLocator(model: "coco_ssd_mobilenet_v1.tflite")
        let last = try original.count(try original.subgraph, 3) - 1
        let options = try #require(
            try FlatBufferReader(bytes: original.bytes, start: 0, end: original.bytes.count, domain: .model)
                .byteRange(try original.op(last), 5, "custom options"))
        var model = original
        model.bytes[options.upperBound - 1] = 3  // the root's byte width
        #expect(model.error?.description.contains("TFLite_Detection_PostProcess") == true)
        #expect(model.error?.description.contains("root width 3 is invalid") == true)
        model = original
        // The root map's element count (stored one root-width before the map) made enormous.
        let rootWidth = Int(original.bytes[options.upperBound - 1])
        let rootOffset = Int(original.bytes[options.upperBound - 2 - rootWidth])
        let map = options.upperBound - 2 - rootWidth - rootOffset
        let width = 1 << Int(original.bytes[options.upperBound - 2] & 3)
        for index in 0..<width { model.bytes[map - width + index] = 0xFF }
        #expect(model.error?.description.contains("runs past the buffer") == true)
    }
}
