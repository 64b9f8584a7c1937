/// ML Kit's five coarse object categories, given to detected objects when classification is on.
///
/// LiteVision reproduces ML Kit's built-in coarse classifier by classifying each object's crop with the
/// public object labeler (`object_labeler.tflite`, 631 Open Images classes) and folding its labels into these
/// five categories with `CoarseCategoryTable`. An object whose labels fit none of them gets no label.
///
/// ## How the 631 labels were sorted
///
/// Every label of the object labeler was decided one by one: 404 have a category (`CoarseCategoryTable/entries`),
/// 225 deliberately have none (`CoarseCategoryTable/uncategorizedLabels`), and the one display name used
/// twice, "Mouse", is told apart by its index (`CoarseCategoryTable/duplicatedLabels`). The rules:
///
/// - **Fashion good**: what is worn or carried as part of one's outfit: clothing (babywear and aprons too),
///   footwear, hats and caps, crowns and tiaras, belts, ties, scarves, gloves, umbrellas, keychains,
///   eyewear, jewellery, watches (smartwatches and activity trackers too: worn, not home electronics), bags,
///   luggage and wallets, cosmetics and perfume. Not protective or sports gear (helmets, goggles, life
///   jackets, baseball gloves, skates).
/// - **Home good**: what furnishes and equips a home: furniture (any bench, indoor or not), textiles,
///   decoration (paintings, posters, vases, figurines, busts, garden gnomes), clocks, candles, lighting,
///   fixtures (doors, windows, switches, sinks, taps, toilets, bathtubs), appliances large and small,
///   kitchenware, tableware and drinkware, bottles and other containers whatever they hold, storage boxes
///   and baskets, bathroom and personal-care goods, tools and hardware, books and stationery, toys and
///   indoor games. **Consumer electronics are home goods**, phones included: ML Kit's categories follow
///   product search's shopping verticals, and a phone, laptop, TV, camera or game console is a product of the
///   home-and-electronics kind; only electronics one wears (watches, trackers) are fashion.
/// - **Food**: everything eaten or drunk: generic labels (Food, Snack, Dessert, Drink, Dairy, Baked goods),
///   dishes, drinks, bread, pastries and sweets, **fruit** (Food, as in ML Kit, not Plant; tomatoes too),
///   vegetables, mushrooms, and shellfish and squid (Shrimp, Oyster, Lobster, Crab, Squid), which photos show
///   as dishes far more often than alive. Not animals otherwise eaten (Chicken, Turkey, Fish, Cattle, Pig).
/// - **Place**: buildings and structures one goes into, onto or around (Building, House, Castle,
///   Lighthouse, Stadium, Bridge, Fountain, Tent), and statues and monuments (Sculpture, Bronze sculpture:
///   the Statue of Liberty is a place). Rooms and parts of a house (doors, windows, countertops, fireplaces)
///   are home goods. The label file has no Skyscraper, Tower, Beach, Swimming pool or other scene labels.
/// - **Plant**: Plant, Houseplant, Flower, Christmas tree, and Flowerpot (the label pots get, nearly always
///   with a plant in them). The label file has no Tree or individual flower species.
/// - **No category**: people and animals; vehicles, what carries people (strollers, wheelchairs, car
///   seats) and vehicle parts; sports, fitness and protective gear and outdoor play (balls, rackets, kites,
///   balloons); musical instruments; weapons; medical and laboratory equipment; street furniture and signs;
///   documents, money and barcodes; packaging whose content is unknown (Packaged goods, Shipping box, Tin can);
///   Honeycomb and Snowman.
public enum CoarseCategory: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// "Fashion good" (index 0): clothing, footwear, accessories, jewellery, bags.
    case fashionGood = 0
    /// "Home good" (index 1): furniture, appliances, kitchenware, decoration, home electronics.
    case homeGood = 1
    /// "Food" (index 2): dishes, drinks, fruit, vegetables.
    case food = 2
    /// "Place" (index 3): buildings, landmarks, monuments.
    case place = 3
    /// "Plant" (index 4): plants and flowers.
    case plant = 4

    /// The label text ML Kit gives the category: "Fashion good", "Home good", "Food", "Place" or "Plant".
    public var text: String {
        switch self {
        case .fashionGood: "Fashion good"
        case .homeGood: "Home good"
        case .food: "Food"
        case .place: "Place"
        case .plant: "Plant"
        }
    }

    /// The category's ``text``.
    public var description: String { text }

    /// The category of an object labeler label; see `CoarseCategoryTable/category(forLabel:)`.
    public static func category(forLabel text: String) -> CoarseCategory? {
        CoarseCategoryTable.category(forLabel: text)
    }
}
