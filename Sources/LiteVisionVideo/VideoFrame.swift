import LiteVision

/// One picture from a ``VideoSource``: ready for a detector or labeler, with where it sits in the stream and
/// when its data arrived.
///
/// ```swift
/// for try await frame in source.frames {
///     let objects = try detector.results(in: frame.image, timestamp: frame.timestamp)
///     let latency = ContinuousClock.now - frame.receivedAt
/// }
/// ```
public struct VideoFrame: Sendable {
    /// The picture, its ``VisionImage/orientation`` set from the stream's rotation (phones record portrait video
    /// as rotated landscape frames): hand it to a detector as it is.
    public let image: VisionImage
    /// The same pixels as stored in the stream (not rotated): RGB, tightly packed rows.
    public let pixels: ImageBuffer
    /// The frame's position in the stream, from 0. With ``VideoSource/Delivery/latest`` the frames a busy consumer
    /// missed leave gaps (frame 7 follows frame 4: 5 and 6 were dropped).
    public let index: Int
    /// Seconds of stream time: from the start of a file, or of a live source's first connection (continuing,
    /// across reconnections, with the time the stream was away). A live stream of unknown length whose format
    /// carries no timestamps (a camera's MJPEG over HTTP, raw H.264 over TCP or UDP) is timed by when its frames
    /// arrive; such a file from a web server that takes byte ranges is timed as a local file.
    public let timestamp: Double
    /// When the frame's data was read from the source (its last packet; for a file played at its pace, when the
    /// frame's time came), on the continuous clock:
    /// `ContinuousClock.now - frame.receivedAt` is how long the picture has been in this process (decoding,
    /// waiting, your work). Data that waited before it was read (in the kernel's socket buffer or the server's,
    /// when ``VideoSource/Delivery/every`` holds the source back) is not counted: compare ``timestamp`` with the
    /// wall clock to see a live stream fall behind.
    public let receivedAt: ContinuousClock.Instant

    /// A frame of `pixels` shown with `orientation`.
    public init(
        pixels: ImageBuffer, orientation: ImageOrientation = .up, index: Int, timestamp: Double,
        receivedAt: ContinuousClock.Instant
    ) {
        self.image = VisionImage(buffer: pixels, orientation: orientation)
        self.pixels = pixels
        self.index = index
        self.timestamp = timestamp
        self.receivedAt = receivedAt
    }
}
