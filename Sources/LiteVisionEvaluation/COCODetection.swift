import LiteVisionGeometry

/// One detection of a COCO results file (`[{"image_id", "category_id", "bbox", "score"}, ...]`).
package struct COCODetection: Sendable, Equatable {
    /// The image it is in.
    package var imageID: Int
    /// The category it was given.
    package var categoryID: Int
    /// Its box.
    package var box: BoundingBox
    /// Its score: higher is more confident.
    package var score: Double

    /// A detection from its parts.
    package init(imageID: Int, categoryID: Int, box: BoundingBox, score: Double) {
        self.imageID = imageID
        self.categoryID = categoryID
        self.box = box
        self.score = score
    }

    /// Reads a COCO results file: a list of detections.
    package static func read(contentsOfFile path: String) throws(EvaluationError) -> [COCODetection] {
        let bytes = try EvaluationError.readFile(atPath: path, maximumSize: COCOGroundTruth.maximumFileSize)
        return try list(in: JSONReader.parse(bytes, file: path), file: path)
    }

    /// The detections of a parsed results file.
    package static func list(in json: JSONValue, file: String) throws(EvaluationError) -> [COCODetection] {
        guard case .array(let items) = json else {
            throw EvaluationError(file: file, reason: "COCO results are a list of detections, not \(json.kind)")
        }
        guard items.count <= COCOGroundTruth.maximumCount else {
            throw EvaluationError(file: file, reason: "more than \(COCOGroundTruth.maximumCount) detections")
        }
        var detections: [COCODetection] = []
        detections.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let place = "detection [\(index)]"
            guard case .object = item else {
                throw EvaluationError(file: file, reason: "\(place) must be an object, not \(item.kind)")
            }
            guard let score = try COCOFields.number(item, "score", in: place, file: file) else {
                throw EvaluationError(file: file, reason: "\(place) has no \"score\"")
            }
            detections.append(
                COCODetection(
                    imageID: try COCOFields.id(item, "image_id", in: place, file: file),
                    categoryID: try COCOFields.id(item, "category_id", in: place, file: file),
                    box: try COCOFields.box(item, in: place, file: file), score: score))
        }
        return detections
    }

    /// The detections as a COCO results file (numbers written so that they read back exactly).
    package static func json(_ detections: [COCODetection]) -> String {
        var text = "["
        for (index, detection) in detections.enumerated() {
            let b = detection.box
            text += index == 0 ? "\n" : ",\n"
            text += "{\"image_id\": \(detection.imageID), \"category_id\": \(detection.categoryID), "
            text += "\"bbox\": [\(b.x), \(b.y), \(b.width), \(b.height)], \"score\": \(detection.score)}"
        }
        return text + "\n]\n"
    }
}
