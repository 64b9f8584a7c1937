/// The highest scores at or above a threshold, highest first, ties by lower index.
enum TopScores {
    static func select(
        _ scores: UnsafeBufferPointer<Float>, threshold: Float, limit: Int
    ) -> [(index: Int, score: Float)] {
        // A limit larger than the scores (Int.max from a command line, say) is the count of scores.
        let limit = min(limit, scores.count)
        guard limit > 0 else { return [] }
        var top: [(index: Int, score: Float)] = []
        top.reserveCapacity(limit + 1)
        for (index, score) in scores.enumerated() where score >= threshold && !score.isNaN {
            if top.count == limit, let last = top.last, score <= last.score { continue }
            // Insert after every entry with a score >= this one (earlier indices win ties).
            var position = top.count
            while position > 0 && top[position - 1].score < score { position -= 1 }
            top.insert((index, score), at: position)
            if top.count > limit { top.removeLast() }
        }
        return top
    }
}
