import LiteVisionGeometry
import LiteVisionTestSupport
import LiteVisionTracking
import Testing

/// Camera-motion compensation (`TrackingOptions.cameraMotion`, `ObjectTracker.update(_:imageWidth:imageHeight:cameraMotion:)`):
/// a moving camera moves every object at once.
@Suite("Camera-motion compensation")
struct CameraMotionTests {
    /// A scene seen by a moving camera: people at world positions (walking at their own velocity), the camera's
    /// zoom about the image center and shift per frame, and what a detector reports (boxes jittered by a seeded
    /// generator, all confident), on a 1280x720 view.
    struct MovingScene {
        /// Per frame, each person's detection (nil when out of view), in the frame's pixels.
        var frames: [[TrackerDetection]] = []
        /// Per frame, which person each detection is.
        var people: [[Int]] = []
        /// Per frame, the true motion of the view from the previous frame (identity for the first).
        var motions: [CameraMotion] = []

        /// `camera(t)` gives the zoom about the center and the view's shift at frame t.
        init(
            count: Int, people start: [(x: Double, y: Double, vx: Double)], size: (Double, Double) = (36, 90),
            jitter: Double = 1.5, seed: UInt64, camera: (Int) -> (scale: Double, x: Double, y: Double)
        ) {
            var generator = SeededGenerator(seed: seed)
            let cx = 640.0, cy = 360.0
            for t in 0..<count {
                let view = camera(t)
                let previous = camera(max(0, t - 1))
                // x_t = s_t (X - c) + c - p_t, so x_t = (s_t / s_{t-1}) (x_{t-1} - c + p_{t-1}) + c - p_t.
                let ratio = view.scale / previous.scale
                let shiftX: Double = ratio * (previous.x - cx) + cx - view.x
                let shiftY: Double = ratio * (previous.y - cy) + cy - view.y
                motions.append(
                    t == 0 ? .identity : CameraMotion(scale: ratio, translationX: shiftX, translationY: shiftY))
                var detections: [TrackerDetection] = [], who: [Int] = []
                for (index, person) in start.enumerated() {
                    let worldX = person.x + person.vx * Double(t)
                    let w: Double = size.0 * view.scale, h: Double = size.1 * view.scale
                    let jitterX: Double = Double.random(in: -jitter...jitter, using: &generator)
                    let jitterY: Double = Double.random(in: -jitter...jitter, using: &generator)
                    let x: Double = view.scale * (worldX - cx) + cx - view.x + jitterX
                    let y: Double = view.scale * (person.y - cy) + cy - view.y + jitterY
                    guard x > 2, y > 2, x + w < 1278, y + h < 718 else { continue }
                    detections.append(TrackerDetection(box: BoundingBox(x: x, y: y, width: w, height: h), score: 0.9))
                    who.append(index)
                }
                frames.append(detections)
                people.append(who)
            }
        }

        /// Tracks the scene and returns each person's IDs, in order of appearance (repeats removed), and the
        /// motion the tracker applied in each frame.
        func track(_ options: TrackingOptions, givingMotion: Bool = false) -> (ids: [[Int]], applied: [CameraMotion?]) {
            var tracker = ObjectTracker(options: options)
            let count = (people.flatMap { $0 }.max() ?? -1) + 1
            var ids = [[Int]](repeating: [], count: count)
            var applied: [CameraMotion?] = []
            for (t, detections) in frames.enumerated() {
                let tracks = tracker.update(
                    detections, imageWidth: 1280, imageHeight: 720, cameraMotion: givingMotion ? motions[t] : nil)
                applied.append(tracker.lastCameraMotion)
                for track in tracks {
                    guard let index = track.detectionIndex else { continue }
                    let person = people[t][index]
                    if ids[person].last != track.id { ids[person].append(track.id) }
                }
            }
            return (ids, applied)
        }
    }

    static var estimated: TrackingOptions {
        var options = TrackingOptions()
        options.cameraMotion = .estimated
        return options
    }

    /// Six people standing still in the world, a camera panning at 16 px per frame that turns back every 20 frames.
    static let panning: MovingScene = {
        var people: [(x: Double, y: Double, vx: Double)] = []
        for index in 0..<6 {
            let x = 430 + 110 * Double(index), y = 250 + 15 * Double(index % 3)
            people.append((x: x, y: y, vx: 0))
        }
        return MovingScene(count: 130, people: people, seed: 11, camera: panCamera)
    }()

    /// The panning camera: still for 10 frames (while the tracks are established), then 16 px per frame to the
    /// right for 20 frames, back for 20, and so on.
    static func panCamera(_ t: Int) -> (scale: Double, x: Double, y: Double) {
        let phase = (16 * max(0, t - 10)) % 640
        let offset = Double(phase <= 320 ? phase : 640 - phase)
        return (scale: 1, x: offset, y: 0)
    }

    /// The zooming camera: still for 10 frames, then in by 3 % per frame for 12 frames, hold 12, out for 12, hold 12.
    static func zoomCamera(_ t: Int) -> (scale: Double, x: Double, y: Double) {
        let phase = max(0, t - 10) % 48
        let steps = phase < 12 ? phase : phase < 24 ? 12 : phase < 36 ? 36 - phase : 0
        var scale = 1.0
        for _ in 0..<steps { scale *= 1.03 }
        return (scale: scale, x: 0, y: 0)
    }

