import Crypto

/// SHA-256 digests as the lowercase hexadecimal text model catalogs and registries publish.
package enum SHA256Digest {
    /// The 64 hexadecimal digits of `digest`.
    package static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The SHA-256 of `bytes`, in hexadecimal.
    package static func hex(of bytes: [UInt8]) -> String {
        hex(SHA256.hash(data: bytes))
    }
}
