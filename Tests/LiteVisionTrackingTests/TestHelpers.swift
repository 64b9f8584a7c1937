import LiteVisionGeometry
import LiteVisionTracking

/// A square-ish box for hand-written tracker inputs.
func box(_ x: Double, _ y: Double, _ width: Double = 60, _ height: Double = 80) -> BoundingBox {
    BoundingBox(x: x, y: y, width: width, height: height)
}

/// A confident detection.
func detection(_ box: BoundingBox, score: Float = 0.9, classIndex: Int? = nil) -> TrackerDetection {
    TrackerDetection(box: box, score: score, classIndex: classIndex)
}

/// Feeds frames to a tracker (640×480 by default) and returns the tracks reported in each frame.
func run(
    _ tracker: inout ObjectTracker, _ frames: [[TrackerDetection]], width: Int = 640,
    height: Int = 480
) -> [[Track]] {
    frames.map { tracker.update($0, imageWidth: width, imageHeight: height) }
}

/// One object moving at constant velocity: its detections for `count` frames.
func linearPath(
    from start: (Double, Double), velocity: (Double, Double), count: Int, size: (Double, Double) = (60, 80),
    score: Float = 0.9
) -> [TrackerDetection] {
    (0..<count).map { t in
        detection(box(start.0 + velocity.0 * Double(t), start.1 + velocity.1 * Double(t), size.0, size.1), score: score)
    }
}
