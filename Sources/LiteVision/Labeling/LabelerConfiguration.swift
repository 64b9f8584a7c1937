import LiteVisionModelStore

/// Every setting of an ``ImageLabeler``: what ``CustomImageLabelerOptions`` holds behind its lock, and the
/// value snapshot a labeler takes of it when it is made.
struct LabelerConfiguration: Sendable {
    let model: ModelReference
    var confidenceThreshold: NSNumber?
    var maxResultCount: Int?
    var labelLocale = "en"
    /// The model cache holding the remote model's downloaded copy; nil for the default one.
    var modelCacheFolder: String?
    var processing = ProcessingOptions()
}
