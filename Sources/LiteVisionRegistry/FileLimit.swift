import LiteVisionSystem

/// The open-file limit a server's connections count against: each connection is a descriptor, and one that
/// downloads a model file from disk holds a second one (the file) while it streams.
package enum FileLimit {
    /// Descriptors kept for what is not a connection: the listening socket, the database, model files being read,
    /// standard streams, the runtime's own.
    package static let reserved = 64

    /// Descriptors one connection may hold: its socket and the model file it streams.
    package static let perConnection = 2

    /// How many of `wanted` connections the process can hold open, each with a model file being streamed: its soft
    /// open-file limit is raised to the hard one first (as far as `wanted` needs), then `reserved` descriptors are
    /// kept for the rest. Never below 1.
    package static func connections(wanted: Int) -> Int {
        let openFiles = Platform.openFilesResource
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0 else { return wanted }
        let needed = rlim_t(perConnection * wanted + reserved)
        if limit.rlim_cur < needed && limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = min(needed, limit.rlim_max)
            if setrlimit(openFiles, &raised) == 0 { limit = raised }
        }
        guard limit.rlim_cur != rlim_t.max else { return wanted }
        return max(1, min(wanted, (Int(clamping: limit.rlim_cur) - reserved) / perConnection))
    }
}
