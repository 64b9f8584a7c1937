import FoundationEssentials
import LiteVision

/// How `litevision detect` and `track` print objects.
package enum DetectOutput {
    /// A readable block: the file, then one line per object (the file name and label texts escaped).
    package static func table(file: String, objects: [DetectedObject]) -> ConsoleText {
        var lines: [ConsoleText] = ["\(file)"]
        if objects.isEmpty { lines.append("  (no object)") }
        for object in objects {
            let f = object.frame
            let frame =
                "x \(fixed(Float(f.x), digits: 1)) y \(fixed(Float(f.y), digits: 1)) w \(fixed(Float(f.width), digits: 1)) h \(fixed(Float(f.height), digits: 1))"
            let id = object.trackingID.map { "#\($0) " } ?? ""
            var labels = object.labels.map { "\($0.text) \(fixed($0.confidence, digits: 3))" }.joined(separator: ", ")
            if let own = object.detectorLabel { labels = "[\(own.text)]" + (labels.isEmpty ? "" : " ") + labels }
            lines.append("  \(id)\(fixed(object.detectionConfidence, digits: 3))  \(frame)  \(labels)")
        }
        return .lines(lines)
    }

    private struct Line: Encodable {
        var file: String?
        var source: String?
        var frame: Int?
        var timestamp: Double?
        var latencyMs: Double?
        var objects: [Object]?
        var error: String?
    }

    /// One object in JSON: `labels` only when classification is on (as ML Kit has labels only then),
    /// `detectorLabel` only for a detector with classes.
    private struct Object: Encodable {
        var frame: BoundingBox
        var trackingID: Int?
        var labels: [ObjectLabel]?
        var detectorLabel: ObjectLabel?
        var detectionConfidence: Float
    }

    /// `{"file": ..., "objects": [{"frame": {...}, "trackingID": ..., "labels": [...], "detectionConfidence": ...}]}`;
    /// `labels` only when `classification` is on. Objects with a number JSON cannot hold throw ``NotFiniteResult``.
    package static func jsonLine(
        file: String, frame: Int? = nil, objects: [DetectedObject], classification: Bool
    ) throws(NotFiniteResult) -> ConsoleText {
        let line = Line(file: file, frame: frame, objects: json(objects, classification: classification))
        guard let text = JSONRecord.encoded(line) else { throw NotFiniteResult.objects }
        return .json(text)
    }

    /// `litevision track`'s record of a frame: `{"source": ..., "frame": N, "timestamp": seconds, "latencyMs": ...,
    /// "objects": [...]}`, the objects as in ``jsonLine(file:frame:objects:classification:)``. `source` is the
    /// location with any password masked; `latencyMs` is from the frame's data arriving to its result. A `nil`
    /// timestamp or latency (`--detections` has no video) is left out. Objects with a number JSON cannot hold give
    /// the record without `objects`, with an `error` (``NotFiniteResult``'s message).
    package static func trackLine(
        source: String, frame: Int, timestamp: Double?, latencyMs: Double?, objects: [DetectedObject],
        classification: Bool
    ) -> ConsoleText {
        var line = Line(
            source: source, frame: frame, timestamp: timestamp.map { ($0 * 1e6).rounded() / 1e6 },
            latencyMs: latencyMs.map { ($0 * 100).rounded() / 100 },
            objects: json(objects, classification: classification))
        if let text = JSONRecord.encoded(line) { return .json(text) }
        line.objects = nil
        line.error = NotFiniteResult.objects.description
        if let text = JSONRecord.encoded(line) { return .json(text) }
        // A timestamp or latency that is not finite (a decoder's), too: the record keeps its source and frame.
        line.timestamp = nil
        line.latencyMs = nil
        return .json(JSONRecord.encoded(line) ?? "{}")  // texts and integers only: always encoded
    }

    /// Whether every number of `objects` that a record holds is finite (JSON can hold them), `labels` only when
    /// `classification` is on, as in the records.
    package static func isFinite(_ objects: [DetectedObject], classification: Bool) -> Bool {
        objects.allSatisfy { object in
            let frame = object.frame
            return frame.x.isFinite && frame.y.isFinite && frame.width.isFinite && frame.height.isFinite
                && object.detectionConfidence.isFinite && object.detectorLabel?.confidence.isFinite != false
                && (!classification || object.labels.allSatisfy(\.confidence.isFinite))
        }
    }

    /// The objects as JSON records.
    private static func json(_ objects: [DetectedObject], classification: Bool) -> [Object] {
        objects.map {
            Object(
                frame: $0.frame, trackingID: $0.trackingID, labels: classification ? $0.labels : nil,
                detectorLabel: $0.detectorLabel, detectionConfidence: $0.detectionConfidence)
        }
    }

    /// `{"file": ..., "error": ...}`: a file that could not be processed.
    package static func jsonError(file: String, error: String) -> ConsoleText {
        .json(JSONRecord.encoded(Line(file: file, error: error)) ?? "{}")  // texts only: always encoded
    }
}
