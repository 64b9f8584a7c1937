import LiteVisionGeometry
import LiteVisionImaging
import LiteVisionSystem
import Synchronization

/// An image to run a vision feature on, as ML Kit's `VisionImage`: an image file or its bytes, or a
/// camera-style pixel buffer, with an ``orientation``.
///
/// As in ML Kit, results are expressed in the coordinates of the **upright** image: the stored pixels
/// turned by ``orientation``. Like ML Kit's, a `VisionImage` is an object whose orientation you set through a
/// constant:
///
/// ```swift
/// let image = VisionImage(buffer: frame)          // ML Kit: VisionImage(buffer: sampleBuffer)
/// image.orientation = .right
/// ```
///
/// **Orientation of image files.** ``init(contentsOfFile:)`` and ``init(data:)`` read the EXIF `Orientation`
/// tag (as ML Kit's `UIImage` carries it in `imageOrientation`): it is ``imageOrientation``, and
/// ``orientation`` starts as it, so a photo taken sideways is processed upright. Setting ``orientation``
/// overrides it — the value you set is used as is, never combined with EXIF. Pixel buffers start at `.up`.
/// (With ``ProcessingOptions/Preprocessing/mediapipe`` a file is read as MediaPipe reads it, EXIF orientation
/// included; see there.)
///
/// Encoded images (JPEG, PNG) are kept encoded and decoded when a feature processes them, so the
/// decoder can use libjpeg-turbo's DCT-domain downscaling down to what the model needs when you allow it
/// (see ``ProcessingOptions/DecodingScale``). Call ``decoded(scale:allowsDamagedImageData:threadCount:preprocessing:)`` to decode once and
/// reuse the pixels with several features. Decoding is strict: a damaged file is refused unless
/// ``ProcessingOptions/allowsDamagedImageData`` (or the parameter of `decoded`) allows it.
///
/// An image may be shared between threads; its orientation is read and written under a lock. A feature
/// reads the orientation once, when it starts processing the image.
public final class VisionImage: Sendable {
    enum Content: Sendable {
        case encoded([UInt8])
        case pixels(ImageBuffer)
    }

    let content: Content
    /// Where the image was read from, for error messages; `nil` for images made in memory.
    public let sourcePath: String?
    /// The orientation recorded in the image itself: the EXIF `Orientation` of an image file (`.up` when it
    /// has none), the orientation given with a pixel buffer. ML Kit's `UIImage.imageOrientation`.
    public let imageOrientation: ImageOrientation
    /// Whether ``imageOrientation`` is the EXIF orientation of the file the pixels come from (also after
    /// ``decoded(scale:allowsDamagedImageData:threadCount:preprocessing:)``), rather than one given with a pixel buffer.
    let orientationIsFromFile: Bool
    /// Whether the pixels came in memory as a camera buffer (``init(buffer:orientation:)`` and the initializers
    /// built on it), rather than from a file or ``init(image:orientation:)``: ML Kit on iOS reports such an image's
    /// frames in the buffer's own pixels (see ``ObjectDetectorOptions/FrameCoordinates``).
    let isCameraBuffer: Bool
    private let orientationState: Mutex<ImageOrientation>

    /// How the stored pixels must be turned to be upright. Starts as ``imageOrientation``; set it to override
    /// (for camera frames, see ``ImageOrientation/init(deviceOrientation:cameraPosition:)``).
    public var orientation: ImageOrientation {
        get { orientationState.withLock { $0 } }
        set { orientationState.withLock { $0 = newValue } }
    }

    /// The largest width or height of a pixel buffer LiteVision accepts. (Image files have their own limit:
    /// one declaring more than 100 megapixels is refused before any pixel is allocated.)
    public static let maximumDimension = 65_535

