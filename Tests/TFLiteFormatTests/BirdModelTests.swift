import LiteVisionTestSupport
import Testing
import TFLiteFormat

@Suite("bird.tflite (ML Kit's custom classifier sample)")
struct BirdModelTests {
    let model: TFLiteModelFile

    init() throws {
        model = try TFLiteModelFile(contentsOfFile: TestData.model("bird.tflite"))
    }

    @Test func tensors() {
        #expect(model.schemaVersion == 3)
        #expect(model.description == "TOCO Converted.")
        #expect(model.subgraphCount == 1)
        #expect(model.minRuntimeVersion == "1.5.0")
        #expect(
            model.inputs == [
                TensorInfo(
                    name: "module/hub_input/images_uint8", shape: [1, 224, 224, 3],
                    elementType: .uint8,
                    quantization: Quantization(scale: 0.0078125, zeroPoint: 128))
            ])
        #expect(
            model.outputs == [
                TensorInfo(
                    name: "module/prediction", shape: [1, 965], elementType: .uint8,
                    quantization: Quantization(scale: 0.00390625, zeroPoint: 0))
            ])
        #expect(model.outputs[0].elementCount == 965)
        #expect(model.bytes.count == 3_588_463)
    }

    @Test func metadata() throws {
        let metadata = try #require(model.metadata)
        #expect(metadata.name == "aiy/classifier/natural_world_birds_V1")
        #expect(metadata.version == "2")
        #expect(metadata.author == nil)
        #expect(metadata.associatedFiles.isEmpty)
        #expect(metadata.inputTensors.count == 1)
        #expect(metadata.inputTensors[0].name == "input")
        // The input has a Content table without properties and no normalization: uint8 bytes go in as they are.
        #expect(metadata.inputTensors[0].content == nil)
        #expect(metadata.inputTensors[0].normalization == nil)
        let output = try #require(metadata.outputTensors.first)
        #expect(metadata.outputTensors.count == 1)
        #expect(output.name == "0")
        #expect(output.scoreThreshold == Float(0.3))
        #expect(output.scoreCalibration == nil)
        #expect(
            output.associatedFiles == [
                AssociatedFileInfo(name: "0-labels.txt", type: .tensorAxisLabels),
                AssociatedFileInfo(name: "0-labels-en.txt", type: .tensorAxisLabels, locale: "en"),
            ])
    }

    @Test func associatedFilesAndLabels() throws {
        #expect(model.associatedFiles.names == ["0-labels-en.txt", "0-labels.txt"])
        #expect(model.labelFile(forOutput: 0)?.name == "0-labels-en.txt")
        let labels = try #require(try model.labelMap(forOutput: 0))
        #expect(labels.count == 965)
        #expect(labels.label(at: 567) == "Ardea cinerea (Grey Heron)")
        #expect(labels.label(at: 0) == "Haemorhous cassinii (Cassin's Finch)")
        #expect(labels.label(at: 964) == "N/A")
        #expect(labels.label(at: 965) == nil)

        // A locale without a translation falls back to the file without a locale (scientific names only).
        let neutral = try #require(try model.labelMap(forOutput: 0, locale: "de"))
        #expect(neutral.count == 965)
        #expect(neutral.label(at: 567) == "Ardea cinerea")
        #expect(neutral.label(at: 964) == "__background__")
        #expect(try model.labelMap(forOutput: 0, locale: "en-GB") == labels)

        #expect(try model.labelMap(forOutput: 1) == nil)
        #expect(try model.labelMap(forOutput: -1) == nil)
        #expect(try model.associatedFiles.data(named: "missing.txt") == nil)
        #expect(try model.associatedFiles.data(named: "0-labels.txt")?.count == 18_631)
    }

    @Test func parsingFromBytesMatchesParsingTheFile() throws {
        let fromBytes = try TFLiteModelFile(bytes: modelBytes("bird.tflite"))
        #expect(fromBytes.inputs == model.inputs)
        #expect(fromBytes.outputs == model.outputs)
        #expect(fromBytes.metadata == model.metadata)
        #expect(fromBytes.associatedFiles.names == model.associatedFiles.names)
        #expect(fromBytes.bytes == model.bytes)
    }
}
