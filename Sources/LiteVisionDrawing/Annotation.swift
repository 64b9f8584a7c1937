import LiteVisionImaging
import LiteVisionGeometry

/// One thing to draw over an image: a box, the tracking ID of the object it frames, and its labels.
///
/// ```swift
/// let annotation = Annotation(box: object.frame, trackingID: object.trackingID,
///                             labels: object.labels.map { "\($0.text) \($0.confidence)" })
/// ```
package struct Annotation: Sendable, Hashable {
    /// The frame of the object, in pixels of the image it is drawn on (y down).
    package var box: BoundingBox
    /// The object's tracking ID, if it has one; it picks the box color and starts the caption (`"#7"`).
    package var trackingID: Int?
    /// Ready-made label texts, best first (for example `"Food 0.83"`); the caption shows the first one.
    package var labels: [String]

    /// An annotation for `box`, with an optional tracking ID and label texts (best first).
    package init(box: BoundingBox, trackingID: Int? = nil, labels: [String] = []) {
        self.box = box
        self.trackingID = trackingID
        self.labels = labels
    }

    /// The caption drawn above the box: `"#id"` and the first label, separated by a space; empty when
    /// there is neither (then no caption is drawn).
    package var caption: String {
        let parts = [trackingID.map { "#\($0)" }, labels.first].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.joined(separator: " ")
    }
}
