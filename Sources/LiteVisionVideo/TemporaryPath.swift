#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Names for the hidden temporary file a video is written to before it is renamed into place.
enum TemporaryPath {
    /// A fresh, unlikely-to-collide hidden name in the same directory as `path` (so the final rename is
    /// atomic): `dir/.name.<pid>-<random>.partial`.
    static func beside(_ path: String) -> String {
        let directory: Substring, name: Substring
        if let slash = path.lastIndex(of: "/") {
            directory = path[...slash]
            name = path[path.index(after: slash)...]
        } else {
            directory = ""
            name = Substring(path)
        }
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        return "\(directory).\(name).\(getpid())-\(random).partial"
    }
}