    /// A still camera.
    static func stillCamera(_ t: Int) -> (scale: Double, x: Double, y: Double) { (scale: 1, x: 0, y: 0) }

    @Test("A pan that turns back: every person keeps one ID with the estimate; without, they get new IDs")
    func panKeepsIDs() {
        let scene = Self.panning
        let with = scene.track(Self.estimated)
        #expect(with.ids.allSatisfy { $0.count == 1 }, "\(with.ids)")
        #expect(Set(with.ids.flatMap { $0 }).count == 6)
        let without = scene.track(TrackingOptions())
        #expect(without.ids.filter { $0.count > 1 }.count >= 3, "\(without.ids)")
        #expect(without.applied.allSatisfy { $0 == nil })
    }

    @Test("Given motion keeps the IDs even with the camera taken as still; the estimate agrees with it")
    func givenAndEstimated() throws {
        let scene = Self.panning
        let given = scene.track(TrackingOptions(), givingMotion: true)
        #expect(given.ids.allSatisfy { $0.count == 1 }, "\(given.ids)")
        #expect(given.applied.dropFirst(11).allSatisfy { $0 != nil })
        // The estimate is what the tracks' motion models do not predict: with the tracks established while the
        // camera was still, the camera's whole motion.
        let estimated = scene.track(Self.estimated)
        var compared = 0
        for (t, motion) in estimated.applied.enumerated() {
            guard let motion else { continue }
            let truth = scene.motions[t]
            // Where the middle of the scene (640, 310) goes, within 3 px; a zoom of at most 1 %.
            let x = motion.scale * 640 + motion.translationX, y = motion.scale * 310 + motion.translationY
            #expect(abs(x - (640 + truth.translationX)) < 3, "frame \(t): \(motion) vs \(truth)")
            #expect(abs(y - (310 + truth.translationY)) < 3, "frame \(t): \(motion) vs \(truth)")
            #expect(abs(motion.scale - 1) < 0.01, "frame \(t): \(motion)")
            compared += 1
        }
        // Estimated in most frames of the pan (120 frames, 16 px each).
        #expect(compared >= 100)
    }

    @Test("A zoom in and out about the center: IDs kept with the estimate, which finds the zoom")
    func zoom() {
        // 8 people spread over the view; the camera zooms in by 3 % per frame for 12 frames, then out.
        var people: [(x: Double, y: Double, vx: Double)] = []
        for index in 0..<8 {
            let x = 380 + 75 * Double(index), y = 200 + 40 * Double(index % 4)
            people.append((x: x, y: y, vx: 0))
        }
        let scene = MovingScene(count: 106, people: people, seed: 5, camera: Self.zoomCamera)
        let with = scene.track(Self.estimated)
        #expect(with.ids.allSatisfy { $0.count == 1 }, "\(with.ids)")
        var compared = 0
        for (t, estimate) in with.applied.enumerated() {
            guard let estimate else { continue }
            let truth = scene.motions[t]
            #expect(abs(estimate.scale - truth.scale) < 0.01, "frame \(t): \(estimate) vs \(truth)")
            compared += 1
        }
        #expect(compared > 0)
    }

    @Test("A still camera and a crowd walking one way: the estimate stays off and IDs are no worse")
    func crowdWalkingOneWay() {
        // 10 people walking right at 3 to 5 px per frame (some overtaking others), the camera still.
        var people: [(x: Double, y: Double, vx: Double)] = []
        for index in 0..<10 {
            let x = 60 + 45 * Double(index), y = 120 + 50 * Double(index % 5), vx = 3 + Double(index % 3)
            people.append((x: x, y: y, vx: vx))
        }
        let scene = MovingScene(count: 150, people: people, jitter: 3, seed: 3, camera: Self.stillCamera)
        let with = scene.track(Self.estimated), without = scene.track(TrackingOptions())
        let changesWith = with.ids.map { $0.count - 1 }.reduce(0, +)
        let changesWithout = without.ids.map { $0.count - 1 }.reduce(0, +)
        #expect(changesWith <= changesWithout, "with \(with.ids), without \(without.ids)")
        let applied = with.applied.filter { $0 != nil }.count
        #expect(applied * 20 <= scene.frames.count, "applied in \(applied) frames")
    }

    @Test("Off by default; an invalid given motion is ignored as if none had been given")
    func defaultsAndInvalid() {
        #expect(TrackingOptions().cameraMotion == .fixed)
        #expect(!CameraMotion(scale: 0, translationX: 0, translationY: 0).isValid)
        #expect(!CameraMotion(translationX: .nan, translationY: 0).isValid)
        #expect(!CameraMotion(scale: .infinity, translationX: 0, translationY: 0).isValid)
        let zoom = CameraMotion(scale: 2, aboutX: 640, y: 360)
        #expect(zoom.translationX == -640 && zoom.translationY == -360)
        let scene = Self.panning
        var plain = ObjectTracker(), invalid = ObjectTracker()
        for detections in scene.frames {
            let a = plain.update(detections, imageWidth: 1280, imageHeight: 720)
            let b = invalid.update(
                detections, imageWidth: 1280, imageHeight: 720,
                cameraMotion: CameraMotion(scale: -1, translationX: .infinity, translationY: 3))
            #expect(a == b)
            #expect(invalid.lastCameraMotion == nil)
        }
    }
}
