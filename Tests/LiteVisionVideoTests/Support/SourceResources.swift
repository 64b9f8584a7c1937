import Foundation

/// What a ``VideoSource`` holds in this process, found in `/proc/self` so that tests running in parallel do not
/// disturb the count: the descriptors open on a file, and the TCP sockets connected to a port.
enum SourceResources {
    /// Descriptors open on `path`.
    static func descriptors(on path: String) -> Int {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return targets().filter { $0 == resolved }.count
    }

    /// Descriptors of TCP sockets (IPv4 or IPv6) whose remote end is `port` on this machine.
    static func sockets(toPort port: Int) -> Int {
        var inodes = Set<String>()
        for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
            let text = (try? String(contentsOfFile: table, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, let remotePort = fields[2].split(separator: ":").last,
                    Int(remotePort, radix: 16) == port
                else { continue }
                inodes.insert("socket:[\(fields[9])]")
            }
        }
        return targets().filter(inodes.contains).count
    }

    private static func targets() -> [String] {
        names("/proc/self/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
        }
    }

    private static func names(_ folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }
}
