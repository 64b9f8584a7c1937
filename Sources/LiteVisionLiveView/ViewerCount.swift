import Synchronization

/// Counts the viewers of each kind, against their limits.
final class ViewerCount: Sendable {
    enum Kind { case pictures, events }
    private let counts = Mutex((pictures: 0, events: 0))

    /// Counts a viewer in when there is room; false when the limit is reached.
    func enter(_ kind: Kind, limit: Int) -> Bool {
        counts.withLock { counts in
            switch kind {
            case .pictures:
                guard counts.pictures < limit else { return false }
                counts.pictures += 1
            case .events:
                guard counts.events < limit else { return false }
                counts.events += 1
            }
            return true
        }
    }

    /// Counts a viewer out.
    func leave(_ kind: Kind) {
        counts.withLock { counts in
            switch kind {
            case .pictures: counts.pictures -= 1
            case .events: counts.events -= 1
            }
        }
    }
}
