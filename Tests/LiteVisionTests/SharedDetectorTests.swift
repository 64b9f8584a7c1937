import LiteVision
import LiteVisionTestSupport
import Testing

@Suite("ObjectDetector shared by concurrent tasks")
struct SharedDetectorTests {
    @Test("One single-image detector shared by 8 tasks for 80 calls returns what serial calls return")
    func concurrency() async throws {
        let options = ObjectDetectorOptions()
        options.modelDirectory = TestData.path("models")
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true
        options.shouldEnableClassification = true
        let detector = try ObjectDetector(options: options)
        let names = ["dogs.jpg", "pets.jpg", "multi_objects.jpg", "burger.jpg"]
        let images = try names.map { try VisionImage(contentsOfFile: TestData.image($0)).decoded() }
        let serial = try images.map { try detector.results(in: $0).map(Self.summary) }
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var mismatches = 0
                    for call in 0..<10 {
                        let which = (task * 10 + call) % images.count
                        if try await detector.process(images[which]).map(Self.summary) != serial[which] {
                            mismatches += 1
                        }
                    }
                    return mismatches
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(!serial[0].isEmpty, "dogs.jpg has dogs")
    }

    /// What a result is compared by: its box and labels.
    static func summary(_ object: Object) -> String {
        "\(object.frame) \(object.labels.map { "\($0.text) \($0.confidence)" })"
    }
}