    /// Reads an image file (JPEG or PNG). The file is read now; it is decoded when processed. Its EXIF
    /// orientation is ``imageOrientation`` and the initial ``orientation``.
    /// - Throws: ``VisionError/fileNotReadable(path:reason:)`` when the file is missing, unreadable or
    ///   empty; ``VisionError/imageDecoding(_:)`` when it is not a JPEG or PNG.
    public convenience init(contentsOfFile path: String) throws(VisionError) {
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(atPath: path)
        } catch {
            throw .fileNotReadable(path: path, reason: error.reason)
        }
        guard !bytes.isEmpty else { throw .fileNotReadable(path: path, reason: "the file is empty") }
        try self.init(encoded: bytes, sourcePath: path)
    }

    /// An encoded image (JPEG or PNG bytes), decoded when processed.
    /// - Throws: ``VisionError/imageDecoding(_:)`` when the bytes are empty or not a JPEG or PNG header.
    public convenience init(data: [UInt8]) throws(VisionError) {
        try self.init(encoded: data, sourcePath: nil)
    }

    private convenience init(encoded bytes: [UInt8], sourcePath: String?) throws(VisionError) {
        let header: ImageHeaderInfo
        do {
            header = try ImageDecoder().inspect(bytes)
        } catch {
            throw .imageDecoding(error)
        }
        self.init(
            content: .encoded(bytes), sourcePath: sourcePath, orientation: header.orientation,
            orientationIsFromFile: true)
    }

    private init(
        content: Content, sourcePath: String?, orientation: ImageOrientation, orientationIsFromFile: Bool = false,
        isCameraBuffer: Bool = false
    ) {
        self.content = content
        self.sourcePath = sourcePath
        self.imageOrientation = orientation
        self.orientationIsFromFile = orientationIsFromFile
        self.isCameraBuffer = isCameraBuffer
        self.orientationState = Mutex(orientation)
    }

    /// Pixels already in memory (RGB8, RGBA8, BGRA8 or Gray8), with the given orientation: the Linux
    /// counterpart of ML Kit's `VisionImage(buffer: sampleBuffer)`.
    public convenience init(buffer: ImageBuffer, orientation: ImageOrientation = .up) {
        self.init(content: .pixels(buffer), sourcePath: nil, orientation: orientation, isCameraBuffer: true)
    }

    /// Decoded pixels, with the given orientation: the Linux counterpart of ML Kit's
    /// `VisionImage(image: uiImage)` (for example the ``uprightPixels()`` of an image file).
    public convenience init(image: ImageBuffer, orientation: ImageOrientation = .up) {
        self.init(content: .pixels(image), sourcePath: nil, orientation: orientation)
    }

    /// A camera frame or any interleaved 8-bit buffer: `bytes` holds `height` rows of `bytesPerRow` bytes.
    /// - Throws: ``VisionError/invalidImage(_:)`` when the sizes do not fit the bytes.
    public convenience init(
        pixels bytes: [UInt8], width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil,
        orientation: ImageOrientation = .up
    ) throws(VisionError) {
        let stride = bytesPerRow ?? width * format.bytesPerPixel
        try Self.checkSize(width: width, height: height)
        guard stride >= width * format.bytesPerPixel else {
            throw .invalidImage(
                "bytesPerRow \(stride) is less than width \(width) × \(format.bytesPerPixel) bytes of \(format)")
        }
        let needed = stride * (height - 1) + width * format.bytesPerPixel
        guard bytes.count >= needed else {
            throw .invalidImage(
                "a \(width)x\(height) \(format) buffer with \(stride) bytes per row needs \(needed) bytes, got \(bytes.count)"
            )
        }
        self.init(
            buffer: ImageBuffer(width: width, height: height, format: format, bytesPerRow: stride, pixels: bytes),
            orientation: orientation)
    }

    static func checkSize(width: Int, height: Int) throws(VisionError) {
        guard width > 0, height > 0 else {
            throw .invalidImage("width and height must be positive, got \(width)x\(height)")
        }
        guard width <= maximumDimension, height <= maximumDimension else {
            throw .invalidImage("\(width)x\(height) is larger than \(maximumDimension) pixels on a side")
        }
    }

    /// The size of the upright image, in pixels, when it is known without decoding.
    public var uprightSize: (width: Int, height: Int)? {
        let orientation = self.orientation
        switch content {
        case .pixels(let buffer):
            return orientation.uprightSize(width: buffer.width, height: buffer.height)
        case .encoded(let bytes):
            guard let header = try? ImageDecoder().inspect(bytes) else { return nil }
            return orientation.uprightSize(width: header.width, height: header.height)
        }
    }

    /// This image with its pixels decoded (a no-op for pixel images), to reuse with several features.
    ///
    /// - Parameters:
    ///   - scale: How far a large JPEG may be downscaled while decoding; see ``ProcessingOptions/DecodingScale``.
    ///   - allowsDamagedImageData: Decode a damaged file as far as it goes instead of throwing; see
    ///     ``ProcessingOptions/allowsDamagedImageData``. `false` (strict) by default.
    ///   - threadCount: Threads the decode may use; see ``ProcessingOptions/threadCount``. One per core by
    ///     default.
    ///   - preprocessing: The preprocessing the pixels are for: ``ProcessingOptions/Preprocessing/mediapipe``
    ///     decodes a file as MediaPipe's `Image.create_from_file` does (its pixels and its reading of the EXIF
    ///     orientation, which then becomes ``imageOrientation``; `scale` and `allowsDamagedImageData` do not apply),
    ///     so that features using it give MediaPipe's results. ``ProcessingOptions/Preprocessing/exact`` by default.
    /// - Throws: ``VisionError/imageDecoding(_:)`` when the file cannot be decoded.
    public func decoded(
        scale: ProcessingOptions.DecodingScale = .full, allowsDamagedImageData: Bool = false,
        threadCount: Int = ProcessingOptions().threadCount, preprocessing: ProcessingOptions.Preprocessing = .exact
    ) throws(VisionError) -> VisionImage {
        let orientation = self.orientation
        let decoded = try pixels(
            minimumSize: nil, scale: scale, allowsDamagedData: allowsDamagedImageData, threadCount: threadCount,
            preprocessing: preprocessing)
        let fromFile = orientationIsFromFile && orientation == imageOrientation
        return VisionImage(
            content: .pixels(decoded.image), sourcePath: nil,
            orientation: fromFile ? decoded.fileOrientation : orientation, orientationIsFromFile: fromFile,
            isCameraBuffer: isCameraBuffer)
    }

    /// The pixels, decoded if needed, with their orientation, for a model whose input is `width`×`height`
    /// (upright): what a feature reads. `processing` says how to decode. A file whose orientation was not set
    /// otherwise is turned as its preprocessing reads it (MediaPipe's reading for `.mediapipe`).
    func oriented(
        forInputWidth width: Int, height: Int, processing: ProcessingOptions
    ) throws(VisionError) -> OrientedImage {
        let orientation = self.orientation
        let stored = orientation.inverse.uprightSize(width: width, height: height)
        let decoded = try pixels(
            minimumSize: stored, scale: processing.decodingScale,
            allowsDamagedData: processing.allowsDamagedImageData, threadCount: processing.threadCount,
            preprocessing: processing.preprocessing)
        let fromFile = orientationIsFromFile && orientation == imageOrientation
        return OrientedImage(
            pixels: decoded.image, orientation: fromFile ? decoded.fileOrientation : orientation,
            storedSize: decoded.originalSize, orientationIsFromFile: fromFile)
    }

    /// The stored (un-oriented) pixels, decoded if needed, with the orientation the file records as
    /// `preprocessing` reads it (``imageOrientation`` for pixels and for `.exact`). `minimumSize` is the size the
    /// consumer needs in stored orientation; with `.automatic` scale, JPEGs are DCT-downscaled while staying at
    /// least `DecodingScale.automaticMargin` times that size. `allowsDamagedData` makes decoding lenient;
    /// `threadCount` is how many threads a large JPEG's decode may use. With `.mediapipe`, a file is decoded as
    /// MediaPipe decodes it (``ImageDecoder/Reference/mediaPipe``): full size, `allowsDamagedData` not applying.
    func pixels(
        minimumSize: (width: Int, height: Int)?, scale: ProcessingOptions.DecodingScale,
        allowsDamagedData: Bool = false, threadCount: Int = ProcessingOptions().threadCount,
        preprocessing: ProcessingOptions.Preprocessing = .exact
    ) throws(VisionError) -> (
        image: ImageBuffer, originalSize: (width: Int, height: Int), fileOrientation: ImageOrientation
    ) {
        switch content {
        case .pixels(let buffer):
            return (buffer, (buffer.width, buffer.height), imageOrientation)
        case .encoded(let bytes):
            var hint: (width: Int, height: Int)?
            if case .automatic = scale, let minimumSize {
                hint = (
                    minimumSize.width * ProcessingOptions.DecodingScale.automaticMargin,
                    minimumSize.height * ProcessingOptions.DecodingScale.automaticMargin
                )
            }
            do {
                let decoded: DecodedImage
                switch preprocessing {
                case .exact:
                    let decoder = ImageDecoder(allowsDamagedData: allowsDamagedData, threadCount: threadCount)
                    // The file's orientation was read from its EXIF data when the image was made: not parsed again.
                    decoded = try decoder.decode(bytes, minimumSize: hint, orientation: imageOrientation)
                case .mediapipe:
                    decoded = try ImageDecoder(reference: .mediaPipe).decode(bytes)
                }
                return (decoded.image, (decoded.originalWidth, decoded.originalHeight), decoded.orientation)
            } catch {
                throw .imageDecoding(error)
            }
        }
    }
}

extension VisionImage {
    /// The upright pixels (stored pixels turned by ``orientation``), decoded at full size if needed: what
    /// results' coordinates refer to, e.g. to draw them. Decoding is strict; for a damaged file, call
    /// ``decoded(scale:allowsDamagedImageData:threadCount:preprocessing:)`` first.
    public func uprightPixels() throws(VisionError) -> ImageBuffer {
        let orientation = self.orientation
        let stored = try pixels(minimumSize: nil, scale: .full).image
        return orientation == .up ? stored : Resampler.orient(stored, orientation)
    }
}
