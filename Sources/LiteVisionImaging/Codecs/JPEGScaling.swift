import CTurboJPEG

/// Choice of a libjpeg-turbo DCT-domain scaling factor (1/1, 1/2, 1/4 or 1/8).
///
/// Decoding a JPEG at 1/8 of its size is several times faster than decoding it whole and then
/// shrinking it, and needs 64 times less memory for the pixels.
enum JPEGScaling {
    /// The denominators used, largest first. Pillow's `draft` uses the same four.
    static let candidateDenominators = [8, 4, 2, 1]

    /// The factors libjpeg-turbo supports (`tjGetScalingFactors`), in its order of preference:
    /// `tjDecompress2` uses the first one whose scaled size fits the requested size.
    static let availableFactors: [(num: Int, denom: Int)] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return [(1, 1)] }
        return UnsafeBufferPointer(start: factors, count: Int(count)).map { (Int($0.num), Int($0.denom)) }
    }()

    /// `dimension` scaled by `num/denom`, rounded up, as libjpeg-turbo computes it (`TJSCALED`).
    static func scaled(_ dimension: Int, num: Int = 1, by denom: Int) -> Int {
        (dimension * num + denom - 1) / denom
    }

    /// The largest denominator whose scaled size is still at least `minimum` in both directions;
    /// 1 when no minimum is given or no reduction fits.
    ///
    /// A denominator is only used when libjpeg-turbo, asked for the 1/d size, really picks the factor
    /// 1/d: for images under 8 pixels a side a factor such as 5/8 can give the same size, and the
    /// decoded pixels must be those of the reported ``DecodedImage/scaleDenominator``.
    static func denominator(width: Int, height: Int, minimum: (width: Int, height: Int)?) -> Int {
        guard let minimum else { return 1 }
        for d in candidateDenominators where d > 1 {
            let w = scaled(width, by: d), h = scaled(height, by: d)
            guard w >= minimum.width, h >= minimum.height else { continue }
            if turboJPEGScales(width: width, height: height, by: d) { return d }
        }
        return 1
    }

    /// Whether libjpeg-turbo, asked for the `1/denominator` size of a `width`×`height` image, really uses the
    /// factor `1/denominator` (and not a larger one giving the same size, as 5/8 does for a 3×3 image at 1/2).
    static func turboJPEGScales(width: Int, height: Int, by denominator: Int) -> Bool {
        let w = scaled(width, by: denominator), h = scaled(height, by: denominator)
        let chosen = availableFactors.first {
            scaled(width, num: $0.num, by: $0.denom) <= w && scaled(height, num: $0.num, by: $0.denom) <= h
        }
        return chosen.map { $0.num == 1 && $0.denom == denominator } ?? false
    }
}
