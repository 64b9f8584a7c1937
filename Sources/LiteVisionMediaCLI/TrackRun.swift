import ArgumentParser
import Dispatch
import LiteVision
import LiteVisionCommandSupport
import LiteVisionLiveView
import LiteVisionMQTT
import LiteVisionSystem
import LiteVisionVideo

extension TrackArguments {
    /// Runs `litevision track`: detects and tracks the objects of every frame of the sources (files, cameras or
    /// network streams; several at once through a ``VideoPipeline``) and prints a line per frame, or writes the
    /// outputs asked for (`--json`, `--mot`, `--annotate`) as frames come, and serves the live view (`--serve`).
    /// A bad source or output path ends the command with status 2 before any work; a source that fails part-way (a
    /// damaged file, a stream lost for good), or an output that cannot be written, with 1 once the outputs are
    /// complete. `--duration`, `--frames`, SIGINT and SIGTERM end it with 0.
    func run() throws {
        // A detection file needs no video: the same work as in `litevision` (which runs it itself).
        if detections != nil { return try runDetections() }
        let signals = StopSignals()  // before any thread starts, so that every thread leaves the signals to it
        let named = try namedSources()
        try checkOutputPaths(sources: named.map(\.path))
        // Their temporary files are made now, so a folder that cannot be written fails before the source is opened.
        let jsonFile = try json.map(StreamedOutput.init), motFile = try mot.map(StreamedOutput.init)
        let token = try readToken()
        let publisher = try connectMQTT()
        // The models are loaded before the sources open, so that a camera does not drop frames meanwhile.
        let detectors = try makeDetectors(count: named.count)
        let videos = try openSources(named.map(\.path))
        let names = try displayNames(of: videos, named: named)
        let pipeline = try makePipeline(videos, detectors: detectors)
        // Stopping joins the sources' threads: not on the signal queue, so that a second signal still exits at once.
        signals.onStop { DispatchQueue.global().async { pipeline.stop() } }
        if let duration { DispatchQueue.global().asyncAfter(deadline: .now() + duration) { pipeline.stop() } }
        let live = try serveLiveView(videos, names: names, token: token)
        let pass = TrackingPass(
            arguments: self, pipeline: pipeline, names: names,
            encoder: try openEncoder(for: videos[0]), json: jsonFile, mot: motFile, hub: live?.hub, mqtt: publisher)
        pipeline.run { result in pass.add(result) }
        pipeline.stop()
        live?.server.stop()
        if let publisher { Self.close(publisher) }
        Self.reportDroppedFrames(videos, names: names)
        try pass.finish()
    }

    /// The sources by the bytes of their names (a file name that is not UTF-8 too); one that cannot be a path, or
    /// one given twice, is printed and ends the command with status 2.
    private func namedSources() throws -> [CommandLinePath] {
        let named = CommandLinePath.arguments(sources)
        for source in named {
            if let problem = source.problem {
                Console.error("litevision: \(VideoSource.redacted(source.name)): \(problem)")
                throw ExitCode(2)
            }
        }
        var seen = Set<String>()
        for source in named where !seen.insert(source.path).inserted {
            Console.error("litevision: \(VideoSource.redacted(source.name)) is given twice: track it once")
            throw ExitCode(2)
        }
        return named
    }

    /// The names messages and JSON give the opened `videos`: a file as the user typed it (its bytes escaped), a URL
    /// with its password masked. Two sources shown by the same name stop the sources and end the command with
    /// status 2.
    private func displayNames(of videos: [VideoSource], named: [CommandLinePath]) throws -> [String] {
        let names = zip(named, videos).map { source, video in
            video.kind == .file ? VideoSource.redacted(source.name) : video.location
        }
        if Set(names).count < names.count {
            for video in videos { video.stop() }
            Console.error(
                "litevision: two sources would be shown by the same name (URLs that differ only in a password?)")
            throw ExitCode(2)
        }
        return names
    }

    /// Closes `publisher`, which sends what libmosquitto still holds, and says how many records were not delivered.
    private static func close(_ publisher: MQTTPublisher) {
        publisher.close()
        if publisher.dropped > 0 {
            Console.error(
                "litevision: \(publisher.dropped) record\(publisher.dropped == 1 ? "" : "s") not delivered to \(publisher.location.masked) (the broker was away or too slow)"
            )
        }
    }

    /// Says how many frames each of `videos` dropped while the detector was busy, if any.
    private static func reportDroppedFrames(_ videos: [VideoSource], names: [String]) {
        for (video, name) in zip(videos, names) where video.statistics.dropped > 0 {
            let dropped = video.statistics.dropped
            let hint = video.kind == .file ? "" : " (--every-frame processes every frame)"
            let prefix = videos.count > 1 ? "\(name): " : ""
            Console.error(
                "litevision: \(prefix)\(dropped) frame\(dropped == 1 ? "" : "s") dropped while the detector was busy\(hint)"
            )
        }
    }

