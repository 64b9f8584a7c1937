import LiteVisionImaging

extension VisionImage {
    /// The range of a camera frame's luma and chroma codes: `.full` (0–255) or `.video` (16–235 luma,
    /// 16–240 chroma), as the `FullRange` and `VideoRange` pixel formats of a camera.
    public typealias YUVRange = LiteVisionImaging.YUVRange

    /// A camera frame in NV12 (4:2:0 bi-planar YCbCr: a Y plane, then interleaved Cb/Cr at half resolution),
    /// full range (`kCVPixelFormatType_420YpCbCr8BiPlanarFullRange`) or video range
    /// (`…VideoRange`), converted to RGB with BT.601 coefficients.
    /// - Throws: ``VisionError/invalidImage(_:)`` when a plane is smaller than its stride and the size need.
    public convenience init(
        nv12 y: [UInt8], yBytesPerRow: Int, cbcr: [UInt8], cbcrBytesPerRow: Int, width: Int, height: Int,
        range: YUVRange, orientation: ImageOrientation = .up
    ) throws(VisionError) {
        try Self.checkSize(width: width, height: height)
        do {
            let rgb = try y.withUnsafeBytes { y in
                try cbcr.withUnsafeBytes { cbcr in
                    try PixelConversion.nv12ToRGB(
                        y: y, yBytesPerRow: yBytesPerRow, cbcr: cbcr,
                        cbcrBytesPerRow: cbcrBytesPerRow, width: width, height: height,
                        range: range)
                }
            }
            self.init(buffer: rgb, orientation: orientation)
        } catch {
            throw .invalidImage("\(error)")
        }
    }

    /// A camera frame in I420 (planar 4:2:0: Y, then U (Cb) and V (Cr) at half resolution), converted to RGB
    /// with BT.601 coefficients.
    /// - Throws: ``VisionError/invalidImage(_:)`` when a plane is smaller than its stride and the size need.
    public convenience init(
        i420 y: [UInt8], yBytesPerRow: Int, u: [UInt8], uBytesPerRow: Int, v: [UInt8], vBytesPerRow: Int,
        width: Int, height: Int, range: YUVRange, orientation: ImageOrientation = .up
    ) throws(VisionError) {
        try Self.checkSize(width: width, height: height)
        do {
            let rgb = try y.withUnsafeBytes { y in
                try u.withUnsafeBytes { u in
                    try v.withUnsafeBytes { v in
                        try PixelConversion.i420ToRGB(
                            y: y, yBytesPerRow: yBytesPerRow, u: u, uBytesPerRow: uBytesPerRow,
                            v: v, vBytesPerRow: vBytesPerRow, width: width, height: height,
                            range: range)
                    }
                }
            }
            self.init(buffer: rgb, orientation: orientation)
        } catch {
            throw .invalidImage("\(error)")
        }
    }
}
