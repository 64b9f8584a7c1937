/// How well a classifier's labels match the expected classes of a set of photos: top-1 and top-5 accuracy, each
/// class's precision, recall and F1 (from the top label), and the confusion matrix.
///
/// A label matches a class when their texts are equal ignoring case (as ``ClassificationEvaluation/normalized(_:)``
/// writes them). A top label that is none of the classes (or no label at all) is counted in the last column of
/// the confusion matrix, "other".
package struct ClassificationEvaluation: Sendable {
    /// One class's numbers.
    package struct ClassResult: Sendable {
        /// The class (the folder name).
        package var name: String
        /// Photos of this class.
        package var support: Int
        /// Photos of this class whose top label is it.
        package var truePositives: Int
        /// Photos of other classes whose top label is it.
        package var falsePositives: Int
        /// TP / (TP + FP); nil when no photo got this label.
        package var precision: Double?
        /// TP / support; nil without photos.
        package var recall: Double?
        /// The harmonic mean of precision and recall; nil when either is nil, 0 when both are 0.
        package var f1: Double?
    }

    /// The classes, in the order given.
    package var classes: [ClassResult]
    /// `confusion[expected][predicted]`: rows are the classes, columns the classes and then "other".
    package var confusion: [[Int]]
    /// Photos evaluated.
    package var count: Int
    /// Photos whose top label is their class.
    package var top1Correct: Int
    /// Photos whose class is among their first five labels.
    package var top5Correct: Int

    /// Top-1 accuracy (nil without photos).
    package var top1Accuracy: Double? { count == 0 ? nil : Double(top1Correct) / Double(count) }
    /// Top-5 accuracy.
    package var top5Accuracy: Double? { count == 0 ? nil : Double(top5Correct) / Double(count) }
    /// The mean of the classes' F1 that are defined (macro F1).
    package var macroF1: Double? {
        let values = classes.compactMap(\.f1)
        return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    /// How a label or class name is compared: lowercased, with surrounding spaces removed.
    package static func normalized(_ text: String) -> String {
        String(text.lowercased().drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    /// Evaluates `samples`: each photo's expected class (an index into `classNames`) and its labels, best first.
    package init(classNames: [String], samples: [(expected: Int, labels: [String])]) {
        let index = Dictionary(
            classNames.enumerated().map { (Self.normalized($1), $0) }, uniquingKeysWith: { first, _ in first })
        let other = classNames.count
        confusion = [[Int]](repeating: [Int](repeating: 0, count: other + 1), count: classNames.count)
        count = samples.count
        top1Correct = 0
        top5Correct = 0
        for sample in samples {
            let predicted = sample.labels.first.flatMap { index[Self.normalized($0)] } ?? other
            confusion[sample.expected][predicted] += 1
            if predicted == sample.expected { top1Correct += 1 }
            if sample.labels.prefix(5).contains(where: { index[Self.normalized($0)] == sample.expected }) {
                top5Correct += 1
            }
        }
        let confusion = confusion
        classes = classNames.enumerated().map { k, name in
            let support = confusion[k].reduce(0, +)
            let truePositives = confusion[k][k]
            let predicted = confusion.reduce(0) { $0 + $1[k] }
            let precision = predicted == 0 ? nil : Double(truePositives) / Double(predicted)
            let recall = support == 0 ? nil : Double(truePositives) / Double(support)
            var f1: Double?
            if let precision, let recall {
                f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
            }
            return ClassResult(
                name: name, support: support, truePositives: truePositives,
                falsePositives: predicted - truePositives, precision: precision, recall: recall, f1: f1)
        }
    }
}
