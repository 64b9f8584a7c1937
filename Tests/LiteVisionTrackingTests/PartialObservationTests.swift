import LiteVisionGeometry
import Testing

@testable import LiteVisionTracking

@Suite("Partial observations")
struct PartialObservationTests {
    @Test("Partial boxes are completed to the remembered size")
    func partialObservation() {
        var axis = Self.settledAxis()
        // Cut by the right border of a 640-wide image: the left edge is real.
        let cut = axis.measure(
            low: 580, high: 640, predictedLow: 575, predictedHigh: 675, extent: 640, margin: 6.4,
            confident: true)
        #expect(cut.low == 580 && cut.size == 100)
        // Hidden on the right behind something: the left edge agrees with the prediction and is kept.
        let hidden = axis.measure(
            low: 300, high: 340, predictedLow: 301, predictedHigh: 401, extent: 640,
            margin: 6.4, confident: false)
        #expect(hidden.low == 300 && hidden.size == 100)
        // Hidden on the left: the right edge is kept.
        let left = axis.measure(
            low: 360, high: 400, predictedLow: 301, predictedHigh: 401, extent: 640,
            margin: 6.4, confident: false)
        #expect(left.low == 300 && left.size == 100)
        #expect(axis.reference == 100)
        // A whole box, larger or smaller, moves the reference a fifth of the way.
        let larger = axis.measure(
            low: 300, high: 420, predictedLow: 300, predictedHigh: 400, extent: 640, margin: 6.4,
            confident: true)
        #expect(larger.low == 300 && larger.size == 120)
        #expect(abs(axis.reference - 104) < 1e-9)
        _ = axis.measure(
            low: 300, high: 394, predictedLow: 300, predictedHigh: 404, extent: 640, margin: 6.4,
            confident: true)
        #expect(abs(axis.reference - 102) < 1e-9)
        _ = axis.measure(
            low: 300, high: 430, predictedLow: 300, predictedHigh: 402, extent: 640, margin: 6.4,
            confident: true)
        #expect(abs(axis.reference - 107.6) < 1e-9)
    }

    @Test("Jittered whole boxes keep the reference at the object's typical size, not its largest box")
    func jitterDoesNotRatchet() {
        var axis = Self.settledAxis()
        // Widths of 110 and 90 in turns, as a detector's jitter or a walker's gait gives: all whole (over 80 % of the
        // reference). The reference must stay near their mean; one that jumped to larger boxes and followed smaller
        // ones slowly would sit near 106-110, and a box of 84 would then be taken as partly hidden.
        for _ in 0..<20 {
            for width in [110.0, 90.0] {
                _ = axis.measure(
                    low: 300, high: 300 + width, predictedLow: 300, predictedHigh: 400, extent: 640, margin: 6.4,
                    confident: true)
            }
        }
        #expect(abs(axis.reference - 100) < 3)
        let next = axis.measure(
            low: 300, high: 384, predictedLow: 300, predictedHigh: 400, extent: 640, margin: 6.4, confident: false)
        #expect(next.size == 84)
    }

    @Test("A confident box that stays small for long becomes the new size")
    func realShrink() {
        var axis = Self.settledAxis()
        var last = (low: 0.0, size: 0.0)
        for _ in 0...PartialObservation.maximumPartialStreak {
            last = axis.measure(
                low: 200, high: 250, predictedLow: 200, predictedHigh: 300, extent: 640, margin: 6.4,
                confident: true)
        }
        #expect(last.size == 50)
        #expect(axis.reference == 50)
    }

    @Test("With no other track near, a confident small box becomes the new size after two updates, not ten")
    func unobstructedShrink() {
        #expect(PartialObservation.unobstructedPartialStreak == 2)
        // Completed twice (it may be passing behind something the tracker does not follow), then taken as it is.
        #expect(Self.sizes(of: [250, 250, 250, 250], unobstructed: true) == [100, 100, 50, 50])
        #expect(Self.sizes(of: [250, 250, 250, 250], unobstructed: false) == [100, 100, 100, 100])
        // A weak box stays a partial view either way.
        var axis = Self.settledAxis()
        for _ in 0..<4 {
            let weak = axis.measure(
                low: 200, high: 250, predictedLow: 200, predictedHigh: 300, extent: 640, margin: 6.4,
                confident: false, unobstructed: true)
            #expect(weak.size == 100)
        }
    }

