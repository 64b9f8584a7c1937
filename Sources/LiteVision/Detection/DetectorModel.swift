import LiteRT
import LiteVisionGeometry
import LiteVisionImaging
import LiteVisionModelStore
import TFLiteFormat

/// One box an SSD detector found, in pixels of the upright image.
struct RawDetection: Sendable, Equatable {
    var box: BoundingBox
    var score: Float
    /// The detector's class, or nil for a class-agnostic detector (a single label such as "Entity").
    var classIndex: Int?
}

/// An SSD-style TFLite detector with the four post-processed outputs (boxes, classes, scores, count),
/// checked, compiled and ready: the engine behind ``ObjectDetector``.
///
/// Requirements (checked when it is created): one uint8 or float32 `[1, H, W, 3]` input (float32 with
/// NormalizationOptions), four float32 outputs whose roles can be worked out (see ``ObjectDetectorOptions/DetectorOutputLayout``).
/// Labels come from the label file given, else the metadata's label file of the classes output. A label file
/// whose first line is `background` (or `__background__`) is shifted by one, since class `i` is then line
/// `i + 1`; labels written as Python byte strings (`b'Cheese'`) are unwrapped.
final class DetectorModel: Sendable {
    let model: ImageModel
    let layout: ObjectDetectorOptions.DetectorOutputLayout
    /// Class labels (already shifted for a background line), or nil.
    let labels: [String]?
    /// The number of boxes the model writes at most.
    let capacity: Int

    var path: String { model.path }

    init(
        _ resolved: ResolvedModel, settings: ProcessingOptions, locale: String = "en",
        layout explicitLayout: ObjectDetectorOptions.DetectorOutputLayout? = nil, labelOffset: Int? = nil
    ) throws(VisionError) {
        try resolved.requireManifestModelType("OBJECT_DETECTION")
        nonisolated(unsafe) var shapes: [[Int]] = []
        model = try ImageModel(resolved, settings: settings, checkOutputs: Self.outputViolations) {
            (session) throws(VisionError) in
            // Detector outputs often have open shapes until the model has run once: run it on a gray image.
            do {
                _ = try session.compiled.withInput(0) { $0.initializeMemory(as: UInt8.self, repeating: 0) }
                try session.compiled.run()
                shapes = try session.compiled.currentOutputShapes()
            } catch {
                throw VisionError(runningModel: error)
            }
        }
        let path = resolved.name
        guard
            let layout = explicitLayout
                ?? ObjectDetectorOptions.DetectorOutputLayout.infer(file: model.file, shapes: shapes)
        else {
            throw .unsupportedModel(
                path: path,
                reason: """
                    LiteVision cannot tell which of its outputs are the boxes, classes, scores and count (output shapes \
                    after a run: \(shapes)); pass the order explicitly (ObjectDetectorOptions.detectorOutputLayout)
                    """)
        }
        let n = shapes[layout.boxes].count == 3 ? shapes[layout.boxes][1] : 0
        guard n > 0, shapes[layout.classes].reduce(1, *) == n, shapes[layout.scores].reduce(1, *) == n,
            shapes[layout.count].reduce(1, *) == 1,
            n * 16 <= CompiledModel.openOutputBufferSize
        else {
            throw .unsupportedModel(
                path: path,
                reason:
                    "its outputs are not SSD-style boxes [1, N, 4], classes [1, N], scores [1, N] and count [1] (shapes after a run: \(shapes))"
            )
        }
        self.layout = layout
        capacity = n
        labels = try Self.labels(
            model: resolved, file: model.file, classesOutput: layout.classes, locale: locale,
            offset: labelOffset)
    }

    /// Every way the outputs of `file` rule out an SSD detector.
    static func outputViolations(_ file: TFLiteModelFile) -> [String] {
        if file.outputs.count == 1 {
            return [
                "a detector has four outputs (boxes, classes, scores, count), this model has one (is it a classifier?)"
            ]
        }
        if file.outputs.count != 4 {
            return ["a detector has four outputs (boxes, classes, scores, count), this model has \(file.outputs.count)"]
        }
        if let other = file.outputs.first(where: { $0.elementType != .float32 }) {
            return ["the detector's outputs must be float32, \(other.name) is \(other.elementType)"]
        }
        return []
    }

