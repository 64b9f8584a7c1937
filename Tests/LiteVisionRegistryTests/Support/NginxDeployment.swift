import Foundation
import LiteVisionTestSupport

// The repository's `deploy/nginx/nginx.conf`, run by NginxProcess with its site values replaced: the port, the
// replicas, the cache folder (a temporary one).
extension NginxProcess {
    /// `deploy/nginx/nginx.conf` in this checkout.
    static let configuration = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("deploy/nginx/nginx.conf")

    /// nginx in front of the registry replicas listening on `replicas` (two ports).
    convenience init(replicas: [Int]) throws {
        let deploy = try String(contentsOf: Self.configuration, encoding: .utf8)
        try self.init { port, folder in
            var text = deploy
            for (site, value) in [
                ("listen 8080;", "listen 127.0.0.1:\(port);"), ("registry-a:8470", "127.0.0.1:\(replicas[0])"),
                ("registry-b:8470", "127.0.0.1:\(replicas[1])"), ("/var/cache/nginx/litevision", folder.path),
            ] {
                guard text.contains(site) else {
                    throw PostgresServerError(message: "deploy/nginx/nginx.conf no longer has the site value \(site)")
                }
                text = text.replacingOccurrences(of: site, with: value)
            }
            return text
        }
    }
}
