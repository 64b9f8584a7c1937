import LiteVisionTestSupport
import Testing
import TFLiteFormat

@Suite("Detector models")
struct DetectorModelTests {
    static let postProcessOutputs = [
        "TFLite_Detection_PostProcess", "TFLite_Detection_PostProcess:1",
        "TFLite_Detection_PostProcess:2", "TFLite_Detection_PostProcess:3",
    ]

    @Test func mobileObjectLocalizer() throws {
        let model = try TFLiteModelFile(contentsOfFile: TestData.model("mobile_object_localizer_v1.tflite"))
        #expect(
            model.inputs == [
                TensorInfo(
                    name: "normalized_input_image_tensor", shape: [1, 192, 192, 3],
                    elementType: .uint8,
                    quantization: Quantization(scale: 0.007843137718737125, zeroPoint: 128))
            ])
        #expect(model.outputs.map(\.name) == Self.postProcessOutputs)
        #expect(model.outputs.allSatisfy { $0.elementType == .float32 && $0.quantization == nil })
        // The post-processing operator computes its output shapes at run time: the file declares none.
        #expect(model.outputs.allSatisfy { $0.shape.isEmpty })

        let metadata = try #require(model.metadata)
        #expect(metadata.name == "Mobile Object Localizer")
        #expect(metadata.version == "v1")
        #expect(metadata.minParserVersion == "1.2.0")
        #expect(metadata.license == "Apache License. Version 2.0 http://www.apache.org/licenses/LICENSE-2.0.")
        let input = try #require(metadata.inputTensors.first)
        #expect(input.name == "image")
        #expect(input.normalization == NormalizationOptions(mean: [127.5], std: [127.5]))
        #expect(input.stats == ValueStats(min: [0], max: [255]))
        #expect(metadata.outputTensors.map(\.name) == ["location", "category", "score", "number of detections"])
        let boxes = metadata.outputTensors[0]
        #expect(
            boxes.boundingBox
                == BoundingBoxProperties(
                    index: [1, 0, 3, 2], type: .boundaries,
                    coordinateType: .ratio))
        #expect(boxes.contentRange == ValueRange(min: 2, max: 2))
        #expect(metadata.outputTensors[1].content == .feature)
        #expect(metadata.outputTensors[1].contentRange == ValueRange(min: 2, max: 2))
        #expect(metadata.outputTensors[3].contentRange == nil)
        #expect(metadata.outputTensors.allSatisfy { $0.scoreThreshold == nil })

        #expect(model.associatedFiles.names == ["labelmap.txt"])
        #expect(try model.labelMap(forOutput: 0) == nil)
        #expect(try model.labelMap(forOutput: 1) == LabelMap(labels: ["Entity"]))
    }

    @Test func mobileObjectLocalizerWithoutMetadata() throws {
        let model = try TFLiteModelFile(contentsOfFile: TestData.model("mobile_object_localizer_v1_nometadata.tflite"))
        let withMetadata = try TFLiteModelFile(contentsOfFile: TestData.model("mobile_object_localizer_v1.tflite"))
        #expect(model.metadata == nil)
        #expect(model.associatedFiles.isEmpty)
        #expect(model.inputs == withMetadata.inputs)
        #expect(model.outputs == withMetadata.outputs)
        #expect(try model.labelMap(forOutput: 1) == nil)
    }

    @Test func cocoSSD() throws {
        let model = try TFLiteModelFile(contentsOfFile: TestData.model("coco_ssd_mobilenet_v1.tflite"))
        #expect(model.inputs.map(\.shape) == [[1, 300, 300, 3]])
        #expect(model.inputs[0].quantization == Quantization(scale: 0.0078125, zeroPoint: 128))
        #expect(model.outputs.map(\.name) == Self.postProcessOutputs)
        let metadata = try #require(model.metadata)
        #expect(metadata.name == "Coco SSD MobileNetV1")
        #expect(metadata.outputTensors.map(\.name) == ["locations", "classes", "scores", "number of detections"])
        #expect(
            metadata.outputTensors[0].boundingBox
                == BoundingBoxProperties(
                    index: [1, 0, 3, 2], type: .boundaries,
                    coordinateType: .ratio))
        #expect(metadata.outputTensors[1].associatedFiles.map(\.type) == [.tensorValueLabels])
        let labels = try #require(try model.labelMap(forOutput: 1))
        #expect(labels.count == 90)
        #expect(labels.label(at: 0) == "person")
        #expect(labels.labels.contains("???"))
        #expect(labels.labels.last == "toothbrush")
    }

    @Test func saladDetector() throws {
        let model = try TFLiteModelFile(contentsOfFile: TestData.model("salad_detector_automl.tflite"))
        #expect(model.inputs.map(\.shape) == [[1, 320, 320, 3]])
        #expect(model.minRuntimeVersion == "1.14.0")
        let metadata = try #require(model.metadata)
        #expect(metadata.name == "Image Object Detection Model")
        #expect(metadata.description == "Model built using AutoML Vision")
        #expect(metadata.version == nil)
        #expect(metadata.inputTensors.first?.name == "normalized_input_image_tensor")
        #expect(metadata.outputTensors[1].associatedFiles.map(\.name) == ["dict.txt"])
        let labels = try #require(try model.labelMap(forOutput: 1))
        #expect(labels.labels == ["background", "b'Cheese'", "b'Salad'", "b'Baked Goods'", "b'Tomato'", "b'Seafood'"])
    }

    @Test func foodSSDHasNoMetadataAndAnotherOutputOrder() throws {
        let model = try TFLiteModelFile(contentsOfFile: TestData.model("food_ssd_mobilenet_v2_tf2.tflite"))
        #expect(model.metadata == nil)
        #expect(model.associatedFiles.isEmpty)
        #expect(model.description == "MLIR Converted.")
        #expect(model.minRuntimeVersion == "1.14.0")
        #expect(
            model.inputs == [
                TensorInfo(
                    name: "serving_default_input:0", shape: [1, 320, 320, 3],
                    elementType: .uint8,
                    quantization: Quantization(scale: 0.003921568859368563, zeroPoint: 0))
            ])
        // Scores, boxes, count, classes: the TF2 exporter's order, unlike the TF1 post-processing order.
        #expect(
            model.outputs.map(\.name) == [
                "StatefulPartitionedCall:1", "StatefulPartitionedCall:3",
                "StatefulPartitionedCall:0", "StatefulPartitionedCall:2",
            ])
        let labels = try LabelMap(contentsOfFile: TestData.model("food_ssd_mobilenet_v2_tf2.labels.txt"))
        #expect(labels.count == 8)
        #expect(labels.labels.first == "french_fries")
        #expect(labels.labels.last == "cantaloupe")
    }
}
