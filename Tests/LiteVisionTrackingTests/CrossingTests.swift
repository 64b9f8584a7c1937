import LiteVisionGeometry
import Testing

@testable import LiteVisionTracking

/// Two tracks that come out of a crossing on each other's objects get their IDs back (``ObjectTracker`` step 6). The
/// case it was made for, a draw of the tracking benchmark, is checked end to end by `TrackDetectionsCLITests`.
@Suite("Crossings")
struct CrossingTests {
    @Test("A track that came out of a crossing on the other object gives its ID, with its appearance, back")
    func exchangeGivesIDsBack() throws {
        // The walkers below, X unseen in frames 22 and 23; at frame 25 the association's mistake is made by hand.
        func frame(_ t: Int) -> [TrackerDetection] { Walkers.frame(t, hidden: 22...23) }
        var tracker = ObjectTracker()
        _ = run(&tracker, (0...25).map(frame))
        #expect(tracker.contacts.count == 1)
        try #require(tracker.records.map(\.id) == [0, 1])
        tracker.records[0].appearance = [1, 0]
        tracker.records[1].appearance = [0, 1]
        Walkers.exchangeMotionModels(&tracker)
        let tracks = run(&tracker, (26..<45).map(frame))
        // Apart from frame 30 (the boxes touch): the IDs are given back there, so at the end ID 0 is on X again.
        #expect(tracks[0].first { $0.id == 0 }?.box.x == Walkers.y(26), "the track of ID 0 followed Y out")
        try Walkers.expectIDsBack(tracks, lastFrame: 44)
        #expect(tracker.records.first { $0.id == 0 }?.appearance == [1, 0])
        #expect(tracker.contacts.isEmpty)
    }

    @Test("Two tracks that meet while one of them is unseen are followed from that moment and get their IDs back")
    func meetingWhileUnseen() throws {
        // X is unseen in frames 19 to 23: the boxes meet at frame 21 on X's prediction (lost for three frames), and
        // the association's mistake is made while X is still unseen, after frame 23. From frame 24 both are matched
        // and overlap again: a second contact starts then, from the exchanged motion models (which fit their
        // objects), and only the first can tell that the tracks came out on each other's objects.
        func frame(_ t: Int) -> [TrackerDetection] { Walkers.frame(t, hidden: 19...23) }
        var tracker = ObjectTracker()
        _ = run(&tracker, (0...20).map(frame))
        #expect(tracker.contacts.isEmpty, "the boxes do not meet before frame 21")
        _ = run(&tracker, (21...23).map(frame))
        #expect(tracker.contacts.map(\.startedUnseen) == [true])
        try #require(tracker.records.map(\.id) == [0, 1])
        Walkers.exchangeMotionModels(&tracker)
        let tracks = run(&tracker, (24..<45).map(frame))
        #expect(tracks[0].first { $0.id == 0 }?.box.x == Walkers.y(24), "the track of ID 0 followed Y out")
        try Walkers.expectIDsBack(tracks, lastFrame: 44)
        #expect(tracker.contacts.isEmpty)
    }

    @Test("A pair met while one was unseen is followed a second time when they meet in plain sight, once")
    func meetingAgainInPlainSight() {
        // X is unseen in frames 19 to 21: met on its prediction at frame 21 when lost for three frames (not four, as
        // when unseen from frame 18), in plain sight from frame 22.
        var tracker = ObjectTracker()
        _ = run(&tracker, (0...21).map { Walkers.frame($0, hidden: 19...21) })
        #expect(tracker.contacts.map(\.startedUnseen) == [true])
        _ = run(&tracker, (22...23).map { Walkers.frame($0, hidden: 19...21) })
        #expect(tracker.contacts.map(\.startedUnseen) == [true, false])
        #expect(tracker.contacts.map(\.wasUnseen) == [true, false])

        var lostLonger = ObjectTracker()
        _ = run(&lostLonger, (0...21).map { Walkers.frame($0, hidden: 18...21) })
        #expect(lostLonger.contacts.isEmpty, "a track lost for four frames meets no other")
        _ = run(&lostLonger, [Walkers.frame(22, hidden: 18...21)])
        #expect(lostLonger.contacts.map(\.startedUnseen) == [false])
    }

