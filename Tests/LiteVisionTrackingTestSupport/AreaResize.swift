import LiteVisionImaging

/// A small separable resize for building synthetic clips: area averaging when shrinking, bilinear when
/// enlarging. Not bit-exact with anything (the clips don't need it), but quick even in debug builds.
enum AreaResize {
    /// The source pixels and weights that make each destination pixel along one axis.
    private static func taps(source: Int, destination: Int) -> (starts: [Int], counts: [Int], weights: [Float]) {
        let scale = Double(source) / Double(destination)
        var starts: [Int] = [], counts: [Int] = [], weights: [Float] = []
        for i in 0..<destination {
            if scale >= 1 {
                let low = Double(i) * scale, high = Double(i + 1) * scale
                let first = Int(low), last = min(source, Int(high.rounded(.up)))
                starts.append(first)
                counts.append(last - first)
                for s in first..<last {
                    weights.append(Float((min(high, Double(s + 1)) - max(low, Double(s))) / scale))
                }
            } else {
                let center = (Double(i) + 0.5) * scale - 0.5
                let first = min(max(Int(center.rounded(.down)), 0), source - 1)
                let t = min(max(center - Double(first), 0), 1)
                let second = min(first + 1, source - 1)
                starts.append(first)
                counts.append(second > first ? 2 : 1)
                if second > first {
                    weights.append(Float(1 - t))
                    weights.append(Float(t))
                } else {
                    weights.append(1)
                }
            }
        }
        return (starts, counts, weights)
    }

    /// `image` (RGB8) resized to `width`×`height`.
    static func resize(_ image: ImageBuffer, width: Int, height: Int) -> ImageBuffer {
        precondition(image.format == .rgb8 && width > 0 && height > 0)
        let xs = taps(source: image.width, destination: width)
        let ys = taps(source: image.height, destination: height)
        let stride = image.bytesPerRow, rowLength = width * 3
        var rows = [Float](repeating: 0, count: image.height * rowLength)
        var result = ImageBuffer(width: width, height: height, format: .rgb8)
        image.pixels.withUnsafeBufferPointer { source in
            rows.withUnsafeMutableBufferPointer { rows in
                xs.starts.withUnsafeBufferPointer { starts in
                    xs.counts.withUnsafeBufferPointer { counts in
                        xs.weights.withUnsafeBufferPointer { weights in
                            for y in 0..<image.height {
                                var w = 0
                                for x in 0..<width {
                                    var r: Float = 0, g: Float = 0, b: Float = 0
                                    var p = y * stride + starts[x] * 3
                                    for k in 0..<counts[x] {
                                        let weight = weights[w + k]
                                        r += weight * Float(source[p])
                                        g += weight * Float(source[p + 1])
                                        b += weight * Float(source[p + 2])
                                        p += 3
                                    }
                                    w += counts[x]
                                    let o = y * rowLength + x * 3
                                    rows[o] = r
                                    rows[o + 1] = g
                                    rows[o + 2] = b
                                }
                            }
                        }
                    }
                }
            }
        }
        rows.withUnsafeBufferPointer { rows in
            result.pixels.withUnsafeMutableBufferPointer { out in
                var sums = [Float](repeating: 0, count: rowLength)
                sums.withUnsafeMutableBufferPointer { sums in
                    var w = 0
                    for y in 0..<height {
                        for x in 0..<rowLength { sums[x] = 0 }
                        for k in 0..<ys.counts[y] {
                            let weight = ys.weights[w + k], base = (ys.starts[y] + k) * rowLength
                            for x in 0..<rowLength { sums[x] += weight * rows[base + x] }
                        }
                        w += ys.counts[y]
                        for x in 0..<rowLength { out[y * rowLength + x] = UInt8(clamping: Int(sums[x] + 0.5)) }
                    }
                }
            }
        }
        return result
    }
}
