import ArgumentParser
import LiteVision
import LiteVisionCommandSupport
import LiteVisionSystem

/// An output file of `litevision track` that grows as frames are processed: made under a temporary name when the
/// command starts (so an unwritable folder fails before any work, and an existing file is kept if the run fails
/// before its first frame), moved to its path with the first record, then appended to one whole record at a time.
/// A run that is stopped or killed leaves every record written so far.
final class StreamedOutput {
    private let file: AtomicFile
    /// Whether a write failed (reported once; the other outputs go on).
    private(set) var failed = false

    /// The temporary file of the output `path`; a folder that is missing or cannot be written is printed and ends
    /// the command with status 2.
    init(path: String) throws {
        do throws(SystemError) {
            file = try AtomicFile(path: path)
        } catch {
            Console.error("litevision: \(VisionError.fileNotWritable(path: path, reason: error.reason))")
            throw ExitCode(2)
        }
    }

    /// Appends `text` (whole lines); the first call moves the file to its path. A failure is printed once.
    func append(_ text: String) {
        guard !failed else { return }
        do throws(SystemError) {
            try file.write(Array(text.utf8))
            if !file.published { try file.publish() }
        } catch {
            report(error)
        }
    }

    /// Flushes and closes the file (an output that got no record is still written, empty); false when a write
    /// failed, now or before.
    func finish() -> Bool {
        guard !failed else { return false }
        do throws(SystemError) {
            try file.commit()
        } catch {
            report(error)
        }
        return !failed
    }

    private func report(_ error: SystemError) {
        failed = true
        Console.error("litevision: \(VisionError.fileNotWritable(path: file.path, reason: error.reason))")
        file.discard()
    }
}
