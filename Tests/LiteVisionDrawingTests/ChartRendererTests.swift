import LiteVisionDrawing
import LiteVisionImaging
import Testing

@Suite("Charts of eval --plot")
struct ChartRendererTests {
    /// The x-extent of the pixels where `image` differs from `base` (nil when they are equal).
    static func inkColumns(_ image: ImageBuffer, _ base: ImageBuffer) -> ClosedRange<Int>? {
        var (low, high) = (Int.max, Int.min)
        for y in 0..<image.height {
            for x in 0..<image.width where image.rgb(x, y) != base.rgb(x, y) {
                (low, high) = (min(low, x), max(high, x))
            }
        }
        return low <= high ? low...high : nil
    }

    @Test("Long class names above a confusion matrix each stay within their own column")
    func columnLabelsDoNotOverlap() throws {
        let names = ["dandelion", "sunflowers", "tulips and more tulips", "roses"]
        let counts = names.indices.map { row in names.indices.map { $0 == row ? 5 : 1 } }
        func chart(_ columns: [String]) -> ImageBuffer {
            ChartRenderer.confusionMatrix(title: "t", rowLabels: names, columnLabels: columns, counts: counts)
        }
        let blank = chart(names.map { _ in "" })
        var extents: [ClosedRange<Int>] = []
        for index in names.indices {
            let labels = names.indices.map { $0 == index ? names[index] : "" }
            let extent = try #require(Self.inkColumns(chart(labels), blank), "column \(index)'s label is drawn")
            extents.append(extent)
        }
        for (left, right) in zip(extents, extents.dropFirst()) {
            #expect(left.upperBound < right.lowerBound, "labels \(left) and \(right) overlap")
        }
    }
}
