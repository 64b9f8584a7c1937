/// Negative numbers as option values: ArgumentParser reads a word that starts with a dash as an option, so
/// `--frame-rate -1` would be reported as a missing value instead of by the option's own rule. Every command's
/// `main` (see `mainCheckingOutput()`) joins such a number to its option first.
package enum NegativeNumberArguments {
    /// The words of a command line, `arguments`, with each negative number that follows a long option joined to it:
    /// `--frame-rate -1` becomes `--frame-rate=-1`, which the option's own rule then refuses ("--frame-rate must be
    /// … from 0.001"). A negative number is a dash, then a digit or a point, making a decimal number (`-1`, `-0.5`,
    /// `-.5`, `-1e3`; not `-0x10`); words after `--` are left as they are.
    package static func joined(_ arguments: some Collection<String>) -> [String] {
        let arguments = Array(arguments)
        var joined: [String] = []
        joined.reserveCapacity(arguments.count)
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            if word == "--" {
                joined += arguments[index...]
                break
            }
            if word.hasPrefix("--"), !word.contains("="), index + 1 < arguments.endIndex,
                isNegativeNumber(arguments[index + 1])
            {
                joined.append(word + "=" + arguments[index + 1])
                index += 2
            } else {
                joined.append(word)
                index += 1
            }
        }
        return joined
    }

    /// Whether `word` is a negative decimal number (see ``joined(_:)``).
    private static func isNegativeNumber(_ word: String) -> Bool {
        let utf8 = Array(word.utf8)
        guard utf8.count >= 2, utf8.count <= 64, utf8[0] == UInt8(ascii: "-"),
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(utf8[1]) || utf8[1] == UInt8(ascii: ".")
        else { return false }
        return utf8.allSatisfy { (0x21..<0x7F).contains($0) && $0 | 0x20 != UInt8(ascii: "x") } && Double(word) != nil
    }
}
