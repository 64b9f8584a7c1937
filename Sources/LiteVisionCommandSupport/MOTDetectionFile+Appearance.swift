import LiteVisionTracking

/// Appearance vectors in a MOTChallenge detection file (`litevision track --detections --reidentify`): the fields
/// after the tenth of a row, `frame,id,x,y,w,h,score,-1,-1,-1,f1,f2,…`, as DeepSORT's detection files carry a
/// re-identification network's features. A row with 7 to 10 fields has no vector (its detection never
/// re-identifies an object); the others must have between 1 and ``maximumAppearanceLength`` numbers, every one
/// finite, not all zero, and as many as the first row with a vector. A row breaking that is refused with its line.
extension MOTDetectionFile {
    /// The most values in one appearance vector.
    package static let maximumAppearanceLength = 4096
    /// The longest line read with appearance vectors: 64 KiB (4096 values of up to 15 characters).
    package static let maximumAppearanceLineLength = 65_536

    /// The appearance vector of one row from its fields after the tenth.
    static func appearanceVector(
        _ fields: ArraySlice<Substring>, path: String, line: Int
    ) throws(MOTDetectionFileError) -> [Float] {
        func fail(_ problem: String) -> MOTDetectionFileError {
            MOTDetectionFileError(path: path, line: line, problem: problem)
        }
        guard fields.count <= maximumAppearanceLength else {
            throw fail("\(fields.count) appearance values, more than \(maximumAppearanceLength)")
        }
        var vector: [Float] = []
        vector.reserveCapacity(fields.count)
        var nonZero = false
        for (offset, field) in fields.enumerated() {
            // Fields are numbered from 1 as a user counts them: the first appearance value is field 11.
            let number = fields.startIndex + offset + 1
            guard let value = Float(field) else {
                throw fail("appearance value \(offset + 1) (field \(number)) '\(field.prefix(40))' is not a number")
            }
            guard value.isFinite else {
                throw fail("appearance value \(offset + 1) (field \(number)) is \(field): it must be a finite number")
            }
            nonZero = nonZero || value != 0
            vector.append(value)
        }
        guard nonZero else { throw fail("the appearance vector is all zeros: it has no direction to compare") }
        return vector
    }
}

/// The length of a file's appearance vectors: that of the first row with one, which every other row with one must
/// have.
struct AppearanceColumns {
    /// The length of the first vector, and its line; `nil` before it.
    private var first: (length: Int, line: Int)?

    /// Checks a parsed row's vector against the first one's length.
    mutating func check(_ detection: TrackerDetection, path: String, line: Int) throws(MOTDetectionFileError) {
        guard let vector = detection.appearance else { return }
        guard let first else {
            first = (vector.count, line)
            return
        }
        guard vector.count == first.length else {
            throw MOTDetectionFileError(
                path: path, line: line,
                problem:
                    "\(vector.count) appearance value\(vector.count == 1 ? "" : "s"), but line \(first.line) has \(first.length): every vector must have the same length"
            )
        }
    }
}
