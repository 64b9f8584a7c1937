import ArgumentParser
import LiteVision
import LiteVisionCommandSupport
import LiteVisionDrawing
import LiteVisionImaging
import LiteVisionLiveView
import LiteVisionMQTT
import LiteVisionSystem
import LiteVisionVideo

/// One pass of `litevision track` through its sources: the objects of each frame, written to the outputs as they
/// come and shown in the live view, and how each source's pass ended. ``add(_:)`` is called by the pipeline's
/// workers, at once for different sources.
final class TrackingPass: @unchecked Sendable {
    // @unchecked: every mutable stored property (`encoder`, `processed`, `failures`, `unwritten`, the outputs and
    // the progress bar) is used only while `lock` is held.
    private let lock = PosixLock()
    private let arguments: TrackArguments
    private let pipeline: VideoPipeline
    /// How messages and JSON name each source.
    private let names: [String]
    /// The drawn video (`--annotate`, one source), while it can be written.
    private var encoder: VideoEncoder?
    private let json: StreamedOutput?
    private let mot: StreamedOutput?
    private let hub: LiveViewHub?
    private let mqtt: MQTTPublisher?
    private let progress: ProgressBar
    /// Frames processed, per source.
    private var processed: [Int]
    /// Why a source's pass stopped before its end, per source (a frame that could not be drawn).
    private var failures: [String?]
    /// How many outputs could not be written.
    private var unwritten = 0
    /// Whether a frame's objects held a number JSON cannot (its record then has an `error`): warned of once.
    private var warnedNotFinite = false

    init(
        arguments: TrackArguments, pipeline: VideoPipeline, names: [String], encoder: VideoEncoder?,
        json: StreamedOutput?, mot: StreamedOutput?, hub: LiveViewHub?, mqtt: MQTTPublisher?
    ) {
        self.arguments = arguments
        self.pipeline = pipeline
        self.names = names
        self.encoder = encoder
        self.json = json
        self.mot = mot
        self.hub = hub
        self.mqtt = mqtt
        let sources = pipeline.sources
        progress = ProgressBar(
            total: sources.count == 1 && sources[0].kind == .file ? sources[0].info.frameCount ?? 0 : 0)
        processed = Array(repeating: 0, count: sources.count)
        failures = Array(repeating: nil, count: sources.count)
    }

    /// Writes the objects of a processed frame to the outputs (or prints them, without any), shows them in the
    /// live view and publishes them to the MQTT broker. Stops the source once it reached `--frames`, and the whole pipeline when the drawn video, the
    /// only output, cannot be written.
    func add(_ result: VideoPipeline.Result) {
        let index = result.sourceIndex, frame = result.frame, objects = result.objects
        let latencyMs =
            Double(result.latency.components.attoseconds) / 1e15
            + Double(result.latency.components.seconds) * 1000
        let record =
            json != nil || hub != nil || mqtt != nil
            ? DetectOutput.trackLine(
                source: names[index], frame: frame.index, timestamp: frame.timestamp, latencyMs: latencyMs,
                objects: objects, classification: arguments.detector.classification
            ).rendered : ""
        // The drawing and its JPEG, only for an encoder or a viewer: outside the lock, sources in parallel.
        let watched = hub?.isWatched(source: index) ?? false
        var drawn: ImageBuffer?
        if arguments.annotate != nil || watched {
            do {
                var upright = try frame.image.uprightPixels()
                Annotator.drawInPlace(objects.map(Annotation.init), on: &upright)
                drawn = upright
                if watched, let jpeg = try? JPEGEncoder.encode(upright, quality: 80) {
                    hub?.publish(picture: jpeg, source: index)
                }
            } catch  where arguments.annotate != nil {
                fail(index, "\(names[index]): frame \(frame.index): \(error)")
                return
            } catch {
                // Only a viewer wanted the picture: it misses this one, the records go on.
            }
        }
        let notFinite =
            !record.isEmpty && !DetectOutput.isFinite(objects, classification: arguments.detector.classification)
        let (reachedLimit, stopAll) = lock.withLock { () -> (Bool, Bool) in
            processed[index] += 1
            if notFinite && !warnedNotFinite {
                warnedNotFinite = true
                progress.clear()
                Console.error(
                    """
                    litevision: warning: \(names[index]): frame \(frame.index): \(NotFiniteResult.objects); its \
                    record has an error instead of objects (said once)
                    """)
            }
            json?.append(record + "\n")
            mot?.append(objects.map { TrackOutput.motRow(frame: frame.index + 1, object: $0) + "\n" }.joined())
            if json == nil && mot == nil && arguments.annotate == nil && hub == nil && mqtt == nil {
                progress.clear()
                let line = TrackOutput.summary(frame: frame.index, objects: objects)
                Console.output(names.count > 1 ? "\(names[index]): \(line)" : line)
            }
            progress.advance()
            let reached = arguments.frames.map { processed[index] >= $0 } ?? false
            guard let active = encoder, let drawn else { return (reached, false) }
            do {
                // Frames dropped from a camera leave their time in the video, which plays at the source's pace.
                try active.append(drawn, at: pipeline.sources[index].delivery == .latest ? frame.timestamp : nil)
            } catch {
                // The drawn video cannot be written (a full disk): said now; the other outputs still get every frame.
                Console.error("litevision: \(error)")
                encoder = nil
                unwritten += 1
                return (reached, json == nil && mot == nil)
            }
            return (reached, false)
        }
        hub?.publish(record: record, source: index, latency: latencyMs / 1000)
        mqtt?.publish(subtopic: "\(index)", payload: Array(record.utf8))
        if stopAll { pipeline.stop() } else if reachedLimit { pipeline.sources[index].stop() }
    }

    /// Records why source `index` stopped, and stops it.
    private func fail(_ index: Int, _ reason: String) {
        lock.withLock { failures[index] = failures[index] ?? reason }
        pipeline.sources[index].stop()
    }

    /// Completes the outputs (an output that cannot be completed is reported and does not keep the others from
    /// being completed), then ends the command with status 1 when a source failed (before the run was stopped or
    /// after) or an output was lost. A pass that was stopped (`--duration`, a signal) otherwise ends normally.
    func finish() throws {
        try lock.withLock {
            progress.finish()
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
            var failed = false
            for index in names.indices {
                let detectionError = pipeline.error(ofSource: index).map { error in
                    // A source's own error names it; a detector's does not.
                    error is VideoError ? "\(error)" : "\(names[index]): \(error)"
                }
                // A source that failed before the run was stopped is reported all the same.
                guard let failure = failures[index] ?? detectionError else { continue }
                let count = processed[index]
                Console.error(
                    "litevision: \(failure) The \(count) frame\(count == 1 ? "" : "s") before it \(count == 1 ? "was" : "were") processed and written."
                )
                failed = true
            }
            if failed || unwritten > 0 { throw ExitCode(1) }
        }
    }
}
