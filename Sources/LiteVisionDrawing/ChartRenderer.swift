import LiteVisionImaging

/// Draws the charts of `litevision eval --plot` with Cairo: a confusion matrix and precision–recall curves, on a
/// white background, as RGB8 images ready for ``PNGEncoder``.
package enum ChartRenderer {
    private static let white = AnnotationColor(red: 255, green: 255, blue: 255)
    private static let black = AnnotationColor(red: 0, green: 0, blue: 0)
    private static let grey = AnnotationColor(red: 200, green: 200, blue: 200)

    /// A confusion matrix: one cell per (row, column), shaded by its share of the row, with its count written in
    /// it; row labels on the left, column labels above, reading upwards so that long names never overlap.
    package static func confusionMatrix(
        title: String, rowLabels: [String], columnLabels: [String], counts: [[Int]]
    ) -> ImageBuffer {
        let rows = max(1, min(rowLabels.count, 60))
        let columns = max(1, min(columnLabels.count, 60))
        let cell = 56.0
        let labelWidth = 150.0
        let top = 170.0
        let width = Int(labelWidth + cell * Double(columns) + 20)
        let height = Int(top + cell * Double(rows) + 20)
        return render(width: width, height: height) { canvas in
            canvas.setColor(black)
            canvas.setFont(size: 16)
            canvas.showText(title, x: 10, baseline: 24)
            canvas.setFont(size: 11)
            canvas.showText("rows: expected", x: 6, baseline: top - 24)
            canvas.showText("columns: found", x: 6, baseline: top - 8)
            // Each column's label stands in its own column, its baseline a little right of the centre (11 px text).
            canvas.clip(x: 0, y: 36, width: Double(width), height: top - 36)
            for c in 0..<columns {
                let x = labelWidth + cell * Double(c) + (cell - 2) / 2 + 4
                canvas.showTextUpwards(shortened(columnLabels[c], 22), x: x, y: top - 6)
            }
            canvas.resetClip()
            for r in 0..<rows {
                let rowCounts = r < counts.count ? counts[r] : []
                let total = max(1, rowCounts.reduce(0, +))
                canvas.setColor(black)
                canvas.showText(shortened(rowLabels[r], 22), x: 6, baseline: top + cell * Double(r) + cell / 2 + 4)
                for c in 0..<columns {
                    let count = c < rowCounts.count ? rowCounts[c] : 0
                    let share = Double(count) / Double(total)
                    let shade = UInt8(255 - (share * 200).rounded())
                    let color =
                        r == c
                        ? AnnotationColor(red: shade, green: 255 - UInt8((share * 80).rounded()), blue: shade)
                        : AnnotationColor(red: 255, green: shade, blue: shade)
                    let x = labelWidth + cell * Double(c)
                    let y = top + cell * Double(r)
                    canvas.setColor(color)
                    canvas.fill(x: x, y: y, width: cell - 2, height: cell - 2)
                    canvas.setColor(black)
                    canvas.showText("\(count)", x: x + 8, baseline: y + cell / 2 + 4)
                }
            }
        }
    }

    /// Curves of y against x in [0, 1] × [0, 1], one color each, with axes, a grid and a legend.
    package static func curves(
        title: String, xLabel: String, yLabel: String, x: [Double], series: [(name: String, y: [Double])]
    ) -> ImageBuffer {
        let (width, height) = (800, 600)
        let (left, right, top, bottom) = (70.0, 250.0, 64.0, 60.0)
        let plotWidth = Double(width) - left - right
        let plotHeight = Double(height) - top - bottom
        func point(_ px: Double, _ py: Double) -> (x: Double, y: Double) {
            (left + plotWidth * min(max(px, 0), 1), top + plotHeight * (1 - min(max(py, 0), 1)))
        }
        return render(width: width, height: height) { canvas in
            canvas.setColor(black)
            canvas.setFont(size: 16)
            canvas.showText(title, x: 10, baseline: 28)
            canvas.setFont(size: 12)
            for step in 0...10 {
                let value = Double(step) / 10
                canvas.setColor(grey)
                canvas.strokeLine([point(value, 0), point(value, 1)], lineWidth: 1)
                canvas.strokeLine([point(0, value), point(1, value)], lineWidth: 1)
                canvas.setColor(black)
                let text = step == 10 ? "1.0" : "0.\(step)"
                canvas.showText(text, x: point(value, 0).x - 9, baseline: point(value, 0).y + 18)
                canvas.showText(text, x: left - 30, baseline: point(0, value).y + 4)
            }
            canvas.strokeLine([point(0, 1), point(0, 0), point(1, 0)], lineWidth: 2)
            canvas.showText(xLabel, x: left + plotWidth / 2 - 20, baseline: Double(height) - 15)
            canvas.showText(yLabel, x: 8, baseline: top - 16)
            for (index, curve) in series.prefix(20).enumerated() {
                let color = AnnotationPalette.colors[index % AnnotationPalette.colors.count]
                canvas.setColor(color)
                let points = zip(x, curve.y).map { point($0, $1) }
                canvas.strokeLine(points, lineWidth: 2.5)
                let legendY = top + 20 * Double(index)
                canvas.fill(x: Double(width) - right + 15, y: legendY, width: 18, height: 10)
                canvas.setColor(black)
                canvas.showText(shortened(curve.name, 30), x: Double(width) - right + 40, baseline: legendY + 10)
            }
        }
    }

    private static func shortened(_ text: String, _ length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length - 1)) + "…"
    }

    private static func render(width: Int, height: Int, _ body: (borrowing CairoCanvas) -> Void) -> ImageBuffer {
        var output = ImageBuffer(width: width, height: height, format: .rgb8)
        guard let stride = CairoPixelLayout.stride(width: width) else { return output }
        var surface = [UInt8](repeating: 0, count: stride * height)
        surface.withUnsafeMutableBytes { bytes in
            _ = CairoCanvas.draw(
                into: bytes, width: width, height: height, stride: stride, format: CairoPixelLayout.format
            ) { canvas in
                canvas.setColor(white)
                canvas.fill(x: 0, y: 0, width: Double(width), height: Double(height))
                body(canvas)
            }
        }
        surface.withUnsafeBytes { CairoPixelLayout.store($0, stride: stride, into: &output) }
        return output
    }
}
