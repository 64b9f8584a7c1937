import FoundationEssentials

/// The `manifest.json` of an AutoML Vision Edge model bundle.
struct AutoMLManifest: Decodable {
    var modelFile: String
    var labelsFile: String?
    var modelType: String?

    /// The model (and labels) a manifest names, with paths resolved against the manifest's folder.
    static func resolve(_ manifestPath: String) throws(VisionError) -> LocalModel {
        let bytes = try FileReader.read(manifestPath)
        let manifest: AutoMLManifest
        do {
            manifest = try JSONDecoder().decode(AutoMLManifest.self, from: Data(bytes))
        } catch {
            throw .invalidLabels(path: manifestPath, reason: "the manifest is not JSON with a \"modelFile\" string (\(error))")
        }
        if let type = manifest.modelType, type != "IMAGE_LABELING" {
            throw .unsupportedModel(path: manifestPath, reason: "the manifest's modelType is \(type), not IMAGE_LABELING")
        }
        let folder = URL(fileURLWithPath: manifestPath).deletingLastPathComponent()
        func resolved(_ name: String) -> String {
            name.hasPrefix("/") ? name : folder.appendingPathComponent(name).path
        }
        if let labels = manifest.labelsFile {
            return LocalModel(path: resolved(manifest.modelFile), labelsPath: resolved(labels))
        }
        return LocalModel(path: resolved(manifest.modelFile))
    }
}
