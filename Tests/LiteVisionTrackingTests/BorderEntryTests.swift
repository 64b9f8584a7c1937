import LiteVisionGeometry
import Testing

@testable import LiteVisionTracking

/// An object entering through an image border: a track of one box at a border is compared with a box at the same
/// border along that border (`TrackRecord.entrySimilarity`), since the part across the border is cut off.
@Suite("Objects entering through a border")
struct BorderEntryTests {
    /// The IDs reported in each frame of a 1280x720 view for the given detections (nil: none that frame).
    static func reported(_ frames: [(box: BoundingBox, score: Float)?]) -> [[Int]] {
        var tracker = ObjectTracker()
        return frames.map { frame in
            let detections = frame.map { [TrackerDetection(box: $0.box, score: $0.score)] } ?? []
            return tracker.update(detections, imageWidth: 1280, imageHeight: 720).map(\.id)
        }
    }

    /// A walker entering from the right, `shift` px from the border: a sliver 5 px wide, two frames unseen, then
    /// 18 px wide twice (each box holds the last; their IoU is 5/18 = 0.28, under the confident gate 0.3).
    static func entering(shift: Double) -> [[Int]] {
        let second = BoundingBox(x: 1262 - shift, y: 294, width: 18, height: 154)
        return reported([
            (BoundingBox(x: 1275 - shift, y: 284, width: 5, height: 181), 0.9), nil, nil, (second, 0.9),
            (second, 0.9),
        ])
    }

    @Test("A walker entering from the right keeps one ID; the same boxes inside the image get two")
    func enteringFromTheRight() {
        #expect(Self.entering(shift: 0) == [[0], [], [], [0], [0]])
        #expect(Self.entering(shift: 1) == [[0], [], [], [0], [0]], "within 2 px of the border")
        // Inside the image, the second box is a new object in the open: reported from its second box
        // (`openObjectHits`).
        #expect(Self.entering(shift: 3) == [[0], [], [], [], [1]], "3 px from the border: not touching it")
        #expect(Self.entering(shift: 500) == [[0], [], [], [], [1]])
    }

    @Test("A weak second box at the border is matched by its extent along it; inside the image it is not")
    func weakSecondBox() {
        // IoU 790/1815 = 0.435, under the weak gate 0.45; their heights overlap by 158/193 = 0.82.
        func ids(shift: Double) -> [[Int]] {
            Self.reported([
                (BoundingBox(x: 1275 - shift, y: 284, width: 5, height: 181), 0.9),
                (BoundingBox(x: 1270 - shift, y: 307, width: 10, height: 170), 0.3),
            ])
        }
        #expect(ids(shift: 0) == [[0], [0]])
        #expect(ids(shift: 600) == [[0], []])
    }

    @Test(
        "From the top, left and bottom too; a narrower box, one at the other border, or a track of two boxes: as usual")
    func otherBorders() {
        // Entering from the top: 6 px tall, then 25 (IoU 0.23); their widths overlap by 40/42.
        let top = Self.reported([
            (BoundingBox(x: 300, y: 0, width: 40, height: 6), 0.9), nil,
            (BoundingBox(x: 300, y: 0, width: 42, height: 25), 0.9),
        ])
        #expect(top == [[0], [], [0]])
        let left = Self.reported([
            (BoundingBox(x: 0, y: 284, width: 5, height: 181), 0.9), nil, nil,
            (BoundingBox(x: 0, y: 294, width: 18, height: 154), 0.9),
        ])
        #expect(left == [[0], [], [], [0]])
        let bottom = Self.reported([
            (BoundingBox(x: 300, y: 714, width: 40, height: 6), 0.9), nil,
            (BoundingBox(x: 300, y: 695, width: 42, height: 25), 0.9),
        ])
        #expect(bottom == [[0], [], [0]])
        // A weak box at the border that does not reach as far into the image as the track's (IoU 5/20, under the weak
        // gate; their heights are the same): not an object entering, left unmatched.
        let narrower = Self.reported([
            (BoundingBox(x: 1260, y: 284, width: 20, height: 181), 0.9),
            (BoundingBox(x: 1275, y: 284, width: 5, height: 181), 0.3),
        ])
        #expect(narrower == [[0], []])
        // The sliver at the right border, then a box at the left one: nothing in common.
        let across = Self.reported([
            (BoundingBox(x: 1275, y: 284, width: 5, height: 181), 0.9),
            (BoundingBox(x: 0, y: 284, width: 5, height: 181), 0.9),
        ])
        #expect(across == [[0], [1]])
        // Standing at the border two frames: the motion model knows the object's width, so a box 40 px wide there
        // (IoU 5/40) is another object.
        let standing = Self.reported([
            (BoundingBox(x: 1275, y: 300, width: 5, height: 160), 0.9),
            (BoundingBox(x: 1275, y: 300, width: 5, height: 160), 0.9),
            (BoundingBox(x: 1240, y: 300, width: 40, height: 160), 0.9),
        ])
        #expect(standing == [[0], [0], [1]])
    }

    @Test("The extent ratio of two intervals")
    func overlapRatio() {
        #expect(TrackRecord.overlapRatio(0, 10, 5, 15) == 5.0 / 15)
        #expect(TrackRecord.overlapRatio(0, 10, 2, 8) == 0.6)
        #expect(TrackRecord.overlapRatio(0, 10, 10, 20) == 0)
        #expect(TrackRecord.overlapRatio(0, 10, 30, 40) == 0)
    }
}
