import LiteVisionModelStore
import Synchronization

/// The options every ``ImageLabeler`` has, as ML Kit's `CommonImageLabelerOptions`: the base of
/// ``ImageLabelerOptions`` (the built-in labeler) and ``CustomImageLabelerOptions`` (your classifier), and what
/// ``ImageLabeler/imageLabeler(options:)`` takes.
///
/// **A labeler takes a copy.** It reads every setting when it is made; changing the options afterwards has no
/// effect on it. The options may be read and changed from any thread (each property under a lock), but
/// configure them fully before making a labeler, as in ML Kit.
public class CommonImageLabelerOptions: @unchecked Sendable {
    // @unchecked Sendable: the class is not final (ML Kit's class hierarchy), so the compiler cannot check it.
    // Its only stored property is `state`, a Mutex every setting is read and written under, and its two
    // subclasses add no stored property.

    /// Every setting; read and written under this lock.
    let state: Mutex<LabelerConfiguration>

    init(_ configuration: LabelerConfiguration) {
        state = Mutex(configuration)
    }

    /// A copy of every setting, as a labeler takes it when it is made.
    var configuration: LabelerConfiguration { state.withLock { $0 } }

    /// Only labels with at least this confidence are returned (0...1): `NSNumber(value: 0.5)` as in ML Kit,
    /// or a literal.
    ///
    /// It starts unset (`nil`), as in ML Kit. When unset or invalid (outside 0...1, or not a number), the
    /// built-in labeler (``ImageLabelerOptions``) uses 0.5, and a custom one (``CustomImageLabelerOptions``) the
    /// threshold in the model's metadata (ScoreThresholdingOptions), else 0.0 — as in ML Kit.
    public var confidenceThreshold: NSNumber? {
        get { state.withLock { $0.confidenceThreshold } }
        set { state.withLock { $0.confidenceThreshold = newValue } }
    }

    /// The model cache folder (LiteVision addition): where a remote model's downloaded copy is read, the folder
    /// given to `ModelManager(cacheFolder:)` or to `litevision models download --cache`. When unset (`nil`) or
    /// empty, the default cache: `LITEVISION_MODEL_CACHE`, else `~/.cache/litevision/models` (`$XDG_CACHE_HOME`
    /// when set).
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
