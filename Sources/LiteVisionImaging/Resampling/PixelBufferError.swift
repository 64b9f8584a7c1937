/// Why a caller-supplied pixel buffer was refused (instead of being read out of bounds).
package enum PixelBufferError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Width or height is zero or negative.
    case invalidSize(width: Int, height: Int)
    /// A plane's row stride is shorter than one row of its samples.
    case rowStrideTooSmall(plane: String, bytesPerRow: Int, minimum: Int)
    /// A plane holds fewer bytes than its stride and row count require.
    case planeTooSmall(plane: String, byteCount: Int, required: Int)

    /// A sentence naming the plane and the sizes involved.
    package var description: String {
        switch self {
        case .invalidSize(let width, let height):
            "invalid pixel buffer size \(width)x\(height): both must be positive"
        case .rowStrideTooSmall(let plane, let bytesPerRow, let minimum):
            "\(plane) plane: bytesPerRow \(bytesPerRow) is smaller than one row (\(minimum) bytes)"
        case .planeTooSmall(let plane, let byteCount, let required):
            "\(plane) plane: \(byteCount) bytes given, \(required) needed for its rows"
        }
    }

    /// Checks that a plane of `rows` rows of `rowBytes` bytes, `bytesPerRow` apart, fits in `count` bytes.
    static func check(plane: String, count: Int, bytesPerRow: Int, rowBytes: Int, rows: Int) throws(PixelBufferError) {
        guard bytesPerRow >= rowBytes else {
            throw .rowStrideTooSmall(plane: plane, bytesPerRow: bytesPerRow, minimum: rowBytes)
        }
        let (strideBytes, overflow) = bytesPerRow.multipliedReportingOverflow(by: rows - 1)
        let required = overflow ? Int.max : strideBytes + rowBytes
        guard count >= required else { throw .planeTooSmall(plane: plane, byteCount: count, required: required) }
    }
}
