import LiteVisionImaging

/// One decoded picture of a video, as the decoder gives it (a ``VideoSource`` hands it on as a ``VideoFrame``).
package struct DecodedFrame: Sendable {
    /// The pixels, always ``PixelFormat/rgb8`` with tightly packed rows (`bytesPerRow == width * 3`), as stored
    /// in the file: not rotated (see ``VideoInfo/orientation``). Its size is normally ``VideoInfo/width`` x
    /// ``VideoInfo/height``, but follows the stream if the stream changes size part-way.
    package var image: ImageBuffer
    /// Position of this frame among the frames decoded so far, from 0. Frames a damaged stream lost are not
    /// counted.
    package var index: Int
    /// Presentation time in seconds from the start of the stream (the first frame is normally at 0),
    /// from the frame's timestamp, or from its index and the frame rate when the file gives none.
    package var timestamp: Double
    /// When the data of this frame arrived: the time its last packet was read.
    package var receivedAt: ContinuousClock.Instant

    /// Wraps a picture with its position in the video.
    package init(image: ImageBuffer, index: Int, timestamp: Double, receivedAt: ContinuousClock.Instant = .now) {
        self.image = image
        self.index = index
        self.timestamp = timestamp
        self.receivedAt = receivedAt
    }
}
