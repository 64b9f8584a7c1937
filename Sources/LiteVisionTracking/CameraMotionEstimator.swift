import LiteVisionGeometry

/// Estimates the camera's motion between the previous frame and this one from the tracks and the detections
/// (`TrackingOptions.CameraMotionMode.estimated`), and holds what the tracker applied last.
///
/// The tracks' Kalman filters already predict how each object moves, a crowd walking one way included, so what is
/// left between a track's prediction and its detection is noise, the object's own change of pace, and the camera's
/// motion, which moves every object alike. The estimator measures that common part:
///
/// 1. **Anchors**: the predicted boxes of established tracks (3 hits or more) matched in the previous frame, whole
///    inside the image (a box cut by the border has a shifted center). **Targets**: this frame's confident
///    detections away from the border. At most ``maximumAnchors`` and ``maximumTargets``.
/// 2. **A coarse search of global shifts**: a shift is supported by each anchor that, shifted, has a target of a
///    similar size (within ``sizeRatio``) whose center is within ``gate`` of the anchor's size. No shift (a still
///    camera) is tried first; only when it is supported by less than ``identityShare`` of the anchors are the
///    shifts of anchor–target pairs tried (within ``searchFraction`` of the image, at most ``maximumHypotheses``),
///    and the best replaces no shift only if clearly better supported (``extraSupport``).
/// 3. **A robust fit**: each anchor is paired with its nearest target under that shift, and a zoom and shift
///    (`x' = s·x + t`) are fitted to the pairs' centers by least squares (the zoom only when the pairs are spread
///    over the image), twice: the second time without the pairs whose residual is over 2.5 times the median one
///    (an object that turned, a false detection).
/// 4. **Only when it matters**: the motion is applied only when most anchors agree with it (``agreement``) and it
///    moves them, on average, by at least ``minimumShift`` of their size and well beyond the fit's own
///    uncertainty. Otherwise the prediction is left alone: small common drifts are what the filters follow
///    themselves, and a still camera's output changes only where the detections really jump together.
///
/// Cost: a pass over the tracks and the detections and one over their pairs per frame (about 3 microseconds with
/// 20 objects, search included: `sim-crowd` of the benchmark, 4.2 µs per frame without the estimate, 7.5 with); the
/// search of shifts, when needed, at most ``maximumHypotheses`` times ``maximumAnchors``
/// × ``maximumTargets`` comparisons. Buffers are kept between frames: no allocation in steady state.
struct CameraMotionEstimator: Sendable {
    /// A box by its center and size.
    struct Center: Sendable {
        var x: Double, y: Double, width: Double, height: Double

        init(_ box: BoundingBox) {
            x = box.midX
            y = box.midY
            width = box.width
            height = box.height
        }
    }

    /// The motion the caller gave for the current frame, if any (set for one update).
    var given: CameraMotion?
    /// The motion applied in the last update, given or estimated.
    var last: CameraMotion?

    var anchors: [Center] = []
    var targets: [Center] = []
    /// For each anchor, its paired target or -1.
    var pairs: [Int] = []
    /// The normalized residual of each pair (scratch for the median).
    var residuals: [Double] = []

    /// The most anchors used.
    static let maximumAnchors = 48
    /// The most targets used.
    static let maximumTargets = 64
    /// The most shifts tried in the search.
    static let maximumHypotheses = 256
    /// The fewest agreeing pairs for an estimate.
    static let minimumPairs = 3
    /// How far (as a fraction of the anchor's width and height) a target's center may be from the shifted anchor's.
    static let gate = 0.3
    /// The most a target's width or height may differ from the anchor's, as a ratio.
    static let sizeRatio = 1.35
    /// The largest shift searched, as a fraction of the image's width and height.
    static let searchFraction = 0.25
    /// The share of anchors supporting no shift above which no other shift is searched.
    static let identityShare = 0.7
    /// How many more anchors (at least, or this share of them) a shift needs than no shift to be chosen.
    static let extraSupport = (count: 2, share: 0.25)
    /// The share of anchors that must agree with the fitted motion.
    static let agreement = 0.5
    /// The least mean displacement of the anchors, as a fraction of their size, for the motion to be applied.
    static let minimumShift = 0.06
    /// How far from the fitted zoom a scale is believed: the zoom is clamped to `1 ± this` per frame.
    static let maximumZoom = 0.2

