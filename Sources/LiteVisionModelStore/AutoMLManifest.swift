import FoundationEssentials
import LiteVisionSystem

/// The `manifest.json` of an AutoML Vision Edge model bundle.
package struct AutoMLManifest: Decodable {
    /// The model file, relative to the manifest's folder.
    var modelFile: String
    /// The label file, relative to the manifest's folder, if the bundle has one.
    var labelsFile: String?
    /// `IMAGE_LABELING` or `OBJECT_DETECTION`.
    var modelType: String?

    /// The model types AutoML Vision Edge exports; the feature the model is given to checks that it is its own.
    static let knownModelTypes: Set = ["IMAGE_LABELING", "OBJECT_DETECTION"]

    /// The model (and labels) a manifest names, with paths resolved against the manifest's folder, and the
    /// manifest's model type.
    static func resolve(_ manifestPath: String) throws(ModelStoreError) -> (model: LocalModel, modelType: String?) {
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(atPath: manifestPath, maximumSize: 1 << 20)
        } catch {
            throw .fileNotReadable(path: manifestPath, reason: error.reason)
        }
        return try resolve(bytes, manifestPath: manifestPath)
    }

    /// The model (and labels) the manifest held in `bytes` names, resolved against `manifestPath`'s folder.
    package static func resolve(
        _ bytes: [UInt8],
        manifestPath: String
    ) throws(ModelStoreError) -> (model: LocalModel, modelType: String?) {
        let manifest: AutoMLManifest
        do {
            manifest = try JSONDecoder().decode(AutoMLManifest.self, from: Data(bytes))
        } catch {
            throw .invalidManifest(
                path: manifestPath, reason: "the manifest is not JSON with a \"modelFile\" string (\(error))")
        }
        if let type = manifest.modelType, !knownModelTypes.contains(type) {
            throw .unsupportedManifest(
                path: manifestPath,
                reason: "the manifest's modelType is \(type), not IMAGE_LABELING or OBJECT_DETECTION")
        }
        let folder = manifestPath.lastIndex(of: "/").map { String(manifestPath[...$0]) } ?? ""
        func resolved(_ name: String) -> String { name.hasPrefix("/") ? name : folder + name }
        if let labels = manifest.labelsFile {
            return (LocalModel(path: resolved(manifest.modelFile), labelsPath: resolved(labels)), manifest.modelType)
        }
        return (LocalModel(path: resolved(manifest.modelFile)), manifest.modelType)
    }
}
