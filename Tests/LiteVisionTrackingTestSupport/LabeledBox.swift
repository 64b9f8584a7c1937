import LiteVisionGeometry
import LiteVisionImaging

/// A box with an identity: a ground-truth object or a tracker's output in one frame.
package struct LabeledBox: Sendable, Equatable, Hashable {
    /// The identity (truth ID or tracking ID). IDs must be unique within a frame.
    package var id: Int
    /// The box in pixels.
    package var box: BoundingBox

    /// A box with its identity.
    package init(id: Int, box: BoundingBox) {
        self.id = id
        self.box = box
    }
}
