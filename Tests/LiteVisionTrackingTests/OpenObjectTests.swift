import LiteVisionGeometry
import LiteVisionTracking
import Testing

/// Objects that appear confidently in the open after the first frame (`TrackingOptions.openObjectHits`): reported from
/// their second box, while those at the border, partly hidden or in the first frame are reported at once.
@Suite("Objects appearing in the open")
struct OpenObjectTests {
    /// The IDs reported in each frame, for frames of detections at the given boxes (confident), in a 640 x 480 image.
    static func reported(_ frames: [[BoundingBox]], options: TrackingOptions = .init()) -> [[Int]] {
        var tracker = ObjectTracker(options: options)
        return frames.map { boxes in
            tracker.update(boxes.map { detection($0) }, imageWidth: 640, imageHeight: 480).map(\.id).sorted()
        }
    }

    let first = box(100, 200)
    let second = box(400, 150)

    @Test("A confident object appearing in the open is reported from its second box, with the next ID")
    func secondBox() {
        let frames = [[first], [first], [first, second], [first, second], [first, second]]
        #expect(Self.reported(frames) == [[0], [0], [0], [0, 1], [0, 1]])
        // Missed once after its first box: reported with its next one (a frame between does not restart the count).
        let missed = [[first], [first, second], [first], [first, second], [first, second]]
        #expect(Self.reported(missed) == [[0], [0], [0], [0, 1], [0, 1]])
    }

    @Test("A one-frame false box in the open is never reported and uses no ID")
    func oneFrameFalseBox() {
        let frames = [[first], [first, second], [first], [first], [first, box(300, 300)], [first, box(300, 300)]]
        #expect(Self.reported(frames) == [[0], [0], [0], [0], [0], [0, 1]])
    }

    @Test(
        "In the first frame, at the border and partly hidden behind a reported object, new objects are reported at once"
    )
    func reportedAtOnce() {
        #expect(Self.reported([[first, second], [first, second]]) == [[0, 1], [0, 1]])
        // Its box touching the image's left border: coming into view.
        let entering = box(0, 150)
        #expect(Self.reported([[first], [first, entering], [first, entering]]) == [[0], [0, 1], [0, 1]])
        // A third of its box behind the first object, whose box reaches lower in the image (in front of it).
        let behind = box(130, 190)
        #expect(first.intersection(behind).area / behind.area > 0.3)
        #expect(Self.reported([[first], [first, behind], [first, behind]]) == [[0], [0, 1], [0, 1]])
    }

    @Test("openObjectHits 1 reports it at once, as ML Kit; an object detector's options set 1")
    func atOnce() {
        var options = TrackingOptions()
        options.openObjectHits = 1
        #expect(Self.reported([[first], [first, second]], options: options) == [[0], [0, 1]])
        options.openObjectHits = -4
        #expect(Self.reported([[first], [first, second]], options: options) == [[0], [0, 1]])
        #expect(TrackingOptions().resolved(detectionThreshold: 0.5).openObjectHits == 1)
        // Three: from its third box.
        options.openObjectHits = 3
        let frames = [[first], [first, second], [first, second], [first, second]]
        #expect(Self.reported(frames, options: options) == [[0], [0], [0], [0, 1]])
    }
}

extension OpenObjectTests {
    @Test("While held, the object takes its next box before a lost track beside it does")
    func heldObjectKeepsItsBox() {
        // A walks right 10 px a frame at y 200; B appears still at (165, 215) in frame 5, a little lower in the image
        // (in front of A, so not hidden by it; 61 % of it on A's box, not a duplicate). In frame 6 A is missed and its
        // prediction covers most of B's box (IoU about 0.59): B's track, held, takes B's box, as a reported one would.
        var tracker = ObjectTracker()
        var reported: [[Int]] = []
        for frame in 0...7 {
            var boxes = frame == 6 ? [] : [box(100 + 10 * Double(frame), 200)]
            if frame >= 5 { boxes.append(box(165, 215)) }
            reported.append(
                tracker.update(boxes.map { detection($0) }, imageWidth: 640, imageHeight: 480).map(\.id).sorted())
        }
        #expect(reported == [[0], [0], [0], [0], [0], [0], [1], [0, 1]])
    }

    @Test("After reset(), the next frame is a first frame: its objects are reported at once")
    func afterReset() {
        var tracker = ObjectTracker()
        _ = tracker.update([detection(box(100, 200))], imageWidth: 640, imageHeight: 480)
        tracker.reset()
        let ids = tracker.update([detection(box(400, 150))], imageWidth: 640, imageHeight: 480).map(\.id)
        #expect(ids.count == 1)
    }
}
