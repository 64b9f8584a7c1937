import LiteVisionSystem

/// The inverse perspective matrix OpenCV's `warpPerspective` samples with when MediaPipe stretches an image
/// (or a frame turned by `ImageProcessingOptions(rotation_degrees:)`) to the model input, computed with the
/// arithmetic of MediaPipe and OpenCV, so that positions on an exact half (which round differently after a
/// one-ulp error) land where OpenCV puts them.
///
/// MediaPipe's region of interest is the whole image, turned by the rotation (a float angle, and for 90° and
/// 270° a width and height scaled by the image's aspect ratio in double, then stored as floats); OpenCV's
/// `RotatedRect::points` gives its corners (float trigonometry; MediaPipe 1.2.2 bundles OpenCV 5, which computes
/// every corner from the center, where OpenCV 4 mirrored the first two: the last bits differ, and on a thin frame
/// turned by 180° thousands of positions move by a 1/32 step). The forward matrix comes from
/// `getPerspectiveTransform` (an 8×8 system solved by Gaussian elimination with partial pivoting) from those
/// corners to the output corners; `warpPerspective` inverts it with the closed-form 3×3 inverse. Neither result
/// is exactly the ideal scale: entries are off by an ulp, and the perspective row gets entries of about 1e-18
/// that move some positions by an ulp. Checked against OpenCV's own functions on 12,016 size pairs (identical
/// bits, unrotated) and against MediaPipe's results (every rotation).
struct OpenCVWarpMatrix {
    /// The inverse matrix, row by row.
    let inverse: [Double]
    /// OpenCV's work blocks: the x origin of a position's block matters to its rounding.
    let blockWidth: Int

    /// The stretch of a whole `sourceWidth`×`sourceHeight` image to `width`×`height` (no rotation).
    init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        self.init(
            storedWidth: sourceWidth, storedHeight: sourceHeight, rotationDegrees: 0, width: width, height: height)
    }

    /// The stretch of a `storedWidth`×`storedHeight` frame turned by `rotationDegrees` (0, 90, 180 or 270, as
    /// MediaPipe's `rotation_degrees`) to `width`×`height`; positions are in the stored frame's pixels.
    init(storedWidth: Int, storedHeight: Int, rotationDegrees: Int, width: Int, height: Int) {
        let source = Self.regionCorners(
            storedWidth: storedWidth, storedHeight: storedHeight, rotationDegrees: rotationDegrees)
        let target: [(Float, Float)] = [(0, Float(height)), (0, 0), (Float(width), 0), (Float(width), Float(height))]
        inverse = Self.inverted(Self.perspective(from: source, to: target))
        let blockHeight = min(16, height)
        blockWidth = min(1024 / blockHeight, width)
    }

    /// The corners of MediaPipe's region of interest for the whole frame turned by `rotationDegrees`, in the
    /// order of OpenCV's `RotatedRect::points`, each step in the precision its code uses.
    static func regionCorners(storedWidth: Int, storedHeight: Int, rotationDegrees: Int) -> [(Float, Float)] {
        // The task API (Python, double): the normalized rectangle, stored as protobuf floats.
        let rotation = Float(Double(-rotationDegrees) * Double.pi / 180)
        var normalizedWidth: Float = 1, normalizedHeight: Float = 1
        if rotationDegrees % 180 != 0 {
            normalizedWidth = Float(1.0 * Double(storedHeight) / Double(storedWidth))
            normalizedHeight = Float(1.0 * Double(storedWidth) / Double(storedHeight))
        }
        // ImageToTensorCalculator's GetRoi (float).
        let centerX: Float = 0.5 * Float(storedWidth), centerY: Float = 0.5 * Float(storedHeight)
        let roiWidth = normalizedWidth * Float(storedWidth), roiHeight = normalizedHeight * Float(storedHeight)
        // The OpenCV converter: the angle in degrees (a float product divided by the double M_PI, kept as float).
        let angle = Float(Double(rotation * 180) / Double.pi)
        // RotatedRect::points as OpenCV 5 writes it (read from the machine code of MediaPipe 1.2.2's library): each
        // corner is the center plus or minus the two half-axes, in this order of operations.
        let radians = Double(angle) * Double.pi / 180
        let b = Float(cos(radians)) * 0.5, a = Float(sin(radians)) * 0.5
        let x0 = centerX - a * roiHeight - b * roiWidth, y0 = centerY + b * roiHeight - a * roiWidth
        let x1 = centerX + a * roiHeight - b * roiWidth, y1 = centerY - b * roiHeight - a * roiWidth
        let x2 = centerX + a * roiHeight + b * roiWidth, y2 = centerY - b * roiHeight + a * roiWidth
        let x3 = centerX - a * roiHeight + b * roiWidth, y3 = centerY + b * roiHeight + a * roiWidth
        return [(x0, y0), (x1, y1), (x2, y2), (x3, y3)]
    }

    /// Output pixel `u, v`'s source position in 1/32 pixels: OpenCV's expression, evaluated in its order.
    func position(_ u: Int, _ v: Int) -> (x: Int, y: Int) {
        let m = inverse
        let block = Double(u / blockWidth * blockWidth), inside = Double(u - u / blockWidth * blockWidth)
        let row = Double(v)
        let x0 = m[0] * block + m[1] * row + m[2]
        let y0 = m[3] * block + m[4] * row + m[5]
        let w0 = m[6] * block + m[7] * row + m[8]
        let denominator = w0 + m[6] * inside
        let scale = denominator != 0 ? 32 / denominator : 0
        let x = ((x0 + m[0] * inside) * scale).rounded(.toNearestOrEven)
        let y = ((y0 + m[3] * inside) * scale).rounded(.toNearestOrEven)
        return (Int(max(-2_147_483_648, min(2_147_483_647, x))), Int(max(-2_147_483_648, min(2_147_483_647, y))))
    }

    /// `getPerspectiveTransform`: the 3×3 matrix taking `source` to `target` (four points each), solved as
    /// OpenCV does (float products, Gaussian elimination with partial pivoting in double).
    static func perspective(from source: [(Float, Float)], to target: [(Float, Float)]) -> [Double] {
        var a = [[Double]](repeating: [Double](repeating: 0, count: 8), count: 8)
        var b = [Double](repeating: 0, count: 8)
        for i in 0..<4 {
            let (sx, sy) = source[i], (dx, dy) = target[i]
            a[i][0] = Double(sx)
            a[i + 4][3] = Double(sx)
            a[i][1] = Double(sy)
            a[i + 4][4] = Double(sy)
            a[i][2] = 1
            a[i + 4][5] = 1
            a[i][6] = Double(-sx * dx)
            a[i][7] = Double(-sy * dx)
            a[i + 4][6] = Double(-sx * dy)
            a[i + 4][7] = Double(-sy * dy)
            b[i] = Double(dx)
            b[i + 4] = Double(dy)
        }
        for i in 0..<8 {
            var pivot = i
            for j in (i + 1)..<8 where abs(a[j][i]) > abs(a[pivot][i]) { pivot = j }
            if pivot != i {
                a.swapAt(i, pivot)
                b.swapAt(i, pivot)
            }
            let d = -1 / a[i][i]
            for j in (i + 1)..<8 {
                let alpha = a[j][i] * d
                for k in (i + 1)..<8 { a[j][k] += alpha * a[i][k] }
                b[j] += alpha * b[i]
            }
        }
        for i in stride(from: 7, through: 0, by: -1) {
            var s = b[i]
            for k in (i + 1)..<8 { s -= a[i][k] * b[k] }
            b[i] = s / a[i][i]
        }
        return b + [1]
    }

    /// `invert` of a 3×3 matrix: OpenCV's closed form (cofactors times the reciprocal determinant).
    static func inverted(_ m: [Double]) -> [Double] {
        func e(_ r: Int, _ c: Int) -> Double { m[r * 3 + c] }
        let det =
            e(0, 0) * (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1)) - e(0, 1) * (e(1, 0) * e(2, 2) - e(1, 2) * e(2, 0))
            + e(0, 2) * (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0))
        let d = 1 / det
        return [
            (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1)) * d, (e(0, 2) * e(2, 1) - e(0, 1) * e(2, 2)) * d,
            (e(0, 1) * e(1, 2) - e(0, 2) * e(1, 1)) * d, (e(1, 2) * e(2, 0) - e(1, 0) * e(2, 2)) * d,
            (e(0, 0) * e(2, 2) - e(0, 2) * e(2, 0)) * d, (e(0, 2) * e(1, 0) - e(0, 0) * e(1, 2)) * d,
            (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0)) * d, (e(0, 1) * e(2, 0) - e(0, 0) * e(2, 1)) * d,
            (e(0, 0) * e(1, 1) - e(0, 1) * e(1, 0)) * d,
        ]
    }
}

