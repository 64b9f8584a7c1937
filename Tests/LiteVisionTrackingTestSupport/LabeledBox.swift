import LiteVisionImaging

/// A box with an identity: a ground-truth object or a tracker's output in one frame.
public struct LabeledBox: Sendable, Equatable, Hashable {
    /// The identity (truth ID or tracking ID). IDs must be unique within a frame.
    public var id: Int
    /// The box in pixels.
    public var box: BoundingBox

    /// A box with its identity.
    public init(id: Int, box: BoundingBox) {
        self.id = id
        self.box = box
    }
}
