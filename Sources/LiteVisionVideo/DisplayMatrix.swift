import LiteVisionSystem

/// Reads the rotation out of a container's display matrix (the `tkhd` matrix of MP4/MOV files).
enum DisplayMatrix {
    /// The clockwise rotation, snapped to 0, 90, 180 or 270, that a 3x3 display matrix applies: nine 32-bit
    /// native-endian integers, row-major, the first two columns in 16.16 fixed point. 0 when the data is
    /// too short, degenerate or not a right-angle rotation.
    static func clockwiseRotation(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard bytes.count >= 9 * 4 else { return 0 }
        func value(_ index: Int) -> Double {
            Double(bytes.loadUnaligned(fromByteOffset: index * 4, as: Int32.self))
        }
        // Columns are (a, c) and (b, d) of the 2x2 linear part; normalise each to undo any scaling.
        let scaleA = (value(0) * value(0) + value(3) * value(3)).squareRoot()
        let scaleB = (value(1) * value(1) + value(4) * value(4)).squareRoot()
        guard scaleA > 0, scaleB > 0 else { return 0 }
        let degrees = atan2(value(1) / scaleB, value(0) / scaleA) * 180 / Double.pi
        let snapped = Int((degrees / 90).rounded()) * 90
        guard abs(degrees - Double(snapped)) < 1 else { return 0 }
        return (snapped % 360 + 360) % 360
    }
}
