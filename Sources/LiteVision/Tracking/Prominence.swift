import LiteVisionImaging

/// How LiteVision picks "the most prominent object" when multiple objects are off (ML Kit does not define it).
///
/// Prominence is `score × √(box area / image area) × (1 − 0.5 × d)`, where `d` is the distance from the box
/// center to the image center divided by half the image diagonal: big, confident, central objects win. In
/// stream mode the object returned last time is kept while it is still tracked and at least
/// ``stickiness`` as prominent as the best one, so the returned object does not jump between two similar ones.
enum Prominence {
    /// How close to the best another object's prominence must be for the previous choice to stay.
    static let stickiness = 0.6

    static func of(_ box: BoundingBox, score: Float, imageWidth: Double, imageHeight: Double) -> Double {
        let areaFraction = box.area / max(1, imageWidth * imageHeight)
        let dx = box.midX - imageWidth / 2, dy = box.midY - imageHeight / 2
        let halfDiagonal = max(1, (imageWidth * imageWidth + imageHeight * imageHeight).squareRoot() / 2)
        let distance = min(1, (dx * dx + dy * dy).squareRoot() / halfDiagonal)
        return Double(score) * areaFraction.squareRoot() * (1 - 0.5 * distance)
    }

    /// The index of the most prominent of `candidates`, preferring `previous` (an index) when it is close.
    static func pick(
        _ candidates: [(box: BoundingBox, score: Float)], imageWidth: Double, imageHeight: Double,
        previous: Int? = nil
    ) -> Int? {
        let values = candidates.map { of($0.box, score: $0.score, imageWidth: imageWidth, imageHeight: imageHeight) }
        guard let best = values.indices.max(by: { values[$0] < values[$1] }) else { return nil }
        if let previous, values.indices.contains(previous), values[previous] >= stickiness * values[best] {
            return previous
        }
        return best
    }
}
