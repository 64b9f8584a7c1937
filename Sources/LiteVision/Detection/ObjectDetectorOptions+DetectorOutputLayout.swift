import LiteRT
import TFLiteFormat

extension ObjectDetectorOptions {
    /// Which output of an SSD-style detector holds what, and how a box is written.
    ///
    /// SSD detectors with TFLite's `TFLite_Detection_PostProcess` have four outputs: boxes `[1, N, 4]`, classes
    /// `[1, N]`, scores `[1, N]` and the number of detections `[1]`, in an order that depends on how the model was
    /// exported. LiteVision finds the order, in this order of evidence:
    /// 1. the model's metadata: output names `location`, `category`, `score`, `number of detections`, and the
    ///    bounding-box content of the boxes output;
    /// 2. tensor names: `TFLite_Detection_PostProcess` (`""`, `:1`, `:2`, `:3` = boxes, classes, scores, count) and
    ///    TensorFlow 2 exports `StatefulPartitionedCall` (`:3`, `:2`, `:1`, `:0` = boxes, classes, scores, count);
    /// 3. shapes after a first run (boxes are the `[1, N, 4]` output, the count the one-element output), and for the
    ///    two `[1, N]` outputs the file order (classes first, as TFLite writes them).
    /// A box is `[ymin, xmin, ymax, xmax]` as ratios of the input by default; metadata BoundingBoxProperties
    /// (index, type, coordinate type) override that.
    public struct DetectorOutputLayout: Sendable, Hashable {
        /// Output index of the boxes.
        public var boxes: Int
        /// Output index of the class indices.
        public var classes: Int
        /// Output index of the scores.
        public var scores: Int
        /// Output index of the number of detections.
        public var count: Int
        /// Where left, top, right, bottom (or x, y, width, height; or center x, center y, width, height) sit in a
        /// box's four numbers.
        public var boxIndex: [Int]
        /// How a box is written.
        public var boxType: BoxType
        /// Whether box numbers are ratios of the input size (true) or input pixels.
        public var ratioCoordinates: Bool

        /// How a box's four numbers describe it.
        public enum BoxType: Sendable, Hashable {
            /// left, top, right, bottom
            case boundaries
            /// left, top, width, height
            case upperLeft
            /// center x, center y, width, height
            case center
        }

        /// An explicit layout, for models whose outputs LiteVision cannot work out.
        public init(
            boxes: Int, classes: Int, scores: Int, count: Int, boxIndex: [Int] = [1, 0, 3, 2],
            boxType: BoxType = .boundaries, ratioCoordinates: Bool = true
        ) {
            self.boxes = boxes
            self.classes = classes
            self.scores = scores
            self.count = count
            self.boxIndex = boxIndex
            self.boxType = boxType
            self.ratioCoordinates = ratioCoordinates
        }

        /// Works the layout out from the model file and the output shapes seen after a first run.
        static func infer(file: TFLiteModelFile, shapes: [[Int]]) -> DetectorOutputLayout? {
            guard file.outputs.count == 4, shapes.count == 4 else { return nil }
            var roles: [String: Int] = [:]
            // 1. Metadata names and box content.
            let metadata = file.metadata?.outputTensors ?? []
            if metadata.count == 4 {
                for (index, tensor) in metadata.enumerated() {
                    switch tensor.name?.lowercased() {
                    case "location": roles["boxes"] = index
                    case "category": roles["classes"] = index
                    case "score": roles["scores"] = index
                    case "number of detections": roles["count"] = index
                    default: break
                    }
                    if tensor.boundingBox != nil { roles["boxes"] = index }
                }
            }
            // 2. Tensor names.
            if roles.count < 4 {
                roles = [:]
                for (index, output) in file.outputs.enumerated() {
                    let name = output.name
                    if let role = suffixRole(
                        name, base: "TFLite_Detection_PostProcess",
                        roles: ["": "boxes", ":1": "classes", ":2": "scores", ":3": "count"])
                        ?? suffixRole(
                            name, base: "StatefulPartitionedCall",
                            roles: [":3": "boxes", ":2": "classes", ":1": "scores", ":0": "count"])
                    {
                        roles[role] = index
                    }
                }
            }
            // 3. Shapes, and file order for classes vs scores.
            let boxesByShape = shapes.indices.filter { shapes[$0].count == 3 && shapes[$0].last == 4 }
            let countByShape = shapes.indices.filter { shapes[$0].reduce(1, *) == 1 }
            if roles.count < 4 || Set(roles.values).count < 4 {
                guard boxesByShape.count == 1, countByShape.count == 1 else { return nil }
                let rest = shapes.indices.filter { $0 != boxesByShape[0] && $0 != countByShape[0] }
                roles = ["boxes": boxesByShape[0], "count": countByShape[0], "classes": rest[0], "scores": rest[1]]
            }
            guard let boxes = roles["boxes"], let classes = roles["classes"], let scores = roles["scores"],
                let count = roles["count"], boxesByShape == [boxes]
            else { return nil }
            var layout = DetectorOutputLayout(boxes: boxes, classes: classes, scores: scores, count: count)
            if metadata.count == 4, let properties = metadata[boxes].boundingBox {
                if properties.index.count == 4, Set(properties.index) == [0, 1, 2, 3] {
                    layout.boxIndex = properties.index
                }
                switch properties.type {
                case .upperLeft: layout.boxType = .upperLeft
                case .center: layout.boxType = .center
                default: layout.boxType = .boundaries
                }
                if case .pixel = properties.coordinateType { layout.ratioCoordinates = false }
            }
            return layout
        }

        private static func suffixRole(_ name: String, base: String, roles: [String: String]) -> String? {
            guard name.hasPrefix(base) else { return nil }
            return roles[String(name.dropFirst(base.count))]
        }
    }
}
