import LiteVision

/// Rows for ``ProcessingOptions/Preprocessing/mediapipe`` next to MediaPipe Tasks: both give the same scores
/// for the same pixels, so their times compare like for like.
enum MediaPipeModeBench {
    /// Labels beach.jpg (12 MP) with `model` in `.mediapipe` mode: already decoded, and from the file (decoded by
    /// stb_image as MediaPipe's `Image.create_from_file` decodes it, on one thread, so that the scores are
    /// MediaPipe's; `decodingScale` does not apply to `.mediapipe` files).
    static func measure(
        model: String, data: String, repeats: Int, raw: Double, peer: [String: Double], table: Table
    ) throws {
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: "\(data)/models/\(model)"))
        options.processing.preprocessing = .mediapipe
        let labeler = try ImageLabeler(options: options)
        let path = "\(data)/images/beach.jpg"
        let decoded = try VisionImage(contentsOfFile: path).decoded(preprocessing: .mediapipe)
        let ours = try Measure.medianMilliseconds(repeats) { _ = try labeler.results(in: decoded) }
        table.add(
            "\(model): (a) label decoded beach.jpg, .mediapipe", ours: ours, raw: raw,
            mediapipe: peer["decoded/beach.jpg"],
            target: .init("≤ 0.8× MediaPipe") { _, mp in mp.map { ours <= 0.8 * $0 } })

        let fromFile = try Measure.medianMilliseconds(repeats) {
            _ = try labeler.results(in: try VisionImage(contentsOfFile: path))
        }
        table.add(
            "\(model): (b) JPEG file to labels, beach.jpg, .mediapipe", ours: fromFile, raw: raw,
            mediapipe: peer["file/beach.jpg"],
            target: .init("≤ 0.5× MediaPipe") { _, mp in mp.map { fromFile <= 0.5 * $0 } })
    }
}
