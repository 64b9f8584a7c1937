import LiteVisionModelStore
import TFLiteFormat

/// Where a model's labels come from: the label file the user named, else the metadata's label file of the
/// given output (for the requested locale), else none.
enum LabelSource {
    static func labels(
        for model: ResolvedModel, file: TFLiteModelFile, output: Int,
        locale: String
    ) throws(VisionError) -> (labels: [String], source: String)? {
        let labelFile: (bytes: [UInt8], path: String)?
        do {
            labelFile = try model.readLabelFile(maximumSize: ModelLimits.maximumLabelFileBytes)
        } catch {
            throw VisionError(error)
        }
        if let labelFile {
            do {
                return (try LabelMap(text: labelFile.bytes).labels, labelFile.path)
            } catch {
                throw .invalidLabels(path: labelFile.path, reason: "\(error)")
            }
        }
        let map: LabelMap?
        do {
            map = try file.labelMap(forOutput: output, locale: locale)
        } catch {
            throw .invalidLabels(path: model.name, reason: "the label file in the model cannot be read (\(error))")
        }
        return map.map { ($0.labels, "\(model.name) (metadata)") }
    }
}
