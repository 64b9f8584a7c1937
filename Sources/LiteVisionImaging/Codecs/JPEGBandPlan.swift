/// How a large JPEG is cut into horizontal bands that several threads decode at once (``JPEGBandDecoder``).
///
/// Without restart markers, a JPEG's Huffman-coded data can only be read from its start, so every band's
/// decoder entropy-decodes the image from the top and throws away the rows above its band; the rest of the
/// work (inverse DCT, chroma upsampling, colour conversion) it does only for its own rows. A band lower in
/// the image therefore costs more per row, and the plan gives upper bands more rows so that all end at
/// once. With two threads and a 12 MP photo at about 2 bits per pixel the first band gets about 70 % of the
/// rows, and the whole decode takes about 0.7 of the time of one thread.
///
/// The costs are estimates measured on this project's machine with libjpeg-turbo 2.1.5 (AVX2): entropy
/// decoding about 7.8 ns per compressed byte plus 0.25 ns per pixel, everything else about 2.2 ns per pixel.
/// Only their ratio matters, and a wrong ratio only makes one band finish a little before the other.
struct JPEGBandPlan: Equatable {
    /// Images with fewer output pixels are decoded on one thread: below about a megapixel the decode takes
    /// a few milliseconds and a second thread saves less than a millisecond.
    static let minimumPixelCount = 1_000_000

    /// At most this many bands. Each band adds a whole entropy decode of the rows above it, so returns fall
    /// quickly: by the cost model for a 12 MP photo, 2 bands take 0.70 of one thread's time for 1.4 times its
    /// CPU, 4 bands 0.55 for 2.2 times, 16 bands 0.52 for 8.3 times.
    static let maximumBandCount = 4

    /// Row boundaries, ascending, from 0 to the image height: band `i` is rows `boundaries[i]..<boundaries[i + 1]`.
    let boundaries: [Int]

    /// The number of bands.
    var bandCount: Int { boundaries.count - 1 }

    /// Rows `start..<end` of band `index`.
    func rows(ofBand index: Int) -> Range<Int> { boundaries[index]..<boundaries[index + 1] }

    /// A plan for `threads` threads (at most ``maximumBandCount`` bands), or `nil` when one thread is better:
    /// `threads` below 2, an image smaller
    /// than `minimumPixelCount` pixels (unless `minimumPixelCount` says otherwise, as tests do), or too few
    /// iMCU rows to share.
    ///
    /// - Parameters:
    ///   - width: output width at the decoding scale.
    ///   - height: output height at the decoding scale.
    ///   - compressedBytes: the size of the JPEG file, for the entropy-decoding estimate.
    ///   - rowsPerIMCURow: output rows per iMCU row; band boundaries are multiples of it, so that the rows a band
    ///     skips are whole iMCU rows, which libjpeg skips without inverse DCT.
    init?(
        width: Int, height: Int, compressedBytes: Int, rowsPerIMCURow: Int, threads: Int,
        minimumPixelCount: Int = JPEGBandPlan.minimumPixelCount
    ) {
        let pixels = Double(width) * Double(height)
        guard threads >= 2, width > 0, height > 0, pixels >= Double(minimumPixelCount) else { return nil }
        let step = max(1, rowsPerIMCURow)
        let entropy = 7.8 * Double(compressedBytes) + 0.25 * pixels
        let rest = 2.2 * pixels
        // Band i (0-based) ends at the fraction e(i) of the rows and takes entropy·e(i) + rest·(e(i) − e(i−1)).
        // Equal times T give e(i) = (T + rest·e(i−1)) / (entropy + rest), linear in T: e(i) = T·a(i).
        var slopes: [Double] = []
        var previous = 0.0
        for _ in 0..<min(threads, Self.maximumBandCount) {
            previous = (1 + rest * previous) / (entropy + rest)
            slopes.append(previous)
        }
        let total = slopes[slopes.count - 1]
        var boundaries = [0]
        for slope in slopes.dropLast() {
            let row = Int((slope / total * Double(height) / Double(step)).rounded()) * step
            if row > boundaries[boundaries.count - 1] && row < height { boundaries.append(row) }
        }
        boundaries.append(height)
        guard boundaries.count >= 3 else { return nil }
        self.boundaries = boundaries
    }

    /// A plan with the given boundaries (tests choose arbitrary ones). They must ascend strictly from 0.
    init(boundaries: [Int]) {
        precondition(boundaries.count >= 2 && boundaries[0] == 0, "JPEGBandPlan: boundaries start at 0")
        precondition(zip(boundaries, boundaries.dropFirst()).allSatisfy { $0 < $1 }, "JPEGBandPlan: bands not empty")
        self.boundaries = boundaries
    }
}
