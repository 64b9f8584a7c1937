/// The built-in models LiteVision uses, found by name (model files cannot ship inside a Swift package).
///
/// A built-in model is looked for, in order: in the folder given in the options (`modelDirectory`); in the
/// folder named by the `LITEVISION_MODEL_DIR` environment variable; in the cache folder
/// (`$XDG_CACHE_HOME/litevision/models`, else `~/.cache/litevision/models`). When none has it, it is downloaded
/// into the cache folder from its official URL (or `$LITEVISION_MODEL_BASE_URL/<file name>`) and verified by its
/// SHA-256 (see `ModelDownloader`). When that fails too, the error says where to put the file, where to get it
/// (the URL and its SHA-256) and why the download failed.
public enum BuiltInModel: String, Sendable, CaseIterable {
    /// Google's class-agnostic Mobile Object Localizer v1 (the public model closest to ML Kit's detector).
    case objectLocalizer = "mobile_object_localizer_v1.tflite"
    /// ML Kit's public object labeler (631 Open Images classes), used for the coarse categories.
    case objectLabeler = "object_labeler.tflite"

    /// Where the model is published.
    public var officialURL: String {
        switch self {
        case .objectLocalizer:
            "https://tfhub.dev/google/lite-model/object_detection/mobile_object_localizer_v1/1/metadata/2?lite-format=tflite"
        case .objectLabeler:
            "https://raw.githubusercontent.com/googlesamples/mlkit/master/android/vision-quickstart/app/src/main/assets/custom_models/object_labeler.tflite"
        }
    }

    /// The SHA-256 of the published file.
    public var sha256: String {
        switch self {
        case .objectLocalizer: "e0a587f55e046db42c8a751fde2f2e12a15bbf23fc893c2ebd8cdfb3cadc5e2e"
        case .objectLabeler: "9400671e04685f5277edd3052a311cc51533de9da94255c52ebde1e18484c77c"
        }
    }
}