    /// Before the model loads and the sources are read: no output may replace a source, a model, or another output.
    private func checkOutputPaths(sources: [String]) throws {
        let files = sources.filter { (try? VideoSource.kind(of: $0)) == .file }
        try OutputPaths.check(inputs: files + detector.inputPaths, cache: detector.remote.cache) {
            outputs throws(OutputPathError) in
            if let json { try outputs.claimFile(json, for: "--json") }
            if let mot { try outputs.claimFile(mot, for: "--mot") }
            if let annotate { try outputs.claimFile(annotate, for: "--annotate") }
        }
    }

    /// The live view's token (`--serve-token-file`), read before anything starts; one that cannot be read is
    /// printed and ends the command with status 2.
    private func readToken() throws -> LiveViewToken? {
        guard let serveTokenFile else { return nil }
        do {
            return try LiveViewToken.read(file: serveTokenFile)
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
    }

    /// The MQTT publisher of `--mqtt`, connected (the password from the URL or `LITEVISION_MQTT_PASSWORD`), as
    /// client `litevision-HOST-PID`; nil without `--mqtt`. A broker that cannot be reached is printed and ends the
    /// command with status 2.
    private func connectMQTT() throws -> MQTTPublisher? {
        guard let mqtt else { return nil }
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count - 1)
        let hostName = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let clientID = String("litevision-\(hostName)-\(getpid())".prefix(MQTTPublisher.maximumClientIDLength))
        do {
            return try MQTTPublisher(
                mqtt, clientID: clientID, password: getenv("LITEVISION_MQTT_PASSWORD").map { String(cString: $0) })
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
    }

    /// The sources at `locations`, with the delivery, reconnection and device settings of the arguments; when one
    /// cannot be opened, it is printed, the others are stopped, and the command ends with status 2. Connection
    /// events are printed as they come.
    private func openSources(_ locations: [String]) throws -> [VideoSource] {
        var opened: [VideoSource] = []
        for location in locations {
            do {
                opened.append(try openSource(location))
            } catch {
                for source in opened { source.stop() }
                throw error
            }
        }
        return opened
    }

    /// The source at `location` (see ``openSources(_:)``).
    private func openSource(_ location: String) throws -> VideoSource {
        var options = VideoSource.Options()
        options.rtspTransport = rtspTransport == .udp ? .udp : .tcp
        if let reconnectTimeout { options.reconnectTimeout = reconnectTimeout }
        if let stallTimeout { options.stallTimeout = stallTimeout }
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

    /// A detector of the arguments for each of `count` sources, in stream mode (with several sources, one inference
    /// thread each unless `--threads` says otherwise: the pipeline's workers are the parallelism); models that cannot
    /// be loaded are printed and end the command with status 2. `--frame-rate` sets the tracker's frame rate, which
    /// the detector otherwise measures from the frames' timestamps (the lost-track buffer stays 45 frames).
    private func makeDetectors(count: Int) throws -> [ObjectDetector] {
        let options = try detector.makeOptions(mode: .stream)
        if detector.processing.threads == nil && count > 1 { options.processing.threadCount = 1 }
        if let frameRate { options.tracking.frameRate = frameRate }
        do {
            return try Console.silencingStandardError { () throws(VisionError) in
                var detectors: [ObjectDetector] = []
                for _ in 0..<count { detectors.append(try ObjectDetector(streamingWith: options)) }
                return detectors
            }
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
    }

    /// The pipeline of `sources` and their `detectors`.
    private func makePipeline(_ sources: [VideoSource], detectors: [ObjectDetector]) throws -> VideoPipeline {
        do {
            return try VideoPipeline(sources: sources, detectors: detectors)
        } catch {
            for source in sources { source.stop() }
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
    }

    /// The live view (`--serve`), started and announced on standard error (`litevision: live view at URL`); nil
    /// without `--serve`. An address that cannot be served on is printed and ends the command with status 2.
    private func serveLiveView(
        _ videos: [VideoSource], names: [String], token: LiveViewToken?
    ) throws -> (hub: LiveViewHub, server: LiveViewServer)? {
        guard let serve, let address = ServeAddress(serve) else { return nil }
        let sources = zip(videos, names).map { video, name in
            let info = video.info
            let upright = info.orientation.uprightSize(width: info.width, height: info.height)
            return LiveViewHub.Source(name: name, width: upright.0, height: upright.1)
        }
        let hub = LiveViewHub(sources: sources) { index in
            let statistics = videos[index].statistics
            return LiveViewHub.SourceCounters(
                received: statistics.received, decoded: statistics.decoded, dropped: statistics.dropped,
                reconnects: statistics.reconnects)
        }
        do {
            let server = try LiveViewServer(
                hub: hub, host: address.host, port: address.port, isLoopback: address.isLoopback, token: token,
                tls: tlsCertificate.map { ($0, tlsKey ?? "") })
            if !address.isLoopback && token == nil {
                Console.error(
                    "litevision: warning: the live view on \(serve) is open to anyone who can reach it: give --serve-token-file"
                )
            }
            Console.error("litevision: live view at \(server.url)")
            return (hub, server)
        } catch {
            for video in videos { video.stop() }
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
            source.stop()
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
    }
}
