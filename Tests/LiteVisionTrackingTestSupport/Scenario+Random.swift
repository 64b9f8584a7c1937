import LiteVisionGeometry
import Foundation
import LiteVisionImaging
import LiteVisionTestSupport

/// What ``Scenario/random(seed:settings:)`` draws from.
package struct RandomScenarioSettings: Sendable, Equatable {
    /// Frame width.
    package var width = 640
    /// Frame height.
    package var height = 480
    /// Number of frames.
    package var frameCount = 90
    /// Number of objects.
    package var objectCount: ClosedRange<Int> = 2...5
    /// Object height in pixels (the width follows the crop; it is capped at 1.4 times the height).
    package var objectHeight: ClosedRange<Int> = 70...130
    /// Speed in pixels per frame.
    package var speed: ClosedRange<Double> = 2...8
    /// Chance that an object leaves the frame (fully, for 12 to 25 frames, early in the clip) and comes back.
    package var exitProbability = 0.3
    /// Number of occluders (pillars or bars of gray noise, wider than the narrowest object, at most a fifth of
    /// the frame, drawn over the objects).
    package var occluderCount: ClosedRange<Int> = 0...2
    /// The sprites to choose from (distinct per scenario while they last).
    package var sprites: [PhotoCrop] = SpriteCatalog.all
    /// The backgrounds to choose from.
    package var backgrounds: [PhotoCrop] = BackgroundCatalog.all
    /// The longest an object may stay mostly hidden (less than half visible while inside the frame), in
    /// frames: draws with longer occlusions are rejected, so that the clips test *short* occlusions, the ones
    /// a tracker is expected to bridge. Default 20 (under the tracker's default buffer of 45).
    package var maximumOcclusion = 20

    /// The default settings.
    package init() {}
}

extension Scenario {
    /// A scenario drawn at random from `seed` (always the same for the same seed and settings): random sprites
    /// and background, random-walk paths with turns every 15–40 frames, bouncing off the frame edges except
    /// when an object is chosen to leave and come back, and occluders. Draws where an object stays mostly
    /// hidden longer than ``RandomScenarioSettings/maximumOcclusion`` frames are redrawn. For checking a
    /// tracker on clips its tests have not seen.
    package static func random(seed: UInt64, settings: RandomScenarioSettings = .init()) -> Scenario {
        var rng = SeededGenerator(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 0x1234_5678)
        var scenario = draw(seed: seed, settings: settings, rng: &rng)
        var attempts = 1
        while attempts < 200, ScenarioTruth(scenario).longestOcclusion > settings.maximumOcclusion {
            scenario = draw(seed: seed, settings: settings, rng: &rng)
            attempts += 1
        }
        return scenario
    }

    /// One draw of ``random(seed:settings:)``.
    private static func draw(seed: UInt64, settings: RandomScenarioSettings, rng: inout SeededGenerator) -> Scenario {
        let width = Double(settings.width), height = Double(settings.height)
        let count = Int.random(in: settings.objectCount, using: &rng)
        var sprites = settings.sprites.shuffled(using: &rng)
        var objects: [MovingObject] = []
        let depths = Array(0..<count).shuffled(using: &rng)
        for i in 0..<count {
            if sprites.isEmpty { sprites = settings.sprites.shuffled(using: &rng) }
            let sprite = sprites.removeLast()
            let h = Int.random(in: settings.objectHeight, using: &rng)
            let w = min(Int((Double(h) * sprite.aspectRatio).rounded()), Int(Double(h) * 1.4))
            let exits = Double.random(in: 0..<1, using: &rng) < settings.exitProbability
            let keyframes = randomPath(
                size: (Double(w), Double(h)), frameCount: settings.frameCount,
                bounds: (width, height), speed: settings.speed, exits: exits, rng: &rng)
            objects.append(MovingObject(sprite: sprite, height: h, width: w, keyframes: keyframes, depth: depths[i]))
        }
        // Occluders: pillars (full height) or bars, wider than the narrower objects so that these can be fully
        // hidden, never covering more than a fifth of the frame each, and not overlapping one another.
        var occluders: [Occluder] = []
        let narrow = objects.map { Double($0.width) }.min() ?? 80
        for _ in 0..<Int.random(in: settings.occluderCount, using: &rng) {
            let gray = UInt8.random(in: 90...170, using: &rng)
            let style = Occluder.Style.noise(gray: gray, seed: rng.next())
            let box: BoundingBox
            if Bool.random(using: &rng) {
                let w = min(narrow * Double.random(in: 1.1...1.4, using: &rng), width * 0.2).rounded()
                let x = (Double.random(in: 0.1...0.9, using: &rng) * width - w / 2).rounded()
                box = BoundingBox(x: x, y: 0, width: w, height: height)
            } else {
                let h = min(
                    Double(settings.objectHeight.lowerBound) * Double.random(in: 1.1...1.4, using: &rng),
                    height * 0.2
                ).rounded()
                let y = (Double.random(in: 0.15...0.85, using: &rng) * height - h / 2).rounded()
                let x = (Double.random(in: 0...0.6, using: &rng) * width).rounded()
                box = BoundingBox(x: x, y: y, width: (width * 0.4).rounded(), height: h)
            }
            if occluders.contains(where: { $0.box.intersection(box).area > 0 }) { continue }
            occluders.append(Occluder(box: box, style: style))
        }
        let background = Background(
            settings.backgrounds.randomElement(using: &rng)!,
            blur: Int.random(in: 3...6, using: &rng),
            saturation: Double.random(in: 0.4...0.8, using: &rng),
            contrast: Double.random(in: 0.5...0.8, using: &rng))
        return Scenario(
            name: "random-\(seed)", width: settings.width, height: settings.height,
            frameCount: settings.frameCount, background: background, objects: objects,
            occluders: occluders)
    }

