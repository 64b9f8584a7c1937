import LiteVisionSystem

/// Resolves a network source's host before FFmpeg connects, so that a name that does not resolve is reported as
/// such (FFmpeg only says "Input/output error").
enum HostResolution {
    /// Why `host` cannot be resolved, or `nil` when it can (or when the resolver fails for another reason, which
    /// FFmpeg then reports itself).
    static func problem(resolving host: String) -> VideoError.ConnectionFailure? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &result)
        if let result { freeaddrinfo(result) }
        switch status {
        case 0: return nil
        case EAI_NONAME, EAI_FAIL: return .hostNotFound(host)
        case EAI_AGAIN: return .other("the host name '\(host)' could not be resolved now (DNS did not answer)")
        default: return nil
        }
    }
}
