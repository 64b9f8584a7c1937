import Foundation
import LiteVisionRegistry
import Testing

/// The OpenAPI document (`Sources/LiteVisionRegistry/openapi.yaml`): served as it is in the repository, and in
/// step with the routes. Whether what the server answers matches the document is fuzzed by
/// `scripts/api-fuzz.sh` (schemathesis).
@Suite("OpenAPI document of the registry")
struct OpenAPIDocumentTests {
    /// `Sources/LiteVisionRegistry` in this checkout.
    static let registrySources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/LiteVisionRegistry")

    /// A route: an HTTP method (upper case) and an OpenAPI path (`/v1/models/{name}`).
    struct Route: Hashable, Comparable, CustomStringConvertible {
        var method: String
        var path: String
        var description: String { "\(method) \(path)" }
        static func < (a: Route, b: Route) -> Bool { (a.path, a.method) < (b.path, b.method) }
    }

    /// The routes the document names: each path (two spaces in, under `paths:`) and its methods (four in).
    static func documentedRoutes() throws -> Set<Route> {
        let text = try String(contentsOf: registrySources.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        var routes = Set<Route>()
        var inPaths = false
        var path: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty { inPaths = line == "paths:" }
            guard inPaths else { continue }
            if line.hasPrefix("  /") && line.hasSuffix(":") && !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    ") && !line.hasPrefix("     ") && line.hasSuffix(":") {
                let key = line.dropFirst(4).dropLast()
                if ["get", "put", "post", "delete", "options", "head", "patch", "trace"].contains(key) {
                    routes.insert(Route(method: key.uppercased(), path: path))
                }
            }
        }
        return routes
    }

    /// The routes the code adds: every `router.METHOD("path")` in the module's sources, `:parameter` written
    /// `{parameter}`.
    static func codedRoutes() throws -> Set<Route> {
        let call = try Regex(#"router\.(get|put|post|delete|head|patch)\("([^"]*)""#)
        var routes = Set<Route>()
        let files = try FileManager.default.contentsOfDirectory(atPath: registrySources.path)
        for file in files where file.hasSuffix(".swift") {
            let source = try String(contentsOf: registrySources.appendingPathComponent(file), encoding: .utf8)
            for match in source.matches(of: call) {
                let method = String(match.output[1].substring ?? "").uppercased()
                let components = (match.output[2].substring ?? "").split(separator: "/").map {
                    $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0)
                }
                routes.insert(Route(method: method, path: "/" + components.joined(separator: "/")))
            }
        }
        return routes
    }

    @Test("GET /openapi.yaml serves the bytes of the repository's openapi.yaml as application/yaml, without a token")
    func servedDocument() async throws {
        let file = try Data(contentsOf: Self.registrySources.appendingPathComponent("openapi.yaml"))
        #expect(Data(RegistryRoutes.openAPIDocument) == file)
        try await RegistryHTTPTests.withServer { server in
            let served = try await RegistryHTTPTests.send("GET", server.base + "/openapi.yaml")
            #expect(served.status == 200)
            #expect(served.body == file)
            #expect(served.headers["Content-Type"] as? String == "application/yaml")
            let text = String(decoding: served.body, as: UTF8.self)
            #expect(text.hasPrefix("openapi: 3.1."))
        }
    }

    @Test("The document names every route the router serves, and the server serves every route the document names")
    func routesMatch() async throws {
        let documented = try Self.documentedRoutes()
        let coded = try Self.codedRoutes()
        #expect(coded.count >= 9, "the route calls were not found in \(Self.registrySources.path)")
        #expect(coded.subtracting(documented).sorted() == [], "served but not in openapi.yaml")
        #expect(documented.subtracting(coded).sorted() == [], "in openapi.yaml but not served")

        // On a live server (no token): every documented route answers with something of its own. The router's
        // answer to a path or method it does not have is 404 with no content type; the routes' own errors are
        // JSON (`{"error": …}`, without the body for HEAD).
        try await RegistryHTTPTests.withServer { server in
            func contentType(_ headers: [AnyHashable: Any]) -> String? {
                headers.first { ($0.key as? String)?.lowercased() == "content-type" }?.value as? String
            }
            for route in documented.sorted() {
                let path = route.path.replacingOccurrences(of: "{name}", with: "no-such-model")
                    .replacingOccurrences(of: "{version}", with: "1")
                    .replacingOccurrences(of: "{sha256}", with: String(repeating: "0", count: 64))
                let answer = try await RegistryHTTPTests.send(route.method, server.base + path)
                #expect(!(answer.status == 404 && contentType(answer.headers) == nil), "\(route) is not served")
                if answer.status >= 400 {
                    #expect(contentType(answer.headers) == "application/json", "\(route): \(answer.status)")
                    if route.method != "HEAD" {
                        #expect(RegistryHTTPTests.json(answer.body)["error"] is String, "\(route): \(answer.status)")
                    }
                }
            }
            let unknown = try await RegistryHTTPTests.send("PUT", server.base + "/v1/models")
            #expect(unknown.status == 404 && contentType(unknown.headers) == nil && unknown.body.isEmpty)
        }
    }
}
