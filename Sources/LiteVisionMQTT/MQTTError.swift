/// Why an ``MQTTPublisher`` could not be made or connected.
///
/// ``description`` is a complete sentence for the user that says what went wrong and, where it helps, what to do.
/// Locations are always shown masked (``MQTTLocation/masked``): no error ever contains a password.
package enum MQTTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The location is not a valid `mqtt://` or `mqtts://` URL; `reason` says what is wrong, `location` is what was
    /// given, its password hidden (``MQTTLocation/displayed(_:)``).
    case invalidLocation(location: String, reason: String)
    /// An argument other than the location was refused: the client identifier, the timeout, the queue limit.
    case invalidArgument(String)
    /// The first connection to the broker failed; `location` is masked, `cause` says why.
    case connectionFailed(location: String, cause: ConnectionFailure)
    /// The system refused a resource (memory, a thread), or libmosquitto could not be set up.
    case systemResource(String)

    /// Why the first connection to a broker failed.
    package enum ConnectionFailure: Sendable, Equatable, CustomStringConvertible {
        /// Nothing accepts connections at that host and port (connection refused).
        case refused(host: String, port: Int)
        /// The host name does not exist (DNS answered that it has no address).
        case hostNotFound(String)
        /// The host name could not be resolved now: DNS did not answer, or not in time; `reason` says which.
        case nameNotResolved(host: String, reason: String)
        /// No route to the broker (network or host unreachable, or the kernel gave up connecting).
        case unreachable(String)
        /// The broker refused the credentials: CONNACK code 4 (bad user name or password) or 5 (not authorized).
        case notAuthorized(user: String?, code: Int)
        /// The broker refused the connection for another reason: CONNACK code 1 (protocol version), 2 (client
        /// identifier) or 3 (server unavailable).
        case rejected(code: Int, meaning: String)
        /// The TLS handshake failed: most often a certificate the system's authorities do not vouch for, or one
        /// issued for another host name; `detail` is OpenSSL's or libmosquitto's explanation.
        case tls(String)
        /// No answer (CONNACK) within the time allowed.
        case timedOut(seconds: Double)
        /// The server answered, but not as an MQTT broker.
        case notMQTT(String)
        /// Any other failure, in libmosquitto's or the system's words.
        case other(String)

        /// A phrase for the user.
        package var description: String {
            switch self {
            case let .refused(host, port):
                "the connection was refused: nothing accepts connections at \(host) port \(port) (is the broker running, "
                    + "and on that port?)"
            case .hostNotFound(let host): "the host name '\(host)' does not exist (DNS has no address for it)"
            case let .nameNotResolved(host, reason): "the host name '\(host)' could not be resolved: \(reason)"
            case .unreachable(let reason): "the broker cannot be reached: \(reason)"
            case let .notAuthorized(user, code):
                "the broker refused "
                    + (user.map { "the user '\($0)'" } ?? "an anonymous connection")
                    + " (CONNACK \(code): \(code == 4 ? "bad user name or password" : "not authorized")): check the user "
                    + "name and password, and the broker's password file and access rules"
            case let .rejected(code, meaning): "the broker refused the connection (CONNACK \(code): \(meaning))"
            case .tls(let detail):
                "the TLS handshake failed (is the broker's certificate issued for this host name, by an authority in "
                    + "\(MQTTLocation.certificateAuthorities)?): \(detail)"
            case .timedOut(let seconds):
                "the broker did not accept the connection within \(MQTTError.formatted(seconds)) s (no CONNACK: is it "
                    + "an MQTT broker, and reachable?)"
            case .notMQTT(let detail): "the server does not answer as an MQTT broker: \(detail)"
            case .other(let reason): reason
            }
        }
    }

    /// A sentence for the user.
    package var description: String {
        switch self {
        case let .invalidLocation(location, reason): "Invalid MQTT location '\(location)': \(reason)."
        case .invalidArgument(let reason): "Invalid MQTT publisher setting: \(reason)."
        case let .connectionFailed(location, cause): "Cannot connect to the MQTT broker \(location): \(cause)."
        case .systemResource(let reason): "Cannot start an MQTT publisher: \(reason)."
        }
    }

    /// `seconds` without a needless fraction: `10`, `0.5`.
    static func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e9 ? String(Int(seconds)) : String(seconds)
    }
}
