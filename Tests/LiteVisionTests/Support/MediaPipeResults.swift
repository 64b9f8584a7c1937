import Foundation
import LiteVisionTestSupport

/// MediaPipe Tasks' own results (Python, mediapipe==1.2.2), computed by Fixtures/mediapipe_results.py in one
/// process for every model and photo: what LiteVision's `.mediapipe` preprocessing must reproduce.
struct MediaPipeResults: Decodable {
    /// Model file name → photo file name → `[index, score]` of every category with a score above zero.
    let classify: [String: [String: [[Double]]]]
    /// Model file name → photo file name → `[score, x, y, width, height]` (whole pixels) of every detection.
    let detect: [String: [String: [[Double]]]]
    /// Photo file name → `[width, height, CRC-32]` of the upright RGB pixels `Image.create_from_file` made of the
    /// file (gray repeated in R, G and B): every image that is not a camera frame, and the `decodeOnly` ones.
    let pixels: [String: [UInt32]]

    /// Runs MediaPipe on `images` with `classifiers` and `detectors` (paths); the images in `rotations` are
    /// camera frames given with that `rotation_degrees`, the others are opened with `Image.create_from_file`.
    /// The `decodeOnly` files are only opened (their ``pixels``). A missing MediaPipe, Pillow or numpy is a setup
    /// error naming what to install, never a skip.
    static func compute(
        classifiers: [String], detectors: [String], images: [String], detectionThreshold: Float,
        rotations: [String: Int] = [:], decodeOnly: [String] = []
    ) throws -> MediaPipeResults {
        let folder = TestData.temporaryDirectory("mediapipe-results")
        defer { try? FileManager.default.removeItem(at: folder) }
        let job = folder.appendingPathComponent("job.json"), output = folder.appendingPathComponent("out.json")
        let request: [String: Any] = [
            "classifiers": classifiers, "detectors": detectors, "images": images,
            "detection_threshold": Double(detectionThreshold), "rotations": rotations, "decode_only": decodeOnly,
        ]
        try JSONSerialization.data(withJSONObject: request).write(to: job)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/mediapipe_results.py").path
        try PythonTool.run(script, arguments: [job.path, output.path], needs: "mediapipe==1.2.2, Pillow and numpy")
        return try JSONDecoder().decode(MediaPipeResults.self, from: Data(contentsOf: output))
    }
}
