import Hummingbird

/// Counts every answered request by method and status in ``RegistryMetrics`` (also those the router answers
/// itself, such as 404 for an unknown path).
struct RequestCounter: RouterMiddleware {
    typealias Context = RegistryRequestContext
    let metrics: RegistryMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            let response = try await next(request, context)
            metrics.requestAnswered(method: request.method.rawValue, status: response.status.code)
            return response
        } catch let error as any HTTPResponseError {
            metrics.requestAnswered(method: request.method.rawValue, status: error.status.code)
            throw error
        } catch {
            metrics.requestAnswered(method: request.method.rawValue, status: 500)
            throw error
        }
    }
}
