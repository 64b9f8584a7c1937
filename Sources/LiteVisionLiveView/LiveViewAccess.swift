import Hummingbird

/// Lets through only requests that present the live view's token (``LiveViewToken``); `/health` is always open,
/// so that a liveness probe needs no secret. A refusal is `401` with `WWW-Authenticate: Bearer`.
struct LiveViewAccess<Context: RequestContext>: RouterMiddleware {
    let token: LiveViewToken

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if request.uri.path == "/health" || presents(request) { return try await next(request, context) }
        return Response(
            status: .unauthorized,
            headers: [.wwwAuthenticate: "Bearer", .contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(
                byteBuffer: ByteBuffer(
                    string:
                        "This live view needs its token: open it as /?token=TOKEN, or send 'Authorization: Bearer TOKEN'.\n"
                )))
    }

    /// Whether the request carries the token, in its `Authorization` header or its `token` query parameter.
    private func presents(_ request: Request) -> Bool {
        if let header = request.headers[.authorization], header.hasPrefix("Bearer "),
            token.accepts(header.dropFirst("Bearer ".count))
        {
            return true
        }
        if let value = request.uri.queryParameters.get("token") { return token.accepts(Substring(value)) }
        return false
    }
}
