import LiteVisionGeometry
import LiteVisionImaging

/// How detected objects are classified: ML Kit's five coarse categories (through the public object labeler and
/// ``CoarseCategoryTable``), or the user's classifier.
///
/// A crop is the object's box grown by ``cropPadding`` of its size on every side, clipped to the image, read
/// from the stored pixels in place and resized whole to the classifier's input (aspect ratio not kept, as for
/// image labeling), then turned upright.
struct ObjectClassification: Sendable {
    enum Kind: Sendable {
        /// The object labeler's labels folded into the five coarse categories.
        case coarse
        /// The user's classifier, its labels filtered by the options' threshold and count.
        case custom(LabelFilter)
    }

    let classifier: ClassifierModel
    let kind: Kind
    /// The coarse category of each of the classifier's classes, looked up once (the table is keyed by text).
    let categories: [CoarseCategory?]

    init(classifier: ClassifierModel, kind: Kind) {
        self.classifier = classifier
        self.kind = kind
        if case .coarse = kind {
            categories = (classifier.labels ?? []).enumerated().map {
                CoarseCategoryTable.category(forLabel: $1, index: $0)
            }
        } else {
            categories = []
        }
    }

    /// How much of its size a box is grown by on each side before it is cropped.
    static let cropPadding = 0.1
    /// The lowest object-labeler confidence that can make a coarse category (the model's metadata threshold).
    static let coarseThreshold: Float = 0.35

    /// The labels of the object in `box` (upright pixels) of `image`.
    func labels(of box: BoundingBox, in image: OrientedImage) throws(VisionError) -> [ObjectLabel] {
        guard let region = image.storedRegion(of: Self.padded(box)) else { return [] }
        let labelTexts = classifier.labels
        return try classifier.withScores(of: image, region: region) { scores in
            switch kind {
            case .custom(let filter):
                return filter.select(scores).map {
                    ObjectLabel(text: labelTexts?[$0.index] ?? "", confidence: $0.score, index: $0.index)
                }
            case .coarse:
                return Self.coarseLabel(scores, categories: categories).map { [$0] } ?? []
            }
        }
    }

    /// The coarse category of an object from the object labeler's scores: each category scores the highest
    /// confidence among its labels, and so does "none of them" among the labels no category claims (dogs,
    /// people, cars...). The best category wins if it reaches ``coarseThreshold`` and beats "none of them";
    /// otherwise the object gets no label, as in ML Kit.
    static func coarseLabel(_ scores: UnsafeBufferPointer<Float>, categories: [CoarseCategory?]) -> ObjectLabel? {
        var best = [Float](repeating: 0, count: CoarseCategory.allCases.count)
        var unclaimed: Float = 0
        for (index, score) in scores.enumerated() where index < categories.count && score > 0 {
            if let category = categories[index] {
                best[category.rawValue] = max(best[category.rawValue], score)
            } else {
                unclaimed = max(unclaimed, score)
            }
        }
        guard let top = best.indices.max(by: { best[$0] < best[$1] }), best[top] >= coarseThreshold,
            best[top] >= unclaimed, let category = CoarseCategory(rawValue: top)
        else { return nil }
        return ObjectLabel(text: category.text, confidence: best[top], index: category.rawValue)
    }

    /// `box` grown by ``cropPadding`` of its size on every side.
    static func padded(_ box: BoundingBox) -> BoundingBox {
        BoundingBox(
            x: box.x - box.width * cropPadding, y: box.y - box.height * cropPadding,
            width: box.width * (1 + 2 * cropPadding), height: box.height * (1 + 2 * cropPadding))
    }
}
