import CFFmpeg

/// How much FFmpeg's libraries print to standard error.
package enum FFmpegLogLevel: Int32, Sendable, CaseIterable {
    /// Nothing at all (the default: damage is reported through ``VideoDecoder/damagedPackets`` instead).
    case quiet = -8
    /// Only messages about unrecoverable conditions that will make the process crash.
    case panic = 0
    /// Only errors that cannot be recovered from.
    case fatal = 8
    /// Errors, including every damaged packet a decoder skips.
    case error = 16
    /// Errors and warnings.
    case warning = 24
    /// FFmpeg's normal chatter.
    case info = 32
    /// Detailed messages.
    case verbose = 40
    /// Debugging messages.
    case debug = 48
    /// Everything, for debugging FFmpeg itself.
    case trace = 56
}

/// The process-wide logging setting of FFmpeg's libraries.
///
/// FFmpeg logs to standard error by default, which is noisy for damaged files. LiteVisionVideo makes it
/// ``FFmpegLogLevel/quiet`` the first time a video is opened or written, unless ``level`` was set before.
package enum FFmpegLogging {
    /// FFmpeg's current log level. Setting it applies at once to every decoder and encoder in the process.
    package static var level: FFmpegLogLevel {
        get {
            applyDefault()
            return FFmpegLogLevel(rawValue: av_log_get_level()) ?? .quiet
        }
        set {
            applyDefault()
            av_log_set_level(newValue.rawValue)
        }
    }

    /// Runs once per process, before the first read or write of ``level`` and before the first video is opened.
    private static let defaultApplied: Void = { av_log_set_level(FFmpegLogLevel.quiet.rawValue) }()

    /// Applies the quiet default if nothing else did yet.
    static func applyDefault() { _ = defaultApplied }
}
