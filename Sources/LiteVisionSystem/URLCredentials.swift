/// Hides the password a URL may carry (`https://user:secret@host/…`), for every message, log line and output
/// that shows a URL: the password becomes `***`, the rest stays as given.
package enum URLCredentials {
    /// `url` with the password of its user information replaced by `***` (`rtsp://user:***@camera/stream`);
    /// unchanged when it has none.
    package static func masked(_ url: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return url }
        let authorityStart = scheme.upperBound
        let authorityEnd = url[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        guard let at = url[authorityStart..<authorityEnd].lastIndex(of: "@"),
            let colon = url[authorityStart..<at].firstIndex(of: ":")
        else { return url }
        return String(url[..<url.index(after: colon)]) + "***" + String(url[at...])
    }
}
