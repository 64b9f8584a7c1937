import FoundationEssentials
import Hummingbird
import Logging
import LiteVisionRegistryStorage
import LiteVisionSystem
import NIOCore

/// The registry's HTTP API on a Hummingbird router. JSON in and out; errors are `{"error": "…"}` with the
/// status of the ``RegistryError``.
///
/// | method and path | what it does | token |
/// |---|---|---|
/// | `GET /health` | liveness: 200 while the process runs | — |
/// | `GET /ready` | readiness: 200 when the storage answers and its schema is ready, else 503 | — |
/// | `GET /metrics` | Prometheus metrics (``RegistryMetrics``) | — |
/// | `GET /openapi.yaml` | the OpenAPI 3.1 document of this API (`openapi.yaml`) | — |
/// | `GET /v1/models` | every model the caller may read, with its latest version and rollout | — |
/// | `GET /v1/models/{name}?client=ID` | the model, its versions, and the one this client gets (`served`) | read¹ |
/// | `POST /v1/models/{name}/versions[?private=true]` | publish the body (a `.tflite` file) as the next version | publish |
/// | `POST /v1/models/{name}/promote?version=N` | make version N the latest | publish |
/// | `POST /v1/models/{name}/rollout?version=N&percent=P` | serve N to P % of clients | publish |
/// | `DELETE /v1/models/{name}/versions/{version}` | delete a version | publish |
/// | `GET`, `HEAD /v1/blobs/{sha256}` | a model file by content: `ETag`, `If-None-Match`, `Range`, immutable | read¹ |
///
/// ¹ Only for a private model: a publish token, a read token for every model, or a read token for that model.
/// Public models are read without a token. A request for a private model without a token is answered 401, with
/// a token that does not grant it 403; a token that is not one of this registry's is 401 on every route.
///
/// The routes keep nothing a replica beside them would need: everything is in the ``RegistryService``'s stores,
/// and what they cache in memory is keyed by the metadata store's generation (so a change made through another
/// replica is seen at once).
package struct RegistryRoutes: Sendable {
    /// The registry, on its storage.
    package let service: RegistryService
    /// Uploads larger than this many bytes are refused as soon as they pass it.
    package let uploadLimit: Int
    /// Where requests, bytes served and downloads are counted.
    package let metrics: RegistryMetrics
    /// Encoded answers, blob owners and small blobs, kept until the registry changes.
    let cache: ResponseCache

    /// The routes of `service`. Model files are kept in memory up to `blobMemory` bytes in all (each at most
    /// 32 MiB; 0 keeps none: every download is read from the store).
    package init(
        service: RegistryService, uploadLimit: Int = 200_000_000, metrics: RegistryMetrics = RegistryMetrics(),
        blobMemory: Int = 64 << 20
    ) {
        self.service = service
        self.uploadLimit = uploadLimit
        self.metrics = metrics
        cache = ResponseCache(blobSizeLimit: min(32 << 20, blobMemory), blobMemoryLimit: blobMemory)
    }

    /// Adds the routes to `router`.
    package func add(to router: Router<RegistryRequestContext>) {
        router.add(middleware: RequestCounter(metrics: metrics))
        addProcessRoutes(to: router)
        addOpenAPIRoute(to: router)
        addReadingRoutes(to: router)
        addChangingRoutes(to: router)
        router.get("v1/blobs/:sha256") { request, context in
            try await self.blob(request, context: context)
        }
        router.head("v1/blobs/:sha256") { request, context in
            try await self.blob(request, context: context, headersOnly: true)
        }
    }

    /// `GET /health`, `/ready` and `/metrics`: the process and its storage, for orchestrators and monitoring.
    private func addProcessRoutes(to router: Router<RegistryRequestContext>) {
        router.get("health") { _, _ in Self.json(["status": "ok"]) }
        router.get("ready") { _, _ in
            do throws(RegistryError) {
                try await service.metadata.checkReady()
                return Self.json(["status": "ready"])
            } catch {
                guard case .unavailable = error else { return Self.error(.unavailable(error.description)) }
                return Self.error(error)
            }
        }
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text())))
        }
    }

    /// `GET /v1/models` and `GET /v1/models/{name}`.
    private func addReadingRoutes(to router: Router<RegistryRequestContext>) {
        router.get("v1/models") { request, _ in
            await self.respond { () async throws(RegistryError) in
                let grant = try await self.grant(request)
                let readable = try await service.list().filter { RegistryService.canRead($0, with: grant) }
                return Self.json(["models": readable.map(ModelListing.init)])
            }
        }
        router.get("v1/models/:name") { request, context in
            let name = context.parameters.get("name") ?? ""
            let client = request.uri.queryParameters.get("client")
            return await self.respond { () async throws(RegistryError) in
                let grant = try await self.grant(request)
                let entry = try await cache.model(name, in: service)
                try Self.requireRead([entry.model], grant: grant, what: "model \(name)")
                guard let served = RegistryService.served(entry.model, versions: entry.versions, to: client) else {
                    throw .notFound(name)
                }
                let body = cache.answer(entry, served: served) {
                    Self.encoded(ModelInfo(model: entry.model, versions: entry.versions, served: served))
                }
                return Response(
                    status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: body))
            }
        }
    }

    /// Publish, promote, rollout and delete: each needs a publish token.
    private func addChangingRoutes(to router: Router<RegistryRequestContext>) {
        router.post("v1/models/:name/versions") { request, context in
            let name = context.parameters.get("name") ?? ""
            if let refusal = await self.refusal(request, needing: .publish) { return refusal }
            let isPrivate: Bool?
            switch request.uri.queryParameters.get("private") {
            case nil: isPrivate = nil
            case "true": isPrivate = true
            case "false": isPrivate = false
            default: return Self.error(.invalidRequest("private must be true or false"))
            }
            return try await self.publish(request, as: name, isPrivate: isPrivate, logger: context.logger)
        }
        router.post("v1/models/:name/promote") { request, context in
            let name = context.parameters.get("name") ?? ""
            if let refusal = await self.refusal(request, needing: .publish) { return refusal }
            let version = request.uri.queryParameters.get("version").flatMap { Int($0) }
            return await self.respond { () async throws(RegistryError) in
                guard let version else { throw .invalidRequest("give the version to promote: ?version=N") }
                try await service.promote(name, version: version)
                context.logger.info("promoted", metadata: ["model": "\(name)", "version": "\(version)"])
                return Self.json(ModelListing(try await service.info(name).model))
            }
        }
        router.post("v1/models/:name/rollout") { request, context in
            let name = context.parameters.get("name") ?? ""
            if let refusal = await self.refusal(request, needing: .publish) { return refusal }
            let version = request.uri.queryParameters.get("version").flatMap { Int($0) }
            let percent = request.uri.queryParameters.get("percent").flatMap { Int($0) }
            return await self.respond { () async throws(RegistryError) in
                guard let version, let percent else {
                    throw .invalidRequest("give the version and the share of clients: ?version=N&percent=P")
                }
                try await service.rollout(name, version: version, percent: percent)
                context.logger.info(
                    "rollout", metadata: ["model": "\(name)", "version": "\(version)", "percent": "\(percent)"])
                return Self.json(ModelListing(try await service.info(name).model))
            }
        }
        router.delete("v1/models/:name/versions/:version") { request, context in
            let name = context.parameters.get("name") ?? ""
            if let refusal = await self.refusal(request, needing: .publish) { return refusal }
            let version = context.parameters.get("version").flatMap { Int($0) }
            return await self.respond { () async throws(RegistryError) in
                guard let version else { throw .invalidRequest("the version must be a number") }
                try await service.delete(name, version: version)
                context.logger.info("deleted", metadata: ["model": "\(name)", "version": "\(version)"])
                return Response(status: .noContent)
            }
        }
    }

    /// Streams the body to an incoming blob (never whole in memory), stopping at the size limit, then publishes.
    private func publish(
        _ request: Request, as name: String, isPrivate: Bool?, logger: Logger
    ) async throws -> Response {
        do {
            try RegistryService.validate(name: name)
            // A declared length over the limit is refused before a byte of the body is read.
            if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > uploadLimit {
                throw RegistryError.tooLarge(limit: uploadLimit)
            }
            let upload = try service.incoming()
            for try await buffer in request.body {
                guard upload.size + buffer.readableBytes <= uploadLimit else {
                    throw RegistryError.tooLarge(limit: uploadLimit)
                }
                do {
                    try buffer.withUnsafeReadableBytes { (bytes) throws(SystemError) in try upload.write(bytes) }
                } catch {
                    throw RegistryError.storage("\(error)")
                }
            }
            guard upload.size > 0 else {
                throw RegistryError.invalidRequest("the request has no body: send the .tflite file")
            }
            let published = try await service.publish(upload, as: name, isPrivate: isPrivate)
            metrics.publish(outcome: "published")
            logger.info(
                "published",
                metadata: [
                    "model": "\(name)", "version": "\(published.version)", "sha256": "\(published.sha256)",
                    "bytes": "\(published.size)",
                ])
            var response = Self.json(published)
            response.status = .created
            return response
        } catch let error as RegistryError {
            metrics.publish(outcome: "refused")
            logger.notice("publish refused", metadata: ["model": "\(name.prefix(80))", "reason": "\(error)"])
            return Self.error(error)
        }
    }

    /// What the request's bearer token grants: nil without an `Authorization` header; an error when the header
    /// is not a bearer token of this registry.
    func grant(_ request: Request) async throws(RegistryError) -> TokenGrant? {
        guard let header = request.headers[.authorization] else { return nil }
        // The scheme name is case-insensitive (RFC 9110).
        guard header.prefix(7).lowercased() == "bearer ",
            let grant = try await service.authorize(String(header.dropFirst(7).drop(while: { $0 == " " })))
        else {
            throw .unauthorized("the token is not valid for this registry (send Authorization: Bearer <token>)")
        }
        return grant
    }

    /// Throws unless `grant` may read one of `models` (the models holding what is asked for).
    static func requireRead(_ models: [ModelRecord], grant: TokenGrant?, what: String) throws(RegistryError) {
        guard !models.contains(where: { RegistryService.canRead($0, with: grant) }) else { return }
        if grant == nil {
            throw .unauthorized("\(what) is private: send a read token (Authorization: Bearer <token>)")
        }
        throw .forbidden("this token cannot read \(what)")
    }

    /// A refusal when the request has no valid token of `role` (a publish token also reads).
    private func refusal(_ request: Request, needing role: TokenRole) async -> Response? {
        guard request.headers[.authorization] != nil else {
            return Self.error(.unauthorized("this needs a \(role.rawValue) token: Authorization: Bearer <token>"))
        }
        do {
            let granted = try await grant(request)
            if role == .publish && granted?.role != .publish {
                return Self.error(.forbidden("this needs a publish token; this token can only read"))
            }
        } catch {
            return Self.error(error)
        }
        return nil
    }

    /// The response `body` makes, or its error as an error response.
    private func respond(_ body: () async throws(RegistryError) -> Response) async -> Response {
        do {
            return try await body()
        } catch {
            return Self.error(error)
        }
    }
}
