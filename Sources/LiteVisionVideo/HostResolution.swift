import LiteVisionSystem
import Synchronization

/// Resolves a network source's host before FFmpeg connects, so that a name that does not resolve is reported as
/// such (FFmpeg only says "Input/output error"), and so that a DNS server that does not answer cannot hold the source
/// beyond its deadline or its ``VideoSource/stop()``: `getaddrinfo` blocks without a timeout of its own, so it runs on
/// a short-lived thread of its own that the caller stops waiting for.
enum HostResolution {
    /// What the resolving thread found: `nil` while it runs, then `getaddrinfo`'s status.
    private final class Lookup: Sendable {
        let status = Mutex<Int32?>(nil)
    }

    /// Why `host` cannot be resolved within `timeout` seconds (or before `interrupt` is stopped), or `nil` when it
    /// can (or when the resolver fails for another reason, which FFmpeg then reports itself).
    static func problem(
        resolving host: String, timeout: Double, interrupt: InputInterrupt?
    ) -> VideoError.ConnectionFailure? {
        let lookup = Lookup()
        guard let thread = DedicatedThread.start({ Self.resolve(host, into: lookup) }) else {
            return nil  // no thread: FFmpeg resolves the name itself
        }
        pthread_detach(thread)  // a lookup given up on finishes on its own and frees what it holds
        let deadline = MonotonicClock.now() + timeout
        while true {
            if let status = lookup.status.withLock({ $0 }) { return problem(status, host: host) }
            if interrupt?.isStopped == true { return .other("stopped while resolving '\(host)'") }
            if MonotonicClock.now() > deadline {
                return .other(
                    "the host name '\(host)' was not resolved within \(formatted(timeout)) s (DNS did not answer)")
            }
            usleep(5000)
        }
    }

    /// The failure a `getaddrinfo` status means.
    private static func problem(_ status: Int32, host: String) -> VideoError.ConnectionFailure? {
        switch status {
        case 0: nil
        case EAI_NONAME, EAI_FAIL: .hostNotFound(host)
        case EAI_AGAIN: .other("the host name '\(host)' could not be resolved now (DNS did not answer)")
        default: nil
        }
    }

    /// The resolving thread's work: `getaddrinfo`, its status stored in `lookup`.
    private static func resolve(_ host: String, into lookup: Lookup) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &result)
        if let result { freeaddrinfo(result) }
        lookup.status.withLock { $0 = status }
    }
}
