import ArgumentParser
import LiteVisionTracking

/// The arguments of `litevision track`. `litevision` parses them (so that its help and errors are complete) and
/// hands the command to `litevision-media`, which decodes the video with FFmpeg.
package struct TrackArguments: ParsableArguments {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Detect and track objects through a video (ML Kit's stream mode, with tracking IDs).",
        discussion: """
            SOURCE is a video file, a V4L2 camera (/dev/video0) or a network stream: rtsp://, rtsps://, http(s):// \
            (MJPEG, HLS, MPEG-TS), udp://, rtp://, tcp://. Every frame goes through the detector in stream mode; \
            objects keep their tracking ID while they stay in view. Without an output (--json, --mot, --annotate, \
            --serve, --mqtt), prints one line per frame; outputs are written as frames come (a stopped or killed run leaves every frame written so far).

            Several sources are tracked at once, each with its own tracker, sharing the cores fairly (one worker \
            per core takes the sources' newest frames in turn); --json records name their source. --mot and \
            --annotate take one source.

            --mqtt mqtt://[user@]host[:port]/PREFIX publishes each frame's --json record to PREFIX/N (N the \
            source's number from 0; QoS 0; records are dropped and counted while the broker is away).

            --serve HOST:PORT shows the tracked video live in a browser (http://HOST:PORT/), with \
            /stream.mjpg and /sources/N/stream.mjpg (annotated MJPEG, N from 0), /events (the --json records as \
            Server-Sent Events), /metrics (Prometheus) and /health. Serve on 127.0.0.1 (loopback) unless others \
            must see it; then give --serve-token-file (clients send the token as 'Authorization: Bearer TOKEN' or \
            ?token=TOKEN) and --tls-cert/--tls-key.

            Cameras and network streams deliver the newest frame whenever the detector is ready, dropping the ones \
            that arrived meanwhile (ML Kit's alwaysDiscardsLateVideoFrames); --every-frame processes them all, \
            falling behind if the detector is slower. Files are read frame by frame; --live plays a file at its real \
            pace and drops frames as a camera would. A network stream that drops or stalls is reconnected \
            (--reconnect-timeout). The tracker measures the rate it sees frames at from their timestamps (under 20 \
            per second it follows stops and turns faster); --frame-rate F sets it instead, for every source (it then \
            no longer follows frames dropped while the detector is busy; the lost-track buffers stay 45 and 15 \
            frames). \
            --duration and --frames stop the run, as do SIGINT and SIGTERM (outputs complete, exit status 0). The \
            exit status is 1 when the source failed (a damaged file, a stream lost for good), after the outputs are \
            written; 2 when it cannot be opened. A password in a URL is shown as ***.

            --detections FILE tracks the boxes of another detector instead of a video: a MOTChallenge detection \
            file, one row per detection, frame,-1,x,y,w,h,score[,...] (frames from 1, boxes in pixels, rows in any \
            order; frames without a row still count, up to the last frame given). No model and no video are used, \
            and it writes --mot (the tracked rows, frame,id,x,y,w,h,score,-1,-1,-1) and --json (a record per \
            frame, frames from 0 as for a video), or prints a line per frame. --threshold sets the score from which \
            a detection is confident and may start an object, and nothing under it starts one (default: objects \
            start at once from 0.7, and from 0.3 once detected in three frames, never two in a row without a \
            detection, and seen partly hidden behind another object or cut by the image border in one of them, or \
            detected confidently: from its 15th frame, in three frames in a row); \
            weaker ones, of any score (with --threshold, from 0.1 or the threshold if lower), only keep objects \
            alive; --filtered-boxes reports the motion model's boxes instead of the detected ones. \
            --camera-motion auto is for a moving camera (panning, shaking, zooming): the tracker estimates the \
            camera's motion between frames from the boxes and moves every object's prediction by it (default \
            fixed: a still camera, as ML Kit). --image-size WxH is the frames' size, which tells when an object \
            has left the view (it then gets a new ID if it comes back, as in ML Kit) and where boxes reaching past \
            the frame are cut (they are matched as cut and written as given; boxes outside it are not tracked); \
            without it the frames are taken to reach the furthest right and bottom box edges of the file (give it \
            when boxes reach past the frame). --frame-rate F (default 30) scales \
            how long a hidden object keeps its ID (45 frames at 30 fps: 1.5 seconds; 15, half a second, for one \
            missed in plain view); under 20 fps it also lets \
            the motion model follow sharper turns and stops, compares objects off their prediction with both \
            boxes grown, and (without --threshold) pairs middling boxes (0.3-0.7) with the confident gate. \
            --timing prints the tracker's own time on standard error. \
            A malformed row is refused with its line number (status 2).

            --reidentify (with --detections) gives an object that left the view, or stayed lost longer than the \
            lost-track buffers allow, its old ID back when it returns looking the same (ML Kit gives it a new ID): the \
            fields after the tenth of each row are the detection's appearance vector (a re-identification \
            network's embedding, as in DeepSORT's detection files, or any descriptor), compared by cosine \
            similarity. --reid-similarity (default 0.6), --reid-margin (0.05) and --reid-memory (frames; default \
            10 seconds at --frame-rate) are its settings. A vector that is not numbers, not finite, all zeros or \
            of another length than the first is refused with its line number.
            """
    )

    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @OptionGroup package var detector: DetectorArguments

    @Argument(help: "Video files, cameras (/dev/video0) or stream URLs (rtsp://, http://, udp://, ...).")
    package var sources: [String] = []

    @Option(name: .long, help: "Track the boxes of a MOTChallenge detection file (frame,-1,x,y,w,h,score) instead.")
    package var detections: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The frames per second the tracker sees (0.001 to 1000): of a --detections file (default 30; scales the"
                + " lost-track buffers), or of every video source (default: measured from the timestamps)."))
    package var frameRate: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --detections: the frames' size, WIDTHxHEIGHT (default: the boxes' extent);"
                + " boxes outside it are not tracked."))
    package var imageSize: String?

    @Flag(name: .long, help: "With --detections: print the time of the tracker alone on standard error.")
    package var timing = false

    @Flag(name: .long, help: "With --detections: report the motion model's filtered boxes, not the detected ones.")
    package var filteredBoxes = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --detections: give each object boxes on the line between its boxes in the frames it was missed, for "
                + "gaps up to this many frames (1...1000; offline, not ML Kit's stream mode).",
            valueName: "frames"))
    package var interpolate: Int?

    @Option(
        name: .long,
        help: "With --detections: fixed (the default: a still camera) or auto (estimate a moving camera's motion).")
    package var cameraMotion: CameraMotionArgument?

    @OptionGroup package var reidentification: ReidentificationArguments

    @Option(name: .long, help: "Write one JSON object per frame (ML Kit's field names) to this file.")
    package var json: String?

    @Option(name: .long, help: "Write MOTChallenge rows (frame,id,x,y,w,h,score,-1,-1,-1) to this file.")
    package var mot: String?

    @Option(name: .long, help: "Write the video with the tracked objects drawn on it (MP4).")
    package var annotate: String?

    @Flag(name: .long, help: "Play a file at real-time pace and drop frames that arrive while the detector is busy.")
    package var live = false

    @Flag(name: .long, help: "Process every frame of a camera or stream, even when the detector falls behind.")
    package var everyFrame = false

    @Option(name: .long, help: "Stop after this many seconds.")
    package var duration: Double?

    @Option(name: .long, help: "Stop after this many processed frames.")
    package var frames: Int?

    @Option(name: .long, help: "RTSP transport: tcp (the default) or udp.")
    package var rtspTransport: RTSPTransportArgument?

    @Option(
        name: .long,
        help: "Seconds a lost stream keeps trying to reconnect before the run fails (default 60; 0: never).")
    package var reconnectTimeout: Double?

    @Option(
        name: .long, help: "Seconds without data before a stream counts as stalled and is reconnected (default 10).")
    package var stallTimeout: Double?

    @Option(name: .long, help: "Camera frame size, e.g. 1280x720 (V4L2 devices).")
    package var deviceSize: String?

    @Option(name: .long, help: "Camera frame rate, e.g. 30 (V4L2 devices).")
    package var deviceFrameRate: Double?

    @Option(name: .long, help: "Camera pixel format by FFmpeg's name, e.g. mjpeg or yuyv422 (V4L2 devices).")
    package var devicePixelFormat: String?

    @Option(name: .long, help: "Serve a live view on HOST:PORT or PORT (loopback): page, MJPEG, events, metrics.")
    package var serve: String?

    @Option(name: .long, help: "A file holding the token the live view asks clients for (--serve).")
    package var serveTokenFile: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Publish each frame's record to an MQTT broker: mqtt://[user@]host[:port]/PREFIX (to PREFIX/N).",
            discussion:
                "N is the source's number, from 0. The password may be in the URL or, better, in the environment variable LITEVISION_MQTT_PASSWORD."
        ))
    package var mqtt: String?

    @Option(name: .customLong("tls-cert"), help: "A PEM certificate chain: serve the live view over HTTPS.")
    package var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "The PEM private key of --tls-cert.")
    package var tlsKey: String?

    /// Checks what ArgumentParser cannot: positive limits.
    package func validate() throws {
        if let duration, !(duration > 0 && duration.isFinite) {
            throw ValidationError("--duration must be a positive number of seconds, got \(duration)")
        }
        if let frames, frames <= 0 { throw ValidationError("--frames must be positive, got \(frames)") }
        if let reconnectTimeout, !(reconnectTimeout >= 0) {
            throw ValidationError("--reconnect-timeout must be 0 or more, got \(reconnectTimeout)")
        }
        if let stallTimeout, !(stallTimeout > 0 && stallTimeout.isFinite) {
            throw ValidationError("--stall-timeout must be a positive number of seconds, got \(stallTimeout)")
        }
        try reidentification.validate(withDetections: detections != nil)
        if detections != nil {
            try validateDetections()
            return
        }
        let fileOnly: [(String, Bool)] = [
            ("--image-size", imageSize != nil), ("--timing", timing), ("--filtered-boxes", filteredBoxes),
            ("--interpolate", interpolate != nil),
        ]
        if let name = fileOnly.first(where: \.1)?.0 {
            throw ValidationError("\(name) goes with --detections (a video is tracked as its frames come)")
        }
        try validateFrameRate()
        if cameraMotion != nil {
            throw ValidationError("--camera-motion goes with --detections (video tracking takes the camera as still)")
        }
        guard !sources.isEmpty else {
            throw ValidationError("give a video file, a camera or a stream URL to track (or --detections FILE)")
        }
        if sources.count > 1, mot != nil || annotate != nil {
            throw ValidationError(
                "--mot and --annotate take one source (\(sources.count) given); --json records name their source")
        }
        if let serve, ServeAddress(serve) == nil {
            throw ValidationError(
                "--serve must be HOST:PORT or PORT (loopback), such as 127.0.0.1:8080, [::1]:8080 or 8080, got '\(serve)'"
            )
        }
        if serve == nil, serveTokenFile != nil || tlsCertificate != nil || tlsKey != nil {
            throw ValidationError("--serve-token-file, --tls-cert and --tls-key go with --serve")
        }
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-cert and --tls-key go together")
        }
        if let deviceSize, DeviceSize(deviceSize) == nil {
            throw ValidationError("--device-size must be WIDTHxHEIGHT, such as 1280x720, got '\(deviceSize)'")
        }
    }
}

