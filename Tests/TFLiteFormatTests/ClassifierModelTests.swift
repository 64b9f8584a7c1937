import LiteVisionTestSupport
import Testing
import TFLiteFormat

@Suite("Classifier models")
struct ClassifierModelTests {
    @Test func objectLabelerPicksTheEnglishDisplayNames() throws {
        let model = try TFLiteModelFile(contentsOfFile: TestData.model("object_labeler.tflite"))
        #expect(model.inputs.map(\.shape) == [[1, 224, 224, 3]])
        #expect(model.inputs[0].elementType == .uint8)
        #expect(model.outputs.map(\.name) == ["sigmoid"])
        #expect(model.outputs[0].shape == [1, 631])
        #expect(model.outputs[0].quantization == Quantization(scale: 0.00390625, zeroPoint: 0))

        let metadata = try #require(model.metadata)
        #expect(metadata.name == "google/object_detection/mobile_object_labeler_V1")
        #expect(metadata.author == "Google")
        #expect(metadata.license == "Apache-2.0")
        #expect(metadata.minParserVersion == "1.0.0")
        let input = try #require(metadata.inputTensors.first)
        #expect(
            input.content
                == .image(
                    ImageProperties(
                        colorSpace: .rgb,
                        defaultSize: ImageSize(width: 224, height: 224))))
        #expect(input.normalization == NormalizationOptions(mean: [127.5], std: [127.5]))
        #expect(input.stats == ValueStats(min: [0], max: [255]))
        let output = try #require(metadata.outputTensors.first)
        #expect(output.content == .feature)
        #expect(output.scoreThreshold == Float(0.35))
        #expect(output.stats == ValueStats(min: [0], max: [1]))

        #expect(model.associatedFiles.names == ["probability-labels.txt", "probability-labels-en.txt"])
        #expect(model.labelFile(forOutput: 0)?.name == "probability-labels-en.txt")
        let english = try #require(try model.labelMap(forOutput: 0))
        #expect(english.count == 631)
        #expect(english.labels.prefix(3) == ["Smart speaker", "Virtual reality headset", "Tumbler"])
        #expect(english.labels.allSatisfy { !$0.hasPrefix("/") })

        let identifiers = try #require(try model.labelMap(forOutput: 0, locale: "ja"))
        #expect(identifiers.count == 631)
        // Knowledge graph identifiers: /m/…, /g/…, and a few /j/….
        #expect(identifiers.labels.allSatisfy { $0.hasPrefix("/") && $0.split(separator: "/").count == 2 })
        #expect(identifiers.labels.last == "/m/0zvk5")
    }

    @Test func floatMobileNetHasNormalization() throws {
        let model = try TFLiteModelFile(contentsOfFile: TestData.model("mobilenet_v1_025_float.tflite"))
        #expect(model.inputs == [TensorInfo(name: "input", shape: [1, 224, 224, 3], elementType: .float32)])
        #expect(
            model.outputs == [
                TensorInfo(
                    name: "MobilenetV1/Predictions/Reshape_1", shape: [1, 1001],
                    elementType: .float32)
            ])
        let metadata = try #require(model.metadata)
        #expect(metadata.name == "MobileNetV1 image classifier")
        #expect(metadata.version == "v1")
        #expect(metadata.author == "TensorFlow")
        #expect(metadata.minParserVersion == nil)
        let input = try #require(metadata.inputTensors.first)
        #expect(input.name == "image")
        #expect(input.normalization == NormalizationOptions(mean: [127.5], std: [127.5]))
        #expect(input.content == .image(ImageProperties(colorSpace: .rgb)))
        #expect(input.stats == ValueStats(min: [-1], max: [1]))
        #expect(metadata.outputTensors.first?.scoreThreshold == nil)
        #expect(
            metadata.outputTensors.first?.associatedFiles == [
                AssociatedFileInfo(
                    name: "labels.txt", description: "Labels for objects that the model can recognize.",
                    type: .tensorAxisLabels)
            ])
        let labels = try #require(try model.labelMap(forOutput: 0))
        #expect(labels.count == 1001)
        #expect(labels.label(at: 0) == "background")
        #expect(labels.label(at: 1) == "tench")
        #expect(labels.label(at: 1000) == "toilet tissue")
    }

    @Test func automlFlowersHasNoMetadataAndAnExternalLabelFile() throws {
        let model = try TFLiteModelFile(contentsOfFile: TestData.model("automl_flowers.tflite"))
        #expect(model.metadata == nil)
        #expect(model.associatedFiles.isEmpty)
        #expect(model.associatedFiles.names.isEmpty)
        #expect(model.minRuntimeVersion == nil)
        #expect(try model.labelMap(forOutput: 0) == nil)
        #expect(
            model.inputs == [
                TensorInfo(
                    name: "image", shape: [1, 224, 224, 3], elementType: .uint8,
                    quantization: Quantization(scale: 0.007874015718698502, zeroPoint: 128))
            ])
        #expect(
            model.outputs == [
                TensorInfo(
                    name: "scores", shape: [1, 5], elementType: .uint8,
                    quantization: Quantization(scale: 0.00390625, zeroPoint: 0))
            ])

        let labels = try LabelMap(contentsOfFile: TestData.model("automl_flowers.labels.txt"))
        #expect(labels.labels == ["daisy", "dandelion", "roses", "sunflowers", "tulips"])
    }
}
