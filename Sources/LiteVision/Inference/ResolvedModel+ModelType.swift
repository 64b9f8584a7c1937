import LiteVisionModelStore

extension ResolvedModel {
    /// Refuses a model whose AutoML manifest says it is of another kind than `expected` (`IMAGE_LABELING` for
    /// classifiers, `OBJECT_DETECTION` for detectors), naming the manifest.
    func requireManifestModelType(_ expected: String) throws(VisionError) {
        guard let manifest, let type = manifest.modelType, type != expected else { return }
        throw .unsupportedModel(path: manifest.path, reason: "the manifest's modelType is \(type), not \(expected)")
    }
}
