/// Percent-decoding of the parts of a URL (`%40` is `@`, `%2F` is `/`), for the package's URL parsers, which each
/// word the failures in their own errors.
package enum PercentDecoding {
    /// Why a part cannot be decoded.
    package enum Failure: Error, Sendable, Equatable {
        /// A `%` that is not followed by two hexadecimal digits.
        case malformedEscape
        /// The decoded bytes are not UTF-8.
        case notUTF8
    }

    /// `text` with its `%XX` escapes decoded.
    package static func decoded(_ text: Substring) throws(Failure) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .malformedEscape
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
        return decoded
    }

    /// The value of one hexadecimal digit.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
