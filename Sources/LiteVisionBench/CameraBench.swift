import Foundation
import LiteVision
import LiteVisionImaging
import LiteVisionVideo

/// The camera-frame rows of the labeling table: NV12 → RGB conversion (`VisionImage(nv12:…)`) at 640×480
/// and 1280×720, and 1280×720 NV12 frames through a stream-mode ObjectDetector (detect + track). The frames
/// are real: the first frames of cup.mp4, resized and converted to NV12 here.
enum CameraBench {
    static func measure(data: String, repeats: Int, table: Table) throws {
        let frames = try VideoBench.firstFrames(path: "\(data)/video/cup.mp4", count: 30)
        guard let first = frames.first else { throw BenchError("cup.mp4 has no frames") }
        for (width, height) in [(640, 480), (1280, 720)] {
            let frame = NV12Frame(first, width: width, height: height)
            let ours = try Measure.medianMilliseconds(max(repeats, 100)) { _ = try image(frame) }
            let target: Target? =
                width == 640 ? .init("≤ 0.3 ms") { _, _ in ours <= 0.3 } : nil
            table.add(
                "camera: NV12 \(width)x\(height) to RGB (`VisionImage(nv12:)`)", ours: ours, raw: nil,
                mediapipe: nil, target: target)
        }

        // Detect + track, as a camera app runs it: each NV12 frame converted, then detected and tracked.
        let nv12 = frames.map { NV12Frame($0, width: 1280, height: 720) }
        var options = ObjectDetectorOptions()
        options.detectorMode = .stream
        options.shouldEnableMultipleObjects = true
        options.modelDirectory = "\(data)/models"
        let detector = try ObjectDetector.objectDetector(options: options)
        var times: [Double] = []
        for round in 0..<2 {
            for (index, frame) in nv12.enumerated() {
                let start = Measure.now()
                _ = try detector.results(in: try image(frame))
                if round > 0 || index >= 3 { times.append(Measure.now() - start) }
            }
        }
        times.sort()
        table.add(
            "camera: NV12 1280x720 frame to detect + track (stream mode, mobile_object_localizer_v1, p50)",
            ours: times[times.count / 2], raw: nil, mediapipe: nil, target: nil)
    }

    static func image(_ frame: NV12Frame) throws -> VisionImage {
        try VisionImage(
            nv12: frame.y, yBytesPerRow: frame.width, cbcr: frame.cbcr, cbcrBytesPerRow: (frame.width + 1) / 2 * 2,
            width: frame.width, height: frame.height, range: .full)
    }
}
