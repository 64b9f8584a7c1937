import LiteVisionSystem

/// Writes a line to standard output, unbuffered (a line printed by the server reaches a pipe at once).
func printLine(_ text: String) {
    write(text, to: STDOUT_FILENO)
}

/// Writes a line to standard error.
func printError(_ text: String) {
    write(text, to: STDERR_FILENO)
}

private func write(_ text: String, to descriptor: Int32) {
    var line = text + "\n"
    line.withUTF8 { bytes in
        _ = try? Platform.writeAll(UnsafeRawBufferPointer(bytes), to: descriptor, path: "output")
    }
}
