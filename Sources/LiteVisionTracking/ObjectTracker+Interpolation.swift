import LiteVisionGeometry

extension ObjectTracker {
    /// The longest gap, in frames, ``interpolatingGaps(in:upTo:)`` fills.
    public static let maximumInterpolatedGap = 1000

    /// A whole sequence's tracks with each object's gaps filled: offline, once every frame has been tracked.
    ///
    /// `frames[t]` holds the tracks ``update(_:imageWidth:imageHeight:)`` returned for frame `t`. Where an ID is
    /// reported in frames `a` and `b` and in none of the `b - a - 1` frames between them, from 1 to `maxGap` (at most
    /// ``maximumInterpolatedGap``), each of those frames gets a track with that ID whose box (and filtered box) lies on
    /// the straight line between the two boxes, at the frame's share of the way (constant velocity, as ByteTrack's
    /// and StrongSORT's linear interpolation). Such a track is coasting: no ``Track/detectionIndex``, the score of the
    /// last detection (frame `a`'s), ``Track/framesSinceUpdate`` counted from `a`. In each frame the filled tracks come
    /// after the reported ones, by ID. Longer gaps, and the frames before an ID's first report and after its last, are
    /// left as they are.
    ///
    /// Stream mode reports an object only in the frames it is detected in, as ML Kit does; a recorded sequence can
    /// also be given boxes where its objects were hidden or missed, which benchmarks count as found: on LiteVision's
    /// tracking benchmark (`docs/tracking-quality.md`) gaps of up to 20 frames raised HOTA by about 15 points. Count
    /// the boxes it adds first with ``interpolatedGapCount(in:upTo:)`` when the sequence may be long.
    public static func interpolatingGaps(in frames: [[Track]], upTo maxGap: Int) -> [[Track]] {
        var filled = frames
        var added = [[Track]](repeating: [], count: frames.count)
        forEachGap(in: frames, upTo: maxGap) { from, to, first, last in
            let span = Double(to - from)
            for frame in (from + 1)..<to {
                let share = Double(frame - from) / span
                added[frame].append(
                    Track(
                        id: first.id, box: first.box.interpolated(to: last.box, by: share),
                        filteredBox: first.filteredBox.interpolated(to: last.filteredBox, by: share),
                        score: first.score, classIndex: first.classIndex, detectionIndex: nil,
                        age: first.age + frame - from, hits: first.hits, framesSinceUpdate: frame - from))
            }
        }
        for frame in added.indices where !added[frame].isEmpty {
            filled[frame] += added[frame].sorted { $0.id < $1.id }
        }
        return filled
    }

    /// How many tracks ``interpolatingGaps(in:upTo:)`` adds to `frames`, without making them.
    public static func interpolatedGapCount(in frames: [[Track]], upTo maxGap: Int) -> Int {
        var count = 0
        forEachGap(in: frames, upTo: maxGap) { from, to, _, _ in count += to - from - 1 }
        return count
    }

    /// Calls `body` with each gap of 1 to `maxGap` frames (capped at ``maximumInterpolatedGap``) between two
    /// reports of one ID: the frames of the reports and the two tracks.
    private static func forEachGap(
        in frames: [[Track]], upTo maxGap: Int, _ body: (Int, Int, Track, Track) -> Void
    ) {
        let longest = min(maxGap, maximumInterpolatedGap)
        guard longest >= 1 else { return }
        var lastSeen: [Int: (frame: Int, track: Track)] = [:]
        for (frame, tracks) in frames.enumerated() {
            for track in tracks {
                if let last = lastSeen[track.id], (2...(longest + 1)).contains(frame - last.frame) {
                    body(last.frame, frame, last.track, track)
                }
                lastSeen[track.id] = (frame, track)
            }
        }
    }
}
