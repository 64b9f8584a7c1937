import Dispatch
import LiteVision
import LiteVisionImaging
import LiteVisionTestSupport
import Synchronization

// The Linux replacements for the platform types of the seeds' camera code (UIKit and AVFoundation do not exist
// on Linux): LiteVision's own types, under the names the snippets use.

/// `UIDeviceOrientation`: LiteVision's ``DeviceOrientation``.
typealias UIDeviceOrientation = DeviceOrientation

/// `AVCaptureDevice.Position`: LiteVision's ``CameraPosition``.
enum AVCaptureDevice {
    typealias Position = CameraPosition
}

/// `UIImage.Orientation`: LiteVision's ``ImageOrientation``.
enum UIImage {
    typealias Orientation = ImageOrientation
}

/// What `UIDevice.current` answers on a device held upright.
struct LinuxDevice: Sendable {
    let orientation: UIDeviceOrientation
}

/// `UIDevice.current`: a device held upright (portrait).
enum UIDevice {
    static let current = LinuxDevice(orientation: .portrait)
}

/// What the snippets take from the app around them: model paths, photos, camera frames.
enum SeedContext {
    /// The classifier of the custom object detection guide: ML Kit's public object labeler.
    static let detectorClassifierPath = TestData.model("object_labeler.tflite")
    /// The classifier of the image labeling guide: ML Kit's bird classifier.
    static let labelerModelPath = TestData.model("bird.tflite")
    /// Where the built-in detector is.
    static let modelDirectory = TestData.path("models")

    /// The replacement for a `UIImage`: a photo's upright pixels.
    static func uiImage(_ name: String) throws -> ImageBuffer {
        try VisionImage(contentsOfFile: TestData.image(name)).uprightPixels()
    }

    /// The replacement for a `CMSampleBuffer`: a camera frame of a phone held upright with the back camera,
    /// stored sideways as such a camera delivers it (turning it by `.right` makes it upright).
    static func sampleBuffer(_ name: String = "bird.jpg") throws -> ImageBuffer {
        Resampler.orient(try uiImage(name), ImageOrientation.right.inverse)
    }

    /// A photo to process.
    static func photo(_ name: String) throws -> VisionImage {
        try VisionImage(contentsOfFile: TestData.image(name))
    }
}

/// Collects what a completion handler or notification observer received, for the test to wait for.
final class Received<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let arrived = DispatchSemaphore(value: 0)

    /// Records `value` (the first one only) and wakes the waiting test.
    func record(_ newValue: Value) {
        let first = value.withLock { current -> Bool in
            guard current == nil else { return false }
            current = newValue
            return true
        }
        if first { arrived.signal() }
    }

    /// The value recorded, waiting up to `seconds` for it.
    func wait(seconds: Double = 30) -> Value? {
        _ = arrived.wait(timeout: .now() + seconds)
        return value.withLock { $0 }
    }
}
