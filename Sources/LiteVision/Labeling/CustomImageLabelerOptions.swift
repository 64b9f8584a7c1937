import LiteVisionModelStore
import Synchronization

/// Options for an ``ImageLabeler`` running your own TFLite classifier, as ML Kit's
/// `CustomImageLabelerOptions`.
///
/// ```swift
/// let options = CustomImageLabelerOptions(localModel: localModel)
/// options.confidenceThreshold = NSNumber(value: 0.5)
/// options.maxResultCount = 3
/// let imageLabeler = ImageLabeler.imageLabeler(options: options)
/// ```
///
/// With a hosted model, `CustomImageLabelerOptions(remoteModel:)` runs its downloaded copy; a labeler made
/// before it is downloaded reports ``VisionError/remoteModelNotDownloaded(_:)``.
///
/// **A labeler takes a copy.** It reads every setting when it is made; changing the options afterwards has no
/// effect on it. The options may be read and changed from any thread (each property under a lock), but
/// configure them fully before making a labeler, as in ML Kit.
public final class CustomImageLabelerOptions: Sendable {
    /// Every setting; read and written under this lock.
    let state: Mutex<LabelerConfiguration>

    /// The classifier: local, or the downloaded copy of a remote one.
    package let model: ModelReference

    /// Options for the classifier in `localModel`, with ML Kit's defaults.
    public init(localModel: LocalModel) {
        model = .local(localModel)
        state = Mutex(LabelerConfiguration(model: .local(localModel)))
    }

    /// Options for the downloaded copy of the classifier `remoteModel`, with ML Kit's defaults.
    public init(remoteModel: CustomRemoteModel) {
        model = .remote(remoteModel)
        state = Mutex(LabelerConfiguration(model: .remote(remoteModel)))
    }

    /// A copy of every setting, as a labeler takes it when it is made.
    var configuration: LabelerConfiguration { state.withLock { $0 } }

    /// The local classifier, when the options were made with one.
    public var localModel: LocalModel? {
        if case .local(let model) = model { return model }
        return nil
    }

    /// The remote classifier, when the options were made with one.
    public var remoteModel: CustomRemoteModel? {
        if case .remote(let model) = model { return model }
        return nil
    }

    /// Only labels with at least this confidence are returned (0...1): `NSNumber(value: 0.5)` as in ML Kit,
    /// or a literal.
    ///
    /// When unset (`nil`) or invalid (outside 0...1, or not a number), the threshold in the model's
    /// metadata (ScoreThresholdingOptions) is used, else 0.0 — as in ML Kit.
    public var confidenceThreshold: NSNumber? {
        get { state.withLock { $0.confidenceThreshold } }
        set { state.withLock { $0.confidenceThreshold = newValue } }
    }

    /// At most this many labels are returned. When unset (`nil`) or invalid (not positive), 10 — as in ML Kit.
    public var maxResultCount: Int? {
        get { state.withLock { $0.maxResultCount } }
        set { state.withLock { $0.maxResultCount = newValue } }
    }

    /// The model cache folder holding the downloaded copy of a remote model (LiteVision addition): the folder
    /// given to `ModelManager(cacheFolder:)` or to `litevision models download --cache`. When unset (`nil`) or empty,
    /// the default cache: `LITEVISION_MODEL_CACHE`, else `~/.cache/litevision/models` (`$XDG_CACHE_HOME` when set).
    public var modelCacheFolder: String? {
        get { state.withLock { $0.modelCacheFolder } }
        set { state.withLock { $0.modelCacheFolder = newValue } }
    }

    /// Which locale's label file to use when the model's metadata has several (LiteVision addition):
    /// the file whose locale matches, else the one without a locale. Defaults to English.
    public var labelLocale: String {
        get { state.withLock { $0.labelLocale } }
        set { state.withLock { $0.labelLocale = newValue } }
    }

    /// Threads, runtime library and JPEG decoding (LiteVision addition). See ``ProcessingOptions``.
    public var processing: ProcessingOptions {
        get { state.withLock { $0.processing } }
        set { state.withLock { $0.processing = newValue } }
    }
}
