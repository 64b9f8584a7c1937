import Foundation
import LiteVision
import LiteVisionVideo
import LiteVisionTracking

/// `litevision-bench video`: decode + detect + track on the shared videos, next to MediaPipe Tasks'
/// ObjectDetector on the same frames, as one Markdown table.
enum VideoBench {
    struct Config {
        let name: String
        let multiple: Bool
        let classify: Bool
        let detector: String?
    }

    static func run(data: String) throws {
        var rows: [[String]] = []
        let configs = [
            Config(name: "one object", multiple: false, classify: false, detector: nil),
            Config(name: "multiple objects", multiple: true, classify: false, detector: nil),
            Config(name: "multiple + coarse classification", multiple: true, classify: true, detector: nil),
            Config(
                name: "multiple, COCO SSD detector", multiple: true, classify: false,
                detector: "coco_ssd_mobilenet_v1.tflite"),
        ]
        for clip in ["cup.mp4", "vtest.avi"] {
            let path = "\(data)/video/\(clip)"
            for config in configs {
                FileHandle.standardError.write(Data("bench: \(clip), \(config.name)...\n".utf8))
                let (fps, p50, p99, objects) = try pipeline(path: path, data: data, config: config)
                let target: String
                switch (clip, config.name) {
                case ("cup.mp4", "one object"): target = fps >= 120 ? "≥ 120 fps: yes" : "≥ 120 fps: **no**"
                case ("vtest.avi", "multiple + coarse classification"):
                    target = fps >= 60 ? "≥ 60 fps: yes" : "≥ 60 fps: **no**"
                default: target = ""
                }
                rows.append([
                    "\(clip): decode + detect + track, \(config.name)", format(fps), format(p50), format(p99),
                    String(format: "%.1f", objects), "—", target,
                ])
            }
            // Detector time per frame next to MediaPipe on the same frames (MediaPipe does no tracking).
            let frames = try firstFrames(path: path, count: 60)
            for model in ["mobile_object_localizer_v1.tflite", "coco_ssd_mobilenet_v1.tflite"] {
                let ours = try detectorOnly(frames: frames, data: data, model: model)
                let peer = mediapipe(frames: frames, model: "\(data)/models/\(model)")
                let ratio = peer.map { ours.p50 / $0.p50 }
                let verdict =
                    ratio.map { $0 <= 0.7 ? "≤ 0.7× MediaPipe: yes" : "≤ 0.7× MediaPipe: **no**" }
                    ?? "MediaPipe missing"
                rows.append([
                    "\(clip): \(model) detect + track per frame (60 frames)", format(1000 / ours.mean),
                    format(ours.p50), format(ours.p99), "—",
                    peer.map {
                        "\(format($0.p50)) / \(format($0.p99)) (\(ratio.map { String(format: "%.2f×", $0) } ?? ""))"
                    } ?? "—",
                    verdict,
                ])
            }
        }
        let (kept, perFrame) = try samplesPattern(path: "\(data)/video/cup.mp4", data: data)
        rows.append([
            "cup.mp4: ML Kit samples' pattern, fresh options + objectDetector(options:) every frame (decoded frames)",
            format(1000 / perFrame), format(perFrame), "—", "—", "—",
            "≤ 1.5× a kept detector (\(format(kept)) ms): \(perFrame <= 1.5 * kept ? "yes" : "**no**")",
        ])
        let (five, hundred) = trackerCost()
        rows.append([
            "tracker alone, 5 objects (ms per frame)", "—", format(five), "—", "5", "—",
            five <= 0.2 ? "≤ 0.2 ms: yes" : "≤ 0.2 ms: **no**",
        ])
        rows.append([
            "tracker alone, 100 objects (ms per frame)", "—", format(hundred), "—", "100", "—",
            hundred <= 2 ? "≤ 2 ms: yes" : "≤ 2 ms: **no**",
        ])
        print(
            "Machine: \(ProcessInfo.processInfo.activeProcessorCount) cores; times in ms; MediaPipe Tasks ObjectDetector, VIDEO mode, p50 / p99.\n"
        )
        let header = [
            "measurement", "fps", "p50 ms", "p99 ms", "objects/frame", "MediaPipe p50 / p99 (ours ÷ theirs)", "target",
        ]
        print("| " + header.joined(separator: " | ") + " |")
        print("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
        for row in rows { print("| " + row.joined(separator: " | ") + " |") }
    }

    static func format(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }

    static func detector(data: String, config: Config) throws -> ObjectDetector {
        let options = ObjectDetectorOptions()
        options.shouldEnableMultipleObjects = config.multiple
        options.shouldEnableClassification = config.classify
        options.modelDirectory = "\(data)/models"
        if let model = config.detector { options.detectorModel = LocalModel(path: "\(data)/models/\(model)") }
        return try ObjectDetector(options: options)
    }

    /// The whole pipeline as `litevision track` runs it: each frame decoded, then detected and tracked.
    static func pipeline(
        path: String, data: String, config: Config
    ) throws -> (fps: Double, p50: Double, p99: Double, objects: Double) {
        let detector = try detector(data: data, config: config)
        let decoder = try VideoDecoder(path: path)
        var times: [Double] = []
        var objects = 0
        let start = Measure.now()
        while true {
            let begin = Measure.now()
            guard let frame = try decoder.nextFrame() else { break }
            objects += try detector.results(in: VisionImage(buffer: frame.image, orientation: decoder.info.orientation))
                .count
            times.append(Measure.now() - begin)
        }
        let total = Measure.now() - start
        times.sort()
        return (
            Double(times.count) / (total / 1000), times[times.count / 2],
            times[min(times.count - 1, times.count * 99 / 100)],
            Double(objects) / Double(max(1, times.count))
        )
    }

    static func firstFrames(path: String, count: Int) throws -> [ImageBuffer] {
        let decoder = try VideoDecoder(path: path)
        var frames: [ImageBuffer] = []
        while frames.count < count, let frame = try decoder.nextFrame() { frames.append(frame.image) }
        return frames
    }

    static func detectorOnly(
        frames: [ImageBuffer], data: String, model: String
    ) throws -> (p50: Double, p99: Double, mean: Double) {
        let detector = try detector(
            data: data,
            config: Config(
                name: "", multiple: true, classify: false,
                detector: model == "mobile_object_localizer_v1.tflite" ? nil : model))
        var times: [Double] = []
        for (index, frame) in frames.enumerated() {
            let start = Measure.now()
            _ = try detector.results(in: VisionImage(buffer: frame))
            if index >= 3 { times.append(Measure.now() - start) }
        }
        let mean = times.reduce(0, +) / Double(times.count)
        times.sort()
        return (times[times.count / 2], times[min(times.count - 1, times.count * 99 / 100)], mean)
    }

    /// Milliseconds per frame (mean over decoded frames) of a stream detector kept for the whole clip, and of ML
    /// Kit's samples' pattern: fresh options and `objectDetector(options:)` on every frame.
    static func samplesPattern(path: String, data: String) throws -> (kept: Double, perFrame: Double) {
        let frames = try firstFrames(path: path, count: 150)
        func options() -> ObjectDetectorOptions {
            let options = ObjectDetectorOptions()
            options.shouldEnableClassification = false
            options.shouldEnableMultipleObjects = false
            options.detectorMode = .stream
            options.modelDirectory = "\(data)/models"
            return options
        }
        let kept = try ObjectDetector(options: options())
        var start = Measure.now()
        for frame in frames { _ = try kept.results(in: VisionImage(buffer: frame)) }
        let keptTime = (Measure.now() - start) / Double(frames.count)
        start = Measure.now()
        for frame in frames {
            _ = try ObjectDetector.objectDetector(options: options()).results(in: VisionImage(buffer: frame))
        }
        return (keptTime, (Measure.now() - start) / Double(frames.count))
    }

    /// MediaPipe on the same frames, handed over as a raw RGB file.
    static func mediapipe(frames: [ImageBuffer], model: String) -> (p50: Double, p99: Double)? {
        guard let first = frames.first else { return nil }
        let file = NSTemporaryDirectory() + "litevision-bench-frames-\(getpid()).rgb"
        defer { unlink(file) }
        var bytes = Data()
        for frame in frames { bytes.append(contentsOf: frame.pixels.prefix(frame.width * frame.height * 3)) }
        guard FileManager.default.createFile(atPath: file, contents: bytes) else { return nil }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("benchmarks/mediapipe_detector_peer.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, file, "\(first.width)", "\(first.height)", "\(frames.count)", model]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let json = try? JSONSerialization.jsonObject(with: output) as? [String: Any],
            let p50 = (json["p50"] as? Foundation.NSNumber)?.doubleValue,
            let p99 = (json["p99"] as? Foundation.NSNumber)?.doubleValue
        else { return nil }
        return (p50, p99)
    }

    /// The tracker alone: `objects` boxes moving with noise for 300 frames; milliseconds per frame.
    static func trackerCost() -> (five: Double, hundred: Double) {
        func cost(_ count: Int) -> Double {
            var tracker = ObjectTracker()
            var generator = SystemRandomNumberGenerator()
            var starts: [(x: Double, y: Double)] = []
            for i in 0..<count {
                let x: Double = Double(i % 10) * 180 + 10
                let y: Double = Double(i / 10) * 100 + 10
                starts.append((x, y))
            }
            var total = 0.0
            for frame in 0..<300 {
                var detections: [TrackerDetection] = []
                for start in starts {
                    let x: Double = start.x + Double(frame) * 0.5 + Double.random(in: -1...1, using: &generator)
                    let y: Double = start.y + Double.random(in: -1...1, using: &generator)
                    let score = Float.random(in: 0.3...0.95, using: &generator)
                    detections.append(
                        TrackerDetection(box: BoundingBox(x: x, y: y, width: 60, height: 80), score: score))
                }
                let start = Measure.now()
                _ = tracker.update(detections, imageWidth: 2000, imageHeight: 1200)
                total += Measure.now() - start
            }
            return total / 300
        }
        return (cost(5), cost(100))
    }
}
