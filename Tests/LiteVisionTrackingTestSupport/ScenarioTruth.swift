import LiteVisionGeometry
import LiteVisionImaging

/// One object in one frame of a synthetic clip, as it truly is.
package struct TruthObject: Sendable, Equatable {
    /// The identity under ML Kit's contract: it stays while the object is in view (even hidden) and changes
    /// when the object comes back after having fully left the frame.
    package var id: Int
    /// The physical object (index into ``Scenario/objects``), the same across exits.
    package var objectIndex: Int
    /// The object's box limited to the frame: what a perfect detector would report.
    package var box: BoundingBox
    /// The whole box, possibly extending past the frame.
    package var fullBox: BoundingBox
    /// The bounding box of the visible part (not outside the frame, not hidden), or `nil` when none is.
    package var visibleBox: BoundingBox?
    /// Fraction of the whole object inside the frame, 0...1.
    package var inFrameFraction: Double
    /// Fraction of the whole object that can be seen (inside the frame and not hidden), 0...1.
    package var visibility: Double
    /// The object's class, if it has one.
    package var classIndex: Int?

    /// Of the part inside the frame, the fraction not hidden by occluders or nearer objects.
    package var unoccludedFraction: Double { inFrameFraction > 0 ? visibility / inFrameFraction : 0 }
}

/// The ground truth of a ``Scenario``: for each frame, the objects at least partly inside the frame.
///
/// Visibility is measured on a grid of sample points over each object (every 1/16 of its size): a point is
/// visible when it is inside the frame and not covered by an active occluder or a nearer object.
package struct ScenarioTruth: Sendable {
    /// The scenario.
    package let scenario: Scenario
    /// Per frame, the objects with some part inside the frame (hidden ones included, with low visibility).
    package let frames: [[TruthObject]]

    /// Computes the truth of a scenario (geometry only: no photo is read).
    package init(_ scenario: Scenario) {
        self.scenario = scenario
        let width = Double(scenario.width), height = Double(scenario.height)
        var nextID = 0
        var currentID = [Int?](repeating: nil, count: scenario.objects.count)
        var frames: [[TruthObject]] = []
        let depths = scenario.objects.map(\.depth)
        let classes = scenario.objects.map(\.classIndex)
        for f in 0..<scenario.frameCount {
            let boxes = scenario.objects.map { $0.box(at: f) }
            let occluders = scenario.occluders.filter { $0.isActive(at: f) }.map(\.box)
            var objects: [TruthObject] = []
            for i in 0..<boxes.count {
                guard let full = boxes[i] else { currentID[i] = nil; continue }
                let clipped = full.clamped(width: width, height: height)
                guard clipped.area > 0 else { currentID[i] = nil; continue }
                let id: Int
                if let existing = currentID[i] {
                    id = existing
                } else {
                    id = nextID
                    nextID += 1
                    currentID[i] = id
                }
                // Everything nearer than this object hides it.
                var covers = occluders
                for j in 0..<boxes.count where j != i && depths[j] > depths[i] {
                    if let box = boxes[j] { covers.append(box) }
                }
                let sample = Self.visibility(of: full, imageWidth: width, imageHeight: height, covers: covers)
                objects.append(
                    TruthObject(
                        id: id, objectIndex: i, box: clipped, fullBox: full,
                        visibleBox: sample.visibleBox,
                        inFrameFraction: clipped.area / full.area, visibility: sample.fraction,
                        classIndex: classes[i]))
            }
            frames.append(objects)
        }
        self.frames = frames
    }

    /// The number of frames.
    package var frameCount: Int { frames.count }

    /// The truth for ``MOTMetrics/evaluate(truth:predictions:ignored:iouThreshold:)``: objects with at least
    /// `minimumVisibility` of them visible are truth; the others are ignored regions (a tracker is neither
    /// required nor forbidden to report them).
    package func labeledBoxes(minimumVisibility: Double = 0.5) -> (truth: [[LabeledBox]], ignored: [[BoundingBox]]) {
        let truth = frames.map {
            $0.filter { $0.visibility >= minimumVisibility }.map { LabeledBox(id: $0.id, box: $0.box) }
        }
        let ignored = frames.map { $0.filter { $0.visibility < minimumVisibility }.map(\.box) }
        return (truth, ignored)
    }

    /// For each physical object, its truth IDs in order of appearance (more than one when it left and came back).
    package var idsByObject: [[Int]] {
        var result = [[Int]](repeating: [], count: scenario.objects.count)
        for frame in frames {
            for object in frame where result[object.objectIndex].last != object.id {
                result[object.objectIndex].append(object.id)
            }
        }
        return result
    }

    /// The longest run of consecutive frames in which one object, inside the frame, is less than half visible.
    package var longestOcclusion: Int {
        var run = [Int](repeating: 0, count: scenario.objects.count)
        var longest = 0
        for frame in frames {
            var seen = [Bool](repeating: false, count: scenario.objects.count)
            for object in frame {
                seen[object.objectIndex] = true
                if object.visibility < 0.5 && object.inFrameFraction > 0.5 {
                    run[object.objectIndex] += 1
                    longest = max(longest, run[object.objectIndex])
                } else {
                    run[object.objectIndex] = 0
                }
            }
            for i in run.indices where !seen[i] { run[i] = 0 }
        }
        return longest
    }

    private static let grid = 16

    private static func visibility(
        of box: BoundingBox, imageWidth: Double, imageHeight: Double,
        covers: [BoundingBox]
    ) -> (fraction: Double, visibleBox: BoundingBox?) {
        let relevant = covers.filter { $0.intersection(box).area > 0 }
        var visible = 0
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        let stepX = box.width / Double(grid), stepY = box.height / Double(grid)
        // The x-intervals hidden on the current row of samples.
        var hiddenLow = [Double](), hiddenHigh = [Double]()
        hiddenLow.reserveCapacity(relevant.count)
        hiddenHigh.reserveCapacity(relevant.count)
        for row in 0..<grid {
            let y = box.y + (Double(row) + 0.5) * stepY
            guard y >= 0, y < imageHeight else { continue }
            hiddenLow.removeAll(keepingCapacity: true)
            hiddenHigh.removeAll(keepingCapacity: true)
            for cover in relevant where y >= cover.y && y < cover.maxY {
                hiddenLow.append(cover.x)
                hiddenHigh.append(cover.maxX)
            }
            for column in 0..<grid {
                let x = box.x + (Double(column) + 0.5) * stepX
                guard x >= 0, x < imageWidth else { continue }
                var hidden = false
                for k in 0..<hiddenLow.count where x >= hiddenLow[k] && x < hiddenHigh[k] {
                    hidden = true
                    break
                }
                if hidden { continue }
                visible += 1
                minX = min(minX, x - stepX / 2)
                maxX = max(maxX, x + stepX / 2)
                minY = min(minY, y - stepY / 2)
                maxY = max(maxY, y + stepY / 2)
            }
        }
        guard visible > 0 else { return (0, nil) }
        let visibleBox = BoundingBox(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
            .clamped(width: imageWidth, height: imageHeight)
        return (Double(visible) / Double(grid * grid), visibleBox)
    }
}