extension OpenCVWarpMatrix {
    /// Whether a position's x depends on the column only and its y on the row only, but for the denominator.
    var isAxisAligned: Bool { inverse[1] == 0 && inverse[2] == 0 && inverse[3] == 0 && inverse[5] == 0 }

    /// The output pixels (`u, v` with their positions) whose position differs from the separable one: column
    /// `u`'s x as on row 0, row `v`'s y as in column 0.
    func exceptions(width: Int, height: Int) -> [(u: Int, v: Int, x: Int, y: Int)] {
        let m = inverse
        let aligned = isAxisAligned
        // Axis-aligned with a constant denominator: every position is its column's x and its row's y.
        if aligned && m[6] == 0 && m[7] == 0 { return [] }
        let columnX = (0..<width).map { position($0, 0).x }
        let rowY = (0..<height).map { position(0, $0).y }
        // The denominator's terms, in OpenCV's order: ((m6 × block + m7 × v) + m8) + m6 × inside.
        let blockTerm = (0..<width).map { m[6] * Double($0 / blockWidth * blockWidth) }
        let insideTerm = (0..<width).map { m[6] * Double($0 - $0 / blockWidth * blockWidth) }
        let rowTerm = (0..<height).map { m[7] * Double($0) }
        func denominator(_ u: Int, _ v: Int) -> Double { blockTerm[u] + rowTerm[v] + m[8] + insideTerm[u] }
        let columnDenominator = (0..<width).map { denominator($0, 0) }
        let rowDenominator = (0..<height).map { denominator(0, $0) }
        var found: [(u: Int, v: Int, x: Int, y: Int)] = []
        for v in 0..<height {
            for u in 0..<width {
                if aligned {
                    let d = denominator(u, v)
                    if d == columnDenominator[u] && d == rowDenominator[v] { continue }
                }
                let exact = position(u, v)
                if exact.x != columnX[u] || exact.y != rowY[v] { found.append((u, v, exact.x, exact.y)) }
            }
        }
        return found
    }
}
