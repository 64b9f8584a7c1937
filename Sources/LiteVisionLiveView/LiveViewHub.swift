import NIOCore
import Synchronization

/// What the tracking process tells the live view, and what the live view's routes read: for each source the
/// newest annotated picture (made only while someone watches), the record of each processed frame, and the counters
/// that `/metrics` reports.
///
/// The tracking threads call ``isWatched(source:)``, ``publish(picture:source:)``, ``publish(record:source:latency:)``;
/// none of them waits for a viewer.
package final class LiveViewHub: Sendable {
    /// A source as the live view shows it.
    package struct Source: Sendable {
        /// How it is named (a URL with its password masked).
        package let name: String
        /// The size of its upright pictures.
        package let width: Int, height: Int

        /// A source named `name` whose pictures are `width` × `height`.
        package init(name: String, width: Int, height: Int) {
            self.name = name
            self.width = width
            self.height = height
        }
    }

    /// A source's counters, from its reader (`/metrics`).
    package struct SourceCounters: Sendable {
        /// Frames read from the source, decoded, dropped because the detector was busy, and reconnections.
        package var received = 0, decoded = 0, dropped = 0, reconnects = 0

        /// Counters of these values.
        package init(received: Int = 0, decoded: Int = 0, dropped: Int = 0, reconnects: Int = 0) {
            self.received = received
            self.decoded = decoded
            self.dropped = dropped
            self.reconnects = reconnects
        }
    }

    /// What was processed of one source.
    struct Processed: Sendable {
        var frames = 0
        var latency = LatencyHistogram()
    }

    /// The sources, in order: `/sources/N/stream.mjpg` is `sources[N]`.
    package let sources: [Source]
    let pictures: [PictureChannel]
    let events = EventChannel()
    private let processed: Mutex<[Processed]>
    /// Reads a source's counters (from its `VideoSource`).
    let counters: @Sendable (Int) -> SourceCounters

    /// A hub for `sources`; `counters(N)` gives source N's counters when `/metrics` is read.
    package init(sources: [Source], counters: @escaping @Sendable (Int) -> SourceCounters) {
        self.sources = sources
        self.counters = counters
        pictures = sources.map { _ in PictureChannel() }
        processed = Mutex(Array(repeating: Processed(), count: sources.count))
    }

    /// Whether someone watches source `index`'s pictures: draw and encode them only then.
    package func isWatched(source index: Int) -> Bool { pictures[index].isWatched }

    /// Source `index`'s newest annotated picture (a JPEG).
    package func publish(picture jpeg: [UInt8], source index: Int) {
        pictures[index].publish(ByteBuffer(bytes: jpeg))
    }

    /// The record of a processed frame of source `index` (one JSON object, without a newline), processed
    /// `latency` seconds after its data arrived.
    package func publish(record: String, source index: Int, latency: Double) {
        processed.withLock { states in
            states[index].frames += 1
            states[index].latency.observe(latency)
        }
        events.publish(.record(record))
    }

    /// What was processed of source `index` so far.
    func processedState(of index: Int) -> Processed { processed.withLock { $0[index] } }

    /// Wakes every viewer (see ``PictureChannel/heartbeat()``).
    func heartbeat() {
        for channel in pictures { channel.heartbeat() }
        events.publish(.heartbeat)
    }

    /// Ends every viewer's stream (the server is stopping).
    package func close() {
        for channel in pictures { channel.close() }
        events.close()
    }
}
