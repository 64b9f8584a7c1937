import Synchronization

/// Counts the viewers of each kind, against their limits.
final class ViewerCount: Sendable {
    /// What a viewer watches.
    enum Kind { case pictures, events }
    private let counts = Mutex((pictures: 0, events: 0))

    /// A viewer's place, taken when its request is answered and given back when the lease goes (its response
    /// ended, or was never written because the client left first): a slot cannot leak.
    final class Lease: Sendable {
        private let count: ViewerCount
        private let kind: Kind
        private let channel: PictureChannel?

        /// Takes a place of `kind` in `count` (and counts a viewer of `channel` in), or nil at the limit.
        init?(_ kind: Kind, in count: ViewerCount, limit: Int, channel: PictureChannel? = nil) {
            guard count.enter(kind, limit: limit) else { return nil }
            self.count = count
            self.kind = kind
            self.channel = channel
            channel?.join()
        }

        deinit {
            channel?.leave()
            count.leave(kind)
        }
    }

    /// Counts a viewer in when there is room; false when the limit is reached.
    private func enter(_ kind: Kind, limit: Int) -> Bool {
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
    private func leave(_ kind: Kind) {
        counts.withLock { counts in
            switch kind {
            case .pictures: counts.pictures -= 1
            case .events: counts.events -= 1
            }
        }
    }
}
