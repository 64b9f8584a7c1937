import LiteVision
import LiteVisionCommandSupport
import LiteVisionDrawing
import LiteVisionImaging
import LiteVisionSystem

/// Draws detected objects on a photo and writes it as PNG (to a temporary name, renamed when complete).
enum AnnotatedImageWriter {
    static func write(_ image: VisionImage, objects: [DetectedObject], to path: String) throws {
        let upright = try image.uprightPixels()
        let drawn = Annotator.draw(objects.map(Annotation.init), on: upright)
        let bytes = try PNGEncoder.encode(drawn)
        do throws(SystemError) {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw VisionError.fileNotWritable(path: path, reason: error.reason)
        }
    }
}

extension Annotation {
    /// The drawing of a detected object: its box, tracking ID, and labels with confidences (its detector's
    /// class first, for a detector with classes).
    init(_ object: DetectedObject) {
        self.init(
            box: object.frame, trackingID: object.trackingID,
            labels: ((object.detectorLabel.map { [$0] } ?? []) + object.labels).map {
                "\($0.text) \(fixed($0.confidence, digits: 2))"
            })
    }
}
