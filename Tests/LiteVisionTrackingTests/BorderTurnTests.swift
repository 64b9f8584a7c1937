import LiteVisionGeometry
import Testing

@testable import LiteVisionTracking

/// An object that turns back at the image border: its motion model still carries it out of the image, and a track
/// whose predicted box reaches past a border it moves toward is compared with a confident box whose IoU falls short of
/// the gate again, both boxes grown by `TrackRecord.lostBuffer` across that border (in width at the left or right).
@Suite("Objects turning back at a border")
struct BorderTurnTests {
    /// Where a box turns back: at the left, right or bottom border, or in the middle of the image.
    enum Turn { case left, right, bottom, middle }

    /// The IDs of each frame of a 1280x720 view: a box 70 px deep along its way (120 px across it) at 9 px a frame
    /// toward the place `turn` names, reaching it in frame 20 (at x 600 in the middle), then back at the same speed;
    /// its box in frame 22 is 12 px further on and 84 px deep, as a jittery detector gives it.
    static func turning(_ turn: Turn) -> [[Int]] {
        var tracker = ObjectTracker()
        return (0..<26).map { frame in
            let jittery = frame == 22
            let depth = jittery ? 84.0 : 70, away = 9 * Double(abs(20 - frame)) + (jittery ? 12 : 0)
            let box =
                switch turn {
                case .left: BoundingBox(x: away, y: 300, width: depth, height: 120)
                case .middle: BoundingBox(x: 600 + away, y: 300, width: depth, height: 120)
                case .right: BoundingBox(x: 1280 - away - depth, y: 300, width: depth, height: 120)
                case .bottom: BoundingBox(x: 300, y: 720 - away - depth, width: 120, height: depth)
                }
            return tracker.update([TrackerDetection(box: box, score: 0.9)], imageWidth: 1280, imageHeight: 720)
                .map(\.id)
        }
    }

    @Test("An object that turns back at a border keeps its ID; one turning in the middle of the image does not")
    func turnsBackAtTheBorder() {
        for turn in [Turn.left, .right, .bottom] {
            #expect(Self.turning(turn) == Array(repeating: [0], count: 26), "\(turn)")
        }
        // In the middle of the image the prediction is inside it: the jittery box is compared by its plain IoU, under
        // the gate, and starts a new object.
        #expect(Self.turning(.middle) == Array(repeating: [0], count: 22) + Array(repeating: [1], count: 4))
    }

    /// The IDs of each frame of a 1280x720 view: a box 56x250 at 8 px a frame toward the left border, reaching it in
    /// frame 15 and then cut by it; in frame 20, when about 16 px of it would be left in view, a box 33x246 at the
    /// border `shift` px higher instead.
    static func leaving(enteringShift shift: Double) -> [[Int]] {
        var tracker = ObjectTracker()
        return (0..<21).map { frame in
            let x = 120 - 8 * Double(frame)
            let detection =
                frame < 20
                ? BoundingBox(x: max(0, x), y: 460, width: 56 + min(0, x), height: 250)
                : BoundingBox(x: 0, y: 460 - shift, width: 33, height: 246)
            return tracker.update([TrackerDetection(box: detection, score: 0.9)], imageWidth: 1280, imageHeight: 720)
                .map(\.id)
        }
    }

    @Test("An object entering beside one leaving through the same border gets an ID of its own")
    func enteringBesideOneLeaving() {
        // The leaving object's prediction is grown across the border only: grown along it too (as a lost track's), it
        // took the entering box 90 px higher as well. 70 px higher, their plain IoU passes the gate.
        #expect(Self.leaving(enteringShift: 70) == Array(repeating: [0], count: 21))
        #expect(Self.leaving(enteringShift: 90) == Array(repeating: [0], count: 20) + [[1]])
    }

    @Test("At a corner the boxes are not grown: an object entering beside one leaving there gets an ID of its own")
    func enteringBesideOneLeavingAtACorner() {
        // A box 56x250 at (-8, -4) px a frame toward the top left corner from (120, 40), cut by both borders from
        // frame 15 on; from frame 20 a box entering at the left border at y 70, 4 px wider each frame. Grown along
        // both axes, the leaving object's boxes took it (IoU 0.31).
        var tracker = ObjectTracker()
        let ids = (0..<23).map { frame in
            let x = 120 - 8 * Double(frame), y = 40 - 4 * Double(frame)
            let detection =
                frame < 20
                ? BoundingBox(x: max(0, x), y: max(0, y), width: 56 + min(0, x), height: 250 + min(0, y))
                : BoundingBox(x: 0, y: 70, width: 33 + 4 * Double(frame - 20), height: 246)
            return tracker.update([TrackerDetection(box: detection, score: 0.9)], imageWidth: 1280, imageHeight: 720)
                .map(\.id)
        }
        #expect(ids == Array(repeating: [0], count: 20) + Array(repeating: [1], count: 3))
    }
}