    /// A random walk inside the frame, optionally with one excursion fully out of it.
    private static func randomPath(
        size: (Double, Double), frameCount: Int, bounds: (Double, Double),
        speed: ClosedRange<Double>, exits: Bool,
        rng: inout SeededGenerator
    ) -> [Keyframe] {
        let (w, h) = size, (width, height) = bounds
        let minX = w / 2, maxX = width - w / 2, minY = h / 2, maxY = height - h / 2
        var x = Double.random(in: minX...max(minX, maxX), using: &rng)
        var y = Double.random(in: minY...max(minY, maxY), using: &rng)
        var frame = 0
        var keyframes = [Keyframe(0, x: x, y: y)]
        // The excursion: leaves at `exitFrame` through the nearest side at 6–10 px/frame, stays out for 12–25
        // frames, and comes back through a random side to a point at most 160 px inside.
        var exitFrame = exits && frameCount >= 70 ? Int.random(in: 5...25, using: &rng) : Int.max
        while frame < frameCount - 1 {
            if frame >= exitFrame {
                exitFrame = Int.max
                let s = Double.random(in: 6...10, using: &rng)
                let away = Int.random(in: 12...25, using: &rng)
                let distances = [x, width - x, y, height - y]
                let side = distances.indices.min { distances[$0] < distances[$1] }!
                let out = outside(side: side, x: x, y: y, size: (w, h), bounds: (width, height))
                let outFrames = max(1, Int((hypot(out.x - x, out.y - y) / s).rounded(.up)))
                let returnSide = Int.random(in: 0..<4, using: &rng)
                let depth = Double.random(in: 40...160, using: &rng)
                var backX = Double.random(in: minX...max(minX, maxX), using: &rng)
                var backY = Double.random(in: minY...max(minY, maxY), using: &rng)
                switch returnSide {
                case 0: backX = min(maxX, max(minX, depth))
                case 1: backX = max(minX, min(maxX, width - depth))
                case 2: backY = min(maxY, max(minY, depth))
                default: backY = max(minY, min(maxY, height - depth))
                }
                let entry = outside(side: returnSide, x: backX, y: backY, size: (w, h), bounds: (width, height))
                let inFrames = max(1, Int((hypot(entry.x - backX, entry.y - backY) / s).rounded(.up)))
                // Only if the whole excursion fits in the clip.
                if frame + outFrames + away + inFrames <= frameCount - 1 {
                    // Out, waiting there, then jumping (unseen, between two frames) to where it comes back from.
                    keyframes.append(Keyframe(frame + outFrames, x: out.x, y: out.y))
                    keyframes.append(Keyframe(frame + outFrames + away - 1, x: out.x, y: out.y))
                    keyframes.append(Keyframe(frame + outFrames + away, x: entry.x, y: entry.y))
                    frame += outFrames + away + inFrames
                    keyframes.append(Keyframe(frame, x: backX, y: backY))
                    x = backX
                    y = backY
                    continue
                }
            }
            let duration = min(
                Int.random(in: 15...40, using: &rng), frameCount - 1 - frame,
                exitFrame == Int.max ? Int.max : max(1, exitFrame - frame))
            let angle = Double.random(in: 0..<(2 * Double.pi), using: &rng)
            let s = Double.random(in: speed, using: &rng)
            var tx = x + cos(angle) * s * Double(duration), ty = y + sin(angle) * s * Double(duration)
            // Bounce off the edges (mirror the target back inside).
            if tx < minX { tx = 2 * minX - tx }
            if tx > maxX { tx = 2 * maxX - tx }
            if ty < minY { ty = 2 * minY - ty }
            if ty > maxY { ty = 2 * maxY - ty }
            x = min(max(tx, minX), maxX)
            y = min(max(ty, minY), maxY)
            frame += duration
            keyframes.append(Keyframe(frame, x: x, y: y))
        }
        return keyframes
    }

    /// The point just outside the frame (by 10 px beyond the object's half size) through `side` (0 left,
    /// 1 right, 2 top, 3 bottom) from (`x`, `y`).
    private static func outside(
        side: Int, x: Double, y: Double, size: (Double, Double),
        bounds: (Double, Double)
    ) -> (x: Double, y: Double) {
        switch side {
        case 0: (-size.0 / 2 - 10, y)
        case 1: (bounds.0 + size.0 / 2 + 10, y)
        case 2: (x, -size.1 / 2 - 10)
        default: (x, bounds.1 + size.1 / 2 + 10)
        }
    }
}
