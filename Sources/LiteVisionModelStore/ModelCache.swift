import FoundationEssentials
import LiteVisionSystem

/// The downloaded copies of models on this machine: the one reader and writer of the cache's format. Remote
/// models have one folder each under `<cache>/remote/<key>/`, where `<cache>` is `LITEVISION_MODEL_CACHE`, else
/// `$XDG_CACHE_HOME/litevision/models`, else `~/.cache/litevision/models` (or the folder the cache is made
/// with). Built-in models are kept as `<file name>` in their own cache, `ModelCatalog.cacheFolder`, once
/// downloaded (their transfer goes through a remote folder there, removed afterwards).
///
/// A folder holds the installed version as `<sha256>.tflite` and `model.json`, the record naming it. Installing
/// a version writes its file completely, then replaces `model.json` atomically: that rename is the moment the
/// new version becomes the model, so a crash at any point leaves either the previous version or the new one,
/// never a mix. An interrupted download waits in `download.partial` with `download.json` (what it is a part of)
/// and is resumed by the next download of the same model, in this process or another.
package struct ModelCache: Sendable {
    /// The cache folder (remote models live in its `remote/` subfolder).
    package let root: String

    /// A cache in `root`, by default the one described above.
    package init(root: String = ModelCache.defaultRoot) {
        self.root = root
    }

    /// The cache in `folder`, or the default one (``defaultRoot``) when nil or empty (an empty folder would
    /// otherwise put the cache's files at the root of the file system).
    package init(folder: String?) {
        self.root = folder.flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultRoot
    }

    /// `LITEVISION_MODEL_CACHE`, else the built-in models' cache folder: the one place the setting is read.
    package static var defaultRoot: String {
        let configured = ProcessInfo.processInfo.environment["LITEVISION_MODEL_CACHE"] ?? ""
        return configured.isEmpty ? ModelCatalog.cacheFolder : configured
    }

    /// The folder holding every remote model's folder.
    package var remoteFolder: String { (root.hasSuffix("/") ? root : root + "/") + "remote" }

    /// The folder of `model`.
    package func folder(of model: RemoteModel) -> String {
        remoteFolder + "/" + model.cacheKey
    }

    /// The file of an interrupted download in `folder`, kept to be resumed.
    static func partialPath(in folder: String) -> String { folder + "/download.partial" }
    /// What the bytes of ``partialPath(in:)`` are a part of.
    static func partialRecordPath(in folder: String) -> String { folder + "/download.json" }
    /// The record naming the installed version, in `folder`.
    static func recordPath(in folder: String) -> String { folder + "/model.json" }

    /// The installed version of `model`, if there is one whose file is present.
    package func installed(_ model: RemoteModel) -> InstalledModel? {
        let folder = folder(of: model)
        guard let record = Self.record(in: folder) else { return nil }
        let installed = InstalledModel(folder: folder, record: record)
        guard (try? FileContents.requireRegularFile(atPath: installed.path)) == record.size else { return nil }
        return installed
    }

    /// What `model.json` in `folder` says, if it can be read and names a file of the folder: its SHA-256 must
    /// be 64 lowercase hexadecimal digits, since the file's path is made from it (a record naming
    /// `../../somewhere` is ignored, and what it names is never opened or deleted).
    static func record(in folder: String) -> InstalledModel.Record? {
        guard let bytes = try? FileContents.read(atPath: recordPath(in: folder), maximumSize: 1 << 16),
            let record = try? JSONDecoder().decode(InstalledModel.Record.self, from: Data(bytes)),
            record.sha256.utf8.count == 64,
            record.sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }), record.size >= 0
        else { return nil }
        return record
    }

    /// Makes the verified file at `path` (in `folder`) the installed version described by `record`: renamed to
    /// `<sha256>.tflite`, then named by `model.json`, replaced atomically (the commit point); the previous
    /// version's file is removed afterwards. On failure the previous version stays the model.
    static func commit(
        _ path: String, as record: InstalledModel.Record, in folder: String
    ) throws(TransferProblem) -> InstalledModel {
        let installed = InstalledModel(folder: folder, record: record)
        let previous = Self.record(in: folder)
        guard rename(path, installed.path) == 0 else {
            throw TransferProblem(.fileSystem(path: installed.path, detail: errorDescription(errno)))
        }
        let digest = record.sha256
        do {
            // The commit point: from this rename on, the new version is the model.
            try AtomicFile.write(Array(try JSONEncoder().encode(record)), to: recordPath(in: folder))
        } catch let error as SystemError {
            if previous?.sha256 != digest { unlink(installed.path) }
            throw TransferProblem(
                error.code == ENOSPC ? .noSpace(path: error.path) : .fileSystem(path: error.path, detail: error.reason))
        } catch {
            if previous?.sha256 != digest { unlink(installed.path) }
            throw TransferProblem(.fileSystem(path: recordPath(in: folder), detail: "\(error)"))
        }
        if let previous, previous.sha256 != digest { unlink(folder + "/" + previous.sha256 + ".tflite") }
        return installed
    }

    /// The path a built-in model is kept at in this cache.
    package func path(of model: BuiltInModel) -> String {
        (root.hasSuffix("/") ? root : root + "/") + model.rawValue
    }

    /// Moves the freshly installed copy of a built-in model to ``path(of:)`` and empties its transfer folder (the
    /// caller holds the folder's lock and removes it on release).
    static func adopt(_ installed: InstalledModel, as path: String) throws(TransferProblem) {
        guard rename(installed.path, path) == 0 else {
            throw TransferProblem(.fileSystem(path: path, detail: errorDescription(errno)))
        }
        unlink(recordPath(in: installed.folder))
    }

    /// Whether `folder` holds bytes of an interrupted download worth resuming.
    static func hasPartialBytes(in folder: String) -> Bool {
        ((try? FileContents.requireRegularFile(atPath: partialPath(in: folder))) ?? 0) > 0
    }

    /// The files a download may leave in a model's folder, besides its lock.
    static let transferFiles = ["download.partial", "download.json", "model.json"]

    /// This cache's client id: 32 random hexadecimal digits made on first use and kept in `<cache>/client-id`,
    /// so that a registry's staged rollout gives this machine the same version every time.
    package func clientID() throws(SystemError) -> String {
        let path = (root.hasSuffix("/") ? root : root + "/") + "client-id"
        if let id = Self.readClientID(path) { return id }
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw SystemError(.write, path: root, reason: "the cache folder could not be created (\(error))")
        }
        var random = SystemRandomNumberGenerator()
        let id = SHA256Digest.hex((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
        // Written whole beside the target, then linked: when two processes race, the first link wins and both
        // read it back. The temporary name is predictable, so it is created afresh (O_EXCL, no symbolic link
        // followed): whatever was left there is removed, never written through.
        let temporary = path + ".\(getpid()).new"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .fromErrno(.write, path: path) }
        defer { unlink(temporary) }
        let written = Array((id + "\n").utf8).withUnsafeBytes { bytes in
            Result { () throws(SystemError) in try Platform.writeAll(bytes, to: descriptor, path: path) }
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        try written.get()
        guard synced else { throw .fromErrno(.write, path: path) }
        // link() fails when the file exists: the id another process made first is kept.
        if link(temporary, path) != 0 && errno != EEXIST { throw .fromErrno(.write, path: path) }
        guard let stored = Self.readClientID(path) else {
            throw SystemError(.read, path: path, reason: "the client id file is not 32 hexadecimal digits")
        }
        return stored
    }

    private static func readClientID(_ path: String) -> String? {
        guard let bytes = try? FileContents.read(atPath: path, maximumSize: 256) else { return nil }
        let text = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        guard text.utf8.count == 32, text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else { return nil }
        return text
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
