import LiteVisionImaging
import LiteVisionTestSupport

/// Pixel operations of the synthetic clips: backgrounds, patches and pasting.
enum FrameCompositor {
    /// A background filling `width`×`height`: the photo region stretched, blurred (shrunk by `blur` and
    /// enlarged back), desaturated and flattened toward middle gray.
    static func background(_ background: Background, width: Int, height: Int) throws -> ImageBuffer {
        let small = try PhotoLibrary.piece(
            background.crop, width: max(1, width / background.blur),
            height: max(1, height / background.blur))
        var image = AreaResize.resize(small, width: width, height: height)
        fade(&image, saturation: background.saturation, contrast: background.contrast)
        return image
    }

    /// The look of an occluder, `width`×`height`.
    static func patch(_ style: Occluder.Style, width: Int, height: Int) throws -> ImageBuffer {
        var image = ImageBuffer(width: width, height: height, format: .rgb8)
        switch style {
        case .flat(let red, let green, let blue):
            for i in stride(from: 0, to: image.pixels.count, by: 3) {
                image.pixels[i] = red
                image.pixels[i + 1] = green
                image.pixels[i + 2] = blue
            }
        case .noise(let gray, let seed):
            var rng = SeededGenerator(seed: seed)
            // Coarse 4×4 blocks of gray noise with a little color, so that it reads as texture, not as an object.
            let blocksX = (width + 3) / 4, blocksY = (height + 3) / 4
            var levels = [Int](repeating: 0, count: blocksX * blocksY)
            for i in levels.indices { levels[i] = Int(gray) + Int.random(in: -28...28, using: &rng) }
            for y in 0..<height {
                for x in 0..<width {
                    let level = levels[(y / 4) * blocksX + x / 4] + Int.random(in: -6...6, using: &rng)
                    let i = (y * width + x) * 3
                    image.pixels[i] = UInt8(clamping: level)
                    image.pixels[i + 1] = UInt8(clamping: level + 3)
                    image.pixels[i + 2] = UInt8(clamping: level - 3)
                }
            }
        case .photo(let crop):
            image = try PhotoLibrary.piece(crop, width: width, height: height)
            fade(&image, saturation: 0.6, contrast: 0.7)
        }
        return image
    }

    /// Copies `piece` into `frame` with its top-left corner at (`x`, `y`), clipped to the frame.
    static func paste(_ piece: ImageBuffer, into frame: inout ImageBuffer, x: Int, y: Int) {
        let left = max(0, x), top = max(0, y)
        let right = min(frame.width, x + piece.width), bottom = min(frame.height, y + piece.height)
        guard left < right, top < bottom else { return }
        let count = (right - left) * 3
        let frameStride = frame.bytesPerRow, pieceStride = piece.bytesPerRow
        frame.pixels.withUnsafeMutableBytes { destination in
            piece.pixels.withUnsafeBytes { source in
                for row in top..<bottom {
                    let to = destination.baseAddress! + row * frameStride + left * 3
                    let from = source.baseAddress! + (row - y) * pieceStride + (left - x) * 3
                    to.copyMemory(from: from, byteCount: count)
                }
            }
        }
    }

    /// Moves colors toward their gray level (`saturation` < 1) and toward middle gray (`contrast` < 1).
    static func fade(_ image: inout ImageBuffer, saturation: Double, contrast: Double) {
        let s = Int((saturation * 256).rounded()), c = Int((contrast * 256).rounded())
        for i in stride(from: 0, to: image.pixels.count - 2, by: 3) {
            let r = Int(image.pixels[i]), g = Int(image.pixels[i + 1]), b = Int(image.pixels[i + 2])
            let luma = (77 * r + 150 * g + 29 * b) >> 8
            @inline(__always) func adjust(_ value: Int) -> UInt8 {
                let saturated = luma + (((value - luma) * s) >> 8)
                return UInt8(clamping: 128 + (((saturated - 128) * c) >> 8))
            }
            image.pixels[i] = adjust(r)
            image.pixels[i + 1] = adjust(g)
            image.pixels[i + 2] = adjust(b)
        }
    }
}
