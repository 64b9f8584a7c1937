import LiteVisionSystem

/// A `HOST:PORT` argument (`--serve`): a host name or IPv4 address, or an IPv6 address in brackets. A port alone
/// (`8080` or `:8080`) means loopback, `127.0.0.1`: another address only when it is asked for.
package struct ServeAddress: Sendable {
    package let host: String, port: Int

    /// Parses `127.0.0.1:8080`, `localhost:8080`, `[::1]:8080`, `0.0.0.0:8080`, `8080`, `:8080`; `nil` for anything
    /// else (ports 0 to 65,535; 0 picks a free port).
    package init?(_ text: String) {
        if let port = Int(text.hasPrefix(":") ? String(text.dropFirst()) : text), !text.hasPrefix("+") {
            guard (0...65_535).contains(port) else { return nil }
            self.host = "127.0.0.1"
            self.port = port
            return
        }
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65_535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
            guard host.contains(":") else { return nil }
        } else if host.contains(":") {
            return nil
        }
        guard !host.isEmpty, host.utf8.count <= 253,
            host.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || "0123456789.-:".unicodeScalars.contains($0))
            })
        else { return nil }
        self.host = host
        self.port = port
    }

    /// Whether the address is this machine's loopback (only local programs can connect): `localhost`, an IPv4
    /// address in 127.0.0.0/8 or `::1` (a host name that merely starts with `127.` is not).
    package var isLoopback: Bool {
        if host.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        return inet_pton(AF_INET6, host, &v6) == 1
            && withUnsafeBytes(of: &v6) { $0.elementsEqual([UInt8](repeating: 0, count: 15) + [1]) }
    }
}
