import LiteVision
import LiteVisionTestSupport
import TFLiteFormat
import Testing

@Suite("Coarse category table")
struct CoarseCategoryTableTests {
    /// The object labeler's English display names and its Knowledge Graph ids (`/m/...`, `/g/...`), read from the model.
    static let model: (names: [String], ids: [String]) = {
        do {
            let file = try TFLiteModelFile(contentsOfFile: TestData.model("object_labeler.tflite"))
            guard let names = try file.labelMap(forOutput: 0, locale: "en")?.labels,
                let ids = try file.associatedFiles.data(named: "probability-labels.txt")
            else {
                fatalError("object_labeler.tflite has no label files")
            }
            return (names, try! LabelMap(text: ids).labels)
        } catch {
            fatalError("cannot read object_labeler.tflite: \(error)")
        }
    }()

    @Test("The model has 631 labels, the English display names next to their Knowledge Graph ids")
    func labelFile() {
        #expect(Self.model.names.count == 631)
        #expect(Self.model.ids.count == 631)
        #expect(Self.model.names.first == "Smart speaker" && Self.model.ids.allSatisfy { $0.hasPrefix("/") })
    }

    @Test("Every key is an exact label, and every label is decided exactly once")
    func coverage() {
        let names = Set(Self.model.names)
        let categorized = Set(CoarseCategoryTable.entries.keys)
        let uncategorized = CoarseCategoryTable.uncategorizedLabels
        let duplicated = Set(CoarseCategoryTable.duplicatedLabels.keys)
        #expect(categorized.subtracting(names).sorted() == [], "keys that are not labels")
        #expect(uncategorized.subtracting(names).sorted() == [], "uncategorized names that are not labels")
        #expect(categorized.isDisjoint(with: uncategorized))
        #expect(duplicated.isDisjoint(with: categorized) && duplicated.isDisjoint(with: uncategorized))
        #expect(
            names.subtracting(categorized).subtracting(uncategorized).subtracting(duplicated).sorted() == [],
            "labels nobody decided")
        #expect(categorized.count + uncategorized.count + duplicated.count == names.count)
        // Only the duplicated display names appear more than once in the file.
        var counts: [String: Int] = [:]
        for name in Self.model.names { counts[name, default: 0] += 1 }
        #expect(Set(counts.filter { $0.value > 1 }.keys) == duplicated)
    }

    @Test("\"Mouse\" is told apart by index: the computer mouse is a home good, the animal has no category")
    func mouse() {
        let (names, ids) = Self.model
        #expect(names[144] == "Mouse" && ids[144] == "/m/020lf")  // computer mouse
        #expect(names[334] == "Mouse" && ids[334] == "/m/04rmv")  // the animal
        #expect(CoarseCategoryTable.category(forLabel: "Mouse", index: 144) == .homeGood)
        #expect(CoarseCategoryTable.category(forLabel: "Mouse", index: 334) == nil)
        #expect(CoarseCategoryTable.category(forLabel: "Mouse") == nil)
        // Labels used once give the same answer with or without their index.
        for (index, name) in names.enumerated() where name != "Mouse" {
            #expect(
                CoarseCategoryTable.category(forLabel: name, index: index)
                    == CoarseCategoryTable.category(forLabel: name))
        }
    }

    static let spotChecks: [(String, CoarseCategory?)] = [
        ("Dress", .fashionGood), ("Jeans", .fashionGood), ("Sneakers", .fashionGood), ("Handbag", .fashionGood),
        ("Sunglasses", .fashionGood), ("Watch", .fashionGood), ("Necklace", .fashionGood), ("Fedora", .fashionGood),
        ("Couch", .homeGood), ("Chair", .homeGood), ("Lamp", .homeGood), ("Refrigerator", .homeGood),
        ("Mug", .homeGood), ("cup", .homeGood), ("Bottle", .homeGood), ("Mobile phone", .homeGood),
        ("Laptop", .homeGood), ("Television", .homeGood), ("Hammer", .homeGood), ("Teddy bear", .homeGood),
        ("Candle hold", .homeGood), ("Expresso machine", .homeGood), ("Kitchen Appliance", .homeGood),
        ("Hamburger", .food), ("Pizza", .food), ("Apple", .food), ("Banana", .food), ("Broccoli", .food),
        ("Tomato", .food), ("Beer", .food), ("Juice", .food), ("Mushroom", .food), ("Shrimp", .food),
        ("Building", .place), ("House", .place), ("Castle", .place), ("Lighthouse", .place),
        ("Bridge", .place), ("Stadium", .place), ("Bronze sculpture", .place),
        ("Flower", .plant), ("Houseplant", .plant), ("Plant", .plant), ("Christmas tree", .plant),
        ("Dog", nil), ("Cat", nil), ("Person", nil), ("Car", nil), ("Bicycle", nil), ("Chicken", nil),
        ("Fish", nil), ("Helmet", nil), ("Piano", nil), ("Football", nil), ("Kite", nil), ("Rifle", nil),
        ("Traffic light", nil), ("Passport", nil), ("Packaged goods", nil),
        // Not labels of the file (or not spelled as there): no category.
        ("Skyscraper", nil), ("Tower", nil), ("Tree", nil), ("hamburger", nil), ("Cup", nil), ("", nil),
    ]

    @Test("Spot checks per category", arguments: spotChecks)
    func spotCheck(label: String, expected: CoarseCategory?) {
        #expect(CoarseCategoryTable.category(forLabel: label) == expected)
        #expect(CoarseCategory.category(forLabel: label) == expected)
    }

    @Test("Category indexes and texts are ML Kit's")
    func categories() {
        #expect(CoarseCategory.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect(CoarseCategory.allCases.map(\.text) == ["Fashion good", "Home good", "Food", "Place", "Plant"])
        #expect(CoarseCategory(rawValue: 2) == .food && CoarseCategory(rawValue: 5) == nil)
        #expect("\(CoarseCategory.homeGood)" == "Home good")
    }

    @Test("Counts per category (printed), over the model's 631 outputs")
    func counts() {
        var counts = [Int](repeating: 0, count: CoarseCategory.allCases.count)
        var none = 0
        for (index, name) in Self.model.names.enumerated() {
            if let category = CoarseCategoryTable.category(forLabel: name, index: index) {
                counts[category.rawValue] += 1
            } else {
                none += 1
            }
        }
        let summary = CoarseCategory.allCases.map { "\($0.text): \(counts[$0.rawValue])" } + ["none: \(none)"]
        print("Coarse categories of object_labeler's 631 outputs: " + summary.joined(separator: ", "))
        #expect(counts == [80, 232, 78, 10, 5] && none == 226)
        #expect(counts.allSatisfy { $0 > 0 })
    }
}
