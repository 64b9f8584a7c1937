import LiteVisionModelStore

/// What can go wrong in the registry, each with the HTTP status it is answered with.
package enum RegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidName(String)
    case notFound(String)
    case notAModel(String)
    case tooLarge(limit: Int)
    case invalidRequest(String)
    case unauthorized(String)
    case forbidden(String)
    /// A change that collided with another one made at the same time (by another replica, say) and could not be
    /// completed after a few attempts: nothing was changed, and the request may be sent again.
    case conflict(String)
    case storage(String)
    /// The storage cannot be reached now (the database is down, or its schema is not ready yet).
    case unavailable(String)

    /// The HTTP status of the error.
    package var status: Int {
        switch self {
        case .invalidName, .invalidRequest: 400
        case .unauthorized: 401
        case .forbidden: 403
        case .notFound: 404
        case .conflict: 409
        case .tooLarge: 413
        case .notAModel: 422
        case .storage: 500
        case .unavailable: 503
        }
    }

    package var description: String {
        switch self {
        case .invalidName(let name):
            "invalid model name \"\(name.prefix(80))\": use 1 to \(RegistryName.maximumLength) letters, digits, '.', '_' or '-', and no '..'"
        case .notFound(let what): "\(what) was not found"
        case .notAModel(let reason): "the upload is not a model LiteVision can use: \(reason)"
        case .tooLarge(let limit): "the upload is larger than the \(limit)-byte limit"
        case .invalidRequest(let reason): reason
        case .unauthorized(let reason): reason
        case .forbidden(let reason): reason
        case .conflict(let reason): "the change collided with another one and was not made: \(reason); try again"
        case .storage(let reason): "the registry could not store or read data: \(reason)"
        case .unavailable(let reason): "the registry's storage is not available: \(reason)"
        }
    }
}
