import LiteVisionImaging
import LiteVisionTestSupport
import LiteVisionTrackingTestSupport
import Testing

@Suite("Synthetic sequences")
struct SyntheticSequenceTests {
    @Test("Every sprite and background is a region of a real shared photo")
    func cropsInsidePhotos() throws {
        for crop in SpriteCatalog.all + BackgroundCatalog.all {
            let header = try ImageDecoder().inspectFile(atPath: TestData.image(crop.photo))
            let size = header.uprightSize
            #expect(crop.rect.x >= 0 && crop.rect.y >= 0, "\(crop.name)")
            #expect(crop.rect.maxX <= Double(size.width) && crop.rect.maxY <= Double(size.height), "\(crop.name)")
        }
    }

    @Test("Named scenarios have the promised events")
    func namedScenarios() {
        let crossing = ScenarioTruth(.crossing)
        // The greyhound is mostly hidden by the terrier while they cross.
        #expect(crossing.frames.compactMap { $0.first { $0.objectIndex == 0 }?.visibility }.min()! < 0.3)
        let occlusion = ScenarioTruth(.occlusion)
        // Both objects are fully hidden behind the pillar for a few frames, well under the track buffer.
        for object in 0..<2 {
            let hidden = occlusion.frames.filter { $0.contains { $0.objectIndex == object && $0.visibility == 0 } }
                .count
            #expect((2...10).contains(hidden), "object \(object) hidden \(hidden) frames")
        }
        #expect(occlusion.longestOcclusion <= 20)
        let exits = ScenarioTruth(.exitAndReturn)
        #expect(exits.idsByObject.map(\.count) == [2, 1, 2])
        #expect(Set(exits.idsByObject.flatMap { $0 }).count == 5)
        let many = ScenarioTruth(.many)
        #expect(many.frames.allSatisfy { $0.count == 10 })
        for scenario in Scenario.named { #expect((30...120).contains(scenario.frameCount)) }
    }

    @Test("Random scenarios are reproducible, differ between seeds and keep occlusions short")
    func randomScenarios() {
        let a = Scenario.random(seed: 5), b = Scenario.random(seed: 5), c = Scenario.random(seed: 6)
        #expect(a.objects == b.objects && a.occluders == b.occluders && a.background == b.background)
        #expect(a.objects != c.objects)
        var returns = 0
        for seed in 300..<330 {
            let truth = ScenarioTruth(.random(seed: UInt64(seed)))
            #expect(truth.longestOcclusion <= 20)
            #expect((2...5).contains(truth.scenario.objects.count))
            returns += truth.idsByObject.filter { $0.count > 1 }.count
        }
        #expect(returns >= 5, "some objects leave and come back")
    }

    @Test("Frames are deterministic and show each object exactly at its truth box")
    func rendering() throws {
        let sequence = try SyntheticSequence(.crossing)
        let frame = sequence.frame(5)
        #expect(frame.width == 640 && frame.height == 480 && frame.format == .rgb8)
        #expect(try SyntheticSequence(.crossing).frame(5).pixels == frame.pixels)
        #expect(sequence.frame(6).pixels != frame.pixels)
        // Without the burger, the frame differs exactly inside the burger's box.
        var scenario = Scenario.crossing
        scenario.objects.remove(at: 2)
        let without = try SyntheticSequence(scenario).frame(5)
        let burger = sequence.truth(at: 5).first { $0.objectIndex == 2 }!.box
        var changed = (minX: Int.max, minY: Int.max, maxX: Int.min, maxY: Int.min)
        for y in 0..<480 {
            for x in 0..<640 {
                let i = (y * 640 + x) * 3
                if frame.pixels[i..<(i + 3)] != without.pixels[i..<(i + 3)] {
                    changed = (min(changed.minX, x), min(changed.minY, y), max(changed.maxX, x), max(changed.maxY, y))
                }
            }
        }
        #expect(Double(changed.minX) >= burger.x && Double(changed.maxX) < burger.maxX)
        #expect(Double(changed.minY) >= burger.y && Double(changed.maxY) < burger.maxY)
        #expect(Double(changed.maxX - changed.minX + 1) > 0.9 * burger.width)
        #expect(Double(changed.maxY - changed.minY + 1) > 0.9 * burger.height)
    }

    @Test("Random clips render with their occluders over the objects")
    func randomRendering() throws {
        var settings = RandomScenarioSettings()
        settings.occluderCount = 1...1
        let sequence = try SyntheticSequence(.random(seed: 77, settings: settings))
        #expect(sequence.frames().count == sequence.frameCount)
        let occluder = sequence.scenario.occluders[0].box
        // The occluder's patch is identical in every frame: nothing is drawn over it.
        let first = sequence.frame(0), last = sequence.frame(sequence.frameCount - 1)
        let x = Int(occluder.midX), y = Int(occluder.midY), i = (y * 640 + x) * 3
        #expect(first.pixels[i..<(i + 3)] == last.pixels[i..<(i + 3)])
    }
}
