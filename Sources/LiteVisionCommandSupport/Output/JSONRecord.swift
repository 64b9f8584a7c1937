import FoundationEssentials

/// How the commands write a JSON record (one line of `--json` output): keys sorted, slashes not escaped.
package enum JSONRecord {
    /// `value` as one line of JSON, or nil when it holds a number JSON cannot (infinite or NaN: see
    /// ``NotFiniteResult``), the only thing that makes encoding these records fail.
    package static func encoded(_ value: some Encodable) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }
}
