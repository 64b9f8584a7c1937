import LiteVisionImaging

/// A synthetic video clip rendered from a ``Scenario``: real photo crops moving over a real (blurred, faded)
/// background, hidden by occluders, with the exact ground truth of every frame.
///
/// Frames are rendered on demand by ``frame(_:)`` (about a millisecond each at 640×480), so a clip costs
/// little memory; the same scenario always gives the same pixels.
package struct SyntheticSequence: Sendable {
    /// The scenario.
    package let scenario: Scenario
    /// Its ground truth.
    package let truth: ScenarioTruth
    private let background: ImageBuffer
    private let sprites: [ImageBuffer]
    private let patches: [ImageBuffer]
    private let drawingOrder: [Int]

    /// Prepares a clip: reads the photos (from the shared test data) and cuts the sprites.
    package init(_ scenario: Scenario) throws {
        self.scenario = scenario
        truth = ScenarioTruth(scenario)
        background = try FrameCompositor.background(
            scenario.background, width: scenario.width,
            height: scenario.height)
        sprites = try scenario.objects.map {
            try PhotoLibrary.piece($0.sprite, width: $0.width, height: $0.height)
        }
        patches = try scenario.occluders.map {
            try FrameCompositor.patch(
                $0.style, width: max(1, Int($0.box.width.rounded())),
                height: max(1, Int($0.box.height.rounded())))
        }
        drawingOrder = scenario.objects.indices.sorted {
            (scenario.objects[$0].depth, $0) < (scenario.objects[$1].depth, $1)
        }
    }

    /// The number of frames.
    package var frameCount: Int { scenario.frameCount }

    /// Frame `index` (RGB8, `scenario.width`×`scenario.height`).
    package func frame(_ index: Int) -> ImageBuffer {
        precondition((0..<frameCount).contains(index), "SyntheticSequence: no frame \(index)")
        var image = background
        for i in drawingOrder {
            guard let box = scenario.objects[i].box(at: index) else { continue }
            FrameCompositor.paste(sprites[i], into: &image, x: Int(box.x), y: Int(box.y))
        }
        for (i, occluder) in scenario.occluders.enumerated() where occluder.isActive(at: index) {
            FrameCompositor.paste(
                patches[i], into: &image, x: Int(occluder.box.x.rounded()),
                y: Int(occluder.box.y.rounded()))
        }
        return image
    }

    /// Every frame, in order.
    package func frames() -> [ImageBuffer] {
        (0..<frameCount).map(frame)
    }

    /// The truth of frame `index`.
    package func truth(at index: Int) -> [TruthObject] { truth.frames[index] }
}
