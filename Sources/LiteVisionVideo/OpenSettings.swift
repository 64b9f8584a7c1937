/// How a stream is opened: its decoder and limits, and for live sources the deadline and transport.
struct OpenSettings {
    /// Decoder threads; 0 lets FFmpeg choose.
    var threadCount = 2
    /// The largest frame accepted, in pixels.
    var maxPixelCount: Int
    /// The interrupt of a network or device input (deadlines, stop); `nil` for files.
    var interrupt: InputInterrupt?
    /// Seconds connecting and probing may take (network and devices).
    var connectTimeout: Double = 10
    /// How RTSP carries the video.
    var rtspTransport = VideoSource.RTSPTransport.tcp
    /// What a device is asked for.
    var device = VideoSource.DeviceSettings()
}
