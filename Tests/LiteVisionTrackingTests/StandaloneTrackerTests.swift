import LiteVisionTracking
import Testing

/// `ObjectTracker` used alone, as the `LiteVisionTracking` library product offers it: boxes and scores of any
/// detector in, IDs out.
@Suite("Object tracker used alone")
struct StandaloneTrackerTests {
    @Test("Two people crossing keep their IDs through the occlusion; one who leaves and comes back gets a new ID")
    func crossingAndReturn() {
        var tracker = ObjectTracker()
        var idsOfA = Set<Int>(), idsOfB = Set<Int>(), idsOfC: [Int] = []
        for t in 0..<70 {
            var detections: [TrackerDetection] = []
            let ax = 40 + 8 * Double(t), bx = 560 - 8 * Double(t)
            detections.append(TrackerDetection(box: BoundingBox(x: ax, y: 200, width: 60, height: 150), score: 0.9))
            let gap = abs(ax - bx)
            var bIndex: Int?, cIndex: Int?
            if gap >= 20 {  // B, behind A, is missed while hidden and weakly detected while partly hidden
                bIndex = detections.count
                let box = BoundingBox(x: bx, y: 190, width: 54, height: 135)
                detections.append(TrackerDetection(box: box, score: gap < 50 ? 0.3 : 0.85))
            }
            // C walks out through the right edge (gone from frame 12) and comes back at frame 30, within the
            // lost-track buffer: boxes clipped to the image, as a detector reports them.
            let cx = t < 30 ? 560 + 6 * Double(t) : 610 - 6 * Double(t - 30)
            if cx < 630 {
                cIndex = detections.count
                let box = BoundingBox(x: cx, y: 40, width: min(40, 640 - cx), height: 90)
                detections.append(TrackerDetection(box: box, score: 0.9))
            }
            let tracks = tracker.update(detections, imageWidth: 640, imageHeight: 480)
            for track in tracks {
                if track.detectionIndex == 0 { idsOfA.insert(track.id) }
                if track.detectionIndex == bIndex { idsOfB.insert(track.id) }
                if track.detectionIndex == cIndex { idsOfC.append(track.id) }
            }
        }
        #expect(idsOfA.count == 1)
        #expect(idsOfB.count == 1)
        #expect(idsOfA != idsOfB)
        // C: one ID before leaving, another after coming back (ML Kit's rule).
        #expect(Set(idsOfC).count == 2, "\(idsOfC)")
        #expect(idsOfC.first != idsOfC.last)
    }

    @Test("The thresholds of a tracker used alone: weak detections keep objects but never start one")
    func thresholds() {
        var options = TrackingOptions()
        options.detectionThreshold = 0.4
        options.newTrackThreshold = 0.7
        var tracker = ObjectTracker(options: options)
        let box = BoundingBox(x: 100, y: 100, width: 50, height: 100)
        #expect(tracker.update([TrackerDetection(box: box, score: 0.65)], imageWidth: 640, imageHeight: 480).isEmpty)
        let started = tracker.update([TrackerDetection(box: box, score: 0.75)], imageWidth: 640, imageHeight: 480)
        #expect(started.map(\.id) == [0])
        // Under the detection threshold: the object is kept, at any score (no rescue threshold by default).
        let kept = tracker.update([TrackerDetection(box: box, score: 0.2)], imageWidth: 640, imageHeight: 480)
        #expect(kept.map(\.id) == [0])
        #expect(kept.first?.score == 0.2)
        for score: Float in [0.02, 0, -1] {
            let faint = tracker.update([TrackerDetection(box: box, score: score)], imageWidth: 640, imageHeight: 480)
            #expect(faint.map(\.id) == [0] && faint.first?.score == score)
        }
    }

    @Test("A rescue threshold, when set, is the lowest score that keeps an object; an object detector's is 0.1")
    func rescueThreshold() {
        var options = TrackingOptions()
        options.rescueThreshold = 0.1
        var tracker = ObjectTracker(options: options)
        let box = BoundingBox(x: 100, y: 100, width: 50, height: 100)
        #expect(tracker.update([TrackerDetection(box: box, score: 0.9)], imageWidth: 640, imageHeight: 480).count == 1)
        #expect(tracker.update([TrackerDetection(box: box, score: 0.9)], imageWidth: 640, imageHeight: 480).count == 1)
        // A box under it is no detection: the object goes unreported (lost) in that frame.
        #expect(tracker.update([TrackerDetection(box: box, score: 0.05)], imageWidth: 640, imageHeight: 480).isEmpty)
        #expect(TrackingOptions().resolved(detectionThreshold: 0.5).rescueThreshold == 0.1)
        #expect(TrackingOptions().resolved(detectionThreshold: 0.05).rescueThreshold == 0.05)
    }
}
