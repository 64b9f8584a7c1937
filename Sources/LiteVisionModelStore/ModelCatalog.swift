import FoundationEssentials
import LiteVisionSystem

/// Finds built-in models on this machine; see ``BuiltInModel``.
package enum ModelCatalog {
    /// The folders searched for built-in models, in order.
    package static func searchFolders(modelDirectory: String?, cacheFolder: String = cacheFolder) -> [String] {
        let env = ProcessInfo.processInfo.environment
        var folders: [String] = []
        if let modelDirectory { folders.append(modelDirectory) }
        if let dir = env["LITEVISION_MODEL_DIR"], !dir.isEmpty { folders.append(dir) }
        folders.append(cacheFolder)
        return folders
    }

    /// The cache folder for built-in models.
    package static var cacheFolder: String {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((env["HOME"] ?? "/tmp") + "/.cache")
        return base + "/litevision/models"
    }

    /// The path of `model`: found in the folders searched, else (when `allowDownload`) downloaded into the
    /// cache folder of `downloader` (by default ``cacheFolder``); or an error naming every folder searched, where
    /// to put the file, where to get it and why the download failed.
    package static func path(
        of model: BuiltInModel, modelDirectory: String?,
        downloader: ModelDownloader = ModelDownloader(cache: ModelCache(root: cacheFolder)),
        allowDownload: Bool = true
    ) throws(ModelStoreError) -> String {
        let folders = searchFolders(modelDirectory: modelDirectory, cacheFolder: downloader.cache.root)
        for folder in folders {
            let path = folder.hasSuffix("/") ? folder + model.rawValue : folder + "/" + model.rawValue
            // Present means present (as `stat` sees it): an unreadable file found here is reported when it is
            // loaded, with the reason, rather than silently replaced by a download.
            var info = stat()
            if stat(path, &info) == 0 { return path }
        }
        guard allowDownload else {
            throw .builtInModelMissing(model, folders: folders, url: downloader.url(of: model))
        }
        do {
            return try downloader.download(model)
        } catch {
            var error = error
            error.searchedFolders = folders
            throw .download(error)
        }
    }
}
