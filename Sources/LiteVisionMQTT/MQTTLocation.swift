import LiteVisionSystem

/// Where an ``MQTTPublisher`` connects and which topics it publishes under, parsed from
/// `mqtt://[user[:password]@]host[:port]/topic/prefix`, or `mqtts://…` for TLS (the broker's certificate is
/// verified against the system's certificate authorities in `/etc/ssl/certs`).
///
/// - The user and the password are percent-decoded (`%40` for `@`, `%3A` for `:`, `%2F` for `/`, `%25` for `%`).
/// - The host is a name, an IPv4 address, or an IPv6 address in brackets (`[::1]`); the port defaults to 1883
///   (`mqtt`) or 8883 (`mqtts`).
/// - The topic prefix is the path after the host, percent-decoded, without a trailing `/`: messages go to
///   `PREFIX/SUBTOPIC`. It may not contain the wildcards `+` and `#` (they are for subscribing), start with `$`
///   (the broker's own topics), or have empty levels.
///
/// Input is bounded and checked before use: control characters, NULs (raw or as `%00`), malformed percent escapes,
/// ports out of range and overlong parts are refused with ``MQTTError/invalidLocation(location:reason:)``, whose
/// location is shown with the password replaced by `***`. A location's ``description`` is ``masked`` too, so
/// printing one never shows its password.
package struct MQTTLocation: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// Whether the connection uses TLS (`mqtts://`).
    package let usesTLS: Bool
    /// The broker's host name or address (an IPv6 address without its brackets).
    package let host: String
    /// The broker's TCP port.
    package let port: Int
    /// The user name given to the broker, percent-decoded; `nil` to connect anonymously.
    package let user: String?
    /// The password given to the broker, percent-decoded. Never shown: ``masked`` replaces it with `***`.
    package private(set) var password: String?
    /// The topic every message is published under, as `PREFIX/SUBTOPIC`.
    package let topicPrefix: String

    /// The longest location accepted, in UTF-8 bytes.
    package static let maximumLength = 4096
    /// The longest user name or password accepted, in UTF-8 bytes after percent-decoding.
    package static let maximumCredentialLength = 1024
    /// The longest topic accepted (prefix, `/` and subtopic), in UTF-8 bytes (MQTT allows 65,535).
    package static let maximumTopicLength = 1024
    /// The system's certificate authorities, against which an `mqtts://` broker's certificate is verified.
    package static let certificateAuthorities = "/etc/ssl/certs"

    /// This location with `password` for its user, when it names a user without one (a password kept out of the
    /// command line: `LITEVISION_MQTT_PASSWORD`); unchanged otherwise.
    package func filling(password: String) throws(MQTTError) -> MQTTLocation {
        guard user != nil, self.password == nil else { return self }
        guard password.utf8.count <= Self.maximumCredentialLength,
            !password.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw .invalidArgument(
                "the MQTT password must be at most \(Self.maximumCredentialLength) bytes without control characters")
        }
        var filled = self
        filled.password = password
        return filled
    }

    /// Parses `text`; throws ``MQTTError/invalidLocation(location:reason:)`` saying what is wrong.
    package init(parsing text: String) throws(MQTTError) {
        let shown = Self.displayed(text)
        func invalid(_ reason: String) -> MQTTError { .invalidLocation(location: shown, reason: reason) }

        let tls = try Self.usesTLS(text, invalid: invalid)
        let rest = text.dropFirst(tls ? 8 : 7)
        guard let slash = rest.firstIndex(of: "/") else {
            throw invalid("it has no topic prefix: add one after the host, as in mqtt://broker:1883/litevision")
        }
        if rest.contains("?") { throw invalid("it has a query ('?'), which an MQTT location does not take") }
        var authority = rest[..<slash]
        var user: String?
        var password: String?
        if let at = authority.lastIndex(of: "@") {
            (user, password) = try Self.credentials(authority[..<at], shown: shown, invalid: invalid)
            authority = authority[authority.index(after: at)...]
        }
        let (host, portText) = try Self.hostAndPort(authority, shown: shown)
        var port = tls ? 8883 : 1883
        if let portText {
            // Not quoted: with a '/' in the password, the text after ':' is the start of the password.
            port = try Self.port(portText, slashInCredentials: rest[slash...].contains("@"), invalid: invalid)
        }
        self.usesTLS = tls
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.topicPrefix = try Self.topicPrefix(rest[rest.index(after: slash)...], shown: shown, invalid: invalid)
    }

    /// Checks the whole text (length, control characters, spaces) and its scheme: whether it is `mqtts://`.
    private static func usesTLS(_ text: String, invalid: (String) -> MQTTError) throws(MQTTError) -> Bool {
        guard !text.isEmpty else { throw invalid("it is empty") }
        guard text.utf8.count <= maximumLength else {
            throw invalid("it is longer than \(maximumLength) bytes")
        }
        if let control = text.unicodeScalars.first(where: isControl) {
            throw invalid("it contains the control character \(named(control))")
        }
        if text.contains(" ") { throw invalid("it contains a space (write %20 for a space in the topic)") }
        let lowered = text.lowercased()
        if lowered.hasPrefix("mqtt://") { return false }
        if lowered.hasPrefix("mqtts://") { return true }
        throw invalid("it must start with mqtt:// or mqtts://")
    }

    /// The user name and password of the text before `@`.
    private static func credentials(
        _ userInformation: Substring, shown: String, invalid: (String) -> MQTTError
    ) throws(MQTTError) -> (user: String, password: String?) {
        let colon = userInformation.firstIndex(of: ":")
        let rawUser = userInformation[..<(colon ?? userInformation.endIndex)]
        guard !rawUser.isEmpty else {
            throw invalid(colon == nil ? "the user name before '@' is empty" : "it has a password but no user name")
        }
        let user = try credential(rawUser, what: "the user name", shown: shown)
        guard let colon else { return (user, nil) }
        return (
            user,
            try credential(userInformation[userInformation.index(after: colon)...], what: "the password", shown: shown)
        )
    }

    /// The port number written after the host's `:`.
    private static func port(
        _ text: Substring, slashInCredentials: Bool, invalid: (String) -> MQTTError
    ) throws(MQTTError) -> Int {
        guard !text.isEmpty else { throw invalid("the port after ':' is empty") }
        guard text.count <= 5, text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text),
            (1...65_535).contains(number)
        else {
            throw invalid(
                "the port is not a number from 1 to 65535"
                    + (slashInCredentials ? " (a '/' in a user name or password must be written %2F)" : ""))
        }
        return number
    }

    /// The topic prefix written after the host's `/`, decoded and checked.
    private static func topicPrefix(
        _ text: Substring, shown: String, invalid: (String) -> MQTTError
    ) throws(MQTTError) -> String {
        var topic = try percentDecoded(text, what: "the topic prefix", shown: shown)
        if topic.hasSuffix("/") { topic.removeLast() }
        guard !topic.isEmpty else {
            throw invalid("the topic prefix is empty: add one after the host, as in mqtt://broker:1883/litevision")
        }
        if let problem = topicProblem(topic, what: "the topic prefix") { throw invalid(problem) }
        guard topic.utf8.count < maximumTopicLength / 2 else {
            throw invalid("the topic prefix is longer than \(maximumTopicLength / 2 - 1) bytes")
        }
        if topic.hasPrefix("$") { throw invalid("topics starting with '$' are the broker's own ($SYS)") }
        return topic
    }

    /// The location to show: `mqtt://user:***@host:port/prefix` (the password as `***`, the port always given).
    package var masked: String {
        var text = usesTLS ? "mqtts://" : "mqtt://"
        if let user { text += Self.percentEncoded(user) + (password == nil ? "@" : ":***@") }
        text += host.contains(":") ? "[\(host)]" : host
        return text + ":\(port)/" + topicPrefix
    }

    /// ``masked``: the password is never shown.
    package var description: String { masked }

    /// ``masked``: the password is never shown.
    package var debugDescription: String { masked }

    /// Only ``masked``, so that `dump` and reflection do not show the password either.
    package var customMirror: Mirror { Mirror(self, children: ["masked": masked]) }

    /// Why `topic` (a prefix or a subtopic, named `what` in the reason) cannot be published to, or `nil`: it contains
    /// a wildcard, a NUL or control character, or an empty level.
    package static func topicProblem(_ topic: String, what: String) -> String? {
        if topic.contains("+") || topic.contains("#") {
            return "\(what) contains the wildcard '\(topic.contains("+") ? "+" : "#")', which is for subscribing only"
        }
        if let control = topic.unicodeScalars.first(where: isControl) {
            return "\(what) contains the control character \(named(control))"
        }
        if topic.hasPrefix("/") || topic.hasSuffix("/") || topic.contains("//") {
            return "\(what) has an empty level ('/' at its start or end, or '//')"
        }
        return nil
    }

    // MARK: Parts

    /// The host and, after a `:`, the port text (`nil` without a `:`) of `authority`.
    private static func hostAndPort(
        _ authority: Substring, shown: String
    ) throws(MQTTError) -> (host: String, port: Substring?) {
        func invalid(_ reason: String) -> MQTTError { .invalidLocation(location: shown, reason: reason) }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw invalid("the IPv6 address has no ']'") }
            let address = authority[authority.index(after: authority.startIndex)..<close]
            guard address.contains(":"), address.count <= 45,
                address.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
            else { throw invalid("'[\(address.prefix(64))]' is not an IPv6 address") }
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else {
                throw invalid("only ':PORT' may follow the IPv6 address")
            }
            return (String(address), after.isEmpty ? nil : after.dropFirst())
        }
        let colon = authority.firstIndex(of: ":")
        let host = authority[..<(colon ?? authority.endIndex)]
        guard !host.isEmpty else { throw invalid("it has no host") }
        guard host.utf8.count <= 253 else { throw invalid("the host name is longer than 253 bytes") }
        if let bad = host.first(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0))) }) {
            throw invalid(
                bad == ":" || bad == "%"
                    ? "the host contains '\(bad)': an IPv6 address goes in brackets, as in mqtt://[::1]:1883/prefix"
                    : "the host contains '\(bad)', which host names do not (letters, digits, '-', '.' and '_')")
        }
        let port = colon.map { authority[authority.index(after: $0)...] }
        if let port, port.contains(":") { throw invalid("the host contains ':': an IPv6 address goes in brackets") }
        return (String(host), port)
    }

    /// The percent-decoded user name or password (`what`), checked. Errors never quote a password.
    private static func credential(_ raw: Substring, what: String, shown: String) throws(MQTTError) -> String {
        func invalid(_ reason: String) -> MQTTError { .invalidLocation(location: shown, reason: reason) }
        let decoded = try percentDecoded(raw, what: what, shown: shown)
        guard decoded.utf8.count <= maximumCredentialLength else {
            throw invalid("\(what) is longer than \(maximumCredentialLength) bytes")
        }
        if decoded.unicodeScalars.contains(where: isControl) {
            throw invalid("\(what) contains a control character or a NUL (as a percent escape)")
        }
        return decoded
    }

    /// `raw` (the part named `what`) percent-decoded.
    private static func percentDecoded(_ raw: Substring, what: String, shown: String) throws(MQTTError) -> String {
        do {
            return try PercentDecoding.decoded(raw)
        } catch {
            let reason =
                switch error {
                case .malformedEscape: "\(what) has a '%' not followed by two hexadecimal digits"
                case .notUTF8: "\(what) is not UTF-8 once percent-decoded"
                }
            throw .invalidLocation(location: shown, reason: reason)
        }
    }

    // MARK: Text

    /// `text` with the characters that end a URL's user information (`@ : / %`) percent-encoded, for ``masked``.
    private static func percentEncoded(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "@": result += "%40"
            case ":": result += "%3A"
            case "/": result += "%2F"
            case "%": result += "%25"
            default: result.append(character)
            }
        }
        return result
    }

    /// Whether `scalar` is a C0 or C1 control character or DEL (NUL included).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }

    /// A control character as a reader can see it: `U+0000`.
    private static func named(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// A location that may not parse, as errors show it: the password, if any, replaced by `***` (everything
    /// between the first ':' after the scheme and the last '@', which may hide more than the password but never
    /// less), control characters as `U+XXXX`, at most 200 characters. A location that does not start with
    /// `mqtt://` or `mqtts://` is not shown beyond what precedes its `://`, since where a password would be is not
    /// known.
    package static func displayed(_ text: String) -> String {
        let lowered = text.lowercased()
        var shown: String
        if lowered.hasPrefix("mqtt://") || lowered.hasPrefix("mqtts://"), let schemeEnd = text.firstRange(of: "://") {
            shown = String(text[..<schemeEnd.upperBound])
            let rest = text[schemeEnd.upperBound...]
            if let at = rest.lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") {
                shown += rest[...colon] + "***" + rest[at...]
            } else {
                shown += rest
            }
        } else if let schemeEnd = text.firstRange(of: "://"),
            text.distance(from: text.startIndex, to: schemeEnd.lowerBound) <= 16
        {
            shown = String(text[..<schemeEnd.upperBound]) + "…"
        } else {
            return "(not shown: not an mqtt:// or mqtts:// URL)"
        }
        var escaped = ""
        for scalar in shown.unicodeScalars.prefix(200) {
            if isControl(scalar) { escaped += named(scalar) } else { escaped.unicodeScalars.append(scalar) }
        }
        return shown.unicodeScalars.count > 200 ? escaped + "…" : escaped
    }
}
