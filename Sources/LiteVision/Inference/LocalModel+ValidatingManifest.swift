import LiteVisionModelStore

extension LocalModel {
    /// An AutoML Vision Edge bundle, as ``LocalModel/init(manifestPath:)``, but throwing the reason a manifest
    /// cannot be used instead of returning `nil` (LiteVision addition):
    ///
    /// ```swift
    /// let flowers = try LocalModel(validatingManifestPath: "automl/manifest.json")
    /// ```
    ///
    /// - Throws: ``VisionError/fileNotReadable(path:reason:)`` when the manifest is missing or cannot be read,
    ///   ``VisionError/invalidLabels(path:reason:)`` when it is not JSON with a `"modelFile"` string,
    ///   ``VisionError/unsupportedModel(path:reason:)`` when its `modelType` is neither `IMAGE_LABELING` nor
    ///   `OBJECT_DETECTION`.
    public init(validatingManifestPath manifestPath: String) throws(VisionError) {
        do {
            self = try LocalModel(checkingManifestPath: manifestPath)
        } catch {
            throw VisionError(error)
        }
    }
}
