/// The codes of ML Kit's errors (domain `com.google.mlkit`) that LiteVision's errors take when they become an
/// `NSError`: Google's canonical error codes (`google.rpc.Code`, 1–16) and the model codes of ML Kit's and Firebase
/// ML's downloads (17, 100–102), with the numbers of ML Kit's `MlKitException` and Firebase ML's
/// `FirebaseMlException`. The porting guide's "Errors as NSError" table says which error takes which.
enum MLKitErrorCode: Int {
    /// The operation was cancelled, typically by the caller.
    case cancelled = 1
    /// An error without a more specific code.
    case unknown = 2
    /// An argument (a model, an image, a label file, a model source) is unusable whatever the state of the system.
    case invalidArgument = 3
    /// The deadline expired before the operation could complete.
    case deadlineExceeded = 4
    /// A requested file or model was not found.
    case notFound = 5
    /// The caller may not do this (HTTP 403).
    case permissionDenied = 7
    /// A limit was reached: a size limit, a quota (HTTP 429).
    case resourceExhausted = 8
    /// The system is not in the state the operation needs (a condition not met, a folder that cannot be written).
    case failedPrecondition = 9
    /// Aborted by a conflict (HTTP 409).
    case aborted = 10
    /// A request past the valid range (HTTP 416).
    case outOfRange = 11
    /// Not implemented by the server (HTTP 501).
    case unimplemented = 12
    /// An invariant of the system broke: the runtime failed, or an answer makes no sense.
    case internalError = 13
    /// A service or a library is not available now; retrying later may help.
    case unavailable = 14
    /// The request lacks valid credentials (HTTP 401).
    case unauthenticated = 16
    /// The network failed: no connection, a name that does not resolve, a cut transfer.
    case networkIssue = 17
    /// The model is not a model the TFLite runtime can run.
    case modelIncompatibleWithTFLite = 100
    /// The disk is full.
    case notEnoughSpace = 101
    /// The downloaded model's SHA-256 is not the expected one.
    case modelHashMismatch = 102
}

/// The domain of ML Kit's `NSError`s, which LiteVision's errors take when they become one.
let mlkitErrorDomain = "com.google.mlkit"
