/// Precomputed weights for one Pillow-exact bilinear resize of a `sourceWidth`×`sourceHeight` image
/// to `width`×`height`.
///
/// Computing a plan costs some tens of microseconds; keep one per frame size and pass it to every
/// ``Resampler/resizeBilinearAntialiased(_:into:width:height:plan:threads:)`` call. A plan is an
/// immutable value that can be shared between threads, and it serves every source pixel format
/// (the three- and four-byte layouts are precomputed; gray8 sources lay theirs out per call).
package struct ResizePlan: Sendable {
    /// Width of the images this plan resizes.
    package let sourceWidth: Int
    /// Height of the images this plan resizes.
    package let sourceHeight: Int
    /// Width of the output.
    package let width: Int
    /// Height of the output.
    package let height: Int

    let horizontal: PillowAxis
    let vertical: PillowAxis
    /// Horizontal table for RGB8 sources (nil when the width does not change or it was not wanted).
    let rgbTable: HorizontalTable?
    /// Horizontal table for RGBA8 / BGRA8 sources (likewise).
    let quadTable: HorizontalTable?

    /// Precomputes the weights for resizing `sourceWidth`×`sourceHeight` pixels to `width`×`height`.
    /// All sizes must be positive.
    package init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        self.init(
            sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height,
            formats: [.rgb8, .rgba8])
    }

    /// Precomputes the weights, laying out the horizontal table only for the given source formats.
    init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, formats: [PixelFormat]) {
        precondition(sourceWidth > 0 && sourceHeight > 0, "ResizePlan: source size must be positive")
        precondition(width > 0 && height > 0, "ResizePlan: destination size must be positive")
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
        let horizontal = PillowAxis(inSize: sourceWidth, outSize: width)
        self.horizontal = horizontal
        vertical = PillowAxis(inSize: sourceHeight, outSize: height)
        let resizesWidth = sourceWidth != width
        rgbTable = resizesWidth && formats.contains(.rgb8) ? ResizePlan.table(horizontal, for: .rgb8) : nil
        quadTable =
            resizesWidth && (formats.contains(.rgba8) || formats.contains(.bgra8))
            ? ResizePlan.table(horizontal, for: .rgba8) : nil
    }

    /// Whether this plan was made for these sizes.
    package func matches(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) -> Bool {
        self.sourceWidth == sourceWidth && self.sourceHeight == sourceHeight
            && self.width == width && self.height == height
    }

    /// Whether Pillow runs its horizontal pass (the width changes).
    var needsHorizontal: Bool { sourceWidth != width }
    /// Whether Pillow runs its vertical pass (the height changes).
    var needsVertical: Bool { sourceHeight != height }

    /// Whether Pillow runs the vertical pass before the horizontal one.
    ///
    /// Pillow 13 does so when both dimensions change, the height shrinks, and it loses more than twice
    /// as many pixels as the width: `(sourceHeight - height) > 2 * (sourceWidth - width)` (read from
    /// `ImagingResample` of Pillow 13.0.0 and confirmed on random sizes). Earlier Pillow releases
    /// always went horizontal first; the two orders differ by rounding only, and only for such
    /// tall reductions.
    var verticalFirst: Bool {
        needsHorizontal && sourceHeight > height && (sourceHeight - height) > 2 * (sourceWidth - width)
    }

    /// The horizontal table for `format`, from the plan when it holds one.
    func horizontalTable(for format: PixelFormat) -> HorizontalTable {
        switch format {
        case .rgb8: if let rgbTable { return rgbTable }
        case .rgba8, .bgra8: if let quadTable { return quadTable }
        case .gray8: break
        }
        return ResizePlan.table(horizontal, for: format)
    }

    static func table(_ axis: PillowAxis, for format: PixelFormat) -> HorizontalTable {
        switch format {
        case .rgb8: HorizontalTable(axis: axis, elementsPerPixel: 3)
        case .rgba8, .bgra8: HorizontalTable(axis: axis, elementsPerPixel: 4, ignoredElement: 3)
        case .gray8: HorizontalTable(axis: axis, elementsPerPixel: 1)
        }
    }
}
