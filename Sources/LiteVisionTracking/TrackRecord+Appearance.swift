extension TrackRecord {
    /// Folds one confident detection's appearance (`vector`, whose norm is `norm`) into the track's average: the first
    /// sets it to the normalized vector, each next one moves it by `1 - momentum` towards its normalized vector. The
    /// average is updated in place (no allocation after the first).
    mutating func observeAppearance(_ vector: [Float], norm: Float, momentum: Float) {
        guard !appearance.isEmpty else {
            appearance = vector.map { $0 / norm }
            return
        }
        guard appearance.count == vector.count else { return }
        let add = (1 - momentum) / norm
        for i in appearance.indices { appearance[i] = momentum * appearance[i] + add * vector[i] }
    }
}
