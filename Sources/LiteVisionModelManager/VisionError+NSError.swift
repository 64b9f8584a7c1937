import Foundation
import LiteVision

/// A ``VisionError`` as an iOS app reads ML Kit's errors: an `NSError` in ML Kit's domain `com.google.mlkit`,
/// its code ML Kit's for the case (the porting guide's table), its `localizedDescription` the error's
/// ``VisionError/description``, also through `any Error` (`error.localizedDescription`, `error as NSError`).
extension VisionError: CustomNSError, LocalizedError {
    /// `com.google.mlkit`, ML Kit's error domain.
    public static var errorDomain: String { mlkitErrorDomain }

    /// ML Kit's code for the case (see the porting guide's "Errors as NSError").
    public var errorCode: Int { mlkitCode.rawValue }

    /// The ``VisionError/description`` under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }

    /// The ``VisionError/description``.
    public var errorDescription: String? { description }

    /// ML Kit's code for the case.
    var mlkitCode: MLKitErrorCode {
        switch self {
        case .fileNotReadable: .notFound
        case .fileNotWritable: .failedPrecondition
        case .invalidModel: .modelIncompatibleWithTFLite
        case .unsupportedModel, .invalidLabels, .imageDecoding, .invalidImage: .invalidArgument
        case .runtimeUnavailable: .unavailable
        case .runtime: .internalError
        case .modelDownload(let error): error.reason.mlkitCode
        case .remoteModelNotDownloaded: .unavailable
        }
    }
}
