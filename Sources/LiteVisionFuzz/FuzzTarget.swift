import LiteVisionImaging
import LiteVisionModelStore
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
    /// A JPEG or PNG through LiteVision's decoder wrappers (header, EXIF, pixels), limited to 16 megapixels.
    case image
    /// A label file.
    case labels
    /// An AutoML Vision Edge `manifest.json`.
    case manifest

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
            _ = try? decoder.decode(bytes)
            _ = try? decoder.decode(bytes, minimumSize: (width: 224, height: 224))
        case .labels:
            _ = try? LabelMap(text: Array(bytes))
        case .manifest:
            _ = try? AutoMLManifest.resolve(Array(bytes), manifestPath: "/nonexistent/manifest.json")
        }
    }
}
