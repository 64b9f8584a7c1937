/// `/metrics`: the live view's counters in Prometheus' text format (version 0.0.4), one series per source,
/// labelled with the source's index and name.
enum LiveViewMetrics {
    /// The content type of the text.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The metrics of `hub` now.
    static func render(_ hub: LiveViewHub) -> String {
        let labels = hub.sources.enumerated().map { index, source in
            "source=\"\(index)\",location=\"\(escaped(source.name))\""
        }
        let counters = hub.sources.indices.map { hub.counters($0) }
        let processed = hub.sources.indices.map { hub.processedState(of: $0) }
        var text = ""
        func counter(_ name: String, _ help: String, _ value: (Int) -> Int) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) counter\n"
            for index in hub.sources.indices { text += "\(name){\(labels[index])} \(value(index))\n" }
        }
        counter("litevision_frames_received_total", "Frames read from the source.") { counters[$0].received }
        counter("litevision_frames_decoded_total", "Frames decoded.") { counters[$0].decoded }
        counter("litevision_frames_processed_total", "Frames through the detector and tracker.") {
            processed[$0].frames
        }
        counter("litevision_frames_dropped_total", "Frames dropped while the detector was busy with older ones.") {
            counters[$0].dropped
        }
        counter("litevision_reconnects_total", "Reconnections after the stream was lost or stalled.") {
            counters[$0].reconnects
        }
        let latency = "litevision_latency_seconds"
        text += "# HELP \(latency) From a frame's arrival to the end of its detection and tracking.\n"
        text += "# TYPE \(latency) histogram\n"
        for index in hub.sources.indices {
            let histogram = processed[index].latency
            for (bound, count) in zip(LatencyHistogram.bounds, histogram.cumulative) {
                text += "\(latency)_bucket{\(labels[index]),le=\"\(bound)\"} \(count)\n"
            }
            text += "\(latency)_bucket{\(labels[index]),le=\"+Inf\"} \(histogram.count)\n"
            text += "\(latency)_sum{\(labels[index])} \(histogram.sum)\n"
            text += "\(latency)_count{\(labels[index])} \(histogram.count)\n"
        }
        text += "# HELP litevision_viewers Clients watching now.\n# TYPE litevision_viewers gauge\n"
        text += "litevision_viewers{stream=\"mjpeg\"} \(hub.pictures.reduce(0) { $0 + $1.viewers })\n"
        text += "litevision_viewers{stream=\"events\"} \(hub.events.subscribers)\n"
        return text
    }

    /// `value` as a label value: backslash, double quote and newline escaped.
    static func escaped(_ value: String) -> String {
        var result = ""
        for character in value {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }
}
