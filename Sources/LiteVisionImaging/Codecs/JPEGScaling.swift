import CTurboJPEG

/// Choice of a libjpeg-turbo DCT-domain scaling factor (1/1, 1/2, 1/4 or 1/8).
///
/// Decoding a JPEG at 1/8 of its size is several times faster than decoding it whole and then
/// shrinking it, and needs 64 times less memory for the pixels.
enum JPEGScaling {
    /// The denominators used, largest first. Pillow's `draft` uses the same four.
    static let candidateDenominators = [8, 4, 2, 1]

    /// The denominators among ``candidateDenominators`` whose 1/d factor this libjpeg-turbo reports
    /// in `tjGetScalingFactors` (all four in every release; checked rather than assumed).
    static let supportedDenominators: [Int] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return [1] }
        let available = UnsafeBufferPointer(start: factors, count: Int(count))
        return candidateDenominators.filter { d in
            d == 1 || available.contains { $0.num == 1 && Int($0.denom) == d }
        }
    }()

    /// `dimension` scaled by `1/denominator`, rounded up, as libjpeg-turbo computes it (`TJSCALED`).
    static func scaled(_ dimension: Int, by denominator: Int) -> Int {
        (dimension + denominator - 1) / denominator
    }

    /// The largest denominator whose scaled size is still at least `minimum` in both directions;
    /// 1 when no minimum is given or no reduction fits.
    static func denominator(width: Int, height: Int, minimum: (width: Int, height: Int)?) -> Int {
        guard let minimum else { return 1 }
        for d in supportedDenominators
        where scaled(width, by: d) >= minimum.width && scaled(height, by: d) >= minimum.height {
            return d
        }
        return 1
    }
}
