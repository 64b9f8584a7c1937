import LiteVisionSystem
import LiteVisionTracking

/// Appearance vectors in a MOTChallenge detection file (`litevision track --detections --reidentify`): the columns
/// after the tenth of a row, `frame,id,x,y,w,h,score,-1,-1,-1,f1,f2,…`, as DeepSORT's detection files carry a
/// re-identification network's features. A row with 7 to 10 columns has no vector (its detection never
/// re-identifies an object); the others must have between 1 and ``maximumAppearanceLength`` numbers (checked as
/// numbers by ``MOTTextReader``), each within a `Float`'s range, not all zero, and as many as the first row with a
/// vector. A row breaking that is refused with its line.
extension MOTDetectionFile {
    /// The most values in one appearance vector.
    package static let maximumAppearanceLength = 4096
    /// The longest line read with appearance vectors: 64 KiB (4096 values of up to 15 characters).
    package static let maximumAppearanceLineLength = 65_536
}

/// The appearance vectors of a file, row by row, and the length of the first, which every other must have.
struct AppearanceColumns {
    /// The length of the first vector, and its line; `nil` before it.
    private var first: (length: Int, line: Int)?

    /// The vector of a row (its columns after the tenth), or `nil` for a row without one.
    mutating func vector(of row: MOTTextReader.Row, _ reader: MOTTextReader) throws(MOTTextError) -> [Float]? {
        let values = row.extraValues
        guard !values.isEmpty else { return nil }
        var vector: [Float] = []
        vector.reserveCapacity(values.count)
        var nonZero = false
        for (offset, value) in zip(values.indices, values) {
            let number = Float(value)
            guard number.isFinite else {
                throw reader.error(
                    line: row.line,
                    "\(reader.format.name(ofColumn: offset + 1)) (appearance value \(offset - values.startIndex + 1)) "
                        + "is \(row.texts[offset]): write a number within ±\(Float.greatestFiniteMagnitude)")
            }
            nonZero = nonZero || number != 0
            vector.append(number)
        }
        guard nonZero else {
            throw reader.error(line: row.line, "the appearance vector is all zeros: it has no direction to compare")
        }
        guard let first else {
            first = (vector.count, row.line)
            return vector
        }
        guard vector.count == first.length else {
            throw reader.error(
                line: row.line,
                "\(vector.count) appearance value\(vector.count == 1 ? "" : "s"), but line \(first.line) has "
                    + "\(first.length): every vector must have the same length")
        }
        return vector
    }
}
