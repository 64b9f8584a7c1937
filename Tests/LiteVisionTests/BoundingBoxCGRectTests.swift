import Foundation
import LiteVision
import LiteVisionModelManager
import LiteVisionTestSupport
import Testing

/// A frame speaks `CGRect`'s vocabulary with `CGRect`'s rules: every answer is compared with Foundation's own
/// `CGRect` (swift-corelibs-foundation) on the same rectangles.
@Suite("BoundingBox: CGRect's vocabulary, checked against Foundation's CGRect")
struct BoundingBoxCGRectTests {
    /// Rectangles on a half-pixel grid (so that every sum is exact and answers compare with `==`), with negative,
    /// zero and positive widths and heights, plus the null rectangle.
    static func rectangles(count: Int, seed: UInt64) -> [BoundingBox] {
        var random = SeededGenerator(seed: seed)
        func half(_ range: ClosedRange<Int>) -> Double { Double(Int.random(in: range, using: &random)) / 2 }
        return [.null, BoundingBox(x: 0, y: 0, width: 0, height: 0)]
            + (0..<count).map { _ in
                BoundingBox(x: half(-16...16), y: half(-16...16), width: half(-12...12), height: half(-12...12))
            }
    }

    static func same(_ box: BoundingBox, _ rect: CGRect) -> Bool {
        box.x == Double(rect.origin.x) && box.y == Double(rect.origin.y) && box.width == Double(rect.size.width)
            && box.height == Double(rect.size.height)
    }

    @Test("Edges, centers, emptiness, nullness and the standardized form are CGRect's")
    func singleRectangles() {
        for box in Self.rectangles(count: 400, seed: 27) {
            let rect = CGRect(box)
            #expect(Self.same(box, rect) && BoundingBox(rect) == box)
            #expect(box.origin == BoundingBox.Point(x: Double(rect.origin.x), y: Double(rect.origin.y)))
            #expect(box.size == BoundingBox.Size(width: Double(rect.size.width), height: Double(rect.size.height)))
            #expect(box.isNull == rect.isNull && box.isEmpty == rect.isEmpty, "\(box)")
            guard !box.isNull else { continue }
            #expect(box.minX == Double(rect.minX) && box.maxX == Double(rect.maxX), "\(box)")
            #expect(box.minY == Double(rect.minY) && box.maxY == Double(rect.maxY), "\(box)")
            #expect(box.midX == Double(rect.midX) && box.midY == Double(rect.midY), "\(box)")
            #expect(Self.same(box.standardized, rect.standardized), "\(box)")
            #expect(box.standardized.width == Double(rect.width) && box.standardized.height == Double(rect.height))
        }
        #expect(BoundingBox.null.standardized.isNull && CGRect(BoundingBox.null) == CGRect.null)
    }

    @Test("Intersection (null when apart, zero-sized when touching), union and containment are CGRect's")
    func pairs() {
        let boxes = Self.rectangles(count: 120, seed: 2027)
        var apart = 0, touching = 0, overlapping = 0, containing = 0
        for a in boxes {
            for b in boxes {
                let expected = CGRect(a).intersection(CGRect(b))
                let overlap = a.intersection(b)
                #expect(overlap.isNull == expected.isNull, "\(a) ∩ \(b)")
                if expected.isNull {
                    apart += 1
                    #expect(overlap.area == 0)
                } else {
                    #expect(Self.same(overlap, expected), "\(a) ∩ \(b) = \(overlap), CGRect: \(expected)")
                    if expected.isEmpty { touching += 1 } else { overlapping += 1 }
                }
                #expect(a.intersection(CGRect(b)) == expected)
                let union = a.union(b), expectedUnion = CGRect(a).union(CGRect(b))
                #expect(
                    union.isNull == expectedUnion.isNull && (union.isNull || Self.same(union, expectedUnion)),
                    "\(a) ∪ \(b) = \(union), CGRect: \(expectedUnion)")
                let contains = CGRect(a).contains(CGRect(b))
                #expect(a.contains(b) == contains && a.contains(CGRect(b)) == contains, "\(a) ⊇ \(b)")
                if contains { containing += 1 }
            }
        }
        // Every kind of case was met.
        #expect(apart > 1000 && touching > 100 && overlapping > 1000 && containing > 200)
    }

    @Test("Points on the edges: the left and top ones inside, the right and bottom ones outside, as CGRect")
    func points() {
        var random = SeededGenerator(seed: 8)
        var inside = 0
        for box in Self.rectangles(count: 200, seed: 99) {
            // Points on the half-pixel grid over the box and a pixel around it (anywhere for the null box).
            let area = box.isNull ? BoundingBox(x: -20, y: -20, width: 40, height: 40) : box.standardized
            func coordinate(_ low: Double, _ extent: Double) -> Double {
                low + Double(Int.random(in: -2...Int(2 * extent) + 2, using: &random)) / 2
            }
            for _ in 0..<40 {
                let point = BoundingBox.Point(
                    x: coordinate(area.minX, area.width), y: coordinate(area.minY, area.height))
                let expected = CGRect(box).contains(CGPoint(x: point.x, y: point.y))
                #expect(box.contains(point) == expected, "\(box) ∋ \(point)")
                #expect(box.contains(CGPoint(x: point.x, y: point.y)) == expected)
                if expected { inside += 1 }
            }
            if !box.isEmpty {
                let standard = box.standardized
                #expect(box.contains(BoundingBox.Point(x: standard.minX, y: standard.minY)))
                #expect(!box.contains(BoundingBox.Point(x: standard.maxX, y: standard.minY)))
            }
        }
        #expect(inside > 2000)
    }

    @Test("origin and size can be set, as CGRect's")
    func settableOriginAndSize() {
        var box = BoundingBox(x: 1, y: 2, width: 3, height: 4)
        box.origin = BoundingBox.Point(x: 10, y: 20)
        box.size.width = 30
        #expect(box == BoundingBox(x: 10, y: 20, width: 30, height: 4))
        #expect(box == BoundingBox(origin: box.origin, size: box.size))
    }
}
