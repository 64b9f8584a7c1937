import Foundation
import LiteVisionModelStore

/// A failed download as an iOS app reads it: an `NSError` in ML Kit's domain `com.google.mlkit`, its code ML
/// Kit's for the ``ModelDownloadError/reason`` (the porting guide's table), its `localizedDescription` the
/// error's ``ModelDownloadError/description``.
extension ModelDownloadError: CustomNSError, LocalizedError {
    /// `com.google.mlkit`, ML Kit's error domain.
    public static var errorDomain: String { mlkitErrorDomain }

    /// ML Kit's code for the reason (see the porting guide's "Errors as NSError").
    public var errorCode: Int { reason.mlkitCode.rawValue }

    /// The ``ModelDownloadError/description`` under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }

    /// The ``ModelDownloadError/description``.
    public var errorDescription: String? { description }
}

extension ModelDownloadError.Reason {
    /// ML Kit's code for this reason.
    var mlkitCode: MLKitErrorCode {
        switch self {
        case .libcurlUnavailable: .unavailable
        case .unreachable, .hostNotFound, .tls, .incomplete: .networkIssue
        case .httpStatus(let status): Self.code(httpStatus: status)
        case .tooLarge: .resourceExhausted
        case .hashMismatch: .modelHashMismatch
        case .fileSystem: .failedPrecondition
        case .noSpace: .notEnoughSpace
        case .notATFLiteModel: .modelIncompatibleWithTFLite
        case .conditionsNotMet: .failedPrecondition
        case .cancelled: .cancelled
        case .transfer: .unknown
        case .invalidSource: .invalidArgument
        case .invalidRegistryResponse: .internalError
        }
    }

    /// The canonical code of an HTTP error status: the HTTP mappings of `google.rpc.Code` (400, 401, 403, 404,
    /// 409, 429, 499, 500, 501, 503, 504), then 408 a deadline, 410 not found, 416 out of range, any other 4xx a
    /// failed precondition and any other 5xx unavailable.
    static func code(httpStatus status: Int) -> MLKitErrorCode {
        switch status {
        case 400: .invalidArgument
        case 401: .unauthenticated
        case 403: .permissionDenied
        case 404, 410: .notFound
        case 408, 504: .deadlineExceeded
        case 409: .aborted
        case 416: .outOfRange
        case 429: .resourceExhausted
        case 499: .cancelled
        case 500: .internalError
        case 501: .unimplemented
        case 400..<500: .failedPrecondition
        case 500..<600: .unavailable
        default: .unknown
        }
    }
}
