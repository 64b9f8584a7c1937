import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionDrawing
import LiteVisionVideo
import LiteVisionSystem

/// `litevision track`: object detection and tracking through a video (stream mode).
struct TrackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Detect and track objects through a video (ML Kit's stream mode, with tracking IDs).",
        discussion: """
            Every frame goes through the detector in stream mode; objects keep their tracking ID while they stay in \
            view. Without an output option, prints one line per frame. --live plays the video at its real pace and \
            drops the frames that arrive while the detector is busy, as a camera would (ML Kit's \
            alwaysDiscardsLateVideoFrames); otherwise every frame is processed. A damaged video is processed up to \
            the damage, the outputs are written, and the exit status is 1.
            """
    )

    @OptionGroup var detector: DetectorArguments

    @Argument(help: "The video file (anything FFmpeg decodes: MP4/H.264, AVI/MPEG-4, ...).")
    var video: String

    @Option(name: .long, help: "Write one JSON object per frame (ML Kit's field names) to this file.")
    var json: String?

    @Option(name: .long, help: "Write MOTChallenge rows (frame,id,x,y,w,h,score,-1,-1,-1) to this file.")
    var mot: String?

    @Option(name: .long, help: "Write the video with the tracked objects drawn on it (MP4).")
    var annotate: String?

    @Flag(name: .long, help: "Play at real-time pace and drop frames that arrive while the detector is busy.")
    var live = false

    func run() throws {
        let objectDetector = try detector.makeDetector(mode: .stream)
        let frames: FrameStream
        do {
            frames = live ? try .live(LiveFrameSource(path: video)) : try .offline(VideoDecoder(path: video))
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
        let info = frames.info
        var encoder: VideoEncoder?
        if let annotate {
            let upright = info.orientation.uprightSize(width: info.width, height: info.height)
            do {
                encoder = try VideoEncoder(
                    path: annotate, width: upright.0, height: upright.1,
                    frameRate: info.frameRate > 0 ? info.frameRate : 25)
            } catch {
                Console.error("litevision: \(error)")
                throw ExitCode(2)
            }
        }
        var jsonLines: [String] = [], motRows: [String] = []
        let progress = ProgressBar(total: info.frameCount ?? 0)
        var processed = 0
        var failure: String?
        while true {
            let frame: VideoFrame?
            do {
                frame = try frames.next()
            } catch {
                failure = "\(error)"
                break
            }
            guard let frame else { break }
            do {
                let image = VisionImage(buffer: frame.image, orientation: info.orientation)
                let objects = try objectDetector.results(in: image)
                processed += 1
                if json != nil {
                    jsonLines.append(DetectOutput.jsonLine(file: video, frame: frame.index, objects: objects))
                }
                if mot != nil { motRows += objects.map { Self.motRow(frame: frame.index + 1, object: $0) } }
                if json == nil && mot == nil && annotate == nil {
                    progress.clear()
                    Console.output(Self.summary(frame: frame.index, objects: objects))
                }
                if let encoder {
                    var upright = try image.uprightPixels()
                    Annotator.drawInPlace(objects.map(Annotation.init), on: &upright)
                    try encoder.append(upright)
                }
            } catch {
                failure = "frame \(frame.index): \(error)"
                break
            }
            progress.advance()
        }
        progress.finish()
        if case .live(let source) = frames, source.droppedFrames > 0 {
            Console.error("litevision: \(source.droppedFrames) frames dropped while the detector was busy (--live)")
        }
        // Whatever was processed is written, also when the video was damaged.
        do {
            try encoder?.finish()
            if let json { try Self.write(jsonLines.map { $0 + "\n" }.joined(), to: json) }
            if let mot { try Self.write(motRows.map { $0 + "\n" }.joined(), to: mot) }
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(1)
        }
        if let failure {
            Console.error("litevision: \(video): \(failure) (\(processed) frames before it were processed and written)")
            throw ExitCode(1)
        }
    }

    static func motRow(frame: Int, object: DetectedObject) -> String {
        let f = object.frame
        return "\(frame),\(object.trackingID ?? -1),\(fixed(Float(f.x), digits: 2)),\(fixed(Float(f.y), digits: 2)),"
            + "\(fixed(Float(f.width), digits: 2)),\(fixed(Float(f.height), digits: 2)),\(fixed(object.detectionConfidence, digits: 4)),-1,-1,-1"
    }

    static func summary(frame: Int, objects: [DetectedObject]) -> String {
        let items = objects.map { object in
            "#\(object.trackingID ?? -1) \(object.labels.first.map { "\($0.text) " } ?? "")"
                + "(\(Int(object.frame.x)),\(Int(object.frame.y)) \(Int(object.frame.width))x\(Int(object.frame.height)))"
        }
        return "frame \(frame): " + (items.isEmpty ? "-" : items.joined(separator: "  "))
    }

    /// Writes `text` to a temporary file next to `path`, then renames it: never a half-written file.
    static func write(_ text: String, to path: String) throws {
        do throws(SystemError) {
            try AtomicFile.write(Array(text.utf8), to: path)
        } catch {
            throw VisionError.fileNotWritable(path: path, reason: error.reason)
        }
    }
}

/// Frames from a file, either every frame (offline) or at real-time pace with late frames dropped (live).
enum FrameStream {
    case offline(VideoDecoder)
    case live(LiveFrameSource)

    var info: VideoInfo {
        switch self {
        case .offline(let decoder): decoder.info
        case .live(let source): source.info
        }
    }

    func next() throws -> VideoFrame? {
        switch self {
        case .offline(let decoder): return try decoder.nextFrame()
        case .live(let source):
            if let frame = source.next() { return frame }
            if let error = source.error { throw error }
            return nil
        }
    }
}
