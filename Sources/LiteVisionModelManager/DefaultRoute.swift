import LiteVisionSystem

/// The network interface the kernel routes to the internet, read from `/proc/net/route` (which shows the routes
/// of the calling process's network namespace).
enum DefaultRoute {
    /// Name prefixes of modem (cellular) interfaces.
    static let cellularPrefixes = ["wwan", "ww", "ppp"]

    /// The interface of the default route (destination 0.0.0.0 with mask 0), or nil when there is none.
    static func interface(routeTable: String) -> String? {
        for line in routeTable.split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            // Iface Destination Gateway Flags RefCnt Use Metric Mask ...
            guard fields.count >= 8, fields[1] == "00000000", fields[7] == "00000000" else { continue }
            return String(fields[0])
        }
        return nil
    }

    /// The default route's interface on this machine now.
    static func current() -> String? {
        guard let bytes = try? FileContents.readToEnd(atPath: "/proc/net/route", maximumSize: 1 << 20) else {
            return nil
        }
        return interface(routeTable: String(decoding: bytes, as: UTF8.self))
    }

    /// Whether `interface` is a modem (cellular) interface.
    static func isCellular(_ interface: String) -> Bool {
        cellularPrefixes.contains { interface.hasPrefix($0) }
    }
}
