import LiteVisionModelStore
import LiteVisionSystem

/// Every setting of an ``ImageLabeler``: what the option classes hold behind their lock, and the value snapshot a
/// labeler takes of them when it is made.
struct LabelerConfiguration: Sendable, Hashable {
    /// The classifier: a custom one, or `nil` for the built-in labeler (``ImageLabelerOptions``).
    let model: ModelReference?
    var confidenceThreshold: NSNumber?
    /// At most this many labels: ML Kit's 10 for custom models; every label above the threshold for the built-in
    /// labeler, which has no such option in ML Kit.
    var maxResultCount = LabelFilter.defaultMaxCount
    var labelLocale = "en"
    /// The model cache: a remote model's downloaded copy is read from it; nil for the default one.
    var modelCacheFolder: String?
    /// The built-in labeler's model: where to look for it and whether it may be downloaded.
    var modelDirectory: String?
    var allowsModelDownload = true
    var processing = ProcessingOptions()
}

extension LabelerConfiguration {
    /// The identities of the model files these settings name now (none for the built-in model).
    var modelFileIdentities: [FileIdentity?] {
        model?.fileIdentities(cacheFolder: modelCacheFolder) ?? []
    }
}
