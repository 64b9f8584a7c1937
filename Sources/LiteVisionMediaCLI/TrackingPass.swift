import ArgumentParser
import LiteVision
import LiteVisionCommandSupport
import LiteVisionDrawing
import LiteVisionSystem
import LiteVisionVideo

/// One pass of `litevision track` through a source: the objects of each frame, written to the outputs as they
/// come, and how the pass ended.
struct TrackingPass {
    let arguments: TrackArguments
    let source: VideoSource
    /// How messages and JSON name the source.
    let sourceName: String
    /// The drawn video (`--annotate`), while it can be written.
    var encoder: VideoEncoder?
    let json: StreamedOutput?
    let mot: StreamedOutput?
    private var processed = 0
    /// Why the pass stopped before the end of the source (damaged data, a lost stream, a frame that failed).
    private var failure: String?
    /// How many outputs could not be written.
    private var unwritten = 0

    init(
        arguments: TrackArguments, source: VideoSource, sourceName: String, encoder: VideoEncoder?,
        json: StreamedOutput?, mot: StreamedOutput?
    ) {
        self.arguments = arguments
        self.source = source
        self.sourceName = sourceName
        self.encoder = encoder
        self.json = json
        self.mot = mot
    }

    /// Runs the frames of the source through `objectDetector` until the source ends, fails, is stopped
    /// (`stopReason`), or `--frames` frames were processed.
    mutating func process(with objectDetector: ObjectDetector, stopReason: StopReason) {
        let progress = ProgressBar(total: source.kind == .file ? source.info.frameCount ?? 0 : 0)
        while !stopReason.isSet {
            let frame: VideoFrame?
            do {
                frame = try source.next()
            } catch {
                failure = "\(error)"
                break
            }
            guard let frame else { break }
            do {
                guard try add(frame, objectDetector: objectDetector, progress: progress) else { break }
            } catch {
                failure = "\(sourceName): frame \(frame.index): \(error)"
                break
            }
            progress.advance()
            if let limit = arguments.frames, processed >= limit { break }
        }
        progress.finish()
    }

    /// Detects the objects of `frame` and writes them to the outputs (or prints them, without any); false when the
    /// pass is to stop: the drawn video, the only output, cannot be written.
    private mutating func add(_ frame: VideoFrame, objectDetector: ObjectDetector, progress: ProgressBar) throws -> Bool
    {
        let objects = try objectDetector.results(in: frame.image)
        let latency = ContinuousClock.now - frame.receivedAt
        processed += 1
        json?.append(
            DetectOutput.trackLine(
                source: sourceName, frame: frame.index, timestamp: frame.timestamp,
                latencyMs: Double(latency.components.attoseconds) / 1e15 + Double(latency.components.seconds) * 1000,
                objects: objects, classification: arguments.detector.classification
            ).rendered + "\n")
        mot?.append(objects.map { TrackOutput.motRow(frame: frame.index + 1, object: $0) + "\n" }.joined())
        if json == nil && mot == nil && arguments.annotate == nil {
            progress.clear()
            Console.output(TrackOutput.summary(frame: frame.index, objects: objects))
        }
        guard let active = encoder else { return true }
        var upright = try frame.image.uprightPixels()
        Annotator.drawInPlace(objects.map(Annotation.init), on: &upright)
        do {
            // Frames dropped from a camera leave their time in the video, which plays at the source's pace.
            try active.append(upright, at: source.delivery == .latest ? frame.timestamp : nil)
        } catch {
            // The drawn video cannot be written (a full disk): said now, and the other outputs still get every frame.
            Console.error("litevision: \(error)")
            encoder = nil
            unwritten += 1
            if json == nil && mot == nil { return false }
        }
        return true
    }

    /// Completes the outputs (an output that cannot be completed is reported and does not keep the others from
    /// being completed), then ends the command with status 1 when the pass failed or an output was lost. A pass that
    /// was stopped (`--duration`, a signal) ends normally.
    func finish(stopped: Bool) throws {
        var unwritten = unwritten
        if let encoder {
            do {
                try encoder.finish()
            } catch {
                Console.error("litevision: \(error)")
                unwritten += 1
            }
        }
        for output in [json, mot].compactMap({ $0 }) where !output.finish() { unwritten += 1 }
        if let failure, !stopped {
            Console.error(
                "litevision: \(failure) The \(processed) frame\(processed == 1 ? "" : "s") before it \(processed == 1 ? "was" : "were") processed and written."
            )
            throw ExitCode(1)
        }
        if unwritten > 0 { throw ExitCode(1) }
    }
}
