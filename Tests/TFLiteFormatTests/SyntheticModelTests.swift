import LiteVisionTestSupport
import Testing
import TFLiteFormat

@Suite("Synthetic models (format features the shared models do not use)")
struct SyntheticModelTests {
    @Test func fullMetadataInline() throws {
        let bytes = ModelFixture.model(metadata: ModelFixture.metadata()) { ModelFixture.labelZip(start: $0) }
        let model = try TFLiteModelFile(bytes: bytes)
        try checkFixture(model)
    }

    @Test func metadataOutsideTheFlatBufferAndZipOffsetsRelativeToTheZip() throws {
        let bytes = ModelFixture.model(metadata: ModelFixture.metadata(), outside: true) {
            ModelFixture.labelZip(start: $0, offsetsFromFileStart: false)
        }
        let model = try TFLiteModelFile(bytes: bytes)
        try checkFixture(model)
    }

    private func checkFixture(_ model: TFLiteModelFile) throws {
        #expect(model.schemaVersion == 3)
        #expect(model.description == "Synthetic")
        #expect(model.minRuntimeVersion == "2.3.0")
        #expect(
            model.inputs == [
                TensorInfo(
                    name: "image", shape: [1, 5, 4, 3], elementType: .uint8,
                    quantization: Quantization(scale: 0.5, zeroPoint: 128))
            ])
        #expect(
            model.outputs == [
                TensorInfo(name: "probability", shape: [1, 3], elementType: .float32, quantization: nil),
                TensorInfo(name: "boxes", shape: [1, 1, 4], elementType: .float64),
                TensorInfo(name: "audio", shape: [1], elementType: .uint16),
            ])

        let metadata = try #require(model.metadata)
        #expect(metadata.name == "Synthetic classifier")
        #expect(metadata.description == "A model written by the tests.")
        #expect(metadata.version == "1.0")
        #expect(metadata.author == "LiteVision tests")
        #expect(metadata.license == "Apache-2.0")
        #expect(metadata.minParserVersion == "1.2.0")
        #expect(
            metadata.associatedFiles == [
                AssociatedFileInfo(
                    name: "readme.txt", description: "Read me first.",
                    type: .descriptions)
            ])
        #expect(metadata.subgraphAssociatedFiles == [AssociatedFileInfo(name: "vocab.txt", type: .vocabulary)])
        #expect(
            metadata.inputProcessUnits == [
                .bertTokenizer(vocabularyFiles: [AssociatedFileInfo(name: "vocab.txt", type: .vocabulary)]),
                .regexTokenizer(delimiterPattern: "\\s+"),
            ])
        #expect(
            metadata.outputProcessUnits == [
                .sentencePieceTokenizer(modelFiles: [AssociatedFileInfo(name: "sp.model", type: .unknown)])
            ])

        let input = try #require(metadata.inputTensors.first)
        #expect(
            input
                == TensorMetadata(
                    name: "image", description: "An RGB image.",
                    content: .image(ImageProperties(colorSpace: .rgb, defaultSize: ImageSize(width: 4, height: 5))),
                    processUnits: [.normalization(NormalizationOptions(mean: [127.5, 127, 126], std: [128]))],
                    stats: ValueStats(min: [0], max: [255])))

        #expect(metadata.outputTensors.count == 3)
        let scores = metadata.outputTensors[0]
        #expect(scores.dimensionNames == ["batch", "class"])
        #expect(scores.content == .feature)
        #expect(scores.contentRange == ValueRange(min: 1, max: 1))
        #expect(scores.scoreCalibration == ScoreCalibration(transformation: .inverseLogistic, defaultScore: 0.25))
        #expect(scores.scoreThreshold == 0.4)
        #expect(scores.normalization == nil)
        #expect(scores.processUnits.last == .other(9))
        #expect(scores.associatedFiles(ofType: .tensorAxisScoreCalibration).map(\.name) == ["calibration.csv"])
        #expect(
            metadata.outputTensors[1].boundingBox
                == BoundingBoxProperties(
                    index: [0, 1, 2, 3], type: .center,
                    coordinateType: .pixel))
        #expect(metadata.outputTensors[2].content == .audio(AudioProperties(sampleRate: 16_000, channels: 2)))

        // Deflated and stored entries of the appended zip.
        #expect(model.associatedFiles.names == ["labels.txt", "labels_fr.txt"])
        #expect(try model.associatedFiles.data(named: "labels.txt") == ModelFixture.labels)
        #expect(try model.associatedFiles.data(named: "labels_fr.txt") == ModelFixture.frenchLabels)

        // Locale choice: none is "en", so the file without a locale; "fr-CA" shares the language of "fr".
        #expect(model.labelFile(forOutput: 0)?.name == "labels.txt")
        #expect(try model.labelMap(forOutput: 0) == LabelMap(labels: ["cat", "dog", "bird"]))
        #expect(try model.labelMap(forOutput: 0, locale: "FR") == LabelMap(labels: ["chat", "chien", "oiseau"]))
        #expect(try model.labelMap(forOutput: 0, locale: "fr_CA") == LabelMap(labels: ["chat", "chien", "oiseau"]))
        #expect(try model.labelMap(forOutput: 1) == nil)
    }

    @Test func labelFileChoice() throws {
        func model(_ files: [FBNode]) throws -> TFLiteModelFile {
            let root: FBNode = .table([
                3: .node(.tables([.table([3: .node(.tables([.table([6: .node(.tables(files))])]))])]))
            ])
            return try TFLiteModelFile(bytes: ModelFixture.model(metadata: ModelFixture.metadata(root: root)))
        }
        let translated = try model([
            ModelFixture.file(name: "de.txt", type: 3, locale: "de"),
            ModelFixture.file(name: "fr.txt", type: 3, locale: "fr-CA"),
        ])
        #expect(translated.labelFile(forOutput: 0)?.name == "de.txt")
        #expect(translated.labelFile(forOutput: 0, locale: "fr")?.name == "fr.txt")
        #expect(translated.labelFile(forOutput: 0, locale: "fr-ca")?.name == "fr.txt")
        #expect(translated.labelFile(forOutput: 1) == nil)

        let mixed = try model([
            ModelFixture.file(name: "values.txt", type: 3, locale: "en"),
            ModelFixture.file(name: "calibration.csv", type: 4),
            ModelFixture.file(name: "axis.txt", type: 2, locale: "de"),
        ])
        #expect(mixed.labelFile(forOutput: 0)?.name == "axis.txt")

        let none = try model([ModelFixture.file(name: "readme.txt", type: 1)])
        #expect(none.labelFile(forOutput: 0) == nil)
        #expect(try none.labelMap(forOutput: 0) == nil)
    }

    @Test func labelFileMissingFromTheZip() throws {
        let model = try TFLiteModelFile(bytes: ModelFixture.model(metadata: ModelFixture.metadata()))
        #expect(model.associatedFiles.isEmpty)
        let error = thrownError { try model.labelMap(forOutput: 0) }
        #expect(error == .missingAssociatedFile(name: "labels.txt"))
        #expect(error?.description.contains("labels.txt") == true)
    }

    @Test func modelWithoutMetadata() throws {
        let model = try TFLiteModelFile(bytes: ModelFixture.model(metadata: nil))
        #expect(model.metadata == nil)
        #expect(model.minRuntimeVersion == nil)
        #expect(model.inputs.count == 1)
    }

    @Test func inputIndexOutsideTheTensors() {
        let error = thrownError { try TFLiteModelFile(bytes: ModelFixture.model(metadata: nil, inputIndices: [0, 7])) }
        #expect(error?.kind == "malformed")
        #expect(error?.description.contains("refers to tensor 7") == true)
        let negative = thrownError { try TFLiteModelFile(bytes: ModelFixture.model(metadata: nil, inputIndices: [-1])) }
        #expect(negative?.kind == "malformed")
    }

    @Test func noSubgraph() {
        let error = thrownError { try TFLiteModelFile(bytes: ModelFixture.model(metadata: nil, subgraphs: false)) }
        #expect(error == .malformed("the model has no subgraph"))
    }

    @Test func metadataBufferIndexOutOfRange() {
        let bytes = ModelFixture.model(metadata: ModelFixture.metadata(), metadataBuffer: 99)
        let error = thrownError { try TFLiteModelFile(bytes: bytes) }
        #expect(error?.kind == "malformed")
        #expect(error?.description.contains("buffer 99") == true)
    }

    @Test func metadataWithTheWrongIdentifier() {
        let bytes = ModelFixture.model(metadata: ModelFixture.metadata(identifier: "XXXX"))
        let error = thrownError { try TFLiteModelFile(bytes: bytes) }
        #expect(error?.kind == "malformedMetadata")
        #expect(error?.description.contains("M001") == true)
    }

    @Test func outsideBufferPastTheEndOfTheFile() {
        let bytes = ModelFixture.model(metadata: ModelFixture.metadata(), outside: true, outsideOffsetAdjustment: 64)
        let error = thrownError { try TFLiteModelFile(bytes: bytes) }
        #expect(error?.kind == "truncatedOrCorrupt")
        #expect(error?.description.contains("outside the \(bytes.count)-byte file") == true)
    }

    @Test func aliasedMetadataVectorsCannotExplodeTheWork() {
        // 20 000 outputs that all share one table with 20 000 files: 400 million entries if read naively.
        let file = ModelFixture.file(name: String(repeating: "x", count: 1000), type: 2)
        let tensor: FBNode = .table([6: .node(.repeatedTable(file, count: 20_000))])
        let root: FBNode = .table([3: .node(.tables([.table([3: .node(.repeatedTable(tensor, count: 20_000))])]))])
        let bytes = ModelFixture.model(metadata: ModelFixture.metadata(root: root))
        let clock = ContinuousClock()
        var error: ModelFileError?
        let elapsed = clock.measure { error = thrownError { try TFLiteModelFile(bytes: bytes) } }
        #expect(error?.kind == "malformedMetadata")
        #expect(error?.description.contains("far more data than it holds") == true)
        #expect(elapsed < .seconds(2))
    }

    @Test func aliasedSubgraphsCannotExplodeTheVerifiersWork() {
        // 1 000 subgraphs (the most a model may have) that are all one table of 20 000 tensors: 20 million tensors
        // to verify if read naively, from a file of about 100 KB.
        let subgraph: FBNode = .table([
            0: .node(.repeatedTable(GraphFixture.tensor([1, 4]), count: 20_000)), 1: .node(.int32s([0])),
            2: .node(.int32s([0])),
        ])
        let root: FBNode = .table([
            0: .u32(3), 2: .node(.repeatedTable(subgraph, count: 1_000)), 4: .node(.tables([.table([:])])),
        ])
        let bytes = FBWriter.buffer(root: root, identifier: "TFL3")
        let clock = ContinuousClock()
        var error: ModelFileError?
        let elapsed = clock.measure { error = thrownError { try TFLiteModelFile(bytes: bytes) } }
        #expect(error?.description.contains("far more data than it holds") == true, "\(String(describing: error))")
        #expect(elapsed < .seconds(2))
    }

    @Test func fuzzedSyntheticModelNeverCrashes() throws {
        let original = ModelFixture.model(metadata: ModelFixture.metadata(), outside: true) {
            ModelFixture.labelZip(start: $0)
        }
        var generator = SeededGenerator(seed: 0x5EED_0001)
        var thrown = 0, parsed = 0
        for _ in 0..<2000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[position] = UInt8.random(in: 0...255, using: &generator)
            }
            if exercise(bytes) { parsed += 1 } else { thrown += 1 }
        }
        #expect(thrown > 100)
        #expect(parsed > 100)
    }
}

/// Parses `bytes` and uses everything the result offers; true when parsing succeeded.
func exercise(_ bytes: [UInt8]) -> Bool {
    guard let model = try? TFLiteModelFile(bytes: bytes) else { return false }
    for index in model.outputs.indices {
        _ = try? model.labelMap(forOutput: index)
        _ = try? model.labelMap(forOutput: index, locale: "fr")
    }
    for name in model.associatedFiles.names {
        _ = try? model.associatedFiles.data(named: name)
    }
    _ = model.inputs.map(\.elementCount)
    return true
}
