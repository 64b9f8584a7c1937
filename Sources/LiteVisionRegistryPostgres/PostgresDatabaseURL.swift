import LiteVisionSystem
import NIOSSL
import PostgresNIO

/// Where the registry's PostgreSQL database is, read from a URL:
///
///     postgres://USER[:PASSWORD]@HOST[:PORT][/DATABASE][?sslmode=MODE&sslrootcert=FILE]
///
/// (`postgresql://` too). USER, PASSWORD and DATABASE are percent-decoded (write `%40` for `@`, `%2F` for `/`);
/// HOST is a name, an IPv4 address or an IPv6 address in brackets; PORT defaults to 5432 and DATABASE to USER.
/// Without a password in the URL, the one in the environment variable ``passwordVariable`` is used (so that it is
/// not on the command line, where `ps` shows it), else none.
///
/// `sslmode`: `disable` (plain TCP), `prefer` (the default: TLS when the server offers it), `require` or
/// `verify-full` (TLS or nothing). When TLS is used the server's certificate is always verified, against the
/// system's roots or the PEM file `sslrootcert` (stricter than libpq's `prefer` and `require`, which accept any
/// certificate).
package struct PostgresDatabaseURL: Sendable, Equatable, CustomStringConvertible {
    /// The environment variable read for the password when the URL has none.
    package static let passwordVariable = "LITEVISION_REGISTRY_DATABASE_PASSWORD"

    /// How TLS is used.
    package enum TLSMode: String, Sendable, Equatable {
        case disable
        case prefer
        case require
        case verifyFull = "verify-full"
    }

    package var user: String
    package var password: String?
    package var host: String
    package var port: Int
    package var database: String
    package var tlsMode: TLSMode
    /// A PEM file of the certificate authorities to trust instead of the system's.
    package var rootCertificate: String?

    /// Reads `text`; `environment` supplies the password when the URL has none. Throws a
    /// ``PostgresDatabaseURLError`` that says what is wrong (never echoing a password).
    package init(_ text: String, environment: [String: String] = [:]) throws(PostgresDatabaseURLError) {
        var rest: Substring
        if text.hasPrefix("postgres://") {
            rest = text.dropFirst("postgres://".count)
        } else if text.hasPrefix("postgresql://") {
            rest = text.dropFirst("postgresql://".count)
        } else {
            throw .init("it must start with postgres:// (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)")
        }
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path: Substring = ""
        // The user information may hold a '/' only percent-encoded, so the path starts at the first '/' after '@'.
        let at = rest.lastIndex(of: "@")
        if let slash = rest[(at ?? rest.startIndex)...].firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        guard let at else { throw .init("it names no user: write postgres://USER@HOST/DATABASE") }
        let userInfo = rest[..<at]
        let hostPort = rest[rest.index(after: at)...]
        if let colon = userInfo.firstIndex(of: ":") {
            user = try Self.decoded(userInfo[..<colon], "the user")
            password = try Self.decoded(userInfo[userInfo.index(after: colon)...], "the password")
        } else {
            user = try Self.decoded(userInfo, "the user")
            password = environment[Self.passwordVariable]
        }
        guard !user.isEmpty else { throw .init("the user is empty") }
        (host, port) = try Self.hostAndPort(hostPort)
        let name = try Self.decoded(path, "the database name")
        database = name.isEmpty ? user : name
        (tlsMode, rootCertificate) = try Self.parameters(query)
    }

    /// The host and port of the text after `@` (port 5432 when none is given).
    private static func hostAndPort(_ hostPort: Substring) throws(PostgresDatabaseURLError) -> (String, Int) {
        var portText: Substring?
        let host: String
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw .init("an IPv6 address lacks its ']'") }
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .init("unexpected text after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = hostPort.firstIndex(of: ":") {
            host = String(hostPort[..<colon])
            portText = hostPort[hostPort.index(after: colon)...]
        } else {
            host = String(hostPort)
        }
        guard !host.isEmpty else { throw .init("the host is empty") }
        guard host.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: "%") }) else {
            throw .init("the host has characters a host name cannot have")
        }
        guard let portText else { return (host, 5432) }
        guard let number = Int(portText), (1...65535).contains(number) else {
            throw .init("the port must be 1 to 65535, not \"\(portText.prefix(20))\"")
        }
        return (host, number)
    }

    /// The TLS mode and root certificate of the query (`sslmode`, `sslrootcert`); `prefer` and none by default.
    private static func parameters(_ query: Substring) throws(PostgresDatabaseURLError) -> (TLSMode, String?) {
        var tlsMode = TLSMode.prefer
        var rootCertificate: String?
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0])
            let value = try decoded(parts.count > 1 ? parts[1] : "", "the value of \(key.prefix(40))")
            switch key {
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else {
                    throw .init("sslmode must be disable, prefer, require or verify-full, not \"\(value.prefix(40))\"")
                }
                tlsMode = mode
            case "sslrootcert":
                guard !value.isEmpty else { throw .init("sslrootcert names no file") }
                rootCertificate = value
            default:
                throw .init("unknown parameter \"\(key.prefix(40))\" (sslmode and sslrootcert are understood)")
            }
        }
        return (tlsMode, rootCertificate)
    }

    /// The URL without its password.
    package var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)@\(shownHost):\(port)/\(database)?sslmode=\(tlsMode.rawValue)"
    }

    /// postgres-nio's configuration for this URL.
    package func clientConfiguration() throws -> PostgresClient.Configuration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let rootCertificate { tls.trustRoots = .file(rootCertificate) }
        let mode: PostgresClient.Configuration.TLS =
            switch tlsMode {
            case .disable: .disable
            case .prefer: .prefer(tls)
            case .require, .verifyFull: .require(tls)
            }
        return PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: mode)
    }

    /// `text` percent-decoded; an error naming `what` when an escape is malformed or the result is not UTF-8.
    static func decoded(_ text: Substring, _ what: String) throws(PostgresDatabaseURLError) -> String {
        let decoded: String
        do {
            decoded = try PercentDecoding.decoded(text)
        } catch {
            switch error {
            case .malformedEscape: throw .init("\(what) has a '%' not followed by two hexadecimal digits")
            case .notUTF8: throw .init("\(what) is not UTF-8 text")
            }
        }
        guard !decoded.utf8.contains(0) else { throw .init("\(what) is not UTF-8 text") }
        return decoded
    }
}

/// A `--database` URL that cannot be used, and why.
package struct PostgresDatabaseURLError: Error, Sendable, Equatable, CustomStringConvertible {
    package var reason: String
    init(_ reason: String) { self.reason = reason }
    package var description: String { "the database URL cannot be used: \(reason)" }
}
