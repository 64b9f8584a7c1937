// swift-format-ignore-file
// (The snippets are kept exactly as the seed guides write them; the formatter would respace them.)
//
// The seed guides' snippets preparing the input image (000, 001, 002, 003 and 004 share them), verbatim.
// The one allowed change: `UIImage` (a platform input) is `uiImage`, a photo's pixels. Lines ending in
// `// seed-test` are the test's own, inside a snippet; every other line of a snippet is the seed's.
import LiteVision
import LiteVisionTestSupport
import Testing

    func imageOrientation(
      deviceOrientation: UIDeviceOrientation,
      cameraPosition: AVCaptureDevice.Position
    ) -> UIImage.Orientation {
      switch deviceOrientation {
      case .portrait:
        return cameraPosition == .front ? .leftMirrored : .right
      case .landscapeLeft:
        return cameraPosition == .front ? .downMirrored : .up
      case .portraitUpsideDown:
        return cameraPosition == .front ? .rightMirrored : .left
      case .landscapeRight:
        return cameraPosition == .front ? .upMirrored : .down
      case .faceDown, .faceUp, .unknown:
        return .up
      }
    }

@Suite("Seed snippets: input images")
struct CameraInputSnippets {
    @Test("imageOrientation(deviceOrientation:cameraPosition:) agrees with LiteVision's own mapping")
    func orientationFunction() {
        let devices: [DeviceOrientation] = [
            .portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight, .faceUp, .faceDown, .unknown,
        ]
        for device in devices {
            for camera in [CameraPosition.back, .front] {
                #expect(
                    imageOrientation(deviceOrientation: device, cameraPosition: camera)
                        == ImageOrientation(deviceOrientation: device, cameraPosition: camera))
            }
        }
    }

    @Test("VisionImage(image:) and its orientation, set through constants")
    func fromImage() throws {
        let uiImage = try SeedContext.uiImage("bird.jpg")
        let visionImage = VisionImage(buffer: uiImage, orientation: .left)

    let image = VisionImage(image: uiImage)
    visionImage.orientation = image.imageOrientation

        #expect(image.imageOrientation == .up)
        #expect(visionImage.orientation == .up, "the snippet's assignment took effect on a let constant")
    }

    @Test("VisionImage(buffer:) of a camera frame, oriented from the device: labels as the upright photo")
    func fromCameraFrame() throws {
        let sampleBuffer = try SeedContext.sampleBuffer("bird.jpg")
        let cameraPosition = CameraPosition.back

    let image = VisionImage(buffer: sampleBuffer)
    image.orientation = imageOrientation(
      deviceOrientation: UIDevice.current.orientation,
      cameraPosition: cameraPosition)

        #expect(image.orientation == .right)
        let labeler = try ImageLabeler(
            options: CustomImageLabelerOptions(localModel: LocalModel(path: SeedContext.labelerModelPath)))
        let framed = try labeler.results(in: image)
        let upright = try labeler.results(in: try SeedContext.photo("bird.jpg"))
        #expect(framed.first?.index == upright.first?.index && framed.first?.index == 567)
    }
}
