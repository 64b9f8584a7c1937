import LiteVisionGeometry
/// COCO's box detection evaluation, computed as pycocotools' `COCOeval` (`iouType='bbox'`) computes it.
///
/// Per image and category, detections are ranked by score (ties keep their order in the results file) and the
/// first 100 are matched greedily, best first, to the ground truth at each of the ten IoU thresholds 0.50:0.05:0.95:
/// a detection takes the unmatched non-crowd box (or any crowd box) of largest IoU at least the threshold,
/// preferring boxes inside the area range; detections matched to crowd or out-of-range boxes, and unmatched
/// detections out of the area range, are ignored. Precision is made monotone and read at 101 recall points; AP is
/// its mean over thresholds, recall points and categories that have ground truth, AR the mean of the final recall.
/// IoU is pycocotools' `bbIou` in double precision: intersection over union, or over the detection's area for a
/// crowd box. A value with nothing to average (no ground truth in its area range) is undefined: nil here, -1 in
/// pycocotools.
package struct COCOEvaluation: Sendable {
    /// The IoU thresholds 0.50, 0.55, ..., 0.95 (numpy's `linspace`, bit for bit).
    package static let iouThresholds: [Double] = (0..<10).map { (index: Int) -> Double in
        let step: Double = (0.95 - 0.5) / 9
        return index == 9 ? 0.95 : Double(index) * step + 0.5
    }
    /// The recall points 0.00, 0.01, ..., 1.00.
    package static let recallThresholds: [Double] = (0...100).map { (index: Int) -> Double in
        index == 100 ? 1 : Double(index) * 0.01
    }
    /// The area ranges: all, small (< 32²), medium (32²...96²), large (> 96²), bounds included as in pycocotools.
    package static let areaRanges: [(lower: Double, upper: Double)] = [
        (0, 1e10), (0, 1024), (1024, 9216), (9216, 1e10),
    ]
    /// Detections per image (and category) counted: 1, 10, 100.
    package static let maxDetections = [1, 10, 100]

    /// One category's results.
    package struct CategoryResult: Sendable {
        /// The category.
        package var category: COCOGroundTruth.Category
        /// AP at IoU 0.50:0.95 (nil when the category has no ground truth).
        package var ap: Double?
        /// AP at IoU 0.50.
        package var ap50: Double?
        /// AP at IoU 0.75.
        package var ap75: Double?
        /// AR with 100 detections per image.
        package var ar100: Double?
        /// Non-crowd ground-truth boxes.
        package var groundTruthCount: Int
        /// Detections of this category (before the 100 per image limit).
        package var detectionCount: Int
        /// Precision at the 101 recall points, IoU 0.50, all areas, 100 detections (nil without ground truth).
        package var precisionAt50: [Double]?
    }

    /// The twelve numbers of `COCOeval.summarize()`, in its order, nil where pycocotools prints -1.
    package var stats: [Double?]
    /// Each category of the ground truth, in id order.
    package var categories: [CategoryResult]
    /// Images evaluated.
    package var imageCount: Int
    /// Ground-truth annotations evaluated (crowd included; where ids repeat, each stand-in counted as often as it
    /// stands in, as pycocotools evaluates it: see ``COCOGroundTruth/repeatedAnnotationIDs``).
    package var annotationCount: Int
    /// Detections evaluated.
    package var detectionCount: Int
    /// Detections left out because their category is not one of the ground truth's (as pycocotools does).
    package var unknownCategoryCount: Int

    /// The names of ``stats``, in order.
    package static let statNames = [
        "AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl",
    ]

    /// What one image and category gave in one area range (pycocotools' `evaluateImg`).
    private struct ImageResult {
        var scores: [Double]
        /// Per threshold, per detection: matched to a ground-truth box.
        var matched: [[Bool]]
        /// Per threshold, per detection: ignored.
        var ignored: [[Bool]]
        var countedGroundTruth: Int
    }

    /// Evaluates `detections` against `groundTruth`. `resultsFile` names the detections in errors.
    package init(groundTruth: COCOGroundTruth, detections: [COCODetection], resultsFile: String) throws(EvaluationError)
    {
        let imageIDs = Array(Set(groundTruth.images.map(\.id))).sorted()
        var categoryByID: [Int: COCOGroundTruth.Category] = [:]
        for category in groundTruth.categories where categoryByID[category.id] == nil {
            categoryByID[category.id] = category
        }
        let categoryIDs = categoryByID.keys.sorted()
        let imageIndex = Dictionary(uniqueKeysWithValues: imageIDs.enumerated().map { ($1, $0) })
        let categoryIndex = Dictionary(uniqueKeysWithValues: categoryIDs.enumerated().map { ($1, $0) })
        let (I, K) = (imageIDs.count, categoryIDs.count)

        var groundTruthCells = [[Int]](repeating: [], count: I * K)
        var annotationCount = 0
        // pycocotools looks annotations up by id: where an id repeats, every annotation with it stands for the last
        // one with it (maybe in another image or category). It gathers them image by image (ids ascending), each
        // image's in file order, keeping those of listed categories, and files each under its stand-in's image and
        // category. With unique ids, which `repeatedAnnotationIDs` counts, this is every listed annotation in place.
        let standIn = groundTruth.repeatedAnnotationIDs == 0 ? nil : groundTruth.lastAnnotationWithEachID
        var annotationsByImage = [[Int]](repeating: [], count: I)
        for (index, annotation) in groundTruth.annotations.enumerated() {
            guard let i = imageIndex[annotation.imageID], categoryIndex[annotation.categoryID] != nil else { continue }
            annotationsByImage[i].append(index)
        }
        for indices in annotationsByImage {
            for index in indices {
                let taken = standIn?[groundTruth.annotations[index].id] ?? index
                let annotation = groundTruth.annotations[taken]
                guard let i = imageIndex[annotation.imageID], let k = categoryIndex[annotation.categoryID] else {
                    continue
                }
                groundTruthCells[k * I + i].append(taken)
                annotationCount += 1
            }
        }
        var detectionCells = [[Int]](repeating: [], count: I * K)
        var unknownCategories = 0
        for (index, detection) in detections.enumerated() {
            guard let i = imageIndex[detection.imageID] else {
                throw EvaluationError(
                    file: resultsFile,
                    reason:
                        "detection [\(index)] is in image \(detection.imageID), which the ground truth does not list")
            }
            guard let k = categoryIndex[detection.categoryID] else {
                unknownCategories += 1
                continue
            }
            detectionCells[k * I + i].append(index)
        }

        let T = Self.iouThresholds.count
        let R = Self.recallThresholds.count
        let A = Self.areaRanges.count
        let M = Self.maxDetections.count
        let maxDet = Self.maxDetections[M - 1]
        // precision[((t * R + r) * K + k) * A + a) * M + m], recall[((t * K + k) * A + a) * M + m]; -1: undefined.
        var precision = [Double](repeating: -1, count: T * R * K * A * M)
        var recall = [Double](repeating: -1, count: T * K * A * M)

        for k in 0..<K {
            // evaluateImg for every area range and image of this category.
            var results = [ImageResult?](repeating: nil, count: A * I)
            for i in 0..<I {
                let cell = k * I + i
                let gts = groundTruthCells[cell].map { groundTruth.annotations[$0] }
                let allDetections = detectionCells[cell]
                if gts.isEmpty && allDetections.isEmpty { continue }
                let ranked = Self.stableOrder(allDetections.map { -detections[$0].score })
                let dts = ranked.prefix(maxDet).map { detections[allDetections[$0]] }
                let dtIDs = ranked.prefix(maxDet).map { allDetections[$0] + 1 }
                // ious[d][g] with g in file order.
                let ious: [[Double]] =
                    dts.isEmpty || gts.isEmpty
                    ? [] : dts.map { d in gts.map { g in Self.iou(d.box, g.box, crowd: g.isCrowd) } }
                for a in 0..<A {
                    let range = Self.areaRanges[a]
                    let ignore = gts.map { $0.isCrowd || $0.area < range.lower || $0.area > range.upper }
                    let order = Self.stableOrder(ignore.map { $0 ? 1.0 : 0.0 })
                    let gtIgnore = order.map { ignore[$0] }
                    let gtCrowd = order.map { gts[$0].isCrowd }
                    let gtIDs = order.map { gts[$0].id }
                    let G = gts.count
                    let D = dts.count
                    var matched = [[Bool]](repeating: [Bool](repeating: false, count: D), count: T)
                    var ignored = matched
                    if !ious.isEmpty {
                        for t in 0..<T {
                            var gtMatch = [Int](repeating: 0, count: G)
                            for d in 0..<D {
                                var best = min(Self.iouThresholds[t], 1 - 1e-10)
                                var m = -1
                                for g in 0..<G {
                                    if gtMatch[g] > 0 && !gtCrowd[g] { continue }
                                    if m > -1 && !gtIgnore[m] && gtIgnore[g] { break }
                                    let value = ious[d][order[g]]
                                    if value < best { continue }
                                    best = value
                                    m = g
                                }
                                if m == -1 { continue }
                                ignored[t][d] = gtIgnore[m]
                                // pycocotools keeps the matched box's id, and an id of 0 reads as "unmatched".
                                matched[t][d] = gtIDs[m] != 0
                                gtMatch[m] = dtIDs[d]
                            }
                        }
                    }
                    for d in 0..<D {
                        let area = dts[d].box.width * dts[d].box.height
                        guard area < range.lower || area > range.upper else { continue }
                        for t in 0..<T where !matched[t][d] { ignored[t][d] = true }
                    }
                    results[a * I + i] = ImageResult(
                        scores: dts.map(\.score), matched: matched, ignored: ignored,
                        countedGroundTruth: gtIgnore.count { !$0 })
                }
            }
            // accumulate.
            for a in 0..<A {
                for (m, maxDetections) in Self.maxDetections.enumerated() {
                    let evaluated = (0..<I).compactMap { results[a * I + $0] }
                    if evaluated.isEmpty { continue }
                    var scores: [Double] = []
                    var matched = [[Bool]](repeating: [], count: T)
                    var ignored = [[Bool]](repeating: [], count: T)
                    var counted = 0
                    for result in evaluated {
                        let n = min(maxDetections, result.scores.count)
                        scores += result.scores[..<n]
                        for t in 0..<T {
                            matched[t] += result.matched[t][..<n]
                            ignored[t] += result.ignored[t][..<n]
                        }
                        counted += result.countedGroundTruth
                    }
                    if counted == 0 { continue }
                    let order = Self.stableOrder(scores.map { -$0 })
                    let nd = order.count
                    for t in 0..<T {
                        var tp = 0.0
                        var fp = 0.0
                        var rc = [Double](repeating: 0, count: nd)
                        var pr = [Double](repeating: 0, count: nd)
                        for (position, d) in order.enumerated() {
                            if !ignored[t][d] {
                                if matched[t][d] { tp += 1 } else { fp += 1 }
                            }
                            rc[position] = tp / Double(counted)
                            pr[position] = tp / (fp + tp + Double.ulpOfOne)
                        }
                        recall[((t * K + k) * A + a) * M + m] = nd > 0 ? rc[nd - 1] : 0
                        if nd > 1 {
                            for position in stride(from: nd - 1, to: 0, by: -1) where pr[position] > pr[position - 1] {
                                pr[position - 1] = pr[position]
                            }
                        }
                        var position = 0
                        for (r, threshold) in Self.recallThresholds.enumerated() {
                            while position < nd && rc[position] < threshold { position += 1 }
                            if position >= nd { break }
                            precision[(((t * R + r) * K + k) * A + a) * M + m] = pr[position]
                        }
                        // Recall points past the last one reached keep precision 0 (pycocotools' zeros).
                        for r in 0..<R where precision[(((t * R + r) * K + k) * A + a) * M + m] < 0 {
                            precision[(((t * R + r) * K + k) * A + a) * M + m] = 0
                        }
                    }
                }
            }
        }

        func meanPrecision(thresholds: [Int], categories: [Int], area: Int, m: Int) -> Double? {
            var sum = 0.0
            var count = 0
            for t in thresholds {
                for r in 0..<R {
                    for k in categories {
                        let value = precision[(((t * R + r) * K + k) * A + area) * M + m]
                        if value > -1 {
                            sum += value
                            count += 1
                        }
                    }
                }
            }
            return count == 0 ? nil : sum / Double(count)
        }
        func meanRecall(categories: [Int], area: Int, m: Int) -> Double? {
            var sum = 0.0
            var count = 0
            for t in 0..<T {
                for k in categories {
                    let value = recall[((t * K + k) * A + area) * M + m]
                    if value > -1 {
                        sum += value
                        count += 1
                    }
                }
            }
            return count == 0 ? nil : sum / Double(count)
        }
        let all = Array(0..<T)
        let ks = Array(0..<K)
        stats = [
            meanPrecision(thresholds: all, categories: ks, area: 0, m: 2),
            meanPrecision(thresholds: [0], categories: ks, area: 0, m: 2),
            meanPrecision(thresholds: [5], categories: ks, area: 0, m: 2),
            meanPrecision(thresholds: all, categories: ks, area: 1, m: 2),
            meanPrecision(thresholds: all, categories: ks, area: 2, m: 2),
            meanPrecision(thresholds: all, categories: ks, area: 3, m: 2),
            meanRecall(categories: ks, area: 0, m: 0),
            meanRecall(categories: ks, area: 0, m: 1),
            meanRecall(categories: ks, area: 0, m: 2),
            meanRecall(categories: ks, area: 1, m: 2),
            meanRecall(categories: ks, area: 2, m: 2),
            meanRecall(categories: ks, area: 3, m: 2),
        ]
        categories = categoryIDs.enumerated().map { k, id in
            let cells = (0..<I).map { k * I + $0 }
            let curve: [Double]? =
                precision[(((0 * R + 0) * K + k) * A + 0) * M + 2] > -1
                ? (0..<R).map { precision[(((0 * R + $0) * K + k) * A + 0) * M + 2] } : nil
            return CategoryResult(
                category: categoryByID[id]!,
                ap: meanPrecision(thresholds: all, categories: [k], area: 0, m: 2),
                ap50: meanPrecision(thresholds: [0], categories: [k], area: 0, m: 2),
                ap75: meanPrecision(thresholds: [5], categories: [k], area: 0, m: 2),
                ar100: meanRecall(categories: [k], area: 0, m: 2),
                groundTruthCount: cells.reduce(0) { sum, cell in
                    sum + groundTruthCells[cell].count { !groundTruth.annotations[$0].isCrowd }
                },
                detectionCount: cells.reduce(0) { $0 + detectionCells[$1].count },
                precisionAt50: curve)
        }
        imageCount = I
        self.annotationCount = annotationCount
        detectionCount = detections.count - unknownCategories
        unknownCategoryCount = unknownCategories
    }

    /// pycocotools' `bbIou` for one pair: the overlap over the union, or over the detection's area when the
    /// ground-truth box is a crowd; 0 when the boxes do not overlap.
    package static func iou(_ d: BoundingBox, _ g: BoundingBox, crowd: Bool) -> Double {
        let w = min(d.width + d.x, g.width + g.x) - max(d.x, g.x)
        if w <= 0 { return 0 }
        let h = min(d.height + d.y, g.height + g.y) - max(d.y, g.y)
        if h <= 0 { return 0 }
        let intersection = w * h
        let detectionArea = d.width * d.height
        let union = crowd ? detectionArea : detectionArea + g.width * g.height - intersection
        return intersection / union
    }

    /// The indices of `keys` in ascending order of key, equal keys in their original order (numpy's
    /// `argsort(kind='mergesort')`).
    static func stableOrder(_ keys: [Double]) -> [Int] {
        Array(keys.indices).sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }
    }
}
