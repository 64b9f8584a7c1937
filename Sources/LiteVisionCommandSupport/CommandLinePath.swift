import LiteVisionSystem

/// A file named on the command line, usable whatever bytes its name is made of.
///
/// Swift's `CommandLine.arguments` (and so ArgumentParser) repairs bytes that are not UTF-8 into U+FFFD, which
/// names another file, or none. For such an argument the bytes the program was given (`CommandLine.unsafeArgv`)
/// are opened with open(2) as they are, and the file is then used through `/proc/self/fd/N`, a name of the
/// open file that every reader (the image decoders, FFmpeg) can take; ``name`` shows the bytes that are not
/// UTF-8 as `\x{FF}`. An argument that is UTF-8 is used as it is.
package struct CommandLinePath: Sendable {
    /// The path to open.
    package let path: String
    /// How messages name the file: the argument, with the bytes that are not UTF-8 written as `\x{FF}`.
    package let name: String
    /// Why the file cannot be opened, when it was opened here and failed.
    package let problem: String?

    /// The file named by the parsed argument `argument`: with ``arguments(_:)``, each parsed argument is matched
    /// with the bytes it came from, in order.
    private init(argument: String, bytes: [UInt8]?, ambiguous: Bool = false) {
        guard let bytes, String(validating: bytes, as: UTF8.self) == nil else {
            (path, name, problem) = (argument, argument, nil)
            return
        }
        name = Self.displayName(bytes)
        if ambiguous {
            // Another argument repairs to the same text with other bytes: which one ArgumentParser took is unknown.
            (path, problem) = (
                argument,
                "other arguments differ from this name only in bytes that are not UTF-8, so it cannot be told "
                    + "which file is meant; rename the files or name them through a folder"
            )
            return
        }
        let descriptor = bytes.withUnsafeBufferPointer { buffer in
            (buffer.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
                open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            }
        }
        if descriptor < 0 {
            (path, problem) = (argument, errno == ENOENT ? "no such file" : errorDescription(errno))
        } else {
            // Kept open until the process ends: the path below names it.
            (path, problem) = ("/proc/self/fd/\(descriptor)", nil)
        }
    }

    /// The files named by `arguments`, parsed arguments of this process in their order: each is matched with the
    /// next argument of the process whose repaired form it is, and opened by its bytes when they are not UTF-8.
    package static func arguments(_ arguments: [String]) -> [CommandLinePath] {
        let raw = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeBufferPointer(start: argument, count: strlen(argument))).map { UInt8(bitPattern: $0) }
        }
        let repaired = raw.map { String(decoding: $0, as: UTF8.self) }
        var next = 0
        return arguments.map { argument in
            guard let index = repaired[min(next, repaired.count)...].firstIndex(of: argument) else {
                return CommandLinePath(argument: argument, bytes: nil)
            }
            next = index + 1
            // Matching in order is right when every process argument with this repaired form is one of `arguments`;
            // when there are more (an option's value, such as an output, repairs to the same text) and their bytes
            // differ, which one is the file cannot be told.
            let alike = repaired.indices.filter { repaired[$0] == argument }
            let ambiguous =
                alike.count > arguments.filter { $0 == argument }.count && Set(alike.map { raw[$0] }).count > 1
            return CommandLinePath(argument: argument, bytes: raw[index], ambiguous: ambiguous)
        }
    }

    /// `bytes` as text: UTF-8 sequences as their characters, any other byte as `\x{FF}`.
    static func displayName(_ bytes: [UInt8]) -> String {
        var name = ""
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            if index + length <= bytes.count,
                let text = String(validating: bytes[index..<index + length], as: UTF8.self)
            {
                name += text
                index += length
            } else {
                name += "\\x{" + String(lead, radix: 16, uppercase: true) + "}"
                index += 1
            }
        }
        return name
    }
}
