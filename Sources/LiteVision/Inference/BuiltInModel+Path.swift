import LiteVisionModelStore

extension BuiltInModel {
    /// The model's file on this machine: found in `modelDirectory` or the usual folders, else downloaded when
    /// `allowsDownload` (see <doc:Models>).
    func path(modelDirectory: String?, allowsDownload: Bool) throws(VisionError) -> String {
        do {
            return try ModelCatalog.path(of: self, modelDirectory: modelDirectory, allowDownload: allowsDownload)
        } catch {
            throw VisionError(error)
        }
    }
}
