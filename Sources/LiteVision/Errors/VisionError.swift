import LiteRT
import LiteVisionImaging
import LiteVisionModelStore

/// Everything that can go wrong in LiteVision, each case with a message that says what to do.
///
/// Every throwing API of LiteVision throws a `VisionError` (typed throws), so a `catch` sees this type
/// directly. Its ``description`` is a complete sentence for a log or a user; the cases carry the details for
/// code that reacts to a particular failure.
public enum VisionError: Error, Sendable, CustomStringConvertible {
    /// A file (model, labels, manifest, image) does not exist or cannot be read.
    case fileNotReadable(path: String, reason: String)
    /// A file LiteVision was asked to write (an annotated image, a JSON or MOT file) could not be written.
    case fileNotWritable(path: String, reason: String)
    /// The model file is not a valid TFLite model (not a FlatBuffer, truncated, corrupt).
    case invalidModel(path: String, reason: String)
    /// The model is valid but does not meet the requirements of the feature it was given to (for example a
    /// detector given to a labeler, an input that is not one RGB image, a float input without normalization
    /// metadata), or an AutoML manifest names a model of another kind.
    case unsupportedModel(path: String, reason: String)
    /// A label file or AutoML manifest is malformed, or the labels do not match the model's outputs.
    case invalidLabels(path: String, reason: String)
    /// The image could not be decoded.
    case imageDecoding(ImageDecodingError)
    /// The image (or pixel buffer) cannot be used: sizes, strides, too small.
    case invalidImage(String)
    /// The LiteRT runtime library could not be found or loaded.
    case runtimeUnavailable(RuntimeLoadError)
    /// The LiteRT runtime reported an error.
    case runtime(LiteRTError)
    /// A built-in model is in none of the folders searched and could not be downloaded either; the error
    /// names the folders, the URL, the expected SHA-256 and why the download failed.
    case modelDownload(ModelDownloadError)
    /// A labeler or detector was given a remote model that is not downloaded on this machine yet (its name):
    /// download it first (`ModelManager`), or use a bundled local model until the download succeeded.
    case remoteModelNotDownloaded(String)

    /// The ``description``, under the name ML Kit code reads from its `NSError`s
    /// (`print("Failed: \(error.localizedDescription)")`).
    public var localizedDescription: String { description }

    public var description: String {
        switch self {
        case .fileNotReadable(let path, let reason):
            "Cannot read \(path): \(reason)."
        case .fileNotWritable(let path, let reason):
            "Cannot write \(path): \(reason)."
        case .invalidModel(let path, let reason):
            "\(path) is not a valid TFLite model: \(reason)."
        case .unsupportedModel(let path, let reason):
            "The model \(path) cannot be used here: \(reason)."
        case .invalidLabels(let path, let reason):
            "The labels in \(path) cannot be used: \(reason)."
        case .imageDecoding(let error):
            "The image could not be decoded: \(error)"
        case .invalidImage(let reason):
            "The image cannot be used: \(reason)."
        case .runtimeUnavailable(let error):
            error.description
        case .runtime(let error):
            error.description
        case .modelDownload(let error):
            error.description
        case .remoteModelNotDownloaded(let name):
            """
            The remote model \(name) is not downloaded on this machine yet: download it first \
            (ModelManager.modelManager().download), or use a bundled local model until the download succeeded.
            """
        }
    }
}

extension VisionError {
    /// The error a user sees for a model the store could not provide.
    init(_ error: ModelStoreError) {
        switch error {
        case .fileNotReadable(let path, let reason):
            self = .fileNotReadable(path: path, reason: reason)
        case .invalidManifest(let path, let reason):
            self = .invalidLabels(path: path, reason: reason)
        case .unsupportedManifest(let path, let reason):
            self = .unsupportedModel(path: path, reason: reason)
        case .builtInModelMissing(let model, let folders, let url):
            self = .fileNotReadable(
                path: model.rawValue,
                reason: """
                    the built-in model \(model.rawValue) is not in \(folders.joined(separator: ", ")). Put it in one of these \
                    folders (or point the options' modelDirectory or LITEVISION_MODEL_DIR at a folder that has it); it is \
                    published at \(url) (SHA-256 \(model.sha256))
                    """)
        case .download(let error):
            self = .modelDownload(error)
        case .notDownloaded(let model):
            self = .remoteModelNotDownloaded(model.name)
        }
    }

    /// Any error thrown while running a model: LiteVision's own errors as they are, the runtime's as
    /// ``runtime(_:)``. Nothing else is thrown by the calls it wraps; should anything else arrive it is
    /// reported as a runtime failure naming it, never as a problem with the image.
    init(runningModel error: any Error) {
        switch error {
        case let error as VisionError: self = error
        case let error as LiteRTError: self = .runtime(error)
        default: self = .runtime(LiteRTError(status: 9, operation: "run the model (\(error))"))
        }
    }
}
