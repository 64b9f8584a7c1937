import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionCommandSupport
import LiteVisionDrawing
import LiteVisionVideo
import LiteVisionSystem

/// `litevision track`: object detection and tracking through a video (stream mode), as `litevision-media` runs it.
struct TrackCommand: ParsableCommand {
    static let configuration = TrackArguments.configuration

    @OptionGroup var arguments: TrackArguments

    func run() throws {
        let (json, mot, annotate, live) = (arguments.json, arguments.mot, arguments.annotate, arguments.live)
        // The video by the bytes of its name (one that is not UTF-8 too); messages and JSON name it by `videoName`.
        let named = CommandLinePath.arguments([arguments.video])[0]
        let (video, videoName) = (named.path, named.name)
        if let problem = named.problem {
            Console.error("litevision: \(videoName): \(problem)")
            throw ExitCode(2)
        }
        // Before the model loads and the video is read: no output may replace the video, a model, or another output.
        try OutputPaths.check(
            inputs: [video] + arguments.detector.inputPaths, cache: arguments.detector.remote.cache
        ) { outputs throws(OutputPathError) in
            if let json { try outputs.claimFile(json, for: "--json") }
            if let mot { try outputs.claimFile(mot, for: "--mot") }
            if let annotate { try outputs.claimFile(annotate, for: "--annotate") }
        }
        // Their temporary files are made now, so a folder that cannot be written fails before the video is processed.
        let jsonFile = try json.map(Self.openOutput), motFile = try mot.map(Self.openOutput)
        let objectDetector = try arguments.detector.makeDetector(mode: .stream)
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
        var unwritten = 0
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
                    jsonLines.append(
                        DetectOutput.jsonLine(
                            file: videoName, frame: frame.index, objects: objects,
                            classification: arguments.detector.classification
                        ).rendered)
                }
                if mot != nil { motRows += objects.map { Self.motRow(frame: frame.index + 1, object: $0) } }
                if json == nil && mot == nil && annotate == nil {
                    progress.clear()
                    Console.output(Self.summary(frame: frame.index, objects: objects))
                }
                if let active = encoder {
                    var upright = try image.uprightPixels()
                    Annotator.drawInPlace(objects.map(Annotation.init), on: &upright)
                    do {
                        try active.append(upright)
                    } catch {
                        // The drawn video cannot be written (a full disk): said now, its temporary file deleted, and
                        // the other outputs still get every frame.
                        Console.error("litevision: \(error)")
                        encoder = nil
                        unwritten += 1
                        if json == nil && mot == nil { break }
                    }
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
        // Whatever was processed is written, also when the video was damaged; an output that cannot be written is
        // reported and does not keep the others from being written.
        func save(_ body: () throws -> Void) {
            do {
                try body()
            } catch {
                Console.error("litevision: \(error)")
                unwritten += 1
            }
        }
        if let encoder { save { try encoder.finish() } }
        if let jsonFile { save { try Self.commit(jsonLines.map { $0 + "\n" }.joined(), to: jsonFile) } }
        if let motFile { save { try Self.commit(motRows.map { $0 + "\n" }.joined(), to: motFile) } }
        if let failure {
            Console.error(
                "litevision: \(videoName): \(failure) (\(processed) frames before it were processed and written)")
            throw ExitCode(1)
        }
        if unwritten > 0 { throw ExitCode(1) }
    }

    static func motRow(frame: Int, object: DetectedObject) -> String {
        let f = object.frame
        return "\(frame),\(object.trackingID ?? -1),\(fixed(Float(f.x), digits: 2)),\(fixed(Float(f.y), digits: 2)),"
            + "\(fixed(Float(f.width), digits: 2)),\(fixed(Float(f.height), digits: 2)),\(fixed(object.detectionConfidence, digits: 4)),-1,-1,-1"
    }

    static func summary(frame: Int, objects: [DetectedObject]) -> ConsoleText {
        let items = objects.map { object in
            "#\(object.trackingID ?? -1) \((object.labels.first ?? object.detectorLabel).map { "\($0.text) " } ?? "")"
                + "(\(Int(object.frame.x)),\(Int(object.frame.y)) \(Int(object.frame.width))x\(Int(object.frame.height)))"
        }
        // The labels' texts are escaped as one interpolated value.
        return "frame \(frame): \(items.isEmpty ? "-" : items.joined(separator: "  "))"
    }

    /// The temporary file of the output `path` (renamed to `path` by ``commit(_:to:)``); a folder that is missing or
    /// cannot be written is printed and ends the command with status 2.
    static func openOutput(_ path: String) throws -> AtomicFile {
        do throws(SystemError) {
            return try AtomicFile(path: path)
        } catch {
            Console.error("litevision: \(VisionError.fileNotWritable(path: path, reason: error.reason))")
            throw ExitCode(2)
        }
    }

    /// Writes `text` to the temporary `file` and renames it over its path: never a half-written file.
    static func commit(_ text: String, to file: AtomicFile) throws {
        do throws(SystemError) {
            try file.write(Array(text.utf8))
            try file.commit()
        } catch {
            throw VisionError.fileNotWritable(path: file.path, reason: error.reason)
        }
    }
}
