import TFLiteModel

/// Where a model's labels come from: the label file the user named, else the metadata's label file of the
/// given output (for the requested locale), else none.
enum LabelSource {
    static func labels(for local: LocalModel, file: TFLiteModelFile, output: Int,
                       locale: String) throws(VisionError) -> (labels: [String], source: String)? {
        if let labelsPath = local.labelsPath {
            return (LabelMap(text: try FileReader.read(labelsPath)).labels, labelsPath)
        }
        let map: LabelMap?
        do {
            map = try file.labelMap(forOutput: output, locale: locale)
        } catch {
            throw .invalidLabels(path: local.path, reason: "the label file in the model cannot be read (\(error))")
        }
        return map.map { ($0.labels, "\(local.path) (metadata)") }
    }
}
