import LiteVisionGeometry
import LiteVisionImaging
import LiteVisionTracking

/// A baseline tracker without motion model and without low-score rescue: each confident detection (score at
/// least 0.5) is matched greedily, by decreasing IoU (at least 0.3), to the last box seen of a track; tracks
/// unmatched for more than `trackBuffer` frames are dropped. It is what simple trackers do, and what
/// ``ObjectTracker`` should beat.
package struct NaiveIoUTracker: Sendable {
    private struct Entry: Sendable {
        var id: Int
        var box: BoundingBox
        var missed: Int
    }

    /// Frames a track is kept without a match.
    package var trackBuffer: Int
    private var entries: [Entry] = []
    private var nextID = 0

    /// A baseline tracker.
    package init(trackBuffer: Int = 30) {
        self.trackBuffer = trackBuffer
    }

    /// Tracks the next frame; returns the matched and new tracks as (ID, detection box), sorted by ID.
    package mutating func update(_ detections: [TrackerDetection]) -> [LabeledBox] {
        let confident = detections.indices.filter { detections[$0].score >= 0.5 }
        var pairs: [(iou: Double, entry: Int, detection: Int)] = []
        for (e, entry) in entries.enumerated() {
            for d in confident {
                let iou = entry.box.iou(detections[d].box)
                if iou >= 0.3 { pairs.append((iou, e, d)) }
            }
        }
        pairs.sort { $0.iou > $1.iou }
        var entryUsed = Set<Int>(), detectionUsed = Set<Int>()
        var output: [LabeledBox] = []
        for pair in pairs where !entryUsed.contains(pair.entry) && !detectionUsed.contains(pair.detection) {
            entryUsed.insert(pair.entry)
            detectionUsed.insert(pair.detection)
            entries[pair.entry].box = detections[pair.detection].box
            entries[pair.entry].missed = 0
            output.append(LabeledBox(id: entries[pair.entry].id, box: entries[pair.entry].box))
        }
        for e in entries.indices where !entryUsed.contains(e) { entries[e].missed += 1 }
        entries.removeAll { $0.missed > trackBuffer }
        for d in confident where !detectionUsed.contains(d) && detections[d].score >= 0.6 {
            entries.append(Entry(id: nextID, box: detections[d].box, missed: 0))
            output.append(LabeledBox(id: nextID, box: detections[d].box))
            nextID += 1
        }
        return output.sorted { $0.id < $1.id }
    }
}
