import LiteVisionSystem

/// Where a ``VideoSource`` reads from, worked out from the location string once: a file, a V4L2 device, or a
/// network URL of a known scheme, with what FFmpeg may open for it and how it is shown to people.
struct SourceLocation: Sendable, Equatable {
    /// What kind of source the location names.
    let kind: VideoSource.Kind
    /// The location as written: a path, or a URL.
    let path: String
    /// What FFmpeg is given to open: the URL, the device path, or `file:` and the file's path (so that a file
    /// whose name looks like `proto:...` is still read as a file).
    let target: String
    /// The location with any password replaced by `***`: the only form that appears in messages and outputs.
    let displayName: String
    /// The URL scheme, lowercased (`rtsp`, `http`, ...); `nil` for files and devices.
    let scheme: String?
    /// The host of a network URL (without brackets for IPv6), `nil` for files, devices and URLs without one.
    let host: String?

    /// The schemes a network source may have.
    static let networkSchemes: Set<String> = ["rtsp", "rtsps", "http", "https", "udp", "rtp", "tcp"]

    /// The prefixes of paths that name a video device even when nothing exists there (a missing camera).
    static let devicePrefixes = ["/dev/video", "/dev/v4l/"]

    /// Parses `location`; an unknown scheme, an empty location or a URL without a host is refused.
    init(_ location: String) throws(VideoError) {
        guard !location.isEmpty else { throw .unsupportedLocation(location: "", reason: "the location is empty") }
        if let schemeEnd = Self.schemeEnd(in: location) {
            let scheme = String(location[..<schemeEnd]).lowercased()
            displayName = Self.masked(location)
            guard Self.networkSchemes.contains(scheme) else {
                throw .unsupportedLocation(
                    location: displayName,
                    reason: "the scheme '\(scheme)' is not one LiteVision reads (it reads files, V4L2 devices such "
                        + "as /dev/video0, and rtsp, rtsps, http, https, udp, rtp and tcp URLs)")
            }
            let authorityEnd = Self.authority(of: location, after: schemeEnd).endIndex
            guard !location[authorityEnd...].contains("@") else {
                throw .unsupportedLocation(
                    location: displayName,
                    reason: "it has an '@' after its host: percent-encode '/', '?', '#' and '@' in a user name or "
                        + "password (%2F, %3F, %23, %40)")
            }
            let host = Self.host(of: location, after: schemeEnd)
            guard let host, !host.isEmpty || scheme == "udp" || scheme == "rtp" else {
                throw .unsupportedLocation(location: displayName, reason: "the URL names no host")
            }
            kind = .network
            self.scheme = scheme
            self.host = host.isEmpty ? nil : host
        } else {
            displayName = Self.masked(location)  // a URL that did not parse as one still hides its password
            scheme = nil
            host = nil
            kind = Self.isDevicePath(location) ? .device : .file
        }
        guard !location.utf8.contains(0) else {
            throw .unsupportedLocation(location: displayName, reason: "the location contains a NUL byte")
        }
        path = location
        // FFmpeg knows its protocols by lowercase names only (RTSP://... is rtsp).
        switch kind {
        case .file: target = "file:" + location
        case .device: target = location
        case .network:
            let colon = location.firstIndex(of: ":") ?? location.endIndex
            target = (scheme ?? "") + String(location[colon...])
        }
    }

    /// The video file at `path`, whatever its name looks like.
    init(file path: String) throws(VideoError) {
        guard !path.utf8.contains(0) else {
            throw .unsupportedLocation(location: path, reason: "the location contains a NUL byte")
        }
        kind = .file
        self.path = path
        target = "file:" + path
        displayName = Self.masked(path)
        scheme = nil
        host = nil
    }

