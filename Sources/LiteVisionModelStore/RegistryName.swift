/// The names a LiteVision model registry gives models: letters, digits, `.`, `_` and `-`, 1 to 64 characters,
/// no `..` and not `.`, so that a name is safe in a URL path and a file name without escaping. The registry
/// refuses other names, and clients check them before sending anything.
package enum RegistryName {
    /// The longest name, in bytes.
    package static let maximumLength = 64

    /// Whether `name` is a valid model name.
    package static func isValid(_ name: String) -> Bool {
        let allowed = name.utf8.allSatisfy {
            ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
                || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".")
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
        return !name.isEmpty && name.utf8.count <= maximumLength && allowed && !name.contains("..") && name != "."
    }
}