    @Test("A track's first boxes are whole: the size its later boxes are completed to is not its first box's")
    func firstBoxesAreWhole() {
        // A first box that came out large (100), then the object's ordinary boxes (72): the second and third are taken
        // as they are (among the track's first three), and so is the fourth, which fits the reference they set.
        var axis = PartialObservation(size: 100)
        #expect(Self.sizes(of: [272, 272, 272], on: &axis) == [72, 72, 72])
        #expect(axis.reference == 72)
        // The first box (the axis' start) and a second one whole, then the small one third: still taken whole.
        var third = PartialObservation(size: 100)
        #expect(Self.sizes(of: [300, 272], on: &third) == [100, 72])
        // Three whole boxes, then the small one fourth: past the first three, the box is completed.
        var fourth = PartialObservation(size: 100)
        #expect(Self.sizes(of: [300, 300, 272], on: &fourth) == [100, 100, 100])
        // Weak boxes of a new track are whole too.
        var weak = PartialObservation(size: 100)
        let box = weak.measure(
            low: 200, high: 272, predictedLow: 200, predictedHigh: 300, extent: 640, margin: 6.4, confident: false)
        #expect(box.size == 72 && weak.reference == 72)
        // A box cut by the border is completed from the first.
        var cut = PartialObservation(size: 100)
        let border = cut.measure(
            low: 580, high: 640, predictedLow: 575, predictedHigh: 675, extent: 640, margin: 6.4, confident: true)
        #expect(border.low == 580 && border.size == 100)
    }

    @Test("Association compares a track's first boxes as they are, later ones completed")
    func firstBoxesAreComparedWhole() {
        // A track started by a 100x200 box; a weak box 60 wide and as tall, inside the prediction on its left.
        let start = TrackerDetection(box: BoundingBox(x: 100, y: 100, width: 100, height: 200), score: 0.9)
        var record = TrackRecord(detection: start, index: 0, hitsToConfirm: 1, isBelievable: true)
        let narrow = BoundingBox(x: 100, y: 100, width: 60, height: 200)
        // Among the track's first boxes: the box as it is, IoU 0.6.
        #expect(abs(record.similarity(to: narrow, threshold: 0.45, imageWidth: 640, imageHeight: 480) - 0.6) < 1e-9)
        // Settled (as after three boxes): completed to 100 wide, the prediction itself.
        record.horizontal.boxesSeen = PartialObservation.settlingBoxes
        record.vertical.boxesSeen = PartialObservation.settlingBoxes
        #expect(abs(record.similarity(to: narrow, threshold: 0.45, imageWidth: 640, imageHeight: 480) - 1) < 1e-9)
    }

    /// An axis remembering 100 that has seen enough boxes for partial ones to be completed.
    static func settledAxis() -> PartialObservation {
        PartialObservation(size: 100, boxesSeen: PartialObservation.settlingBoxes)
    }

    /// The sizes measured for confident boxes `200...high` in a row, one per `high`, on `axis` (predicting
    /// `200...300`).
    static func sizes(of highs: [Double], on axis: inout PartialObservation, unobstructed: Bool = false) -> [Double] {
        highs.map { high in
            axis.measure(
                low: 200, high: high, predictedLow: 200, predictedHigh: 300, extent: 640, margin: 6.4,
                confident: true, unobstructed: unobstructed
            ).size
        }
    }

    /// The sizes measured for confident boxes on a settled axis (see ``sizes(of:on:unobstructed:)``).
    static func sizes(of highs: [Double], unobstructed: Bool = false) -> [Double] {
        var axis = settledAxis()
        return sizes(of: highs, on: &axis, unobstructed: unobstructed)
    }
}
