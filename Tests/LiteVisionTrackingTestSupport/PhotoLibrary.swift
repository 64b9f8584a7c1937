import LiteVisionGeometry
import LiteVisionImaging
import LiteVisionTestSupport
import Synchronization

/// The shared photos, decoded once per process (upright RGB8), and the pieces cut out of them.
///
/// Large JPEGs are shrunk while decoding (DCT scaling) to at least 800×600: every piece the clips use is
/// smaller than that, and it keeps both memory and time low.
enum PhotoLibrary {
    /// A decoded photo and the factor its pixels were shrunk by.
    struct Photo: Sendable {
        var image: ImageBuffer
        var scale: Int
    }

    private static let cache = Mutex<[String: Photo]>([:])

    /// The upright photo `name` from the shared `images/` folder.
    static func photo(_ name: String) throws -> Photo {
        if let cached = cache.withLock({ $0[name] }) { return cached }
        let decoded = try ImageDecoder().decodeFile(atPath: TestData.image(name), minimumSize: (800, 600))
        let upright = decoded.orientation == .up ? decoded.image : Resampler.orient(decoded.image, decoded.orientation)
        let photo = Photo(image: upright, scale: decoded.scaleDenominator)
        cache.withLock { $0[name] = photo }
        return photo
    }

    /// The region `crop` of its photo, resized to `width`×`height` (antialiased bilinear).
    static func piece(_ crop: PhotoCrop, width: Int, height: Int) throws -> ImageBuffer {
        let photo = try photo(crop.photo)
        let image = photo.image, scale = Double(photo.scale)
        let rect = BoundingBox(
            x: crop.rect.x / scale, y: crop.rect.y / scale, width: crop.rect.width / scale,
            height: crop.rect.height / scale)
        let region = rect.clamped(width: Double(image.width), height: Double(image.height))
        let x0 = min(Int(region.x.rounded()), image.width - 1), y0 = min(Int(region.y.rounded()), image.height - 1)
        let w = max(1, min(Int(region.width.rounded()), image.width - x0))
        let h = max(1, min(Int(region.height.rounded()), image.height - y0))
        var cut = ImageBuffer(width: w, height: h, format: .rgb8)
        cut.pixels.withUnsafeMutableBytes { destination in
            image.pixels.withUnsafeBytes { source in
                for row in 0..<h {
                    let from = source.baseAddress! + (y0 + row) * image.bytesPerRow + x0 * 3
                    (destination.baseAddress! + row * w * 3).copyMemory(from: from, byteCount: w * 3)
                }
            }
        }
        if w == width && h == height { return cut }
        return AreaResize.resize(cut, width: width, height: height)
    }
}