    private static func labels(
        model: ResolvedModel, file: TFLiteModelFile, classesOutput: Int, locale: String,
        offset: Int?
    ) throws(VisionError) -> [String]? {
        guard var list = try LabelSource.labels(for: model, file: file, output: classesOutput, locale: locale)?.labels
        else {
            return nil
        }
        list = list.map(unwrapByteString)
        let shift = offset ?? (["background", "__background__"].contains(list.first?.lowercased() ?? "") ? 1 : 0)
        return Array(list.dropFirst(max(0, shift)))
    }

    /// `b'Cheese'` → `Cheese` (labels some exporters write as Python byte-string literals).
    static func unwrapByteString(_ label: String) -> String {
        for quote in ["'", "\""] where label.hasPrefix("b" + quote) && label.hasSuffix(quote) && label.count >= 3 {
            return String(label.dropFirst(2).dropLast())
        }
        return label
    }

    /// Runs the detector on `image` and returns the detections with a score of at least `minimumScore`,
    /// highest first, in pixels of the upright image (clamped to it).
    func detect(_ image: OrientedImage, minimumScore: Float) throws(VisionError) -> [RawDetection] {
        do {
            return try model.pool.withSession { session in
                try model.writeInput(image, session: session)
                try session.compiled.run()
                return try readDetections(
                    session.compiled, width: Double(image.resultSize.width),
                    height: Double(image.resultSize.height), minimumScore: minimumScore)
            }
        } catch {
            throw VisionError(runningModel: error)
        }
    }

    private func readDetections(
        _ compiled: CompiledModel, width: Double, height: Double,
        minimumScore: Float
    ) throws -> [RawDetection] {
        let count = try compiled.withOutput(layout.count) { raw in raw.load(as: Float.self) }
        let n = count.isFinite ? min(capacity, max(0, Int(count))) : 0
        guard n > 0 else { return [] }
        let scores = try compiled.withOutput(layout.scores) { Array($0.bindMemory(to: Float.self).prefix(n)) }
        let classes = try compiled.withOutput(layout.classes) { Array($0.bindMemory(to: Float.self).prefix(n)) }
        let scaleX = layout.ratioCoordinates ? width : width / Double(model.input.width)
        let scaleY = layout.ratioCoordinates ? height : height / Double(model.input.height)
        let index = layout.boxIndex
        return try compiled.withOutput(layout.boxes) { raw in
            let values = raw.bindMemory(to: Float.self)
            var detections: [RawDetection] = []
            for k in 0..<n where scores[k] >= minimumScore && scores[k].isFinite {
                let v = SIMD4<Double>(
                    Double(values[k * 4 + index[0]]), Double(values[k * 4 + index[1]]),
                    Double(values[k * 4 + index[2]]), Double(values[k * 4 + index[3]]))
                guard v[0].isFinite, v[1].isFinite, v[2].isFinite, v[3].isFinite else { continue }
                let left, top, right, bottom: Double
                switch layout.boxType {
                case .boundaries: (left, top, right, bottom) = (v[0], v[1], v[2], v[3])
                case .upperLeft: (left, top, right, bottom) = (v[0], v[1], v[0] + v[2], v[1] + v[3])
                case .center:
                    (left, top, right, bottom) = (v[0] - v[2] / 2, v[1] - v[3] / 2, v[0] + v[2] / 2, v[1] + v[3] / 2)
                }
                let box = BoundingBox(
                    x: left * scaleX, y: top * scaleY, width: (right - left) * scaleX,
                    height: (bottom - top) * scaleY
                ).clamped(width: width, height: height)
                guard box.width > 0, box.height > 0 else { continue }
                let classValue = classes[k]
                let classIndex = classValue.isFinite && classValue >= 0 ? Int(classValue.rounded()) : nil
                detections.append(RawDetection(box: box, score: scores[k], classIndex: classIndex))
            }
            return detections.sorted { $0.score > $1.score }
        }
    }
}
