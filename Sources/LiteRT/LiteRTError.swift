/// A failure reported by the LiteRT runtime, with the runtime's status code by name and what was being done.
public struct LiteRTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The runtime's status code (`LiteRtStatus`).
    public let status: Int32
    /// What LiteVision asked the runtime to do, e.g. "compile the model".
    public let operation: String

    /// Creates an error for a non-zero status returned by `operation`.
    public init(status: Int32, operation: String) {
        self.status = status
        self.operation = operation
    }

    /// The status code's name, as in LiteRT's `litert_common.h` (the runtime exports no name table).
    public var statusName: String {
        switch status {
        case 0: "Ok"
        case 1: "InvalidArgument"
        case 2: "MemoryAllocationFailure"
        case 3: "RuntimeFailure"
        case 4: "MissingInputTensor"
        case 5: "Unsupported"
        case 6: "NotFound"
        case 7: "TimeoutExpired"
        case 8: "WrongVersion"
        case 9: "Unknown"
        case 10: "AlreadyExists"
        case 100: "Cancelled"
        case 500: "FileIO"
        case 501: "InvalidFlatbuffer"
        case 502: "DynamicLoading"
        case 503: "Serialization"
        case 504: "Compilation"
        case 1000: "IndexOOB"
        case 1001: "InvalidIrType"
        case 1002: "InvalidGraphInvariant"
        case 1003: "GraphModification"
        default: "status \(status)"
        }
    }

    public var description: String { "LiteRT could not \(operation): \(statusName) (\(status))" }
}

/// Throws a ``LiteRTError`` for a non-zero runtime status.
@inline(__always)
func check(_ status: Int32, _ operation: @autoclosure () -> String) throws(LiteRTError) {
    if status != 0 { throw LiteRTError(status: status, operation: operation()) }
}
