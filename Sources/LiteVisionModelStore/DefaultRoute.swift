import LiteVisionSystem

/// The network interface the kernel routes to the internet, read from `/proc/net/route` (which shows the routes
/// of the calling process's network namespace), and whether it is cellular.
package enum DefaultRoute {
    /// Name prefixes of modem (cellular) interfaces.
    static let cellularPrefixes = ["wwan", "ww", "ppp"]

    /// The interface of the default route (destination 0.0.0.0 with mask 0), or nil when there is none.
    package static func interface(routeTable: String) -> String? {
        for line in routeTable.split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            // Iface Destination Gateway Flags RefCnt Use Metric Mask ...
            guard fields.count >= 8, fields[1] == "00000000", fields[7] == "00000000" else { continue }
            return String(fields[0])
        }
        return nil
    }

    /// The default route's interface on this machine now.
    package static func current() -> String? {
        guard let bytes = try? FileContents.readToEnd(atPath: "/proc/net/route", maximumSize: 1 << 20) else {
            return nil
        }
        return interface(routeTable: String(decoding: bytes, as: UTF8.self))
    }

    /// Whether `interface` is named as a modem (cellular) interface.
    package static func isCellular(_ interface: String) -> Bool {
        cellularPrefixes.contains { interface.hasPrefix($0) }
    }

    /// Why the network is cellular now, or nil when it is not (or there is no default route): the default
    /// route's interface is a modem interface, or NetworkManager marks it metered.
    package static func cellularReason(
        metered: (String) -> Bool = NetworkManagerMetered.isMetered
    ) -> String? {
        guard let interface = current() else { return nil }
        if isCellular(interface) { return "the network goes through the modem interface \(interface)" }
        if metered(interface) { return "NetworkManager marks the network interface \(interface) as metered" }
        return nil
    }
}

/// NetworkManager's "metered" flag of an interface, asked with `nmcli` when it is installed.
package enum NetworkManagerMetered {
    /// Where nmcli is looked for.
    static let paths = ["/usr/bin/nmcli", "/bin/nmcli", "/usr/local/bin/nmcli"]

    /// Whether NetworkManager says `interface` is metered (`GENERAL.METERED` is `yes` or `yes (guessed)`); false
    /// without NetworkManager.
    package static func isMetered(_ interface: String) -> Bool {
        guard let nmcli = paths.first(where: { access($0, X_OK) == 0 }),
            let answer = Subprocess.output(of: nmcli, ["-t", "-g", "GENERAL.METERED", "device", "show", interface])
        else { return false }
        return answer.hasPrefix("yes")
    }
}
