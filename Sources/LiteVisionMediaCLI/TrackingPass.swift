import ArgumentParser
import LiteVision
import LiteVisionCommandSupport
import LiteVisionDrawing
import LiteVisionSystem
import LiteVisionVideo

/// One pass of `litevision track` through a video: the objects of each frame, gathered for the outputs, and how
/// the pass ended.
struct TrackingPass {
    let arguments: TrackArguments
    /// How messages and JSON name the video.
    let videoName: String
    /// The drawn video (`--annotate`), while it can be written.
    var encoder: VideoEncoder?
    private var jsonLines: [String] = []
    private var motRows: [String] = []
    private var processed = 0
    /// Why the pass stopped before the end of the video (damaged data, a frame that failed), if it did.
    private var failure: String?
    /// How many outputs could not be written.
    private var unwritten = 0

    init(arguments: TrackArguments, videoName: String, encoder: VideoEncoder?) {
        self.arguments = arguments
        self.videoName = videoName
        self.encoder = encoder
    }

    /// Runs every frame of `frames` through `objectDetector`, until the end of the video or the first failure.
    mutating func process(_ frames: FrameStream, with objectDetector: ObjectDetector) {
        let info = frames.info
        let progress = ProgressBar(total: info.frameCount ?? 0)
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
                guard try add(frame, info: info, objectDetector: objectDetector, progress: progress) else { break }
            } catch {
                failure = "frame \(frame.index): \(error)"
                break
            }
            progress.advance()
        }
        progress.finish()
    }

    /// Detects the objects of `frame` and adds them to the outputs (or prints them, without any); false when the
    /// pass is to stop: the drawn video, the only output, cannot be written.
    private mutating func add(
        _ frame: VideoFrame, info: VideoInfo, objectDetector: ObjectDetector, progress: ProgressBar
    ) throws -> Bool {
        let (json, mot) = (arguments.json, arguments.mot)
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
        if mot != nil { motRows += objects.map { TrackOutput.motRow(frame: frame.index + 1, object: $0) } }
        if json == nil && mot == nil && arguments.annotate == nil {
            progress.clear()
            Console.output(TrackOutput.summary(frame: frame.index, objects: objects))
        }
        guard let active = encoder else { return true }
        var upright = try image.uprightPixels()
        Annotator.drawInPlace(objects.map(Annotation.init), on: &upright)
        do {
            try active.append(upright)
        } catch {
            // The drawn video cannot be written (a full disk): said now, its temporary file deleted, and the other
            // outputs still get every frame.
            Console.error("litevision: \(error)")
            encoder = nil
            unwritten += 1
            if json == nil && mot == nil { return false }
        }
        return true
    }

    /// Writes whatever was processed, also when the video was damaged (an output that cannot be written is
    /// reported and does not keep the others from being written), then ends the command with status 1 when the
    /// pass failed or an output was lost.
    func writeOutputs(json jsonFile: AtomicFile?, mot motFile: AtomicFile?) throws {
        var unwritten = unwritten
        func save(_ body: () throws -> Void) {
            do {
                try body()
            } catch {
                Console.error("litevision: \(error)")
                unwritten += 1
            }
        }
        if let encoder { save { try encoder.finish() } }
        let jsonText = jsonLines.map { $0 + "\n" }.joined(), motText = motRows.map { $0 + "\n" }.joined()
        if let jsonFile { save { try TrackOutput.commit(jsonText, to: jsonFile) } }
        if let motFile { save { try TrackOutput.commit(motText, to: motFile) } }
        if let failure {
            Console.error(
                "litevision: \(videoName): \(failure) (\(processed) frames before it were processed and written)")
            throw ExitCode(1)
        }
        if unwritten > 0 { throw ExitCode(1) }
    }
}
