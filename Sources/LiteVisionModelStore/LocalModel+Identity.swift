import LiteVisionSystem

extension LocalModel.Source {
    /// Hashes a cheap summary: the path, or for bytes in memory their name, count and first and last bytes (equal
    /// sources still compare every byte). Keeps hashing options that hold a model in memory cheap, since ML Kit's
    /// per-frame `objectDetector(options:)` pattern hashes them on every frame.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .file(let path):
            hasher.combine(0)
            hasher.combine(path)
        case .manifest(let path):
            hasher.combine(1)
            hasher.combine(path)
        case .memory(let bytes, let name):
            hasher.combine(2)
            hasher.combine(name)
            hasher.combine(bytes.count)
            for byte in bytes.prefix(64) { hasher.combine(byte) }
            for byte in bytes.suffix(64) { hasher.combine(byte) }
        }
    }
}

extension LocalModel {
    /// The identities of the files this model names (model or manifest, and label file), `nil` for a file that
    /// cannot be examined: a file edited or replaced on disk changes them.
    package var fileIdentities: [FileIdentity?] {
        var paths: [String] = []
        switch source {
        case .file(let path), .manifest(let path): paths.append(path)
        case .memory: break
        }
        if let labelsPath { paths.append(labelsPath) }
        return paths.map { FileIdentity(path: $0) }
    }
}

extension ModelReference {
    /// The identities of the files the model is read from now: a local model's (see
    /// ``LocalModel/fileIdentities``), or for a remote model the record of its installed version in the cache in
    /// `cacheFolder` (see ``ModelCache/init(folder:)``)
    /// (`[nil]` when none is installed), so that a model replaced on disk or updated by a download has other
    /// identities. One `stat` per file, nothing read: this runs on every call of the features' factories.
    package func fileIdentities(cacheFolder: String?) -> [FileIdentity?] {
        switch self {
        case .local(let model):
            return model.fileIdentities
        case .remote(let model):
            // Installing or deleting a version replaces or removes the record (by rename), changing its identity.
            let cache = ModelCache(folder: cacheFolder)
            return [FileIdentity(path: ModelCache.recordPath(in: cache.folder(of: model)))]
        }
    }
}
