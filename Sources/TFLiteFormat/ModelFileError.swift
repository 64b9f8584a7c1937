/// Why a model file, its metadata or its associated files could not be read.
///
/// Every case carries a sentence meant for a person: print the error (its ``description``) to explain
/// what is wrong with the file. Reading never crashes on malformed input; it throws one of these instead.
package enum ModelFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file could not be opened or read (missing, a directory, no permission, I/O error).
    case unreadableFile(path: String, reason: String)
    /// The input has no bytes at all (an empty file, or an empty array). `path` is nil for in-memory input.
    case empty(path: String?)
    /// The bytes are not a TFLite model at all: too short, or without the `TFL3` FlatBuffer identifier.
    /// The reason names what the bytes look like instead when that can be recognised (JPEG, PNG, text…).
    case notATFLiteModel(reason: String)
    /// The model's FlatBuffer points outside the file: the file was cut short, or an offset is corrupt.
    case truncatedOrCorrupt(String)
    /// The model's FlatBuffer is inside the file but does not make sense (no subgraph, bad tensor index…).
    case malformed(String)
    /// The model's TFLite Model Metadata (the `TFLITE_METADATA` buffer) is corrupt or truncated.
    case malformedMetadata(String)
    /// The zip of associated files appended to the model is corrupt or truncated.
    case malformedAssociatedFiles(String)
    /// The zip of associated files uses a feature this reader does not support (encryption, Zip64,
    /// a compression method other than stored or deflate).
    case unsupportedAssociatedFile(String)
    /// The metadata names an associated file that the model's zip does not contain.
    case missingAssociatedFile(name: String)
    /// A label file has more lines than ``ModelLimits/maximumLabelCount``.
    case tooManyLabels(count: Int)

    /// A sentence explaining the problem, suitable for showing to a user.
    package var description: String {
        switch self {
        case let .unreadableFile(path, reason):
            return "Cannot read \(path): \(reason)."
        case let .empty(path):
            if let path { return "The model file \(path) is empty (0 bytes)." }
            return "The model data is empty (0 bytes)."
        case let .notATFLiteModel(reason):
            return "Not a TFLite model: \(reason)."
        case let .truncatedOrCorrupt(detail):
            return "The TFLite model is truncated or corrupt: \(detail)."
        case let .malformed(detail):
            return "The TFLite model is malformed: \(detail)."
        case let .malformedMetadata(detail):
            return "The model's TFLite metadata is corrupt: \(detail)."
        case let .malformedAssociatedFiles(detail):
            return "The model's associated files (the zip appended to the model) are corrupt: \(detail)."
        case let .unsupportedAssociatedFile(detail):
            return "The model's associated files use an unsupported zip feature: \(detail)."
        case let .tooManyLabels(count):
            return
                "The label file has \(count) lines, more than the \(ModelLimits.maximumLabelCount) labels LiteVision reads."
        case let .missingAssociatedFile(name):
            return "The model's metadata names the associated file \"\(name)\", but the model does not contain it."
        }
    }
}