    /// The camera's motion from the previous frame to this one, or `nil` when it is unknown or too small to matter.
    mutating func estimate(
        records: [TrackRecord], detections: [TrackerDetection], threshold: Float,
        imageWidth: Double, imageHeight: Double
    ) -> CameraMotion? {
        anchors.removeAll(keepingCapacity: true)
        for record in records
        where record.isConfirmed && record.framesSinceUpdate == 0 && record.hits >= ObjectTracker.establishedHits {
            let box = record.predictedBox
            guard box.width >= 1, box.height >= 1, box.x >= 0, box.y >= 0, box.maxX <= imageWidth,
                box.maxY <= imageHeight
            else { continue }
            anchors.append(Center(box))
            if anchors.count == Self.maximumAnchors { break }
        }
        guard anchors.count >= Self.minimumPairs else { return nil }
        targets.removeAll(keepingCapacity: true)
        let marginX = TrackRecord.borderMargin(imageWidth), marginY = TrackRecord.borderMargin(imageHeight)
        for detection in detections where detection.score >= threshold && detection.score.isFinite {
            let box = detection.box
            guard box.width.isFinite, box.height.isFinite, box.x.isFinite, box.y.isFinite, box.width >= 1,
                box.height >= 1, box.x > marginX, box.y > marginY, box.maxX < imageWidth - marginX,
                box.maxY < imageHeight - marginY
            else { continue }
            targets.append(Center(box))
            if targets.count == Self.maximumTargets { break }
        }
        guard targets.count >= Self.minimumPairs else { return nil }

        let shift = searchShift(imageWidth: imageWidth, imageHeight: imageHeight)
        let paired = pair(shiftX: shift.x, shiftY: shift.y)
        guard paired >= Self.minimumPairs else { return nil }
        var motion = fit(imageWidth: imageWidth, imageHeight: imageHeight)
        // Second pass without the outliers of the first.
        let median = medianResidual(of: motion)
        let limit = max(0.1, 2.5 * median)
        var kept = 0
        for a in anchors.indices where pairs[a] >= 0 {
            if residual(anchor: a, motion: motion) > limit { pairs[a] = -1 } else { kept += 1 }
        }
        guard Double(kept) >= max(Double(Self.minimumPairs), Self.agreement * Double(anchors.count)) else {
            return nil
        }
        motion = fit(imageWidth: imageWidth, imageHeight: imageHeight)
        // Applied only when it moves the anchors clearly: by enough of their size, and beyond the fit's noise.
        var displacement = 0.0
        for a in anchors.indices where pairs[a] >= 0 {
            let anchor = anchors[a]
            let dx = (motion.mapX(anchor.x) - anchor.x) / anchor.width
            let dy = (motion.mapY(anchor.y) - anchor.y) / anchor.height
            displacement += (dx * dx + dy * dy).squareRoot()
        }
        displacement /= Double(kept)
        let noise = medianResidual(of: motion) / Double(kept).squareRoot()
        guard displacement >= Self.minimumShift, displacement >= 3 * noise else { return nil }
        return motion
    }

    /// The global shift best supported by the anchors and targets: none unless another is clearly better.
    private func searchShift(imageWidth: Double, imageHeight: Double) -> (x: Double, y: Double) {
        let identity = support(shiftX: 0, shiftY: 0)
        guard Double(identity) < Self.identityShare * Double(anchors.count) else { return (0, 0) }
        let needed = max(
            Self.minimumPairs, identity + Self.extraSupport.count,
            identity + Int((Self.extraSupport.share * Double(anchors.count)).rounded(.up)))
        let budget = max(4, Self.maximumHypotheses / anchors.count)
        let reachX = Self.searchFraction * imageWidth, reachY = Self.searchFraction * imageHeight
        var best = (x: 0.0, y: 0.0, support: identity)
        for anchor in anchors {
            var tried = 0
            for target in targets {
                let dx = target.x - anchor.x, dy = target.y - anchor.y
                guard abs(dx) <= reachX, abs(dy) <= reachY, Self.similarSize(anchor, target) else { continue }
                let count = support(shiftX: dx, shiftY: dy, toBeat: best.support)
                if count > best.support { best = (dx, dy, count) }
                tried += 1
                if tried == budget { break }
            }
        }
        return best.support >= needed ? (best.x, best.y) : (0, 0)
    }

