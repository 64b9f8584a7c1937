import LiteVisionGeometry

/// Where each output pixel of a ``WarpSampler`` reads its four source pixels, and with which weights:
/// OpenCV's `warpPerspective(INTER_LINEAR, BORDER_REPLICATE)` (before OpenCV 4.11) for a pure stretch of an
/// upright image to the output size, the sampling MediaPipe Tasks uses on CPU.
///
/// Output column `u` reads upright position `u × uprightWidth / width` (corner-aligned: no half-pixel
/// offset), rounded half to even to 1/32 pixel; its two taps are that position's integer part and the next
/// pixel, clamped to the image (border replicate). Rows likewise. How an upright position reaches the stored
/// pixels is the ``Mapping``. Because both mappings are affine per axis, a tap's byte offset in the stored
/// pixels is a column term plus a row term, so the plan keeps one table per axis and the sampler never looks
/// at the orientation.
package struct WarpPlan: Sendable {
    /// How positions of the upright image are found in the stored pixels; the two differ only for rotated or
    /// mirrored images, by up to one source pixel.
    package enum Mapping: Sendable, Equatable {
        /// The stored pixels are first turned upright pixel by pixel (MediaPipe's `Image.create_from_file`
        /// applies a file's EXIF orientation so), and the upright image is sampled: positions are rounded in
        /// upright coordinates, upright pixel `x` of a mirrored axis is stored pixel `size − 1 − x`.
        case uprightPixels
        /// The stored image's rectangle is turned (MediaPipe's `ImageProcessingOptions(rotation_degrees:)`, a
        /// rotated region of interest): a flipped axis maps position `p` to `size − p`, and positions are
        /// rounded in stored coordinates.
        case rotatedRectangle
    }

    /// The output size.
    package let width: Int
    package let height: Int
    /// What the tables were made for (the plan is reused while it matches).
    let sourceWidth: Int, sourceHeight: Int, bytesPerRow: Int, bytesPerPixel: Int
    let orientation: ImageOrientation
    let mapping: Mapping
    /// Byte offsets of the first and second taps of each output column (`width` of each), relative to row 0.
    package private(set) var columnOffsets: [Int32] = []
    /// Byte offsets of the first and second taps of each output row (`height` of each), relative to column 0.
    package private(set) var rowOffsets: [Int32] = []
    /// The 1/32-pixel weight (0...31) of the second tap of each output column, then of each output row.
    package private(set) var columnFractions: [Int32] = []
    package private(set) var rowFractions: [Int32] = []
    /// The few output pixels whose position OpenCV computes differently from their column's and row's (an
    /// ulp of its matrix moving an exact half): each pixel's index and its four taps' offsets and weights.
    package private(set) var exceptions: [WarpException] = []

    /// The plan for sampling a region of `sourceWidth`×`sourceHeight` stored pixels (rows `bytesPerRow`
    /// apart, `bytesPerPixel` each), turned upright by `orientation` as `mapping` says, into `width`×`height`
    /// upright pixels.
    package init(
        sourceWidth: Int, sourceHeight: Int, bytesPerRow: Int, bytesPerPixel: Int,
        orientation: ImageOrientation, mapping: Mapping, width: Int, height: Int
    ) {
        precondition(sourceWidth > 0 && sourceHeight > 0 && width > 0 && height > 0, "empty warp")
        precondition(bytesPerRow * sourceHeight < Int(Int32.max), "image too large for 32-bit offsets")
        self.width = width
        self.height = height
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.bytesPerRow = bytesPerRow
        self.bytesPerPixel = bytesPerPixel
        self.orientation = orientation
        self.mapping = mapping
        let upright = orientation.uprightSize(width: sourceWidth, height: sourceHeight)
        let columns: Axis, rows: Axis
        switch mapping {
        case .uprightPixels:
            let matrix = OpenCVWarpMatrix(
                sourceWidth: upright.width, sourceHeight: upright.height, width: width, height: height)
            columns = uprightPixelAxis(
                positions: (0..<width).map { matrix.position($0, 0).x }, length: upright.width, vertical: false)
            rows = uprightPixelAxis(
                positions: (0..<height).map { matrix.position(0, $0).y }, length: upright.height, vertical: true)
            exceptions = matrix.exceptions(width: width, height: height).map { pixel in
                exception(u: pixel.u, v: pixel.v, x: pixel.x, y: pixel.y, upright: upright)
            }
        case .rotatedRectangle:
            columns = rotatedAxis(upright: upright, output: width, vertical: false)
            rows = rotatedAxis(upright: upright, output: height, vertical: true)
        }
        (columnOffsets, columnFractions) = (columns.offsets, columns.fractions)
        (rowOffsets, rowFractions) = (rows.offsets, rows.fractions)
    }

    /// Whether the plan was made for these sizes, layout, orientation and mapping.
    package func matches(
        sourceWidth: Int, sourceHeight: Int, bytesPerRow: Int, bytesPerPixel: Int,
        orientation: ImageOrientation, mapping: Mapping, width: Int, height: Int
    ) -> Bool {
        self.sourceWidth == sourceWidth && self.sourceHeight == sourceHeight && self.bytesPerRow == bytesPerRow
            && self.bytesPerPixel == bytesPerPixel && self.orientation == orientation && self.mapping == mapping
            && self.width == width && self.height == height
    }

    /// One axis of the plan: tap offsets (all first taps, then all second taps) and second-tap weights.
    private typealias Axis = (offsets: [Int32], fractions: [Int32])

    /// The byte offset of stored pixel `x, y` in the region.
    private func offset(x: Int, y: Int) -> Int { y * bytesPerRow + x * bytesPerPixel }

    /// The byte offset of upright pixel `x, y` in the stored region.
    private func storedOffset(uprightX x: Int, y: Int) -> Int {
        let pixel = orientation.storedPixel(forUprightX: x, y: y, storedWidth: sourceWidth, storedHeight: sourceHeight)
        return offset(x: pixel.x, y: pixel.y)
    }

    /// An upright axis under ``Mapping/uprightPixels`` from its positions (1/32 upright pixels): taps found in
    /// upright pixels, then mapped to stored ones. Column offsets are relative to the stored pixel of upright
    /// `(0, 0)`, row offsets absolute, so that their sum is the pixel's offset.
    private func uprightPixelAxis(positions: [Int], length: Int, vertical: Bool) -> Axis {
        func stored(_ index: Int) -> Int {
            storedOffset(uprightX: vertical ? 0 : index, y: vertical ? index : 0)
        }
        let origin = vertical ? 0 : stored(0)
        let output = positions.count
        var offsets = [Int32](repeating: 0, count: output * 2)
        var fractions = [Int32](repeating: 0, count: output)
        for (index, fixed) in positions.enumerated() {
            offsets[index] = Int32(stored(min(max(fixed >> 5, 0), length - 1)) - origin)
            offsets[output + index] = Int32(stored(min(max((fixed >> 5) + 1, 0), length - 1)) - origin)
            fractions[index] = Int32(fixed & 31)
        }
        return (offsets, fractions)
    }

    /// Output pixel `u, v` sampled at upright position `x, y` (1/32 pixels), as an exception to the tables.
    private func exception(u: Int, v: Int, x: Int, y: Int, upright: (width: Int, height: Int)) -> WarpException {
        let left = min(max(x >> 5, 0), upright.width - 1), right = min(max((x >> 5) + 1, 0), upright.width - 1)
        let top = min(max(y >> 5, 0), upright.height - 1), bottom = min(max((y >> 5) + 1, 0), upright.height - 1)
        return WarpException(
            pixel: Int32(v * width + u),
            offsets: SIMD4(
                Int32(storedOffset(uprightX: left, y: top)), Int32(storedOffset(uprightX: right, y: top)),
                Int32(storedOffset(uprightX: left, y: bottom)), Int32(storedOffset(uprightX: right, y: bottom))),
            fractions: SIMD2(Int32(x & 31), Int32(y & 31)))
    }

    /// An upright axis under ``Mapping/rotatedRectangle``: the upright position mapped to a stored position
    /// (continuous coordinates: a flipped axis is `size − p`), rounded there, taps along the stored axis it
    /// runs on. Offsets count along that stored axis only, so a column term plus a row term is the pixel's.
    private func rotatedAxis(upright: (width: Int, height: Int), output: Int, vertical: Bool) -> Axis {
        let length = vertical ? upright.height : upright.width
        let scale = Double(length) / Double(output)
        // Upright columns run along stored rows when the orientation swaps the axes.
        let alongStoredY = vertical != orientation.swapsDimensions
        let storedLength = alongStoredY ? sourceHeight : sourceWidth
        var offsets = [Int32](repeating: 0, count: output * 2)
        var fractions = [Int32](repeating: 0, count: output)
        for index in 0..<output {
            let position = Double(index) * scale
            let stored = orientation.inverse.mapToUpright(
                x: vertical ? 0 : position, y: vertical ? position : 0,
                storedWidth: upright.width, storedHeight: upright.height)
            let fixed = Self.fixedPoint(alongStoredY ? stored.y : stored.x)
            let first = min(max(fixed >> 5, 0), storedLength - 1)
            let second = min(max((fixed >> 5) + 1, 0), storedLength - 1)
            offsets[index] = Int32(alongStoredY ? offset(x: 0, y: first) : offset(x: first, y: 0))
            offsets[output + index] = Int32(alongStoredY ? offset(x: 0, y: second) : offset(x: second, y: 0))
            fractions[index] = Int32(fixed & 31)
        }
        return (offsets, fractions)
    }

    /// A position in OpenCV's 1/32-pixel fixed point: `position × 32` rounded half to even (`cvRound`), the
    /// product computed in double as OpenCV does, so ties round the same way.
    static func fixedPoint(_ position: Double) -> Int {
        Int((position * 32).rounded(.toNearestOrEven))
    }
}

/// One output pixel that does not follow its column's and row's tables (see ``WarpPlan/exceptions``).
package struct WarpException: Sendable {
    /// The output pixel's index (`row × width + column`).
    package let pixel: Int32
    /// Byte offsets of its top-left, top-right, bottom-left and bottom-right taps in the stored region.
    package let offsets: SIMD4<Int32>
    /// The 1/32-pixel weights of its right and bottom taps.
    package let fractions: SIMD2<Int32>
}
