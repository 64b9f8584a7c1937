import LiteVisionGeometry
import Foundation
import LiteVisionImaging
import LiteVisionTestSupport
import LiteVisionTracking

/// A detection produced by ``DetectionSimulator``, with the truth it came from.
package struct SimulatedDetection: Sendable, Equatable {
    /// The detection, as a tracker gets it.
    package var detection: TrackerDetection
    /// The truth ID it was made from, or `nil` for a false positive.
    package var truthID: Int?
}

/// A scripted detector failure for one object over a range of frames.
package struct DetectionEvent: Sendable, Equatable {
    /// What happens.
    package enum Kind: Sendable, Equatable {
        /// The object is not detected.
        case missing
        /// The object is detected with this score (for instance 0.2: under the high threshold).
        case score(Float)
    }

    /// The physical object (index into ``Scenario/objects``).
    package var objectIndex: Int
    /// The frames affected.
    package var frames: ClosedRange<Int>
    /// The failure.
    package var kind: Kind

    /// A scripted failure.
    package init(objectIndex: Int, frames: ClosedRange<Int>, kind: Kind) {
        self.objectIndex = objectIndex
        self.frames = frames
        self.kind = kind
    }
}

/// Makes detector output from ground truth, so that trackers can be tested without a model: the truth boxes
/// with noise, random misses, false positives, and the score drops and partial boxes of a real detector on
/// partly hidden objects. Deterministic for a given seed.
package struct DetectionSimulator: Sendable, Equatable {
    /// Seed of the random draws.
    package var seed: UInt64 = 1
    /// Standard deviation of each box edge, as a fraction of the box size. Default 0.02.
    package var edgeNoise = 0.02
    /// Chance that a visible object is missed in a frame, independently. Default 0.
    package var missRate = 0.0
    /// Expected number of false positives per frame (each lasts one frame, at a random place). Default 0.
    package var falsePositiveRate = 0.0
    /// Scores of false positives. Default 0.2...0.75: mostly weak, some confident enough to start tracks.
    package var falsePositiveScores: ClosedRange<Float> = 0.2...0.75
    /// Scores of well visible objects. Default 0.65...0.95.
    package var scores: ClosedRange<Float> = 0.65...0.95
    /// An object with less than this fraction visible is not detected. Default 0.3.
    package var minimumVisibility = 0.3
    /// An object with less than this fraction of its in-frame part unoccluded gets a low score. Default 0.6.
    package var partialVisibility = 0.6
    /// Scores of partly hidden objects (below a tracker's high threshold). Default 0.15...0.45.
    package var partialScores: ClosedRange<Float> = 0.15...0.45
    /// Whether a partly hidden object's box covers only its visible part, as real detectors do. Default true.
    package var boxesFollowVisiblePart = true
    /// Whether detections carry the objects' classes. Default false (class-agnostic, like ML Kit's detector).
    package var reportsClasses = false
    /// Scripted failures.
    package var events: [DetectionEvent] = []

    /// A simulator with the defaults: boxes with a little noise, no random miss, no false positive.
    package init() {}

    /// A simulator with the defaults and a seed.
    package init(seed: UInt64) {
        self.seed = seed
    }

    /// A detector of everyday quality: edges off by 3 % (standard deviation), 5 % of visible objects missed at
    /// random, 0.2 false positives per frame (mostly weak), plus the partial boxes and weak scores of partly
    /// hidden objects.
    package static func realistic(seed: UInt64) -> DetectionSimulator {
        var simulator = DetectionSimulator(seed: seed)
        simulator.edgeNoise = 0.03
        simulator.missRate = 0.05
        simulator.falsePositiveRate = 0.2
        return simulator
    }

    /// The detections of every frame, shuffled within each frame.
    package func detections(for truth: ScenarioTruth) -> [[SimulatedDetection]] {
        var rng = SeededGenerator(seed: seed ^ 0xD1B5_4A32_D192_ED03)
        let width = Double(truth.scenario.width), height = Double(truth.scenario.height)
        var result: [[SimulatedDetection]] = []
        for (f, objects) in truth.frames.enumerated() {
            var frame: [SimulatedDetection] = []
            for object in objects {
                // Draw every random number in the same order whatever happens, so that changing one setting
                // does not reshuffle the rest.
                let missDraw = Double.random(in: 0..<1, using: &rng)
                let normalScore = Float.random(in: scores, using: &rng)
                let partialScore = Float.random(in: partialScores, using: &rng)
                let noise = (0..<4).map { _ in rng.nextGaussian() }
                guard object.visibility >= minimumVisibility, missDraw >= missRate else { continue }
                var score = object.unoccludedFraction < partialVisibility ? partialScore : normalScore
                var skip = false
                for event in events where event.objectIndex == object.objectIndex && event.frames.contains(f) {
                    switch event.kind {
                    case .missing: skip = true
                    case .score(let value): score = value
                    }
                }
                if skip { continue }
                let base = boxesFollowVisiblePart ? (object.visibleBox ?? object.box) : object.box
                let box = jittered(base, noise).clamped(width: width, height: height)
                guard box.width >= 2, box.height >= 2 else { continue }
                frame.append(
                    SimulatedDetection(
                        detection: TrackerDetection(
                            box: box, score: score,
                            classIndex: reportsClasses ? object.classIndex : nil),
                        truthID: object.id))
            }
            // False positives: a Poisson-like count from repeated coin flips.
            var falsePositives = 0
            var remaining = falsePositiveRate
            while remaining > 0 {
                if Double.random(in: 0..<1, using: &rng) < min(remaining, 1) { falsePositives += 1 }
                remaining -= 1
            }
            for _ in 0..<falsePositives {
                let w = Double.random(in: 40...140, using: &rng), h = Double.random(in: 40...140, using: &rng)
                let box = BoundingBox(
                    x: Double.random(in: 0...(width - w), using: &rng),
                    y: Double.random(in: 0...(height - h), using: &rng), width: w, height: h)
                let score = Float.random(in: falsePositiveScores, using: &rng)
                frame.append(SimulatedDetection(detection: TrackerDetection(box: box, score: score), truthID: nil))
            }
            frame.shuffle(using: &rng)
            result.append(frame)
        }
        return result
    }

    /// Only the tracker inputs of ``detections(for:)``.
    package func trackerInput(for truth: ScenarioTruth) -> [[TrackerDetection]] {
        detections(for: truth).map { $0.map(\.detection) }
    }

    private func jittered(_ box: BoundingBox, _ noise: [Double]) -> BoundingBox {
        let left = box.x + noise[0] * edgeNoise * box.width
        let right = box.maxX + noise[1] * edgeNoise * box.width
        let top = box.y + noise[2] * edgeNoise * box.height
        let bottom = box.maxY + noise[3] * edgeNoise * box.height
        return BoundingBox(
            x: min(left, right), y: min(top, bottom), width: abs(right - left), height: abs(bottom - top))
    }
}
