import LiteVisionSystem

/// The open-file limit a server's connections count against (each connection is a descriptor).
package enum FileLimit {
    /// Descriptors kept for what is not a connection: the listening socket, the database, model files being read,
    /// standard streams, the runtime's own.
    static let reserved = 64

    /// How many of `wanted` connections the process can hold open: its soft open-file limit is raised to the hard
    /// one first (as far as `wanted` needs), then `reserved` descriptors are kept for the rest. Never below 1.
    package static func connections(wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0 else { return wanted }
        let needed = rlim_t(wanted + reserved)
        if limit.rlim_cur < needed && limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = min(needed, limit.rlim_max)
            if setrlimit(openFiles, &raised) == 0 { limit = raised }
        }
        guard limit.rlim_cur != rlim_t.max else { return wanted }
        return max(1, min(wanted, Int(clamping: limit.rlim_cur) - reserved))
    }
}

#if canImport(Glibc)
private let openFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
private let openFiles = RLIMIT_NOFILE
#endif
