import LiteVisionGeometry

/// A COCO ground-truth file (`instances_*.json`): its images, categories and box annotations.
///
/// Read as pycocotools reads it for box evaluation: an annotation's `area` field (not its box) decides its size range,
/// falling back to width × height when the field is absent (where pycocotools fails); `iscrowd` (absent: 0; a whole
/// number or a boolean, any value but 0 or false a crowd) marks crowd regions, which are never missed and which any
/// number of detections may hit; an `ignore` field has no effect (pycocotools overwrites it with `iscrowd`).
/// Annotations of images or categories the file does not list are left out.
package struct COCOGroundTruth: Sendable {
    /// An image the annotations refer to.
    package struct Image: Sendable, Equatable {
        /// Its id.
        package var id: Int
        /// Its `file_name`, when given (where `eval detect --images` finds it).
        package var fileName: String?
    }

    /// A category of objects.
    package struct Category: Sendable, Equatable {
        /// Its id.
        package var id: Int
        /// Its name (`person`, `bicycle`, ...).
        package var name: String
    }

    /// One annotated object.
    package struct Annotation: Sendable, Equatable {
        /// Its id (unique in a well-formed file; see ``COCOGroundTruth/repeatedAnnotationIDs``).
        package var id: Int
        /// The image it is in.
        package var imageID: Int
        /// Its category.
        package var categoryID: Int
        /// Its box.
        package var box: BoundingBox
        /// The area that decides its size range (small, medium, large).
        package var area: Double
        /// Whether it marks a crowd.
        package var isCrowd: Bool
    }

    /// The largest file read.
    package static let maximumFileSize = 1 << 30
    /// The most annotations, images or categories a file may list.
    package static let maximumCount = 20_000_000

    /// The images, in file order.
    package var images: [Image]
    /// The categories, in file order.
    package var categories: [Category]
    /// The annotations, in file order.
    package private(set) var annotations: [Annotation]

    /// How many annotations repeat the id of one before them. pycocotools keeps only the last annotation with an id
    /// wherever it looks one up, so each one with a repeated id is evaluated as that last one (a file numbering its
    /// annotations per image evaluates nonsense in both; `eval detect` warns).
    package private(set) var repeatedAnnotationIDs: Int

    /// A ground truth from its parts.
    package init(images: [Image], categories: [Category], annotations: [Annotation]) {
        self.images = images
        self.categories = categories
        self.annotations = annotations
        repeatedAnnotationIDs = Self.repeatedIDs(annotations)
    }

    /// How many of `annotations` repeat the id of one before them.
    private static func repeatedIDs(_ annotations: [Annotation]) -> Int {
        var ids = Set<Int>()
        ids.reserveCapacity(annotations.count)
        return annotations.count { !ids.insert($0.id).inserted }
    }

    /// For each annotation id, the index of the last annotation with it.
    package var lastAnnotationWithEachID: [Int: Int] {
        var last: [Int: Int] = [:]
        last.reserveCapacity(annotations.count)
        for (index, annotation) in annotations.enumerated() { last[annotation.id] = index }
        return last
    }

    /// Reads the ground-truth file at `path`.
    package init(contentsOfFile path: String) throws(EvaluationError) {
        let bytes = try EvaluationError.readFile(atPath: path, maximumSize: Self.maximumFileSize)
        try self.init(json: JSONReader.parse(bytes, file: path), file: path)
    }

    /// The ground truth in a parsed file (`file` names it in errors).
    package init(json: JSONValue, file: String) throws(EvaluationError) {
        guard case .object = json else {
            throw EvaluationError(file: file, reason: "a COCO ground truth is an object, not \(json.kind)")
        }
        func list(_ key: String, required: Bool = true) throws(EvaluationError) -> [JSONValue] {
            guard let value = json[key] else {
                if !required { return [] }
                throw EvaluationError(file: file, reason: "the ground truth has no \"\(key)\" list")
            }
            guard case .array(let items) = value else {
                throw EvaluationError(file: file, reason: "\"\(key)\" must be a list, not \(value.kind)")
            }
            guard items.count <= Self.maximumCount else {
                throw EvaluationError(file: file, reason: "\"\(key)\" lists more than \(Self.maximumCount) items")
            }
            return items
        }
        images = []
        for (index, item) in try list("images").enumerated() {
            let place = "images[\(index)]"
            var fileName: String?
            if case .string(let name) = item["file_name"] { fileName = name }
            images.append(Image(id: try COCOFields.id(item, "id", in: place, file: file), fileName: fileName))
        }
        categories = []
        for (index, item) in try list("categories").enumerated() {
            let place = "categories[\(index)]"
            var name = ""
            if case .string(let text) = item["name"] { name = text }
            categories.append(Category(id: try COCOFields.id(item, "id", in: place, file: file), name: name))
        }
        annotations = []
        // Without "annotations" (pycocotools accepts that too) nothing is annotated.
        for (index, item) in try list("annotations", required: false).enumerated() {
            let place = "annotations[\(index)]"
            let id = try COCOFields.id(item, "id", in: place, file: file)
            let box = try COCOFields.box(item, in: place, file: file)
            let area = try COCOFields.number(item, "area", in: place, file: file) ?? box.width * box.height
            var isCrowd = false
            switch item["iscrowd"] {
            case nil, .null?: break
            case .bool(let flag)?: isCrowd = flag
            // pycocotools ignores a fractional flag such as 0.5 but matches it as no crowd (`int(iscrowd)`): refused.
            case .number(let number)? where number.rounded() == number: isCrowd = number != 0
            case let value?:
                throw EvaluationError(
                    file: file,
                    reason: "\(place).iscrowd must be a whole number or a boolean (0 or false: no crowd), not "
                        + COCOFields.describe(value))
            }
            annotations.append(
                Annotation(
                    id: id, imageID: try COCOFields.id(item, "image_id", in: place, file: file),
                    categoryID: try COCOFields.id(item, "category_id", in: place, file: file), box: box, area: area,
                    isCrowd: isCrowd))
        }
        repeatedAnnotationIDs = Self.repeatedIDs(annotations)
    }
}
