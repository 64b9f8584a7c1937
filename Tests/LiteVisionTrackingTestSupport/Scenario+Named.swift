import LiteVisionGeometry
import LiteVisionImaging

extension Scenario {
    /// Two dogs walking toward each other and crossing in the middle (the terrier in front hides the greyhound
    /// for a few frames), and a burger drifting above them. 60 frames, 640×480.
    package static var crossing: Scenario {
        Scenario(
            name: "crossing", frameCount: 60, background: Background(BackgroundCatalog.sand),
            objects: [
                MovingObject(
                    sprite: SpriteCatalog.greyhound, height: 170,
                    keyframes: [Keyframe(0, x: 100, y: 250), Keyframe(59, x: 540, y: 240)], depth: 0),
                MovingObject(
                    sprite: SpriteCatalog.terrier, height: 150,
                    keyframes: [Keyframe(0, x: 540, y: 270), Keyframe(59, x: 100, y: 260)], depth: 1),
                MovingObject(
                    sprite: SpriteCatalog.burger, height: 90,
                    keyframes: [Keyframe(0, x: 120, y: 90), Keyframe(59, x: 200, y: 80)], depth: 0),
            ])
    }

    /// A corgi and a ball passing behind a pillar (gray noise, wider than them), each fully hidden for a few
    /// frames. 60 frames, 640×480.
    package static var occlusion: Scenario {
        Scenario(
            name: "occlusion", frameCount: 60, background: Background(BackgroundCatalog.clouds),
            objects: [
                MovingObject(
                    sprite: SpriteCatalog.corgi, height: 130,
                    keyframes: [Keyframe(0, x: 60, y: 320), Keyframe(59, x: 580, y: 320)]),
                MovingObject(
                    sprite: SpriteCatalog.ball, height: 80,
                    keyframes: [
                        Keyframe(0, x: 620, y: 120), Keyframe(40, x: 60, y: 130),
                        Keyframe(59, x: 60, y: 200),
                    ]),
            ],
            occluders: [
                Occluder(box: BoundingBox(x: 290, y: 0, width: 120, height: 480), style: .noise(gray: 120, seed: 7))
            ])
    }

    /// A dog that walks out on the right and comes back 20 frames later, a daisy that leaves on the left and
    /// comes back, and a rose that stays in view. 90 frames, 640×480.
    package static var exitAndReturn: Scenario {
        Scenario(
            name: "exitAndReturn", frameCount: 90, background: Background(BackgroundCatalog.sea),
            objects: [
                MovingObject(
                    sprite: SpriteCatalog.smallDog, height: 120,
                    keyframes: [
                        Keyframe(0, x: 200, y: 300), Keyframe(30, x: 760, y: 300),
                        Keyframe(50, x: 760, y: 300), Keyframe(75, x: 480, y: 280),
                        Keyframe(89, x: 470, y: 280),
                    ]),
                MovingObject(
                    sprite: SpriteCatalog.rose, height: 100,
                    keyframes: [Keyframe(0, x: 150, y: 120), Keyframe(89, x: 300, y: 140)]),
                MovingObject(
                    sprite: SpriteCatalog.daisy, height: 80,
                    keyframes: [
                        Keyframe(0, x: 420, y: 100), Keyframe(25, x: -120, y: 60),
                        Keyframe(45, x: -120, y: 60), Keyframe(70, x: 200, y: 200),
                        Keyframe(89, x: 250, y: 220),
                    ]),
            ])
    }

    /// Ten smaller objects wandering over the beach, often crossing. 90 frames, 640×480 (a fixed draw of
    /// ``random(seed:settings:)``).
    package static var many: Scenario {
        var settings = RandomScenarioSettings()
        settings.objectCount = 10...10
        settings.objectHeight = 60...100
        settings.exitProbability = 0
        settings.occluderCount = 0...0
        settings.backgrounds = [BackgroundCatalog.beach]
        var scenario = random(seed: 10, settings: settings)
        scenario.name = "many"
        return scenario
    }

    /// The named scenarios.
    package static var named: [Scenario] { [crossing, occlusion, exitAndReturn, many] }
}
