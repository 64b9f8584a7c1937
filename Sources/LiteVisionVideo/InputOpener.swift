import CFFmpeg
import LiteVisionSystem

/// Opens the container of a source (`avformat_open_input`) with exactly the protocols its kind may use, and turns
/// each failure into the ``VideoError`` that names it for that kind.
enum InputOpener {
    /// Runs once per process: registers libavdevice's inputs (`v4l2`).
    private static let devicesRegistered: Void = { avdevice_register_all() }()

    /// The opened container of `location`, owned by `resources` from now on.
    static func open(
        _ location: SourceLocation, settings: OpenSettings, into resources: DecoderResources
    ) throws(VideoError) -> UnsafeMutablePointer<AVFormatContext> {
        try precheck(location, settings: settings)
        guard let context = avformat_alloc_context() else {
            throw .systemResource("out of memory while opening '\(location.displayName)'")
        }
        if let interrupt = settings.interrupt {
            context.pointee.interrupt_callback = interrupt.callback
            resources.interrupt = interrupt
            interrupt.arm(seconds: settings.connectTimeout)
        }
        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        for (key, value) in options(for: location, settings: settings) { av_dict_set(&dictionary, key, value, 0) }
        var inputFormat: UnsafePointer<AVInputFormat>?
        if location.kind == .device {
            // V4L2 reads do not poll the interrupt: non-blocking reads return EAGAIN instead, and the decoder
            // waits between them until the stall timeout (or stop()).
            context.pointee.flags |= AVFMT_FLAG_NONBLOCK
            _ = devicesRegistered
            inputFormat = av_find_input_format("v4l2")
            guard inputFormat != nil else {
                throw .deviceUnavailable(path: location.displayName, reason: "this FFmpeg build has no v4l2 input")
            }
        }
        var opened: UnsafeMutablePointer<AVFormatContext>? = context  // freed by FFmpeg when opening fails
        let result = avformat_open_input(&opened, location.target, inputFormat, &dictionary)
        guard result >= 0, let format = opened else {
            throw failure(result, location: location, settings: settings, stage: "its container is unknown or damaged")
        }
        resources.format = format
        return format
    }

    /// What is checked before FFmpeg is involved: a file is a non-empty regular file; a device path exists and is a
    /// character device; a network host resolves.
    private static func precheck(_ location: SourceLocation, settings: OpenSettings) throws(VideoError) {
        switch location.kind {
        case .file:
            let size: Int
            do {
                size = try FileContents.requireRegularFile(atPath: location.path)
            } catch {
                throw .fileNotReadable(path: location.displayName, reason: error.reason)
            }
            guard size > 0 else {
                throw .fileNotReadable(path: location.displayName, reason: "the file is empty (0 bytes)")
            }
        case .device:
            var status = stat()
            guard stat(location.path, &status) == 0 else {
                let problem = errno == ENOENT ? "there is no such device" : errorDescription(errno)
                throw .deviceUnavailable(
                    path: location.displayName,
                    reason: "\(problem); is the camera connected? `ls /dev/video*` lists the video devices")
            }
            guard status.st_mode & S_IFMT == S_IFCHR else {
                throw .deviceUnavailable(
                    path: location.displayName,
                    reason: "it is not a character device (a camera appears as one, such as /dev/video0)")
            }
        case .network:
            guard let host = location.host else { return }
            let resolved = HostResolution.problem(
                resolving: host, timeout: settings.connectTimeout, interrupt: settings.interrupt)
            if let problem = resolved {
                throw .connectionFailed(location: location.displayName, cause: problem)
            }
        }
    }

    /// The options given to `avformat_open_input`: first of all the protocols it may open.
    private static func options(for location: SourceLocation, settings: OpenSettings) -> [(String, String)] {
        var options = [("protocol_whitelist", location.protocolWhitelist)]
        switch location.scheme {
        case "rtsp", "rtsps":
            options.append(("rtsp_transport", settings.rtspTransport == .tcp ? "tcp" : "udp"))
        case "http", "https":
            options += [("user_agent", "LiteVision"), ("tls_verify", "1")]
        case "udp":
            // A consumer slower than the network loses packets instead of failing the stream.
            options += [("overrun_nonfatal", "1"), ("fifo_size", "65536")]
        default: break
        }
        if location.kind == .network { options.append(("max_delay", "500000")) }
        if location.kind == .device {
            let device = settings.device
            if let width = device.width, let height = device.height {
                options.append(("video_size", "\(width)x\(height)"))
            }
            if let rate = device.frameRate { options.append(("framerate", "\(rate)")) }
            if let format = device.pixelFormat { options.append(("input_format", format)) }
        }
        return options
    }

    /// The error for FFmpeg's `code` when opening or probing `location` failed; `stage` says what failed, for files.
    static func failure(
        _ code: Int32, location: SourceLocation, settings: OpenSettings, stage: String
    ) -> VideoError {
        let message = location.scrubbed(FFmpegError.message(code))
        switch location.kind {
        case .file:
            return .notAVideo(path: location.displayName, reason: "\(stage) (\(message))")
        case .device:
            let reason: String
            switch -code {
            case ENOTTY, EINVAL: reason = "it is a character device but not a V4L2 video capture device (\(message))"
            case EBUSY: reason = "the device is busy: another program is using the camera"
            case EACCES, EPERM: reason = "permission denied: add the user to the 'video' group"
            case EIO: reason = "the device does not accept the settings asked for, or failed (\(message))"
            default:
                reason =
                    code == FFmpegError.exit ? "no picture within \(formatted(settings.connectTimeout)) s" : message
            }
            return .deviceUnavailable(path: location.displayName, reason: reason)
        case .network:
            return .connectionFailed(
                location: location.displayName,
                cause: connectionFailure(code, message: message, settings: settings))
        }
    }

    /// Why connecting failed, from FFmpeg's code and whether the deadline interrupted it.
    private static func connectionFailure(
        _ code: Int32, message: String, settings: OpenSettings
    ) -> VideoError.ConnectionFailure {
        // The deadline ends whatever call was waiting, which may then report its own error (RTSP: invalid data).
        if settings.interrupt?.lastCause == .deadline
            || ((code == FFmpegError.exit || code == -ETIMEDOUT) && settings.interrupt?.lastCause != .stopped)
        {
            return .timedOut(seconds: settings.connectTimeout)
        }
        switch code {
        case -ECONNREFUSED: return .refused
        case FFmpegError.httpUnauthorized: return .unauthorized
        case FFmpegError.httpForbidden: return .forbidden
        case FFmpegError.httpNotFound: return .notFound
        case FFmpegError.invalidData: return .notAVideoStream(message)
        case -EINVAL, -ENOSYS, -EPROTONOSUPPORT, -EPERM:
            return .notAVideoStream("\(message): it refers to a protocol or file this source may not open")
        default: return .other(message)
        }
    }
}
