import CMosquitto
import LiteVisionSystem

/// libmosquitto, process-wide: its one-time setup, and what its status codes, `errno` values and CONNACK codes mean
/// for a user.
enum MosquittoLibrary {
    /// `mosquitto_lib_init`'s status: run once, by the first publisher (a `static let` is initialized once, safely
    /// from any thread). It is never undone: `mosquitto_lib_cleanup` must not run while any client may still exist.
    private static let setup: Int32 = mosquitto_lib_init()

    /// Sets libmosquitto up (once per process).
    static func initialize() throws(MQTTError) {
        guard setup == MOSQ_ERR_SUCCESS.rawValue else {
            throw .systemResource("libmosquitto could not be set up (\(text(setup)))")
        }
    }

    /// libmosquitto's description of a status, starting in lower case so that it reads inside a sentence.
    static func text(_ status: Int32) -> String {
        guard let message = mosquitto_strerror(status) else { return "libmosquitto status \(status)" }
        let text = String(cString: message).trimmingSuffix(".")
        guard let first = text.first else { return "libmosquitto status \(status)" }
        return first.lowercased() + text.dropFirst()
    }

    /// What a failed first connection means: libmosquitto's `status` (from `mosquitto_connect_async` or the
    /// disconnect callback) with the `errno` it left (for a name lookup, `getaddrinfo`'s code), for `location`.
    static func failure(status: Int32, code: Int32, location: MQTTLocation) -> MQTTError.ConnectionFailure {
        switch status {
        case MOSQ_ERR_EAI.rawValue:
            switch code {
            case EAI_NONAME, EAI_FAIL: return .hostNotFound(location.host)
            case EAI_AGAIN: return .nameNotResolved(host: location.host, reason: "DNS did not answer")
            default:
                let reason = gai_strerror(code).map { String(cString: $0) } ?? "lookup error \(code)"
                return .nameNotResolved(host: location.host, reason: reason)
            }
        case MOSQ_ERR_ERRNO.rawValue, MOSQ_ERR_CONN_LOST.rawValue, MOSQ_ERR_NO_CONN.rawValue:
            switch code {
            case ECONNREFUSED: return .refused(host: location.host, port: location.port)
            case EHOSTUNREACH, ENETUNREACH, ETIMEDOUT, EADDRNOTAVAIL: return .unreachable(errorDescription(code))
            case ECONNRESET, EPIPE, 0:
                return .other("the connection was closed before the broker answered (is it an MQTT broker?)")
            default: return .other(errorDescription(code))
            }
        case MOSQ_ERR_TLS.rawValue:
            return .tls("libmosquitto reports a TLS error")
        case MOSQ_ERR_PROTOCOL.rawValue, MOSQ_ERR_MALFORMED_PACKET.rawValue:
            return .notMQTT("its answer is not an MQTT packet (\(text(status)))")
        default:
            return .other(text(status))
        }
    }

    /// What a refusing CONNACK `code` (MQTT 3.1.1) means; `user` is the user name given.
    static func refusal(code: Int32, user: String?) -> MQTTError.ConnectionFailure {
        switch code {
        case 1: .rejected(code: 1, meaning: "the broker does not accept MQTT 3.1.1")
        case 2: .rejected(code: 2, meaning: "the broker does not accept the client identifier")
        case 3: .rejected(code: 3, meaning: "the broker is unavailable")
        case 4, 5: .notAuthorized(user: user, code: Int(code))
        default: .rejected(code: Int(code), meaning: "an unknown reason")
        }
    }
}

extension String {
    /// The string without one trailing `suffix`.
    fileprivate func trimmingSuffix(_ suffix: Character) -> String { last == suffix ? String(dropLast()) : self }
}
