import ArgumentParser
import LiteVision
import LiteVisionCommandSupport
import LiteVisionSystem

/// An output file of `litevision track` that grows as frames are processed: made under a temporary name when the
/// command starts (so an unwritable folder fails before any work, and an existing file is kept if the run fails
/// before its first frame), moved to its path with the first record, then appended to one whole record at a time.
/// A run that is stopped or killed leaves every record written so far; one whose output fails part-way (a full disk)
/// keeps the whole records written before the failure.
final class StreamedOutput {
    private let file: AtomicFile
    /// Bytes of whole records written so far.
    private var written = 0
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
            let bytes = Array(text.utf8)
            try file.write(bytes)
            written += bytes.count
            if !file.published { try file.publish() }
        } catch {
            // A record cut by the failure (a full disk) is taken back: the file keeps whole records only.
            if file.published { _ = ftruncate(file.descriptor, off_t(written)) }
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
