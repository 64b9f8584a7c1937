// The one place that knows which C library this platform has. Every LiteVision module that calls the C
// library imports LiteVisionSystem instead of testing `canImport(Glibc)` itself.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("LiteVision needs a POSIX C library (Glibc, Musl or Darwin)")
#endif

/// The C library's functions under names that do not collide with Swift methods of the same name.
package enum Platform {
    package static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #elseif canImport(Musl)
        Musl.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }

    /// The C library's `exit`: exit handlers run (ArgumentParser's commands have an `exit(withError:)` of their own).
    package static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(status)
        #elseif canImport(Musl)
        Musl.exit(status)
        #else
        Darwin.exit(status)
        #endif
    }

    /// `RLIMIT_NOFILE` as `getrlimit` and `setrlimit` take it here.
    #if canImport(Glibc)
    package static let openFilesResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    package static let openFilesResource = RLIMIT_NOFILE
    #endif

    package static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
        #elseif canImport(Musl)
        Musl.write(descriptor, buffer, count)
        #else
        Darwin.write(descriptor, buffer, count)
        #endif
    }
}

extension Platform {
    /// Writes all of `bytes` to `descriptor` (retrying short writes and interruptions); `path` names the file
    /// in the error.
    package static func writeAll(
        _ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String
    ) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                throw .fromErrno(.write, path: path)
            }
            done += count
        }
    }
}
