import LiteVisionSystem

/// The token clients of the live view must present (`--serve-token-file`): as `Authorization: Bearer TOKEN`, or
/// as `?token=TOKEN` in the URL (an `<img>` or an `EventSource` cannot send headers; the page passes on the token
/// it was opened with). Compared in constant time.
package struct LiveViewToken: Sendable {
    private let bytes: [UInt8]

    /// The shortest token accepted.
    static let minimumLength = 16

    /// The token in the file at `path`: its first line, without surrounding spaces; 16 to 1024 printable ASCII
    /// characters without spaces (such as `openssl rand -hex 32` prints).
    package static func read(file path: String) throws(LiveViewError) -> LiveViewToken {
        let contents: [UInt8]
        do {
            contents = try FileContents.read(atPath: path, maximumSize: 4096)
        } catch {
            throw LiveViewError("the token file \(path) cannot be read: \(error.reason)")
        }
        let line = contents.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
        let token = Array(
            line.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }.reversed()
                .drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }.reversed())
        guard token.count >= minimumLength, token.count <= 1024, token.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw LiveViewError(
                "the token file \(path) must hold a token of 16 to 1024 printable characters without spaces on its first line (make one with: openssl rand -hex 32 > \(path))"
            )
        }
        return LiveViewToken(bytes: token)
    }

    /// Whether `presented` is the token.
    func accepts(_ presented: Substring) -> Bool {
        let candidate = Array(presented.utf8)
        guard candidate.count == bytes.count else { return false }
        var difference: UInt8 = 0
        for index in bytes.indices { difference |= bytes[index] ^ candidate[index] }
        return difference == 0
    }
}
