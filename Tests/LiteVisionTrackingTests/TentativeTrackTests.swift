import LiteVisionGeometry
import LiteVisionTracking
import Testing

/// Objects started by a detection under the new-object threshold (`TrackingOptions.tentativeTrackThreshold`): reported
/// only from their third consecutive detection.
@Suite("Tentative objects")
struct TentativeTrackTests {
    /// The IDs reported in each frame for the detections of `frames` (nil: no detection in that frame) of one
    /// object still at (200, 150), at the scores given.
    static func reported(_ scores: [Float?], options: TrackingOptions = .init()) -> [[Int]] {
        var tracker = ObjectTracker(options: options)
        return scores.map { score in
            let frame = score.map { [detection(box(200, 150), score: $0)] } ?? []
            return tracker.update(frame, imageWidth: 640, imageHeight: 480).map(\.id)
        }
    }

    @Test("An object detected at 0.5 frame after frame is reported from its third frame, with the first ID")
    func reportedFromThirdFrame() {
        #expect(Self.reported([0.5, 0.5, 0.5, 0.45, 0.6]) == [[], [], [0], [0], [0]])
        // A confident detection reports it at once, as it would have started an object.
        #expect(Self.reported([0.5, 0.9, 0.5]) == [[], [0], [0]])
    }

    @Test("Detections under 0.4, or not in consecutive frames, start nothing that is reported")
    func notReported() {
        #expect(Self.reported([0.35, 0.35, 0.35, 0.35]) == [[], [], [], []])
        // A miss restarts the count: the tentative object is dropped at its first miss.
        #expect(Self.reported([0.5, 0.5, nil, 0.5, 0.5, nil, 0.5]) == Array(repeating: [], count: 7))
    }

    @Test("Turned off (nil), or with minimumHits above 3, the rules of confident detections apply")
    func options() {
        var off = TrackingOptions()
        off.tentativeTrackThreshold = nil
        #expect(Self.reported([0.5, 0.5, 0.5, 0.5], options: off) == [[], [], [], []])
        #expect(Self.reported([0.9, 0.5], options: off) == [[0], [0]])  // weak detections still keep it alive
        var fourHits = TrackingOptions()
        fourHits.minimumHits = 4
        #expect(Self.reported([0.5, 0.5, 0.5, 0.5], options: fourHits) == [[], [], [], [0]])
    }

    @Test("A detection lying on an object followed in the frame starts no tentative object")
    func duplicateStartsNothing() {
        var tracker = ObjectTracker()
        var reported: [[Int]] = []
        for _ in 0..<5 {
            // A confident object, and a middling box inside it (a part of it, or a duplicate).
            let frame = [detection(box(200, 150, 60, 120)), detection(box(205, 160, 40, 80), score: 0.5)]
            reported.append(tracker.update(frame, imageWidth: 640, imageHeight: 480).map(\.id))
        }
        #expect(reported == Array(repeating: [0], count: 5))
    }
}
