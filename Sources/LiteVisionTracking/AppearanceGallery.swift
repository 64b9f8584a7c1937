/// The dropped tracks that re-identification may give back their ID (see ``ReidentificationOptions``), and the length
/// of the appearance vectors the tracker takes.
///
/// At most ``ReidentificationOptions/capacity`` entries, in the order the tracks were dropped: when it is full the
/// oldest is forgotten, and entries older than ``ReidentificationOptions/memory`` frames are forgotten when the gallery
/// is searched. Entries keep the average vector of their track (no copy), and the entries' storage is reserved once.
struct AppearanceGallery: Sendable {
    /// One dropped track.
    struct Entry: Sendable {
        /// The track's public ID.
        var id: Int
        /// The track's class.
        var classIndex: Int?
        /// The frame (``ObjectTracker/frameCount``) in which the track was dropped.
        var droppedFrame: Int
        /// The track's average appearance (see ``TrackRecord/observeAppearance(_:inverseNorm:momentum:)``).
        var appearance: [Float]
    }

    /// The remembered tracks, oldest first.
    private(set) var entries: [Entry] = []
    /// The length of the tracker's appearance vectors: that of the first valid vector, 0 until then.
    var dimension = 0

    /// One over the Euclidean norm of `vector` when the tracker can use it — its values finite and not all zero, its
    /// length the tracker's (which the first such vector sets) — else `nil`. Computed in `Double`, where the norm of
    /// any such vector and its inverse are finite and positive (in `Float` the norm of values near its largest
    /// overflows, and one over the norm of subnormal values does).
    mutating func acceptedInverseNorm(of vector: [Float]) -> Double? {
        guard !vector.isEmpty, dimension == 0 || vector.count == dimension else { return nil }
        var sum = 0.0
        for value in vector {
            guard value.isFinite else { return nil }
            sum += Double(value) * Double(value)
        }
        guard sum > 0 else { return nil }
        dimension = vector.count
        return 1 / sum.squareRoot()
    }

    /// Remembers a dropped track, forgetting the oldest entry when the gallery holds `capacity` already.
    mutating func remember(id: Int, classIndex: Int?, appearance: [Float], frame: Int, capacity: Int) {
        guard !appearance.isEmpty else { return }
        if entries.capacity < capacity { entries.reserveCapacity(capacity) }
        if entries.count >= capacity { entries.removeFirst(entries.count - capacity + 1) }
        entries.append(Entry(id: id, classIndex: classIndex, droppedFrame: frame, appearance: appearance))
    }

    /// The ID of the entry `appearance` (a track's average, or one detection's normalized vector) re-identifies, which
    /// leaves the gallery; `nil` when none is similar enough or the best is ambiguous (see
    /// ``ReidentificationOptions``).
    /// Entries older than `options.memory` frames are forgotten first; with `matchesClasses`, only entries of the same
    /// class (when both have one) are compared.
    mutating func take(
        matching appearance: [Float], classIndex: Int?, frame: Int, matchesClasses: Bool,
        options: ReidentificationOptions
    ) -> Int? {
        let memory = options.memory
        entries.removeAll { frame - $0.droppedFrame > memory }
        guard appearance.count == dimension else { return nil }
        var best = -Double.infinity, second = -Double.infinity, bestIndex = -1
        for (index, entry) in entries.enumerated() {
            if matchesClasses, let classIndex, let other = entry.classIndex, classIndex != other { continue }
            let similarity = Self.cosine(appearance, entry.appearance)
            if similarity > best {
                second = best
                best = similarity
                bestIndex = index
            } else if similarity > second {
                second = similarity
            }
        }
        guard bestIndex >= 0, best >= options.minimumSimilarity, best - second >= options.margin else { return nil }
        return entries.remove(at: bestIndex).id
    }

    /// Forgets every entry and the vectors' length (``ObjectTracker/reset()``).
    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        dimension = 0
    }

    /// The cosine similarity of two vectors of the same length (0 when either is zero).
    static func cosine(_ a: [Float], _ b: [Float]) -> Double {
        precondition(a.count == b.count)
        var dot = 0.0, aa = 0.0, bb = 0.0
        for i in a.indices {
            let x = Double(a[i]), y = Double(b[i])
            dot += x * y
            aa += x * x
            bb += y * y
        }
        let product = (aa * bb).squareRoot()
        return product > 0 ? dot / product : 0
    }
}
