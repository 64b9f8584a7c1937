import LiteVisionImaging

/// A camera-style NV12 frame (full range, BT.601) made from real RGB pixels, for the camera-frame rows: a Y
/// plane and a plane of interleaved Cb, Cr pairs, each chroma sample the average of its 2×2 block.
struct NV12Frame {
    let width: Int
    let height: Int
    let y: [UInt8]
    let cbcr: [UInt8]

    /// `image` (any format the resizer takes) resized to `width`×`height` and converted to NV12.
    init(_ image: ImageBuffer, width: Int, height: Int) {
        let rgb = Resampler.resizeBilinearAntialiased(image, width: width, height: height).pixels
        self.width = width
        self.height = height
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        var y = [UInt8](repeating: 0, count: width * height)
        var cbcr = [UInt8](repeating: 128, count: 2 * cw * ch)
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
        for row in 0..<height {
            for column in 0..<width {
                let p = (row * width + column) * 3
                let (r, g, b) = (Double(rgb[p]), Double(rgb[p + 1]), Double(rgb[p + 2]))
                y[row * width + column] = byte(0.299 * r + 0.587 * g + 0.114 * b)
            }
        }
        for row in 0..<ch {
            for column in 0..<cw {
                var (r, g, b, n) = (0.0, 0.0, 0.0, 0.0)
                for dy in 0..<2 where 2 * row + dy < height {
                    for dx in 0..<2 where 2 * column + dx < width {
                        let p = ((2 * row + dy) * width + 2 * column + dx) * 3
                        r += Double(rgb[p])
                        g += Double(rgb[p + 1])
                        b += Double(rgb[p + 2])
                        n += 1
                    }
                }
                (r, g, b) = (r / n, g / n, b / n)
                cbcr[row * 2 * cw + 2 * column] = byte(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)
                cbcr[row * 2 * cw + 2 * column + 1] = byte(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)
            }
        }
        self.y = y
        self.cbcr = cbcr
    }
}
