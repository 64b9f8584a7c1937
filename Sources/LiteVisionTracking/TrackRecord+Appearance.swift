extension TrackRecord {
    /// Folds one confident detection's appearance (`vector`, whose norm is one over `inverseNorm`) into the track's
    /// average: the first sets it to the normalized vector, each next one moves it by `1 - momentum` towards its
    /// normalized vector. Normalized in `Double`, so that a vector of huge or subnormal values counts as any other;
    /// the average is updated in place (no allocation after the first).
    mutating func observeAppearance(_ vector: [Float], inverseNorm: Double, momentum: Float) {
        guard !appearance.isEmpty else {
            appearance = vector.map { Float(Double($0) * inverseNorm) }
            return
        }
        guard appearance.count == vector.count else { return }
        let add = Double(1 - momentum) * inverseNorm
        for i in appearance.indices { appearance[i] = momentum * appearance[i] + Float(add * Double(vector[i])) }
    }
}
