import LiteRTRuntime
import LiteVisionImaging

/// Everything that can go wrong in LiteVision, each case with a message that says what to do.
public enum VisionError: Error, Sendable, CustomStringConvertible {
    /// A file (model, labels, manifest, image) does not exist or cannot be read.
    case fileNotReadable(path: String, reason: String)
    /// The model file is not a valid TFLite model (not a FlatBuffer, truncated, corrupt).
    case invalidModel(path: String, reason: String)
    /// The model is valid but does not meet the requirements of the feature it was given to.
    case unsupportedModel(path: String, reason: String)
    /// A label file or manifest is malformed, or does not match the model.
    case invalidLabels(path: String, reason: String)
    /// The image could not be decoded.
    case imageDecoding(ImageDecodingError)
    /// The image (or pixel buffer) cannot be used: sizes, strides, too small.
    case invalidImage(String)
    /// The LiteRT runtime library could not be found or loaded.
    case runtimeUnavailable(RuntimeLoadError)
    /// The LiteRT runtime reported an error.
    case runtime(LiteRtError)
    /// A built-in model is in none of the folders searched (`folders`) and could not be downloaded either.
    case modelDownload(model: BuiltInModel, folders: [String], error: ModelDownloadError)

    public var description: String {
        switch self {
        case .fileNotReadable(let path, let reason):
            "Cannot read \(path): \(reason)."
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
        case .modelDownload(let model, let folders, let error):
            """
            The built-in model \(model.rawValue) is not in \(folders.joined(separator: ", ")), and downloading it \
            failed: \(error). Put the file in one of these folders (or point the options' modelDirectory or \
            LITEVISION_MODEL_DIR at a folder that has it); it is published at \(model.officialURL) \
            (SHA-256 \(model.sha256)).
            """
        }
    }
}
