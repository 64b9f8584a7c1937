/// Why the LiteRT runtime library could not be loaded.
public struct RuntimeLoadError: Error, Sendable, CustomStringConvertible {
    /// Every place that was tried, each with the reason it failed.
    public let attempts: [(place: String, reason: String)]

    public var description: String {
        var text =
            "The LiteRT runtime (libLiteRt.so from ai-edge-litert \(Runtime.pinnedVersion)) could not be loaded. Tried:\n"
        for attempt in attempts { text += "  - \(attempt.place): \(attempt.reason)\n" }
        text += """
            Install it with `pip install ai-edge-litert==\(Runtime.pinnedVersion)` (or run scripts/setup.sh), \
            or set LITERT_LIBRARY to the full path of libLiteRt.so.
            """
        return text
    }
}
