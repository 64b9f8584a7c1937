import LiteVisionCommandSupport
import LiteVisionEvaluation
import LiteVisionImaging
import LiteVisionModelStore
import LiteVisionTracking
import TFLiteFormat

/// The parsers of untrusted bytes that `scripts/fuzz.sh` fuzzes, each run on one input as a user's file would
/// be: every one must end with a value or its own error, never a crash, hang or runaway allocation.
enum FuzzTarget: String, CaseIterable {
    /// A `.tflite` file: the verifier, the model reader, its metadata, its associated files and label maps.
    case model
    /// A zip of associated files on its own, every file read.
    case zip
    /// A TIFF/EXIF block, as found in a JPEG's APP1 segment or a PNG's eXIf chunk.
    case exif
    /// A JPEG or PNG through LiteVision's decoder wrappers (header, EXIF, pixels), limited to 16 megapixels; a
    /// JPEG is also decoded in bands on three threads, which must give the same pixels, warning or error.
    case image
    /// A JPEG or PNG decoded as MediaPipe's `Image.create_from_file` decodes it (`.mediapipe` preprocessing of a
    /// file): stb_image's pixels, with its bounds, and the EXIF orientation as MediaPipe reads it; limited to 16
    /// megapixels.
    case mediaPipeImage = "mediapipe-image"
    /// A label file.
    case labels
    /// An AutoML Vision Edge `manifest.json`.
    case manifest
    /// A COCO file for `eval detect`: JSON, read as a ground truth and as results; a small ground truth is then
    /// evaluated against its own boxes.
    case coco
    /// A MOTChallenge text file for `eval track`: a small one is evaluated against itself.
    case mot
    /// A MOTChallenge detection file for `track --detections`: a small one is tracked as the command tracks it.
    case motDetections = "mot-detections"

    /// Runs the target on `bytes`.
    func run(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .model:
            guard let model = try? TFLiteModelFile(bytes: Array(bytes)) else { return }
            for output in model.outputs.indices { _ = try? model.labelMap(forOutput: output) }
            for name in model.associatedFiles.names { _ = try? model.associatedFiles.data(named: name) }
        case .zip:
            guard let files = try? AssociatedFiles(bytes: Array(bytes)) else { return }
            for name in files.names { _ = try? files.data(named: name) }
        case .exif:
            _ = EXIFReader.orientation(inEXIF: bytes)
            _ = EXIFReader.orientation(inJPEG: bytes)
            _ = EXIFReader.orientation(inPNG: bytes)
        case .image:
            let decoder = ImageDecoder(maxPixelCount: 16_000_000)
            _ = try? decoder.inspect(bytes)
            _ = try? decoder.decode(bytes, minimumSize: (width: 224, height: 224))
            for lenient in [false, true] {
                let one = ImageDecoder(maxPixelCount: 16_000_000, allowsDamagedData: lenient)
                let bands = ImageDecoder(
                    maxPixelCount: 16_000_000, allowsDamagedData: lenient, threadCount: 3, bandMinimumPixelCount: 0)
                Self.requireSameDecoding(one, bands, bytes, minimumSize: nil)
                Self.requireSameDecoding(one, bands, bytes, minimumSize: (width: 40, height: 30))
            }
        case .mediaPipeImage:
            let decoder = ImageDecoder(maxPixelCount: 16_000_000, reference: .mediaPipe)
            guard let decoded = try? decoder.decode(bytes) else { return }
            let image = decoded.image
            precondition(image.format == .rgb8 && image.pixels.count == image.width * image.height * 3)
            precondition(image.width * image.height <= 16_000_000, "a decoded image over the pixel limit")
        case .labels:
            _ = try? LabelMap(text: Array(bytes))
        case .manifest:
            _ = try? AutoMLManifest.resolve(Array(bytes), manifestPath: "/nonexistent/manifest.json")
        case .coco:
            guard let json = try? JSONReader.parse(Array(bytes), file: "fuzz.json") else { return }
            _ = try? COCODetection.list(in: json, file: "fuzz.json")
            guard let truth = try? COCOGroundTruth(json: json, file: "fuzz.json"), truth.annotations.count <= 500,
                truth.images.count <= 500, truth.categories.count <= 50
            else { return }
            let detections = truth.annotations.enumerated().map { index, annotation in
                COCODetection(
                    imageID: annotation.imageID, categoryID: annotation.categoryID, box: annotation.box,
                    score: Double(index % 7) / 7)
            }
            _ = try? COCOEvaluation(groundTruth: truth, detections: detections, resultsFile: "fuzz.json")
        case .mot:
            guard let file = try? MOTFile(bytes: Array(bytes), path: "fuzz.txt"), file.rows.count <= 2000 else {
                return
            }
            for mot17 in [false, true] {
                guard let sequence = try? TrackingSequence(name: "fuzz", groundTruth: file, results: file, mot17: mot17)
                else { continue }
                _ = TrackingEvaluation([sequence])
            }
        case .motDetections:
            Self.trackDetections(bytes)
        }
    }

    /// Stops the fuzzer (a finding) when `one` and `other` decode `bytes` (at the scale `minimumSize` allows)
    /// differently: other pixels, another warning, or another error.
    private static func requireSameDecoding(
        _ one: ImageDecoder, _ other: ImageDecoder, _ bytes: UnsafeRawBufferPointer,
        minimumSize: (width: Int, height: Int)?
    ) {
        let first = Result { () throws(ImageDecodingError) in try one.decode(bytes, minimumSize: minimumSize) }
        let second = Result { () throws(ImageDecodingError) in try other.decode(bytes, minimumSize: minimumSize) }
        switch (first, second) {
        case (.success(let a), .success(let b)):
            precondition(a.image.pixels == b.image.pixels, "band decoding gave other pixels")
            precondition(a.warning == b.warning, "band decoding gave another warning")
        case (.failure(let a), .failure(let b)):
            precondition("\(a)" == "\(b)", "band decoding failed otherwise: \(a) / \(b)")
        default:
            preconditionFailure("band decoding succeeded or failed alone: \(first) / \(second)")
        }
    }

    /// Parses a detection file, checks what the parser promises, and tracks a small one as `litevision track
    /// --detections` does (the frame size from the boxes' extent).
    private static func trackDetections(_ bytes: UnsafeRawBufferPointer) {
        guard let file = try? MOTDetectionFile(bytes: Array(bytes), path: "fuzz.txt") else { return }
        precondition(file.frames.count <= MOTDetectionFile.maximumFrame)
        precondition(file.rowCount == file.frames.reduce(0) { $0 + $1.count })
        for detection in file.frames.joined() {
            let box = detection.box
            precondition(box.width > 0 && box.height > 0 && box.maxX.isFinite && box.maxY.isFinite)
            precondition(detection.score.isFinite)
        }
        guard file.rowCount <= 2000, file.frames.count <= 500 else { return }
        let width = max(1, Int(file.extent.maxX.rounded(.up))), height = max(1, Int(file.extent.maxY.rounded(.up)))
        var tracker = ObjectTracker()
        for frame in file.frames { _ = tracker.update(frame, imageWidth: width, imageHeight: height) }
    }
}