extension TrackArguments {
    /// `--frame-rate`, with a detection file or a video: a number of frames per second from 0.001 (a frame every
    /// 17 minutes: a bound for sense; rates near 1e-300 made a detection file's timestamps infinite) up to 1000;
    /// `--device-frame-rate`, above 0 up to 1000.
    fileprivate func validateFrameRate() throws {
        if let frameRate, !(frameRate >= 0.001 && frameRate <= 1000) {
            throw ValidationError(
                "--frame-rate must be a number of frames per second from 0.001 up to 1000, got \(frameRate)")
        }
        // The camera's own bound (VideoSource's), named here with the option rather than when the camera opens.
        if let deviceFrameRate, !(deviceFrameRate > 0 && deviceFrameRate <= 1000) {
            throw ValidationError(
                "--device-frame-rate must be a number of frames per second above 0, up to 1000, got \(deviceFrameRate)")
        }
    }

    /// The rules of `--detections`: no source, none of the options of video or of a detector model.
    fileprivate func validateDetections() throws {
        guard sources.isEmpty else {
            throw ValidationError("--detections tracks a detection file: give it without video sources")
        }
        let video: [(String, Bool)] = [
            ("--annotate", annotate != nil), ("--serve", serve != nil), ("--mqtt", mqtt != nil), ("--live", live),
            ("--every-frame", everyFrame), ("--duration", duration != nil), ("--frames", frames != nil),
            ("--device-size", deviceSize != nil), ("--device-frame-rate", deviceFrameRate != nil),
            ("--device-pixel-format", devicePixelFormat != nil), ("--rtsp-transport", rtspTransport != nil),
            ("--reconnect-timeout", reconnectTimeout != nil), ("--stall-timeout", stallTimeout != nil),
            ("--serve-token-file", serveTokenFile != nil), ("--tls-cert", tlsCertificate != nil),
            ("--tls-key", tlsKey != nil), ("--multiple", detector.multiple), ("--model", detector.model != nil),
            ("--labels", detector.labels != nil), ("--remote-model", detector.remote.remoteModel != nil),
            ("--classify", detector.classify), ("--detector", detector.detector != nil),
            ("--detector-labels", detector.detectorLabels != nil), ("--max-objects", detector.maxObjects != nil),
            ("--label-threshold", detector.labelThreshold != nil), ("--max-labels", detector.maxLabels != nil),
            ("--model-dir", detector.modelDirectory != nil), ("--cache", detector.remote.cache != nil),
            ("--registry", detector.remote.connection.registry != nil),
            ("--token-file", detector.remote.connection.tokenFile != nil),
            ("--cacert", detector.remote.connection.cacert != nil),
            ("--download-timeout", detector.remote.connection.downloadTimeout != nil),
            ("--request-timeout", detector.remote.connection.requestTimeout != nil),
            ("--threads", detector.processing.threads != nil),
            ("--preprocessing", detector.processing.preprocessingChoice != nil),
            ("--inference-timeout", detector.processing.inference.given != nil),
        ]
        if let name = video.first(where: \.1)?.0 {
            throw ValidationError(
                "\(name) does not go with --detections (a detection file has no video and no model)")
        }
        try validateFrameRate()
        if let interpolate, !(1...ObjectTracker.maximumInterpolatedGap).contains(interpolate) {
            throw ValidationError(
                "--interpolate takes the longest gap to fill, 1 to \(ObjectTracker.maximumInterpolatedGap) frames, got "
                    + "\(interpolate)")
        }
        if let imageSize, DeviceSize(imageSize) == nil {
            throw ValidationError("--image-size must be WIDTHxHEIGHT, such as 640x480, got '\(imageSize)'")
        }
    }
}

/// `--rtsp-transport`.
package enum RTSPTransportArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case tcp, udp
}

/// A `WIDTHxHEIGHT` argument (`--device-size`, `--image-size`).
package struct DeviceSize: Sendable {
    package let width: Int, height: Int

    /// Parses `1280x720`; `nil` for anything else (sizes 1 to 65,535).
    package init?(_ text: String) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (1...65_535).contains(width), (1...65_535).contains(height)
        else { return nil }
        self.width = width
        self.height = height
    }
}
