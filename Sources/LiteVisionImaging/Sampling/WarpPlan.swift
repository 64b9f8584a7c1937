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
            if let degrees = Self.rotationDegrees[orientation] {
                // MediaPipe's own rotations: OpenCV's matrix for the turned region, positions in stored pixels.
                let matrix = OpenCVWarpMatrix(
                    storedWidth: sourceWidth, storedHeight: sourceHeight, rotationDegrees: degrees, width: width,
                    height: height)
                (columns, rows) = storedAxes(matrix)
                exceptions = storedExceptions(matrix, columns: columns, rows: rows)
            } else {
                // Mirrored orientations (MediaPipe has none): the same rule with the axis flipped, computed directly.
                columns = rotatedAxis(upright: upright, output: width, vertical: false)
                rows = rotatedAxis(upright: upright, output: height, vertical: true)
            }
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

    /// One axis of the plan: tap offsets (all first taps, then all second taps), second-tap weights, and the
    /// 1/32-pixel positions they were made from (along the stored axis the upright axis runs on).
    private typealias Axis = (offsets: [Int32], fractions: [Int32], positions: [Int])

    /// MediaPipe's `rotation_degrees` for a frame stored turned by an orientation (none for mirrored ones).
    static let rotationDegrees: [ImageOrientation: Int] = [.up: 0, .right: 90, .down: 180, .left: 270]

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
        return (offsets, fractions, positions)
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

    /// An upright axis under ``Mapping/rotatedRectangle`` for a mirrored orientation: the upright position
    /// mapped to a stored position (continuous coordinates: a flipped axis is `size − p`), rounded there, taps
    /// along the stored axis it runs on.
    private func rotatedAxis(upright: (width: Int, height: Int), output: Int, vertical: Bool) -> Axis {
        let alongStoredY = vertical != orientation.swapsDimensions
        let scale = Double(vertical ? upright.height : upright.width) / Double(output)
        let positions = (0..<output).map { index in
            let position = Double(index) * scale
            let stored = orientation.inverse.mapToUpright(
                x: vertical ? 0 : position, y: vertical ? position : 0,
                storedWidth: upright.width, storedHeight: upright.height)
            return Self.fixedPoint(alongStoredY ? stored.y : stored.x)
        }
        return storedAxis(positions: positions, alongStoredY: alongStoredY)
    }

    /// Both axes under ``Mapping/rotatedRectangle`` from OpenCV's matrix: an output column's position along the
    /// stored axis it runs on as in output row 0, a row's as in output column 0.
    private func storedAxes(_ matrix: OpenCVWarpMatrix) -> (columns: Axis, rows: Axis) {
        // Upright columns run along stored rows when the orientation swaps the axes.
        let swaps = orientation.swapsDimensions
        let columns = (0..<width).map { u in
            let position = matrix.position(u, 0)
            return swaps ? position.y : position.x
        }
        let rows = (0..<height).map { v in
            let position = matrix.position(0, v)
            return swaps ? position.x : position.y
        }
        return (storedAxis(positions: columns, alongStoredY: swaps), storedAxis(positions: rows, alongStoredY: !swaps))
    }

    /// The output pixels whose stored position under `matrix` is not their column's and row's (an ulp of the
    /// matrix moving an exact half), as exceptions with their four stored taps.
    private func storedExceptions(_ matrix: OpenCVWarpMatrix, columns: Axis, rows: Axis) -> [WarpException] {
        let swaps = orientation.swapsDimensions
        var found: [WarpException] = []
        for v in 0..<height {
            for u in 0..<width {
                let (x, y) = matrix.position(u, v)
                let expected =
                    swaps ? (rows.positions[v], columns.positions[u]) : (columns.positions[u], rows.positions[v])
                guard x != expected.0 || y != expected.1 else { continue }
                let left = min(max(x >> 5, 0), sourceWidth - 1), right = min(max((x >> 5) + 1, 0), sourceWidth - 1)
                let top = min(max(y >> 5, 0), sourceHeight - 1), bottom = min(max((y >> 5) + 1, 0), sourceHeight - 1)
                found.append(
                    WarpException(
                        pixel: Int32(v * width + u),
                        offsets: SIMD4(
                            Int32(offset(x: left, y: top)), Int32(offset(x: right, y: top)),
                            Int32(offset(x: left, y: bottom)), Int32(offset(x: right, y: bottom))),
                        fractions: SIMD2(Int32(x & 31), Int32(y & 31))))
            }
        }
        return found
    }

    /// Taps along one stored axis from 1/32-pixel positions on it, clamped to the region (border replicate).
    /// Offsets count along that axis only, so a column term plus a row term is the pixel's.
    private func storedAxis(positions: [Int], alongStoredY: Bool) -> Axis {
        let storedLength = alongStoredY ? sourceHeight : sourceWidth
        let output = positions.count
        var offsets = [Int32](repeating: 0, count: output * 2)
        var fractions = [Int32](repeating: 0, count: output)
        for (index, fixed) in positions.enumerated() {
            let first = min(max(fixed >> 5, 0), storedLength - 1)
            let second = min(max((fixed >> 5) + 1, 0), storedLength - 1)
            offsets[index] = Int32(alongStoredY ? offset(x: 0, y: first) : offset(x: first, y: 0))
            offsets[output + index] = Int32(alongStoredY ? offset(x: 0, y: second) : offset(x: second, y: 0))
            fractions[index] = Int32(fixed & 31)
        }
        return (offsets, fractions, positions)
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
