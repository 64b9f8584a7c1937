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
    /// Whether the source is an upright image turned by 90° (stored with EXIF orientation 5–8), so that the
    /// passes run in the order Pillow runs them on the upright image.
    package let transposed: Bool
    /// Whether the vertical pass runs before the horizontal one (see ``pillowRunsVerticalFirst(sourceWidth:sourceHeight:width:height:)``).
    let verticalFirst: Bool

    /// Precomputes the weights for resizing `sourceWidth`×`sourceHeight` pixels to `width`×`height`.
    /// All sizes must be positive.
    ///
    /// Pillow resizes in two passes that round to bytes in between, so their order shows in the result.
    /// Set `transposed` when the source is stored turned by 90° from the image whose resize must be
    /// matched (EXIF orientations 5–8, resized before being turned upright): the passes then run in the
    /// order Pillow chooses for the upright image, and turning the result upright gives exactly Pillow's
    /// resize of the upright image. (Mirroring needs nothing: Pillow's weights are symmetric.)
    package init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, transposed: Bool = false) {
        self.init(
            sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height,
            formats: [.rgb8, .rgba8], transposed: transposed)
    }

    /// Precomputes the weights, laying out the horizontal table only for the given source formats.
    init(
        sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, formats: [PixelFormat],
        transposed: Bool = false
    ) {
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
        self.transposed = transposed
        if sourceWidth == width || sourceHeight == height {
            verticalFirst = false  // one pass at most: no order to choose
        } else if transposed {
            // The upright image's horizontal pass is this source's vertical one.
            verticalFirst = !ResizePlan.pillowRunsVerticalFirst(
                sourceWidth: sourceHeight, sourceHeight: sourceWidth, width: height, height: width)
        } else {
            verticalFirst = ResizePlan.pillowRunsVerticalFirst(
                sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height)
        }
        rgbTable = resizesWidth && formats.contains(.rgb8) ? ResizePlan.table(horizontal, for: .rgb8) : nil
        quadTable =
            resizesWidth && (formats.contains(.rgba8) || formats.contains(.bgra8))
            ? ResizePlan.table(horizontal, for: .rgba8) : nil
    }

    /// Whether this plan was made for these sizes (and this pass order).
    package func matches(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, transposed: Bool = false) -> Bool
    {
        self.sourceWidth == sourceWidth && self.sourceHeight == sourceHeight
            && self.width == width && self.height == height && self.transposed == transposed
    }

    /// Whether Pillow runs its horizontal pass (the width changes).
    var needsHorizontal: Bool { sourceWidth != width }
    /// Whether Pillow runs its vertical pass (the height changes).
    var needsVertical: Bool { sourceHeight != height }

    /// Whether Pillow runs the vertical pass before the horizontal one when it resizes an image of
    /// `sourceWidth`×`sourceHeight` to `width`×`height`.
    ///
    /// Pillow 13 does so when both dimensions change, the height shrinks, and it loses more than twice
    /// as many pixels as the width: `(sourceHeight - height) > 2 * (sourceWidth - width)` (read from
    /// `ImagingResample` of Pillow 13.0.0 and confirmed on random sizes). Earlier Pillow releases
    /// always went horizontal first; the two orders differ by rounding only, and only for such
    /// tall reductions.
    static func pillowRunsVerticalFirst(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) -> Bool {
        sourceWidth != width && sourceHeight > height && (sourceHeight - height) > 2 * (sourceWidth - width)
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
