import ArgumentParser
import LiteVision
import LiteVisionSystem
import LiteVisionTracking

extension TrackArguments {
    /// The frame rate the tracker's defaults are counted in: ``TrackingOptions/lostTrackBuffer`` is 45 frames, 1.5
    /// seconds at this rate (``TrackingOptions/openLostTrackBuffer`` 15, half a second).
    static let defaultFrameRate = 30.0

    /// The most boxes `--interpolate` may add: about 250 MB of `--mot` rows (and 700 MB of tracks while they are
    /// made), far more than a tracking benchmark's sequence holds, so that a hostile file cannot fill memory.
    static let maximumInterpolatedBoxes = 5_000_000

    /// Runs `litevision track --detections FILE`: tracks the boxes of a MOTChallenge detection file with the
    /// tracker of stream mode (``ObjectTracker``), without a model or a video, in `litevision` itself (no FFmpeg).
    /// Writes `--mot` and `--json` (or prints a line per frame), and with `--timing` the time of the tracker's
    /// update loop alone; `--interpolate` fills each object's gaps afterwards (see
    /// ``ObjectTracker/interpolatingGaps(in:upTo:)``). A file that cannot be read or has a malformed row, and an output
    /// that cannot be made, end the command with status 2 before any tracking, as do more boxes to interpolate than
    /// ``maximumInterpolatedBoxes`` after it; an output that cannot be completed, with 1. Scores above 1 are
    /// warned of (the tracker's thresholds are for scores from 0 to 1), as are boxes outside the frame and boxes
    /// normalized to it.
    package func runDetections() throws {
        guard let detections else { return }
        let claimOutputs = { (outputs: inout OutputPaths) throws(OutputPathError) in
            if let json = self.json { try outputs.claimFile(json, for: "--json") }
            if let mot = self.mot { try outputs.claimFile(mot, for: "--mot") }
        }
        try OutputPaths.check(inputs: [detections], claimOutputs)
        // A folder that cannot be written fails first: a temporary file is made there and deleted at once. The
        // outputs are made only once tracking is done, so that a run stopped while it reads or tracks leaves no
        // temporary file (one stopped while it writes them, in the last moments, may).
        for output in [json, mot].compactMap({ $0 }) { try Self.checkWritable(output) }
        let file: MOTDetectionFile
        do {
            file = try MOTDetectionFile(path: detections, appearance: reidentification.reidentify)
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
        // The thresholds are in a detector's 0-1 scale: scores of another scale would all count as confident.
        if let highest = file.frames.lazy.flatMap({ $0 }).map(\.score).max(), highest > 1 {
            Console.error(
                """
                litevision: warning: \(detections): scores go up to \(highest), while the tracker's thresholds are for \
                scores from 0 to 1 (0.7 confident, 0.3 tentative, or --threshold): scale them to 0-1
                """)
        }
        // Without --threshold boxes of any score keep objects alive, those scored 0 or less too: most often rows that
        // a file marks to ignore (MOTChallenge ground truth) or that have no score.
        let unscored = detector.threshold == nil ? file.frames.lazy.flatMap({ $0 }).filter { $0.score <= 0 }.count : 0
        if unscored > 0 {
            Console.error(
                """
                litevision: warning: \(detections): \(unscored) rows score 0 or less, and keep objects alive as \
                boxes of any score do: drop them if they mark rows to ignore or without a score, or give --threshold
                """)
        }
        let (width, height) = frameSize(of: file)
        warnOfBoxesOutside(file, width: width, height: height)
        var tracker = ObjectTracker(options: trackingOptions())
        var tracks: [[Track]] = []
        tracks.reserveCapacity(file.frames.count)
        let elapsed = ContinuousClock().measure {
            for frame in file.frames { tracks.append(tracker.update(frame, imageWidth: width, imageHeight: height)) }
        }
        if timing {
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            let rate = ms > 0 ? fixed(Float(Double(tracks.count) / ms * 1000), digits: 0) : "-"
            Console.error(
                "litevision: tracker: \(tracks.count) frames in \(fixed(Float(ms), digits: 3)) ms (\(rate) frames per second, \(file.rowCount) detections, \(width)x\(height))"
            )
        }
        if let interpolate {
            let added = ObjectTracker.interpolatedGapCount(in: tracks, upTo: interpolate)
            guard added <= Self.maximumInterpolatedBoxes else {
                Console.error(
                    """
                    litevision: --interpolate \(interpolate) would add \(added) boxes, more than \
                    \(Self.maximumInterpolatedBoxes): give a shorter gap
                    """)
                throw ExitCode(2)
            }
            tracks = ObjectTracker.interpolatingGaps(in: tracks, upTo: interpolate)
        }
        // The outputs' bytes, written whole at the end (no copy of them is made to write them).
        var motBytes: [UInt8] = [], jsonBytes: [UInt8] = []
        for (index, frameTracks) in tracks.enumerated() {
            let objects = frameTracks.map {
                DetectedObject(frame: $0.box, trackingID: $0.id, labels: [], detectionConfidence: $0.score)
            }
            if mot != nil {
                for object in objects {
                    motBytes += TrackOutput.motRow(frame: index + 1, object: object).utf8
                    motBytes.append(UInt8(ascii: "\n"))
                }
            }
            if json != nil {
                let timestamp = frameRate.map { Double(index) / $0 }
                jsonBytes +=
                    DetectOutput.trackLine(
                        source: detections, frame: index, timestamp: timestamp, latencyMs: nil, objects: objects,
                        classification: false
                    ).rendered.utf8
                jsonBytes.append(UInt8(ascii: "\n"))
            }
            if json == nil && mot == nil { Console.output(TrackOutput.summary(frame: index, objects: objects)) }
        }
        // Every temporary file is made first, then the outputs are checked again: a folder on an output's path may
        // have been replaced (a link re-pointed) while tracking. One re-pointed after this fails that output's
        // rename: its temporary file is not in the folder the link then names.
        var files: [(file: AtomicFile, bytes: [UInt8])] = []
        var failed = false
        for (output, bytes) in [(mot, motBytes), (json, jsonBytes)] {
            guard let output else { continue }
            do throws(SystemError) {
                files.append((try AtomicFile(path: output), bytes))
            } catch {
                Console.error("litevision: \(VisionError.fileNotWritable(path: output, reason: error.reason))")
                failed = true
            }
        }
        try OutputPaths.check(inputs: [detections], status: 1, claimOutputs)  // a refusal discards the files
        for (file, bytes) in files {
            do throws(SystemError) {
                try file.write(bytes)
                try file.commit()
            } catch {
                file.discard()
                Console.error("litevision: \(VisionError.fileNotWritable(path: file.path, reason: error.reason))")
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// The tracker's options: the defaults, with `--threshold` as the detector's threshold (confident from it, new
    /// objects from it and not under it), `--frame-rate` (``TrackingOptions/frameRate``, and the lost-track buffers
    /// scaled to it), `--filtered-boxes`,
    /// `--camera-motion` and `--reidentify`.
    func trackingOptions() -> TrackingOptions {
        var options = TrackingOptions()
        options.reportsFilteredBoxes = filteredBoxes
        options.cameraMotion = cameraMotion?.mode ?? .fixed
        if let threshold = detector.threshold { options = options.resolved(detectionThreshold: threshold) }
        if let frameRate {
            options.frameRate = frameRate
            func scaled(_ frames: Int) -> Int {
                max(1, Int((Double(frames) * frameRate / Self.defaultFrameRate).rounded()))
            }
            options.lostTrackBuffer = scaled(options.lostTrackBuffer)
            options.openLostTrackBuffer = scaled(options.openLostTrackBuffer)
        }
        options.reidentification = reidentification.options(frameRate: frameRate ?? Self.defaultFrameRate)
        return options
    }

    /// `--image-size`, or else the extent of the file's boxes from the origin (at least 1x1), rounded up.
    func frameSize(of file: MOTDetectionFile) -> (Int, Int) {
        if let imageSize, let size = DeviceSize(imageSize) { return (size.width, size.height) }
        return (max(1, Int(file.extent.maxX.rounded(.up))), max(1, Int(file.extent.maxY.rounded(.up))))
    }

    /// Warns when boxes lie outside the `width`×`height` frame (`--image-size`; without it, the frame reaches every
    /// box's right and bottom edges, and only boxes left of or above the origin lie outside), less than a pixel of
    /// them inside (see `BoundingBox.inView(width:height:)`): a size too small, or boxes of another resolution. The
    /// tracker ignores them (see ``ObjectTracker/update(_:imageWidth:imageHeight:)``). Also warns when every box lies
    /// within 0–1 in a larger frame: coordinates normalized to the frame's size, not pixels.
    private func warnOfBoxesOutside(_ file: MOTDetectionFile, width: Int, height: Int) {
        let frameWidth = Double(width), frameHeight = Double(height)
        var count = 0, first: Int?, normalized = width > 2 && height > 2
        for (index, frame) in file.frames.enumerated() {
            for detection in frame {
                let box = detection.box
                if box.maxX > 1 || box.maxY > 1 { normalized = false }
                guard box.inView(width: frameWidth, height: frameHeight) == nil else { continue }
                count += 1
                if first == nil { first = index + 1 }
            }
        }
        if let first {
            Console.error(
                """
                litevision: warning: \(detections ?? ""): \(count) of \(file.rowCount) boxes lie outside the \
                \(width)x\(height) frame (the first in frame \(first)) and are not tracked: check --image-size \
                and the boxes' coordinates (pixels of the frame)
                """)
        }
        if normalized, file.rowCount > 0 {
            Console.error(
                """
                litevision: warning: \(detections ?? ""): every box lies within 0-1 in the \(width)x\(height) frame: \
                give the boxes in pixels of the frame (x and width times its width, y and height times its height)
                """)
        }
    }

    /// Makes the temporary file of the output `path` and deletes it at once: a folder that cannot be written is
    /// printed and ends the command with status 2.
    private static func checkWritable(_ path: String) throws {
        do throws(SystemError) {
            try AtomicFile(path: path).discard()
        } catch {
            Console.error("litevision: \(VisionError.fileNotWritable(path: path, reason: error.reason))")
            throw ExitCode(2)
        }
    }
}
