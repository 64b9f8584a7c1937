import LiteVisionGeometry
import LiteVisionImaging
import LiteVisionSystem

/// An image to run a vision feature on: an image file or its bytes, or a camera-style pixel buffer,
/// with an ``orientation``.
///
/// As in ML Kit, results are expressed in the coordinates of the **upright** image: the stored pixels
/// turned by ``orientation``. For files, the orientation comes from the EXIF `Orientation` tag; for
/// pixel buffers you set it (see ``ImageOrientation/init(deviceOrientation:cameraPosition:)``).
///
/// Encoded images (JPEG, PNG) are kept encoded and decoded when a feature processes them, so the
/// decoder can use libjpeg-turbo's DCT-domain downscaling down to what the model needs when you allow it
/// (see ``ProcessingOptions/DecodingScale``). Call ``decoded(scale:)`` to decode once and reuse the pixels with several
/// features.
public struct VisionImage: Sendable {
    enum Content: Sendable {
        case encoded([UInt8])
        case pixels(ImageBuffer)
    }

    let content: Content
    /// Where the image was read from, for error messages; `nil` for images made in memory.
    public let sourcePath: String?
    /// How the stored pixels must be turned to be upright. For image files this is read from EXIF
    /// (`.up` when absent); you may override it.
    public var orientation: ImageOrientation

    /// The largest width or height of a pixel buffer LiteVision accepts. (Image files have their own limit:
    /// one declaring more than 100 megapixels is refused before any pixel is allocated.)
    public static let maximumDimension = 65_535

    /// Reads an image file (JPEG or PNG). The file is read now; it is decoded when processed.
    /// - Throws: ``VisionError/fileNotReadable(path:reason:)`` when the file is missing, unreadable or
    ///   empty; ``VisionError/imageDecoding(_:)`` when it is not a JPEG or PNG.
    public init(contentsOfFile path: String) throws(VisionError) {
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
    public init(data: [UInt8]) throws(VisionError) {
        try self.init(encoded: data, sourcePath: nil)
    }

    private init(encoded bytes: [UInt8], sourcePath: String?) throws(VisionError) {
        let header: ImageHeaderInfo
        do {
            header = try ImageDecoder().inspect(bytes)
        } catch {
            throw .imageDecoding(error)
        }
        self.content = .encoded(bytes)
        self.sourcePath = sourcePath
        self.orientation = header.orientation
    }

    /// Pixels already in memory (RGB8, RGBA8, BGRA8 or Gray8), with the given orientation.
    public init(buffer: ImageBuffer, orientation: ImageOrientation = .up) {
        self.content = .pixels(buffer)
        self.sourcePath = nil
        self.orientation = orientation
    }

    /// A camera frame or any interleaved 8-bit buffer: `bytes` holds `height` rows of `bytesPerRow` bytes.
    /// - Throws: ``VisionError/invalidImage(_:)`` when the sizes do not fit the bytes.
    public init(
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
        switch content {
        case .pixels(let buffer):
            return orientation.uprightSize(width: buffer.width, height: buffer.height)
        case .encoded(let bytes):
            guard let header = try? ImageDecoder().inspect(bytes) else { return nil }
            return orientation.uprightSize(width: header.width, height: header.height)
        }
    }

    /// This image with its pixels decoded (a no-op for pixel images), to reuse with several features.
    public func decoded(scale: ProcessingOptions.DecodingScale = .full) throws(VisionError) -> VisionImage {
        VisionImage(buffer: try pixels(minimumSize: nil, scale: scale).image, orientation: orientation)
    }

    /// The pixels, decoded if needed, with their orientation, for a model whose input is `width`×`height`
    /// (upright): what a feature reads.
    func oriented(
        forInputWidth width: Int, height: Int, scale: ProcessingOptions.DecodingScale
    ) throws(VisionError) -> OrientedImage {
        let stored = orientation.inverse.uprightSize(width: width, height: height)
        let decoded = try pixels(minimumSize: stored, scale: scale)
        return OrientedImage(pixels: decoded.image, orientation: orientation, storedSize: decoded.originalSize)
    }

    /// The stored (un-oriented) pixels, decoded if needed. `minimumSize` is the size the consumer needs in
    /// stored orientation; with `.automatic` scale, JPEGs are DCT-downscaled while staying at least
    /// `DecodingScale.automaticMargin` times that size.
    func pixels(
        minimumSize: (width: Int, height: Int)?, scale: ProcessingOptions.DecodingScale
    ) throws(VisionError) -> (image: ImageBuffer, originalSize: (width: Int, height: Int)) {
        switch content {
        case .pixels(let buffer):
            return (buffer, (buffer.width, buffer.height))
        case .encoded(let bytes):
            var hint: (width: Int, height: Int)?
            if case .automatic = scale, let minimumSize {
                hint = (
                    minimumSize.width * ProcessingOptions.DecodingScale.automaticMargin,
                    minimumSize.height * ProcessingOptions.DecodingScale.automaticMargin
                )
            }
            do {
                let decoded = try ImageDecoder().decode(bytes, minimumSize: hint)
                return (decoded.image, (decoded.originalWidth, decoded.originalHeight))
            } catch {
                throw .imageDecoding(error)
            }
        }
    }
}

extension VisionImage {
    /// The upright pixels (stored pixels turned by ``orientation``), decoded at full size if needed: what
    /// results' coordinates refer to, e.g. to draw them.
    public func uprightPixels() throws(VisionError) -> ImageBuffer {
        let stored = try pixels(minimumSize: nil, scale: .full).image
        return orientation == .up ? stored : Resampler.orient(stored, orientation)
    }
}
