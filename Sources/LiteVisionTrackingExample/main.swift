// ML Kit's iOS object-tracking camera code, ported to Linux (the porting guide's example program).
//
// On iOS, frames come from an AVCaptureSession to `captureOutput(_:didOutput:from:)` as CMSampleBuffers, with
// `alwaysDiscardsLateVideoFrames` on. Here they come from a video file played as a camera: LiteVisionVideo's
// live frame source releases frames at their real-time pace and drops the ones that arrive while the detector
// is busy, keeping the newest. Everything else is written as ML Kit's guide writes it.
//
//     litevision-track-example VIDEO [MODEL_FOLDER]
//
// MODEL_FOLDER is where the built-in detector and labeler are (default: LITEVISION_MODEL_DIR, then the cache).
import LiteVision
import LiteVisionSystem
import LiteVisionVideo

/// The iOS sample's view controller, without the view: it owns the detector and handles each camera frame.
final class CameraViewController {
    private let objectDetector: ObjectDetector

    init(modelDirectory: String?) {
        // Live detection and tracking
        let options = ObjectDetectorOptions()
        options.shouldEnableClassification = true
        options.modelDirectory = modelDirectory  // LiteVision: where the built-in models are
        objectDetector = ObjectDetector.objectDetector(options: options)
    }

    /// ML Kit: `captureOutput(_:didOutput:from:)` of `AVCaptureVideoDataOutputSampleBufferDelegate`; the
    /// sample buffer is the frame's pixels and its orientation comes from the file instead of the device.
    func captureOutput(didOutput sampleBuffer: ImageBuffer, orientation: ImageOrientation, frameNumber: Int) {
        let image = VisionImage(buffer: sampleBuffer)
        image.orientation = orientation

        var objects: [Object]
        do {
            objects = try objectDetector.results(in: image)
        } catch let error {
            print("Failed to detect object with error: \(error.localizedDescription).")
            return
        }
        guard !objects.isEmpty else {
            print("frame \(frameNumber): no object")
            return
        }

        // objects contains one item if multiple object detection wasn't enabled.
        for object in objects {
            let frame = object.frame
            let trackingID = object.trackingID
            let description = object.labels.enumerated().map { (index, label) in
                "Label \(index): \(label.text), \(label.confidence)"
            }.joined(separator: "; ")
            print("frame \(frameNumber): object \(trackingID.map { "\($0)" } ?? "-") at \(frame) \(description)")
        }
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 || arguments.count == 3 else {
    print("usage: litevision-track-example VIDEO [MODEL_FOLDER]")
    exit(2)
}
let camera: LiveFrameSource
do {
    camera = try LiveFrameSource(path: arguments[1])
} catch {
    print("litevision-track-example: \(error)")
    exit(1)
}
let controller = CameraViewController(modelDirectory: arguments.count == 3 ? arguments[2] : nil)
while let frame = camera.next() {
    controller.captureOutput(didOutput: frame.image, orientation: camera.info.orientation, frameNumber: frame.index)
}
print("\(camera.droppedFrames) late frames dropped")
if let error = camera.error {
    print("litevision-track-example: \(error)")
    exit(1)
}
