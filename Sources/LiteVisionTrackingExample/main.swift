// ML Kit's iOS object-tracking camera code, ported to Linux (the porting guide's example program).
//
// On iOS, frames come from an AVCaptureSession to `captureOutput(_:didOutput:from:)` as CMSampleBuffers, with
// `alwaysDiscardsLateVideoFrames` on. Here they come from a LiteVisionVideo `VideoSource`: a camera (/dev/video0),
// a network stream (rtsp://, http://, udp://, ...) or a video file played at its real pace; late frames are dropped
// and the newest kept, as on iOS. Everything else is written as ML Kit's guide writes it.
//
//     litevision-track-example SOURCE [MODEL_FOLDER]
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
    /// frame's image carries the stream's orientation, as `VisionImage(buffer:)` with `orientation` set on iOS.
    func captureOutput(didOutput frame: VideoFrame) {
        let image = frame.image
        let frameNumber = frame.index

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
    print("usage: litevision-track-example SOURCE [MODEL_FOLDER]")
    exit(2)
}
// The camera session: the newest frame whenever the detector is ready (a file too is played as a camera).
var options = VideoSource.Options()
options.delivery = .latest
let camera: VideoSource
do {
    camera = try VideoSource(arguments[1], options: options)
} catch {
    print("litevision-track-example: \(error)")
    exit(1)
}
let controller = CameraViewController(modelDirectory: arguments.count == 3 ? arguments[2] : nil)
do {
    while let frame = try camera.next() {
        controller.captureOutput(didOutput: frame)
    }
} catch {
    print("litevision-track-example: \(error)")
    exit(1)
}
print("\(camera.statistics.dropped) late frames dropped")