    /// How many anchors, shifted, land near a target of a similar size. The count stops early, at or under
    /// `toBeat`, once the anchors left cannot take it above `toBeat`.
    private func support(shiftX: Double, shiftY: Double, toBeat: Int = -1) -> Int {
        var count = 0
        for (index, anchor) in anchors.enumerated() {
            if count + anchors.count - index <= toBeat { return count }
            let x = anchor.x + shiftX, y = anchor.y + shiftY
            let gateX = Self.gate * anchor.width, gateY = Self.gate * anchor.height
            for target in targets
            where abs(target.x - x) <= gateX && abs(target.y - y) <= gateY && Self.similarSize(anchor, target) {
                count += 1
                break
            }
        }
        return count
    }

    /// Pairs each anchor, shifted, with its nearest target of a similar size within the gate; returns the pairs.
    private mutating func pair(shiftX: Double, shiftY: Double) -> Int {
        pairs.removeAll(keepingCapacity: true)
        var count = 0
        for anchor in anchors {
            let x = anchor.x + shiftX, y = anchor.y + shiftY
            var best = -1, bestDistance = Double.infinity
            for (t, target) in targets.enumerated() where Self.similarSize(anchor, target) {
                let distance = max(abs(target.x - x) / anchor.width, abs(target.y - y) / anchor.height)
                if distance <= Self.gate && distance < bestDistance {
                    best = t
                    bestDistance = distance
                }
            }
            pairs.append(best)
            if best >= 0 { count += 1 }
        }
        return count
    }

    /// The least-squares zoom and shift carrying the paired anchors' centers onto their targets'. The zoom is fitted
    /// only when the pairs are spread over at least a tenth of the image; else it is 1.
    private func fit(imageWidth: Double, imageHeight: Double) -> CameraMotion {
        var n = 0.0, ax = 0.0, ay = 0.0, tx = 0.0, ty = 0.0
        for a in anchors.indices where pairs[a] >= 0 {
            let anchor = anchors[a], target = targets[pairs[a]]
            n += 1
            ax += anchor.x
            ay += anchor.y
            tx += target.x
            ty += target.y
        }
        ax /= n
        ay /= n
        tx /= n
        ty /= n
        var spread = 0.0, covariance = 0.0
        for a in anchors.indices where pairs[a] >= 0 {
            let anchor = anchors[a], target = targets[pairs[a]]
            let ux = anchor.x - ax, uy = anchor.y - ay
            spread += ux * ux + uy * uy
            covariance += ux * (target.x - tx) + uy * (target.y - ty)
        }
        let extent = 0.1 * min(imageWidth, imageHeight)
        var scale = 1.0
        if n >= 4, spread >= n * extent * extent {
            scale = min(max(covariance / spread, 1 - Self.maximumZoom), 1 + Self.maximumZoom)
        }
        return CameraMotion(scale: scale, translationX: tx - scale * ax, translationY: ty - scale * ay)
    }

    /// A pair's residual under `motion`, as a fraction of the anchor's size (the larger of the two axes).
    @inline(__always)
    private func residual(anchor a: Int, motion: CameraMotion) -> Double {
        let anchor = anchors[a], target = targets[pairs[a]]
        return max(
            abs(target.x - motion.mapX(anchor.x)) / anchor.width,
            abs(target.y - motion.mapY(anchor.y)) / anchor.height)
    }

    /// The median residual of the pairs under `motion` (sorted in the kept buffer: no allocation).
    private mutating func medianResidual(of motion: CameraMotion) -> Double {
        residuals.removeAll(keepingCapacity: true)
        for a in anchors.indices where pairs[a] >= 0 { residuals.append(residual(anchor: a, motion: motion)) }
        guard !residuals.isEmpty else { return 0 }
        // Insertion sort: at most `maximumAnchors` values, in place.
        for i in 1..<residuals.count {
            let value = residuals[i]
            var j = i - 1
            while j >= 0 && residuals[j] > value {
                residuals[j + 1] = residuals[j]
                j -= 1
            }
            residuals[j + 1] = value
        }
        return residuals[residuals.count / 2]
    }

    /// Whether two boxes have a similar width and height (within ``sizeRatio``).
    @inline(__always)
    private static func similarSize(_ a: Center, _ b: Center) -> Bool {
        let rw = b.width / a.width, rh = b.height / a.height
        return rw <= sizeRatio && rw * sizeRatio >= 1 && rh <= sizeRatio && rh * sizeRatio >= 1
    }
}
