/// The model a feature runs: a local model, or the downloaded copy of a remote one.
package enum ModelReference: Sendable, Hashable {
    case local(LocalModel)
    case remote(CustomRemoteModel)

    /// Reads the model: the local one, or the installed version of the remote one (refused while it is not
    /// downloaded).
    package func resolve(cache: ModelCache = ModelCache()) throws(ModelStoreError) -> ResolvedModel {
        switch self {
        case .local(let model):
            return try model.resolve()
        case .remote(let model):
            guard let installed = cache.installed(model) else { throw .notDownloaded(model) }
            return try LocalModel(path: installed.path).resolve()
        }
    }
}
