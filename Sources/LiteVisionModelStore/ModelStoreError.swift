/// Why a model could not be had: a file that cannot be read, a malformed AutoML manifest, or a built-in
/// model that is nowhere on this machine and could not be downloaded. LiteVision turns each into the
/// matching `VisionError`.
package enum ModelStoreError: Error, Sendable {
    /// A model, label or manifest file does not exist or cannot be read.
    case fileNotReadable(path: String, reason: String)
    /// An AutoML manifest is not the JSON it should be.
    case invalidManifest(path: String, reason: String)
    /// An AutoML manifest describes a model of another kind.
    case unsupportedManifest(path: String, reason: String)
    /// A built-in model is in no folder searched and downloading it is not allowed.
    case builtInModelMissing(BuiltInModel, folders: [String], url: String)
    /// A built-in model is in no folder searched and downloading it failed.
    case download(ModelDownloadError)
    /// A remote model has no downloaded copy on this machine yet.
    case notDownloaded(RemoteModel)
}
