import LiteVisionGeometry
import LiteVisionImaging
import LiteVisionTestSupport
import LiteVisionTracking

/// A benchmark of ``ObjectTracker/update(_:imageWidth:imageHeight:)``, for the project's benchmark tool and for
/// tests that print timings.
package enum TrackerBenchmark {
    /// Tracks `objects` objects wandering over a 1920×1080 frame (boxes of 40–120 pixels bouncing off the
    /// edges, crossing one another) for `frames` frames, from simulated detections (3 % edge noise, 5 %
    /// misses, 0.2 false positives per frame), and returns the mean time of one `update` in milliseconds.
    /// The detections are made beforehand: only the tracker is timed.
    package static func benchmark(objects: Int, frames: Int) -> Double {
        precondition(objects >= 0 && frames > 0, "TrackerBenchmark: nothing to measure")
        let detections = makeDetections(objects: objects, frames: frames, seed: 42)
        var tracker = ObjectTracker()
        // One pass to warm caches and grow the tracker's buffers, then the timed pass on a fresh tracker.
        for frame in detections.prefix(10) { _ = tracker.update(frame, imageWidth: 1920, imageHeight: 1080) }
        tracker = ObjectTracker()
        var reported = 0
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for frame in detections {
                reported &+= tracker.update(frame, imageWidth: 1920, imageHeight: 1080).count
            }
        }
        precondition(reported >= 0)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return seconds * 1000 / Double(frames)
    }

    /// The simulated detections of the benchmark.
    static func makeDetections(objects: Int, frames: Int, seed: UInt64) -> [[TrackerDetection]] {
        var rng = SeededGenerator(seed: seed)
        let width = 1920.0, height = 1080.0
        struct Mover {
            var x: Double, y: Double, w: Double, h: Double, vx: Double, vy: Double
        }
        var movers = (0..<objects).map { _ in
            Mover(
                x: Double.random(in: 0...(width - 120), using: &rng),
                y: Double.random(in: 0...(height - 120), using: &rng),
                w: Double.random(in: 40...120, using: &rng), h: Double.random(in: 40...120, using: &rng),
                vx: Double.random(in: -8...8, using: &rng), vy: Double.random(in: -8...8, using: &rng))
        }
        var result: [[TrackerDetection]] = []
        for _ in 0..<frames {
            var frame: [TrackerDetection] = []
            for i in movers.indices {
                var m = movers[i]
                m.x += m.vx
                m.y += m.vy
                if m.x < 0 || m.x + m.w > width { m.vx = -m.vx; m.x += 2 * m.vx }
                if m.y < 0 || m.y + m.h > height { m.vy = -m.vy; m.y += 2 * m.vy }
                movers[i] = m
                guard Double.random(in: 0..<1, using: &rng) >= 0.05 else { continue }
                // Up to 5 % of the size off on each side.
                let dx = Double.random(in: -0.05...0.05, using: &rng), dy = Double.random(in: -0.05...0.05, using: &rng)
                let dw = Double.random(in: -0.05...0.05, using: &rng), dh = Double.random(in: -0.05...0.05, using: &rng)
                let box = BoundingBox(
                    x: m.x + dx * m.w, y: m.y + dy * m.h, width: m.w * (1 + dw), height: m.h * (1 + dh))
                frame.append(TrackerDetection(box: box, score: Float.random(in: 0.3...0.95, using: &rng)))
            }
            if Double.random(in: 0..<1, using: &rng) < 0.2 {
                frame.append(
                    TrackerDetection(
                        box: BoundingBox(
                            x: Double.random(in: 0...1800, using: &rng),
                            y: Double.random(in: 0...960, using: &rng),
                            width: 80, height: 80),
                        score: Float.random(in: 0.2...0.7, using: &rng)))
            }
            frame.shuffle(using: &rng)
            result.append(frame)
        }
        return result
    }
}
