/// A list of labels read from a text file with one label per line (a model's label map).
///
/// Line `i` (from 0) is label `i`. A trailing `"\r"` on each line (Windows line ends) and the empty line
/// after a final newline are dropped; a leading UTF-8 byte order mark is ignored. Other empty lines are
/// kept, since a label's position is its meaning.
package struct LabelMap: Sendable, Equatable {
    /// The labels, in file order.
    package var labels: [String]

    /// A label map with the given labels.
    package init(labels: [String]) {
        self.labels = labels
    }

    /// Parses UTF-8 text with one label per line. Invalid UTF-8 is repaired, never rejected.
    ///
    /// - Throws: ``ModelFileError/tooManyLabels(count:)`` when the text has more than
    ///   ``ModelLimits/maximumLabelCount`` lines (counted before any label is made).
    package init(text: [UInt8]) throws(ModelFileError) {
        var lineBreaks = 0
        for byte in text where byte == 0x0A { lineBreaks += 1 }
        let lineCount = lineBreaks + (text.last == 0x0A || text.isEmpty ? 0 : 1)
        guard lineCount <= ModelLimits.maximumLabelCount else { throw .tooManyLabels(count: lineCount) }
        var body = text[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var lines = body.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        labels = lines.map { line in
            let trimmed = line.last == 0x0D ? line.dropLast() : line
            return String(decoding: trimmed, as: UTF8.self)
        }
    }

    /// Reads a label file, such as the separate label list of a model without metadata.
    ///
    /// - Throws: ``ModelFileError/unreadableFile(path:reason:)`` when the file cannot be read or is larger than
    ///   ``ModelLimits/maximumLabelFileBytes``; ``ModelFileError/tooManyLabels(count:)``. An empty file gives
    ///   an empty label map.
    package init(contentsOfFile path: String) throws(ModelFileError) {
        try self.init(
            text: try readModelFile(atPath: path, allowEmpty: true, maximumSize: ModelLimits.maximumLabelFileBytes))
    }

    /// The number of labels.
    package var count: Int { labels.count }

    /// The label at `index`, or nil when the index is outside the list.
    package func label(at index: Int) -> String? {
        labels.indices.contains(index) ? labels[index] : nil
    }
}
