import Foundation
import Synchronization

/// Everything a child process writes to a pipe, collected as it arrives by a thread of the log's own.
///
/// The thread reads with blocking `read(2)` calls until the end of file, never with `FileHandle.readabilityHandler`:
/// on Linux that handler is a libdispatch read source, and tearing such sources down while other threads set theirs
/// up crashes the whole test process in `_dispatch_event_loop_drain` (swift-corelibs-libdispatch#949; our CI hit it
/// in the registry suite; 16 threads each starting `echo` 3,000 times with such a handler crashed the same way in 5
/// of 12 runs, reading with blocking reads in none of 14). A blocking read never registers the descriptor with
/// libdispatch.
public final class OutputLog: Sendable {
    private struct State {
        var data = Data()
        var ended = false
    }

    private let state = Mutex(State())

    /// Starts collecting what arrives on `pipe`'s read end, until every writer has closed it (the child and its
    /// children have ended). Call it before the child is started: it marks both ends of `pipe` close-on-exec, so that
    /// a child another test starts at the same time does not inherit them (and hold the pipe open), and reads from a
    /// copy of the read end of its own, closed at the end of file, so that no other code can close that descriptor,
    /// and have its number reused, under the reading thread.
    public init(reading pipe: Pipe) {
        pipe.closeOnExec()
        let descriptor = fcntl(pipe.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        precondition(descriptor >= 0, "OutputLog: cannot copy the pipe's read end (errno \(errno))")
        Thread.detachNewThread { [self] in
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    self.state.withLock { $0.data.append(contentsOf: buffer[..<count]) }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            self.state.withLock { $0.ended = true }
        }
    }

    /// Everything collected so far, decoded as UTF-8 (bad bytes replaced).
    public var text: String { state.withLock { String(decoding: $0.data, as: UTF8.self) } }

    /// Whether the pipe has ended (every writer closed it) within `seconds`: afterwards ``text`` is complete.
    public func waitForEnd(seconds: Double = 10) -> Bool {
        waitUntil(seconds: seconds, every: 0.005) { state.withLock { $0.ended } ? true : nil } ?? false
    }
}