    /// The end of a URL's scheme (the index of `:` in `scheme://`), `nil` when `location` is not a URL.
    private static func schemeEnd(in location: String) -> String.Index? {
        guard let colon = location.firstIndex(of: ":"), location[colon...].hasPrefix("://") else { return nil }
        let scheme = location[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return colon
    }

    /// Whether a path names a video device: a character device, or a path where cameras appear.
    private static func isDevicePath(_ path: String) -> Bool {
        var status = stat()
        if stat(path, &status) == 0 { return status.st_mode & S_IFMT == S_IFCHR }
        return devicePrefixes.contains { path.hasPrefix($0) }
    }

    /// The authority of a URL (between `//` and the next `/`, `?` or `#`).
    private static func authority(of url: String, after schemeEnd: String.Index) -> Substring {
        let start = url.index(schemeEnd, offsetBy: 3)
        let rest = url[start...]
        let end = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        return rest[..<end]
    }

    /// The host of a URL: its authority without credentials, port and IPv6 brackets.
    private static func host(of url: String, after schemeEnd: String.Index) -> String? {
        var authority = authority(of: url, after: schemeEnd)
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        if let colon = authority.firstIndex(of: ":") { authority = authority[..<colon] }
        return String(authority)
    }

    /// The names of query parameters whose values are secrets (cameras take credentials in the query too), in
    /// lowercase.
    static let secretParameters: Set<String> = [
        "password", "passwd", "pass", "pwd", "token", "access_token", "secret", "auth", "key", "apikey", "api_key",
    ]

    /// `url` with its secrets replaced by `***`: the password of its credentials (`rtsp://user:***@host/...`), the
    /// values of secret query parameters (`?user=admin&password=***`), and, for credentials holding an unencoded
    /// `/`, `?` or `#` (an `@` after the authority), everything between `://` and the last `@`.
    static func masked(_ url: String) -> String {
        guard let schemeEnd = schemeEnd(in: url) else { return url }
        let authority = authority(of: url, after: schemeEnd)
        var result: String
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            let user = credentials.firstIndex(of: ":").map { credentials[..<$0] } ?? credentials
            let shown = credentials.contains(":") ? "\(user):***" : String(user)
            result = String(url[..<authority.startIndex]) + shown + String(url[at...])
        } else if let at = url[authority.endIndex...].lastIndex(of: "@") {
            result = String(url[..<authority.startIndex]) + "***" + String(url[at...])
        } else {
            result = url
        }
        return maskedQuery(result)
    }

    /// `url` with the values of its secret query parameters replaced by `***`.
    private static func maskedQuery(_ url: String) -> String {
        guard let question = url.firstIndex(of: "?") else { return url }
        let fragmentStart = url[question...].firstIndex(of: "#") ?? url.endIndex
        let query = url[url.index(after: question)..<fragmentStart]
        let parameters = query.split(separator: "&", omittingEmptySubsequences: false).map { parameter in
            guard let equals = parameter.firstIndex(of: "="),
                secretParameters.contains(parameter[..<equals].lowercased())
            else { return String(parameter) }
            return parameter[...equals] + "***"
        }
        return String(url[...question]) + parameters.joined(separator: "&") + String(url[fragmentStart...])
    }

    /// The secrets of the URL (the credentials' password, secret query values), for scrubbing FFmpeg's messages.
    var secrets: [String] {
        guard let schemeEnd = Self.schemeEnd(in: target) else { return [] }
        var found: [String] = []
        let authority = Self.authority(of: target, after: schemeEnd)
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            found.append(String(authority[authority.index(after: colon)..<at]))
        }
        if let question = target.firstIndex(of: "?") {
            for parameter in target[target.index(after: question)...].split(separator: "&") {
                guard let equals = parameter.firstIndex(of: "="),
                    Self.secretParameters.contains(parameter[..<equals].lowercased())
                else { continue }
                found.append(String(parameter[parameter.index(after: equals)...]))
            }
        }
        return found.filter { !$0.isEmpty }
    }

    /// The protocols FFmpeg may open for this source, itself and whatever it refers to (HLS segments, keys,
    /// redirects): a network URL can never open a local file or a protocol of another kind, and a file never
    /// reaches the network.
    var protocolWhitelist: String {
        switch scheme {
        case "rtsp": "rtsp,rtp,udp,tcp"
        case "rtsps": "rtsps,rtsp,rtp,udp,tcp,tls"
        case "http": "http,tcp"
        case "https": "https,http,tls,tcp"
        case "udp": "udp"
        case "rtp": "rtp,udp"
        case "tcp": "tcp"
        default: "file"
        }
    }

    /// `text` (a message of FFmpeg's, say) with this URL's secrets replaced by `***` wherever they appear.
    func scrubbed(_ text: String) -> String {
        secrets.reduce(text) { $0.replacing($1, with: "***") }
    }
}
