import ArgumentParser
import Dispatch
import LiteVision
import LiteVisionCommandSupport
import LiteVisionSystem
import LiteVisionVideo

extension TrackArguments {
    /// Runs `litevision track`: detects and tracks the objects of every frame of the source (a file, a camera or a
    /// network stream) and prints a line per frame, or writes the outputs asked for (`--json`, `--mot`,
    /// `--annotate`) as frames come. A bad source or output path ends the command with status 2 before any work;
    /// a source that fails part-way (a damaged file, a stream lost for good), or an output that cannot be written,
    /// with 1 once the outputs are complete. `--duration`, `--frames`, SIGINT and SIGTERM end it with 0.
    func run() throws {
        let signals = StopSignals()  // before any thread starts, so that every thread leaves the signals to it
        // The source by the bytes of its name (a file name that is not UTF-8 too).
        let named = CommandLinePath.arguments([source])[0]
        if let problem = named.problem {
            Console.error("litevision: \(VideoSource.redacted(named.name)): \(problem)")
            throw ExitCode(2)
        }
        try checkOutputPaths(source: named.path)
        // Their temporary files are made now, so a folder that cannot be written fails before the source is opened.
        let jsonFile = try json.map(StreamedOutput.init), motFile = try mot.map(StreamedOutput.init)
        let objectDetector = try detector.makeDetector(mode: .stream)
        let video = try openSource(named.path)
        let stopReason = StopReason()
        signals.onStop {
            stopReason.set("signal")
            video.stop()
        }
        if let duration {
            DispatchQueue.global().asyncAfter(deadline: .now() + duration) {
                stopReason.set("duration")
                video.stop()
            }
        }
        // Messages and JSON name a file as the user typed it (its bytes escaped), a URL with its password masked.
        var pass = TrackingPass(
            arguments: self, source: video,
            sourceName: video.kind == .file ? VideoSource.redacted(named.name) : video.location,
            encoder: try openEncoder(for: video), json: jsonFile, mot: motFile)
        pass.process(with: objectDetector, stopReason: stopReason)
        video.stop()
        let dropped = video.statistics.dropped
        if dropped > 0 {
            let hint = video.kind == .file ? "" : " (--every-frame processes every frame)"
            Console.error(
                "litevision: \(dropped) frame\(dropped == 1 ? "" : "s") dropped while the detector was busy\(hint)")
        }
        try pass.finish(stopped: stopReason.isSet)
    }

    /// Before the model loads and the source is read: no output may replace the source, a model, or another output.
    private func checkOutputPaths(source: String) throws {
        let isFile = (try? VideoSource.kind(of: source)) == .file
        let inputs = isFile ? [source] + detector.inputPaths : detector.inputPaths
        try OutputPaths.check(inputs: inputs, cache: detector.remote.cache) { outputs throws(OutputPathError) in
            if let json { try outputs.claimFile(json, for: "--json") }
            if let mot { try outputs.claimFile(mot, for: "--mot") }
            if let annotate { try outputs.claimFile(annotate, for: "--annotate") }
        }
    }

    /// The source at `location`, with the delivery, reconnection and device settings of the arguments; one that
    /// cannot be opened is printed and ends the command with status 2. Connection events are printed as they come.
    private func openSource(_ location: String) throws -> VideoSource {
        var options = VideoSource.Options()
        options.rtspTransport = rtspTransport == .udp ? .udp : .tcp
        options.reconnectTimeout = reconnectTimeout
        options.stallTimeout = stallTimeout
        if let deviceSize, let size = DeviceSize(deviceSize) {
            options.device.width = size.width
            options.device.height = size.height
        }
        options.device.frameRate = deviceFrameRate
        options.device.pixelFormat = devicePixelFormat
        options.eventHandler = { event in Console.error("litevision: \(event)") }
        do {
            // The kind decides the delivery: a file is read frame by frame unless --live, a camera or a stream
            // delivers the newest frame unless --every-frame.
            let kind = try VideoSource.kind(of: location)
            options.delivery = kind == .file ? (live ? .latest : .every) : (everyFrame ? .every : .latest)
            return try VideoSource(location, options: options)
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
    }

    /// The encoder of the drawn video (`--annotate`), upright, at the source's frame rate (25 when unknown), as
    /// fragmented MP4 that grows as frames come; nil without `--annotate`. One that cannot be made is printed and
    /// ends the command with status 2.
    private func openEncoder(for source: VideoSource) throws -> VideoEncoder? {
        guard let annotate else { return nil }
        let info = source.info
        let upright = info.orientation.uprightSize(width: info.width, height: info.height)
        do {
            return try VideoEncoder(
                path: annotate, width: upright.0, height: upright.1,
                frameRate: info.frameRate > 0 && info.frameRate <= 1000 ? info.frameRate : 25, fragmented: true)
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
    }
}
