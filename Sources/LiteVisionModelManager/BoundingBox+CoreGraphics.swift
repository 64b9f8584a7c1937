import Foundation
import LiteVision

// A frame (``BoundingBox``) with Foundation's geometry types, so that overlay code written for ML Kit's `CGRect`
// frames compiles: `CGRect(object.frame)`, `object.frame.contains(point)` with a `CGPoint`.

extension CGRect {
    /// The `CGRect` of a LiteVision frame (``BoundingBox``), for overlay code that draws with `CGRect`s:
    /// `CGRect(object.frame)` is ML Kit's `object.frame`. The same four numbers; ``BoundingBox/null`` becomes
    /// `CGRect.null`.
    public init(_ frame: BoundingBox) {
        self.init(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
    }
}

extension BoundingBox {
    /// The frame of a `CGRect`: the same four numbers (`CGRect.null` becomes ``BoundingBox/null``).
    public init(_ rect: CGRect) {
        self.init(
            x: Double(rect.origin.x), y: Double(rect.origin.y), width: Double(rect.size.width),
            height: Double(rect.size.height))
    }

    /// Whether `point` is inside, as `CGRect.contains(_:)`: the left and top edges included, the right and
    /// bottom ones excluded; never in an empty frame.
    public func contains(_ point: CGPoint) -> Bool {
        contains(Point(x: Double(point.x), y: Double(point.y)))
    }

    /// Whether `rect` lies entirely inside this frame (edges included), as `CGRect.contains(_:)`.
    public func contains(_ rect: CGRect) -> Bool {
        contains(BoundingBox(rect))
    }

    /// The overlap of this frame and `rect`, as `CGRect.intersection(_:)`: `CGRect.null` when they do not meet.
    public func intersection(_ rect: CGRect) -> CGRect {
        CGRect(intersection(BoundingBox(rect)))
    }
}
