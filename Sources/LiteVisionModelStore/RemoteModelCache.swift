import FoundationEssentials
import LiteVisionSystem

/// The downloaded copies of remote models on this machine: one folder per model under
/// `<cache>/remote/<key>/`, where `<cache>` is `LITEVISION_MODEL_CACHE`, else `$XDG_CACHE_HOME/litevision/models`,
/// else `~/.cache/litevision/models`.
///
/// A folder holds the installed version as `<sha256>.tflite` and `model.json`, the record naming it. Installing
/// a version writes its file completely, then replaces `model.json` atomically: that rename is the moment the
/// new version becomes the model, so a crash at any point leaves either the previous version or the new one,
/// never a mix. An interrupted download waits in `download.partial` with `download.json` (what it is a part of)
/// and is resumed by the next download of the same model, in this process or another.
package struct RemoteModelCache: Sendable {
    /// The cache folder (remote models live in its `remote/` subfolder).
    package let root: String

    /// A cache in `root`, by default the one described above.
    package init(root: String = RemoteModelCache.defaultRoot) {
        self.root = root
    }

    /// `LITEVISION_MODEL_CACHE`, else the built-in models' cache folder.
    package static var defaultRoot: String {
        let configured = ProcessInfo.processInfo.environment["LITEVISION_MODEL_CACHE"] ?? ""
        return configured.isEmpty ? ModelCatalog.cacheFolder : configured
    }

    /// The folder of `model`.
    package func folder(of model: RemoteModel) -> String {
        (root.hasSuffix("/") ? root : root + "/") + "remote/" + model.cacheKey
    }

    /// The installed version of `model`, if there is one whose file is present.
    package func installed(_ model: RemoteModel) -> InstalledModel? {
        let folder = folder(of: model)
        guard let record = Self.record(in: folder),
            record.sha256.count == 64, record.sha256.allSatisfy(\.isHexDigit)
        else { return nil }
        let installed = InstalledModel(folder: folder, record: record)
        guard (try? FileContents.requireRegularFile(atPath: installed.path)) == record.size else { return nil }
        return installed
    }

    /// What `model.json` in `folder` says, if it can be read.
    static func record(in folder: String) -> InstalledModel.Record? {
        guard let bytes = try? FileContents.read(atPath: folder + "/model.json", maximumSize: 1 << 16) else {
            return nil
        }
        return try? JSONDecoder().decode(InstalledModel.Record.self, from: Data(bytes))
    }

    /// Removes every file of `model` (installed version and partial download).
    package func delete(_ model: RemoteModel) throws(SystemError) {
        let folder = folder(of: model)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        // The record first: from then on the model is not downloaded, whatever else fails.
        for name in ["model.json"] + entries.filter({ $0 != "model.json" }) where unlink(folder + "/" + name) != 0 {
            if errno != ENOENT { throw .fromErrno(.write, path: folder + "/" + name) }
        }
        rmdir(folder)
    }
}

/// A version of a remote model installed in the cache.
package struct InstalledModel: Sendable, Equatable {
    /// What `model.json` says.
    struct Record: Codable, Equatable {
        var url: String
        var sha256: String
        var size: Int
        var etag: String?
    }

    /// The model's folder in the cache.
    package let folder: String
    let record: Record

    /// The model file.
    package var path: String { folder + "/" + record.sha256 + ".tflite" }
    /// Its SHA-256.
    package var sha256: String { record.sha256 }
    /// Its size in bytes.
    package var size: Int { record.size }
    /// The server's `ETag` for it, if the server sent one.
    package var etag: String? { record.etag }
}
