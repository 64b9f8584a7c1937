import LiteVision
import LiteVisionTestSupport
import Testing

/// ML Kit's five coarse categories, through the object labeler and LiteVision's category table, on the most
/// prominent object of each shared photo.
@Suite("Coarse object classification")
struct CoarseClassificationTests {
    static let detector: ObjectDetector = {
        let options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.shouldEnableClassification = true
        options.detectionThreshold = 0.3
        options.modelDirectory = TestData.path("models")
        return try! ObjectDetector(options: options)
    }()

    /// The expected category of the most prominent object of each shared photo; nil = an object with no
    /// category (animals, people, vehicles), as ML Kit leaves them unlabeled. Measured once and reviewed by eye:
    /// - flowers are Plant, the burger and the three meals Food, the Statue of Liberty a Place (statues and
    ///   monuments are places in the table);
    /// - the heron, the dogs, Grace Hopper and the dog-bicycle-truck street scene have no category;
    /// - cats_and_dogs.jpg is a known miss: the object labeler's best label for the crop of the cat lying on a
    ///   blanket is a household item, so it comes out as Home good.
    static let expected: [(String, CoarseCategory?)] = [
        ("daisy.jpeg", .plant), ("roses.jpeg", .plant), ("sunflower.jpg", .plant), ("tulips.jpeg", .plant),
        ("dandelion.jpg", .plant),
        ("burger.jpg", .food), ("img_meal_one.jpg", .food), ("img_meal_two.jpg", .food), ("img_meal_three.jpg", .food),
        ("liberty.jpg", .place),
        ("bird.jpg", nil), ("dogs.jpg", nil), ("pets.jpg", nil), ("grace_hopper.jpg", nil),
        ("yolox_dog_bicycle_truck.jpg", nil),
        ("cats_and_dogs.jpg", .homeGood),
    ]

    @Test("The most prominent object of each photo gets its documented category", arguments: expected.indices)
    func category(_ which: Int) throws {
        let (name, category) = Self.expected[which]
        let objects = try Self.detector.results(in: try VisionImage(contentsOfFile: TestData.image(name)))
        let object = try #require(objects.first, "no object in \(name)")
        if let category {
            #expect(object.labels.count == 1)
            #expect(object.labels.first?.text == category.text, "\(name): \(object.labels)")
            #expect(object.labels.first?.index == category.rawValue)
            #expect((object.labels.first?.confidence ?? 0) >= 0.35)
        } else {
            #expect(object.labels.isEmpty, "\(name): \(object.labels)")
        }
    }

    @Test("Custom classification labels each object with the user's model")
    func custom() throws {
        let options = CustomObjectDetectorOptions(
            localModel: LocalModel(
                path: TestData.model("automl_flowers.tflite"),
                labelsPath: TestData.model("automl_flowers.labels.txt")))
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true
        options.shouldEnableClassification = true  // off by default, as in ML Kit
        options.maxPerObjectLabelCount = 2
        options.modelDirectory = TestData.path("models")
        let detector = try ObjectDetector(options: options)
        let objects = try detector.results(in: try VisionImage(contentsOfFile: TestData.image("roses.jpeg")))
        #expect(objects.count >= 2)
        for object in objects {
            #expect(object.labels.count <= 2 && !object.labels.isEmpty)
            #expect(object.labels.first?.text == "roses", "\(object.labels)")
        }
    }
}