    @Test("A walker slowing down while the other speeds up, both seen in every frame, keeps their IDs")
    func handoffIsNoExchange() {
        // Both walk left, side by side at one depth: A at 6.4 px a frame until it stops (frame 32) and sets off again
        // slowly (1.5 px a frame, from frame 47); B at 1.2 px a frame, then at 5.5 from frame 40. They overlap from
        // frame 21 to 49, so that where each would be at its old pace is where the other is (about 0.65 box widths
        // off, against 1.66 as they are): an exchange, but for both being seen in every frame.
        func a(_ t: Int) -> Double {
            t < 32 ? 508 - 6.4 * Double(t - 22) : t < 47 ? 444 : 444 - 1.5 * Double(t - 47)
        }
        func b(_ t: Int) -> Double { t < 40 ? 442 - 1.2 * Double(t - 22) : 420.4 - 5.5 * Double(t - 40) }
        var tracker = ObjectTracker()
        let frames = (0..<80).map { t in
            [detection(box(a(t), 334, 74, 216)), detection(box(b(t), 336, 76, 220))]
        }
        var tracks = run(&tracker, Array(frames[..<45]), width: 1280, height: 720)
        // The two met: their contact is followed.
        #expect(tracker.contacts.count == 1)
        tracks += run(&tracker, Array(frames[45...]), width: 1280, height: 720)
        #expect(tracks.first?.map(\.id) == [0, 1])
        let last = tracks.last ?? []
        #expect(last.first { $0.id == 0 }?.box.x == a(79), "\(last)")
        #expect(last.first { $0.id == 1 }?.box.x == b(79), "\(last)")
        #expect(tracker.contacts.isEmpty)
    }

    @Test("Where an object would be at its old velocity moves as a track's prediction does, camera motion included")
    func reckoningMovesAsPredictions() {
        var filter = BoxKalmanFilter(box: box(100, 50, 40, 100))
        filter.centerX.velocity = 3
        filter.centerY.velocity = -1
        var reckoning = TrackContact.Reckoning(filter)
        let motion = CameraMotion(scale: 1.1, translationX: -12, translationY: 5)
        for frame in 0..<6 {
            filter.predict()
            reckoning.advance(cameraMotion: frame.isMultiple(of: 2) ? motion : nil)
            if frame.isMultiple(of: 2) { filter.move(by: motion) }
            #expect(reckoning.squaredDistance(to: filter) < 1e-18)
            #expect(abs(reckoning.velocityX - filter.centerX.velocity) < 1e-12)
        }
        // The velocity alone moves the point: 6 frames at (3, -1), zoomed by 1.1 three times.
        #expect(abs(reckoning.velocityX - 3 * 1.1 * 1.1 * 1.1) < 1e-12)
    }
}

/// Two walkers at one depth, boxes 40 px wide: X walks right from x 100, Y left from x 300, 4 px a frame each; their
/// boxes meet from frame 21 (IoU 0.1) and coincide at frame 25.
private enum Walkers {
    static func x(_ t: Int) -> Double { 100 + 4 * Double(t) }
    static func y(_ t: Int) -> Double { 300 - 4 * Double(t) }

    /// The detections of frame `t`, X unseen in the frames `hidden`.
    static func frame(_ t: Int, hidden: ClosedRange<Int>) -> [TrackerDetection] {
        (hidden.contains(t) ? [] : [detection(box(x(t), 100, 40, 100))]) + [detection(box(y(t), 102, 40, 100))]
    }

    /// The association's mistake, made by hand: the two records' motion models exchanged, so that X's track (ID 0)
    /// follows Y from here on.
    static func exchangeMotionModels(_ tracker: inout ObjectTracker) {
        let followingX = tracker.records[0].filter
        tracker.records[0].filter = tracker.records[1].filter
        tracker.records[1].filter = followingX
    }

    /// Expects ID 0 on X and ID 1 on Y in the last of `tracks`, frame `t`.
    static func expectIDsBack(
        _ tracks: [[Track]], lastFrame t: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let last = try #require(tracks.last, sourceLocation: sourceLocation)
        #expect(last.first { $0.id == 0 }?.box.x == x(t), "\(last)", sourceLocation: sourceLocation)
        #expect(last.first { $0.id == 1 }?.box.x == y(t), "\(last)", sourceLocation: sourceLocation)
    }
}
