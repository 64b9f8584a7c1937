import Hummingbird

/// Who may use the live view.
///
/// - With a token (``LiveViewToken``), only requests that present it, as `Authorization: Bearer TOKEN` or
///   `?token=TOKEN`; a refusal is `401` with `WWW-Authenticate: Bearer`.
/// - On loopback without a token, only requests addressed to this machine by name (`Host` is `127.0.0.1`,
///   `localhost` or `[::1]`, any port): a web page from elsewhere that the viewer's browser opens cannot read the
///   cameras through a host name it points at 127.0.0.1 (DNS rebinding). A refusal is `403`.
///
/// `/health` is always open, so that a liveness probe needs no secret.
struct LiveViewAccess<Context: RequestContext>: RouterMiddleware {
    let token: LiveViewToken?
    /// Whether only requests for a loopback host name are answered (loopback without a token).
    let loopbackHostsOnly: Bool

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if request.uri.path == "/health" { return try await next(request, context) }
        if let token, !Self.presents(token, in: request) {
            return Self.refusal(
                .unauthorized,
                "This live view needs its token: open it as /?token=TOKEN, or send 'Authorization: Bearer TOKEN'.",
                headers: [.wwwAuthenticate: "Bearer"])
        }
        if loopbackHostsOnly, !Self.isLoopbackHost(request.head.authority) {
            return Self.refusal(
                .forbidden, "This live view answers requests for 127.0.0.1, localhost or [::1] only.")
        }
        return try await next(request, context)
    }

    /// Whether the request carries `token`, in its `Authorization` header (scheme `Bearer`, in any case) or its
    /// `token` query parameter.
    static func presents(_ token: LiveViewToken, in request: Request) -> Bool {
        if let header = request.headers[.authorization], header.count > 7,
            header.prefix(7).lowercased() == "bearer ", token.accepts(header.dropFirst(7))
        {
            return true
        }
        if let value = request.uri.queryParameters.get("token") { return token.accepts(Substring(value)) }
        return false
    }

    /// Whether `authority` (`host[:port]`) names this machine's loopback.
    static func isLoopbackHost(_ authority: String?) -> Bool {
        guard let authority else { return false }
        var host = Substring(authority.lowercased())
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return false }
            host = host[host.index(after: host.startIndex)..<end]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        return host == "127.0.0.1" || host == "localhost" || host == "::1"
    }

    private static func refusal(
        _ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]
    ) -> Response {
        var fields = headers
        fields[.contentType] = "text/plain; charset=utf-8"
        return Response(
            status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}
