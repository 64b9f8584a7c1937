import LiteVisionGeometry
import LiteVisionTracking
import Testing

@testable import LiteVision

@Suite("Option fallbacks, tracker settings and per-object stream records")
struct OptionRulesTests {
    @Test("A threshold unset or outside 0...1 falls back to the metadata's, else 0; a count below 1 to 10")
    func labelFilterFallbacks() {
        for invalid: Float? in [nil, -0.1, 1.5, .nan, .infinity] {
            #expect(LabelFilter(threshold: invalid, maxCount: 3, metadataThreshold: 0.2).threshold == 0.2)
            #expect(LabelFilter(threshold: invalid, maxCount: 3, metadataThreshold: nil).threshold == 0)
        }
        for valid: Float in [0, 0.4, 1] {
            #expect(LabelFilter(threshold: valid, maxCount: 3, metadataThreshold: 0.2).threshold == valid)
        }
        for invalid: Int? in [nil, 0, -5] {
            #expect(LabelFilter(threshold: nil, maxCount: invalid, metadataThreshold: nil).maxCount == 10)
        }
        #expect(LabelFilter(threshold: nil, maxCount: 1, metadataThreshold: nil).maxCount == 1)
    }

    @Test("Selection keeps scores at or above the threshold, highest first, ties by index, at most the count")
    func labelFilterSelection() {
        let scores: [Float] = [0.1, 0.5, 0.5, 0.9, .nan, 0.49]
        let filter = LabelFilter(threshold: 0.5, maxCount: 2, metadataThreshold: nil)
        let picked = scores.withUnsafeBufferPointer { filter.select($0) }
        #expect(picked.map(\.index) == [3, 1])
        let all = scores.withUnsafeBufferPointer {
            LabelFilter(threshold: 0, maxCount: 10, metadataThreshold: nil).select($0)
        }
        #expect(all.map(\.index) == [3, 1, 2, 5, 0])
    }

    @Test("Tracking options map onto the tracker, and the detection threshold is what starts an object")
    func resolvedTrackingOptions() {
        var expected = TrackingOptions()
        expected.detectionThreshold = 0.5
        expected.newTrackThreshold = 0.5
        expected.tentativeTrackThreshold = nil  // nothing under a detector's threshold starts an object
        expected.openObjectHits = 1  // every new object reported at once, as in ML Kit
        expected.rescueThreshold = 0.1  // unset: a detector's boxes kept alive from 0.1 (a tracker alone: any score)
        #expect(TrackingOptions().rescueThreshold == nil)
        #expect(TrackingOptions().openObjectHits == 2)
        #expect(TrackingOptions().lostTrackBuffer == 45 && TrackingOptions().openLostTrackBuffer == 15)
        #expect(TrackingOptions().tentativeTrackThreshold == 0.3)
        #expect(TrackingOptions().resolved(detectionThreshold: 0.5) == expected)

        var tracking = TrackingOptions()
        tracking.rescueThreshold = 0.7
        tracking.matchIoUThreshold = 0.4
        tracking.rescueMatchIoUThreshold = 0.6
        tracking.lostTrackBuffer = -3
        tracking.openLostTrackBuffer = -1
        tracking.minimumHits = 0
        tracking.outsideFraction = 0.25
        tracking.matchesClasses = false
        tracking.reportsFilteredBoxes = true
        let options = tracking.resolved(detectionThreshold: 0.6)
        #expect(options.detectionThreshold == 0.6 && options.newTrackThreshold == 0.6)
        #expect(options.rescueThreshold == 0.6)  // a rescue threshold above the detection threshold is capped
        #expect(options.matchIoUThreshold == 0.4 && options.rescueMatchIoUThreshold == 0.6)
        #expect(options.lostTrackBuffer == 0 && options.minimumHits == 1)  // out-of-range values are clamped
        #expect(options.openLostTrackBuffer == 0)
        #expect(options.outsideFraction == 0.25 && !options.matchesClasses && options.reportsFilteredBoxes)
    }

    @Test("The stream session keeps labels per object and forgets them when the tracker drops the object")
    func streamSessionRecords() {
        var options = TrackingOptions()
        options.lostTrackBuffer = 2
        var session = StreamSession(options: options.resolved(detectionThreshold: 0.5))
        let box = BoundingBox(x: 10, y: 10, width: 50, height: 50)
        let tracks = session.track(
            [TrackerDetection(box: box, score: 0.9, classIndex: nil)], imageWidth: 200, imageHeight: 200)
        #expect(tracks.count == 1)
        let id = tracks[0].id
        #expect(session.isDue(id, interval: 5))
        session.record(
            [ObjectLabel(text: "Food", confidence: 0.8, index: 2)], for: id, classifiedFrame: session.frame)
        #expect(
            session.labels(of: id, threshold: 0, limit: 1) == [ObjectLabel(text: "Food", confidence: 0.8, index: 2)])
        #expect(!session.isDue(id, interval: 5))
        for _ in 0..<4 { _ = session.track([], imageWidth: 200, imageHeight: 200) }
        #expect(session.labels(of: id, threshold: 0, limit: 1).isEmpty)
        #expect(session.isDue(id, interval: 5))
        session.reset()
        let next = session.track(
            [TrackerDetection(box: box, score: 0.9, classIndex: nil)], imageWidth: 200, imageHeight: 200)
        #expect(next.first.map { $0.id > id } == true)  // IDs are never reused
    }
}
