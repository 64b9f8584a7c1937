/// The mapping from the object labeler's labels (`object_labeler.tflite`, display names in English exactly as in
/// its `probability-labels-en.txt`) to ML Kit's coarse categories. The rules are in ``CoarseCategory``'s
/// documentation.
///
/// Keys are spelled exactly as in the label file, its oddities included: "Candle hold" (cut short),
/// "Expresso machine", "cup" (lower case), "Kitchen Appliance".
package enum CoarseCategoryTable {
    /// The category of a label, or nil when it has none (people, animals, vehicles...), when the text is not
    /// one of the object labeler's labels (the match is exact, case included), or when the text names two
    /// different classes (see ``duplicatedLabels``; use ``category(forLabel:index:)`` there).
    package static func category(forLabel text: String) -> CoarseCategory? {
        entries[text]
    }

    /// The category of the label at `index` of the object labeler's output, whose text is `text`: the same
    /// as ``category(forLabel:)``, except that a text used for two classes is resolved by its index.
    package static func category(forLabel text: String, index: Int) -> CoarseCategory? {
        if let byIndex = duplicatedLabels[text] { return byIndex[index] }
        return entries[text]
    }

    /// Display names the object labeler uses for two classes, with the category of each class by output index
    /// (an index missing here has no category). "Mouse" is both the computer mouse (index 144, `/m/020lf`),
    /// a home good, and the animal (index 334, `/m/04rmv`), which has none.
    package static let duplicatedLabels: [String: [Int: CoarseCategory]] = [
        "Mouse": [144: .homeGood]
    ]

    /// The labels that have a category, grouped by category and kind (404 of the 631).
    package static let entries: [String: CoarseCategory] = [
        // MARK: Fashion good (80 labels)
        // Garments, including babywear (Bib, Diaper) and the Apron.
        "Clothing": .fashionGood, "Outerwear": .fashionGood, "Coat": .fashionGood, "Jacket": .fashionGood,
        "Vest": .fashionGood, "Suit": .fashionGood, "Sweater": .fashionGood, "Hoodie": .fashionGood,
        "Shirt": .fashionGood, "T-shirt": .fashionGood, "Top": .fashionGood, "Dress": .fashionGood,
        "Skirt": .fashionGood, "Miniskirt": .fashionGood, "Jeans": .fashionGood, "Pants": .fashionGood,
        "Shorts": .fashionGood, "Sweatpants": .fashionGood, "Jumpsuit": .fashionGood, "Romper": .fashionGood,
        "Overall": .fashionGood, "Bodysuit": .fashionGood, "Swimwear": .fashionGood, "Brassiere": .fashionGood,
        "Underpants": .fashionGood, "Sock": .fashionGood, "Apron": .fashionGood, "Bib": .fashionGood,
        "Diaper": .fashionGood,
        // Footwear.
        "Footwear": .fashionGood, "Shoe": .fashionGood, "Boot": .fashionGood, "Sneakers": .fashionGood,
        "High heels": .fashionGood, "Sandal": .fashionGood, "Slipper": .fashionGood, "Flip-flops": .fashionGood,
        // Hats and caps (not protective helmets), crowns and tiaras.
        "Hat": .fashionGood, "Cap": .fashionGood, "Baseball cap": .fashionGood, "Cowboy hat": .fashionGood,
        "Fedora": .fashionGood, "Sombrero": .fashionGood, "Straw hat": .fashionGood, "Sun hat": .fashionGood,
        "Visor": .fashionGood, "Swim cap": .fashionGood, "Crown": .fashionGood, "Tiara": .fashionGood,
        // Accessories carried or worn.
        "Belt": .fashionGood, "Tie": .fashionGood, "Bowtie": .fashionGood, "Scarf": .fashionGood,
        "Glove": .fashionGood, "Umbrella": .fashionGood, "Keychain": .fashionGood, "Cufflink": .fashionGood,
        // Glasses (protective Goggles are sports gear: no category).
        "Eyewear": .fashionGood, "Glasses": .fashionGood, "Sunglasses": .fashionGood,
        // Jewellery and watches, smart ones included (worn electronics).
        "Jewellery": .fashionGood, "Necklace": .fashionGood, "Bracelet": .fashionGood, "Earrings": .fashionGood,
        "Ring": .fashionGood, "Watch": .fashionGood, "Smartwatch": .fashionGood, "Activity tracker": .fashionGood,
        // Bags, luggage and wallets.
        "Bag": .fashionGood, "Luggage & bags": .fashionGood, "Luggage": .fashionGood, "Suitcase": .fashionGood,
        "Backpack": .fashionGood, "Handbag": .fashionGood, "Briefcase": .fashionGood, "Satchel": .fashionGood,
        "Wallet": .fashionGood,
        // Cosmetics and perfume.
        "Lipstick": .fashionGood, "Face powder": .fashionGood, "Perfume": .fashionGood,
        // MARK: Home good (231 labels)
        // Furniture, indoor or not (Bench), and racks.
        "Furniture": .homeGood, "Chair": .homeGood, "Stool": .homeGood, "Bench": .homeGood, "Couch": .homeGood,
        "Loveseat": .homeGood, "Bean bag": .homeGood, "Bed": .homeGood, "Infant bed": .homeGood,
        "Dog bed": .homeGood, "Table": .homeGood, "Coffee table": .homeGood,
        "Kitchen & dining room table": .homeGood, "Desk": .homeGood, "Nightstand": .homeGood,
        "Chest of drawers": .homeGood, "Cupboard": .homeGood, "Cabinetry": .homeGood,
        "Bathroom cabinet": .homeGood, "Filing cabinet": .homeGood, "Bookcase": .homeGood, "Shelf": .homeGood,
        "Wardrobe": .homeGood, "Wine rack": .homeGood, "Spice rack": .homeGood,
        // Home textiles, decoration, candles and clocks (Watch is fashion).
        "Pillow": .homeGood, "Throw pillow": .homeGood, "Blanket": .homeGood, "Towel": .homeGood,
        "Curtain": .homeGood, "Window blind": .homeGood, "Vase": .homeGood, "Mirror": .homeGood,
        "Picture frame": .homeGood, "Painting": .homeGood, "Poster": .homeGood, "Figurine": .homeGood,
        "Bust": .homeGood, "Garden gnome": .homeGood, "Chime": .homeGood, "Candle": .homeGood,
        "Candle hold": .homeGood, "Clock": .homeGood, "Wall clock": .homeGood, "Alarm clock": .homeGood,
        "Digital clock": .homeGood, "Grandfather clock": .homeGood,
        // Lamps and portable lights (Street light is street furniture: no category).
        "Lighting": .homeGood, "Lamp": .homeGood, "Light fixture": .homeGood, "Chandelier": .homeGood,
        "Light bulb": .homeGood, "Lantern": .homeGood, "Torch": .homeGood, "Flashlight": .homeGood,
        // Fixtures of a house: doors, windows, switches, kitchen and bathroom fittings.
        "Door": .homeGood, "Window": .homeGood, "Door handle": .homeGood, "Lock": .homeGood,
        "Light switch": .homeGood, "Power outlet": .homeGood, "Thermostat": .homeGood, "Countertop": .homeGood,
        "Fireplace": .homeGood, "Sink": .homeGood, "Tap": .homeGood, "Toilet": .homeGood, "Bidet": .homeGood,
        "Bathtub": .homeGood, "Shower": .homeGood, "Jacuzzi": .homeGood, "Soap dispenser": .homeGood,
        "Facial tissue holder": .homeGood,
        // Appliances, large and small, indoor and outdoor (Barbecue grill).
        "Home appliance": .homeGood, "Kitchen Appliance": .homeGood, "Refrigerator": .homeGood, "Oven": .homeGood,
        "Microwave oven": .homeGood, "Stove": .homeGood, "Gas stove": .homeGood, "Cooker": .homeGood,
        "Pressure cooker": .homeGood, "Slow cooker": .homeGood, "Deep fryer": .homeGood, "Toaster": .homeGood,
        "Blender": .homeGood, "Mixer": .homeGood, "Food processor": .homeGood, "Grinder": .homeGood,
        "Coffeemaker": .homeGood, "Expresso machine": .homeGood, "Electric kettle": .homeGood, "Kettle": .homeGood,
        "Waffle iron": .homeGood, "Dishwasher": .homeGood, "Washing machine": .homeGood, "Wine cooler": .homeGood,
        "Vacuum": .homeGood, "Robotic vacuum cleaner": .homeGood, "Sewing machine": .homeGood, "Heater": .homeGood,
        "Wood-burning stove": .homeGood, "Mechanical fan": .homeGood, "Ceiling fan": .homeGood,
        "Bladeless fan": .homeGood, "Hair dryer": .homeGood, "Hand dryer": .homeGood, "Barbecue grill": .homeGood,
        // Kitchenware, tableware, drinkware (bottles too: containers, whatever they hold) and storage.
        "Tableware": .homeGood, "Plate": .homeGood, "Bowl": .homeGood, "Saucer": .homeGood, "Mug": .homeGood,
        "Coffee cup": .homeGood, "cup": .homeGood, "Teacup": .homeGood, "Wine glass": .homeGood,
        "Tumbler": .homeGood, "Teapot": .homeGood, "Jug": .homeGood, "Pitcher": .homeGood, "Bottle": .homeGood,
        "Water bottle": .homeGood, "Wine bottle": .homeGood, "Vacuum flask": .homeGood, "Fork": .homeGood,
        "Knife": .homeGood, "Kitchen knife": .homeGood, "Spoon": .homeGood, "Chopsticks": .homeGood,
        "Ladle": .homeGood, "Spatula": .homeGood, "Whisk": .homeGood, "Frying pan": .homeGood, "Wok": .homeGood,
        "Cutting board": .homeGood, "Serving tray": .homeGood, "Cake stand": .homeGood, "Measuring cup": .homeGood,
        "Pizza cutter": .homeGood, "Bottle opener": .homeGood, "Cocktail shaker": .homeGood,
        "Salt and pepper shakers": .homeGood, "Scale": .homeGood, "Container": .homeGood, "Box": .homeGood,
        "Basket": .homeGood, "Barrel": .homeGood, "Waste container": .homeGood,
        // Bathroom and personal-care goods (cosmetics are fashion) and paper goods.
        "Toothbrush": .homeGood, "Electric toothbrush": .homeGood, "Electric razor": .homeGood, "Comb": .homeGood,
        "Toilet paper": .homeGood, "Paper towel": .homeGood,
        // Consumer electronics, phones included, their media and accessories (computer mouse: duplicatedLabels).
        "Electronic device": .homeGood, "Display device": .homeGood, "Television": .homeGood,
        "Computer monitor": .homeGood, "Laptop": .homeGood, "Tablet computer": .homeGood,
        "Computer keyboard": .homeGood, "Printer": .homeGood, "Fax": .homeGood, "Projector": .homeGood,
        "Wireless router": .homeGood, "Mobile phone": .homeGood, "Telephone": .homeGood, "Corded phone": .homeGood,
        "Smart speaker": .homeGood, "Loudspeaker": .homeGood, "Headphones": .homeGood, "Microphone": .homeGood,
        "Camera": .homeGood, "Single-lens reflex camera": .homeGood, "Video camera": .homeGood,
        "Camera lens": .homeGood, "Flash": .homeGood, "Tripod": .homeGood, "Binoculars": .homeGood,
        "Remote control": .homeGood, "Video game console": .homeGood, "Handheld video game console": .homeGood,
        "Game controller": .homeGood, "Portable media player": .homeGood, "Virtual reality headset": .homeGood,
        "Head-mounted display": .homeGood, "Cassette deck": .homeGood, "Vinyl record": .homeGood,
        "Optical disc": .homeGood, "Calculator": .homeGood, "Battery": .homeGood,
        // Hand and power tools, hardware.
        "Hardware": .homeGood, "Hammer": .homeGood, "Screwdriver": .homeGood, "Wrench": .homeGood,
        "Ratchet": .homeGood, "Drill": .homeGood, "Chisel": .homeGood, "Axe": .homeGood, "Chainsaw": .homeGood,
        "Nail": .homeGood, "Ladder": .homeGood, "Adhesive tape": .homeGood, "Ruler": .homeGood,
        "Scissors": .homeGood,
        // Books, stationery and office supplies.
        "Book": .homeGood, "Magazine": .homeGood, "Notebook": .homeGood, "Ring binder": .homeGood,
        "Pen": .homeGood, "Pencil case": .homeGood, "Pencil sharpener": .homeGood, "Stapler": .homeGood,
        "Post-it note": .homeGood, "Envelope": .homeGood, "Greeting card": .homeGood, "Whiteboard": .homeGood,
        // Toys and indoor games (balls, kites and other sports gear: no category).
        "Toy": .homeGood, "Doll": .homeGood, "Stuffed toy": .homeGood, "Teddy bear": .homeGood,
        "Action figure": .homeGood, "Lego": .homeGood, "Toy block": .homeGood, "Toy train": .homeGood,
        "Toy vehicle": .homeGood, "Board game": .homeGood, "Dice": .homeGood, "Playing card": .homeGood,
        "Pinwheel": .homeGood,
        // MARK: Food (78 labels)
        // General food and drink labels.
        "Food": .food, "Snack": .food, "Dessert": .food, "Baked goods": .food, "Dairy": .food, "Drink": .food,
        // Drinks.
        "Beer": .food, "Juice": .food, "Cocktail": .food, "Milk": .food,
        // Dishes, baked goods, dairy, sweets.
        "Hamburger": .food, "Hot dog": .food, "Pizza": .food, "Sandwich": .food, "Submarine sandwich": .food,
        "Taco": .food, "Burrito": .food, "Sushi": .food, "Pasta": .food, "Salad": .food, "French fries": .food,
        "Guacamole": .food, "Egg": .food, "Cheese": .food, "Cream": .food, "Bread": .food, "Bagel": .food,
        "Croissant": .food, "Pretzel": .food, "Waffle": .food, "Pancake": .food, "Muffin": .food, "Cookie": .food,
        "Cake": .food, "Tart": .food, "Pastry": .food, "Doughnut": .food, "Ice cream": .food, "Candy": .food,
        "Popcorn": .food,
        // Shellfish and squid: photographed as dishes far more often than alive (Fish: no category).
        "Shrimp": .food, "Oyster": .food, "Lobster": .food, "Crab": .food, "Squid": .food,
        // Fruit (Food, as in ML Kit, not Plant), Tomato included.
        "Fruit": .food, "Apple": .food, "Banana": .food, "Orange": .food, "Lemon": .food, "Grapefruit": .food,
        "Mango": .food, "Pineapple": .food, "Peach": .food, "Pear": .food, "Pomegranate": .food,
        "Strawberry": .food, "Grape": .food, "Watermelon": .food, "Cantaloupe": .food, "Coconut": .food,
        "Common fig": .food, "Tomato": .food,
        // Vegetables and mushrooms.
        "Vegetable": .food, "Cucumber": .food, "Zucchini": .food, "Squash": .food, "Pumpkin": .food,
        "Winter melon": .food, "Cabbage": .food, "Broccoli": .food, "Carrot": .food, "Radish": .food,
        "Potato": .food, "Artichoke": .food, "Asparagus": .food, "Bell pepper": .food, "Mushroom": .food,
        // MARK: Place (10 labels)
        // Buildings and structures one goes into, onto or around.
        "Building": .place, "House": .place, "Castle": .place, "Lighthouse": .place, "Stadium": .place,
        "Bridge": .place, "Fountain": .place, "Tent": .place,
        // Statues and monuments (the Statue of Liberty is a Place); small figures are decoration (Home good).
        "Sculpture": .place, "Bronze sculpture": .place,
        // MARK: Plant (5 labels)
        // Plants and flowers, potted ones too (Flowerpot: the label of pots, nearly always with a plant).
        "Plant": .plant, "Houseplant": .plant, "Flower": .plant, "Christmas tree": .plant, "Flowerpot": .plant,
    ]

    /// The labels that deliberately have no category (225 of the 631), grouped by reason. With
    /// ``entries`` and ``duplicatedLabels`` they cover every label of the object labeler exactly once.
    package static let uncategorizedLabels: Set<String> = [
        // People and animals, edible ones too (Chicken, Turkey, Fish, Cattle...).
        "Person", "Insect", "Fish", "Goldfish", "Shark", "Whale", "Dolphin", "Sea lion", "Harbor seal", "Otter",
        "Jellyfish", "Starfish", "Seahorse", "Rays and skates", "Isopod", "Tick", "Centipede", "Worm", "Snail",
        "Spider", "Scorpion", "Ant", "Bee", "Beetle", "Butterfly", "Moths and butterflies", "Caterpillar",
        "Dragonfly", "Lady bug", "Tortoise", "Turtle", "Sea turtle", "Lizard", "Snake", "Crocodile", "Frog",
        "Dinosaur", "Magpie", "Woodpecker", "Blue jay", "Raven", "Sparrow", "Canary", "Parrot", "Owl", "Eagle",
        "Falcon", "Duck", "Goose", "Swan", "Penguin", "Ostrich", "Chicken", "Turkey", "Cat", "Lion", "Tiger",
        "Leopard", "Jaguar", "Cheetah", "Lynx", "Bear", "Brown bear", "Polar bear", "Panda", "Red panda", "Koala",
        "Kangaroo", "Monkey", "Lemur", "Fox", "Raccoon", "Skunk", "Squirrel", "Hamster", "Rabbit", "Hedgehog",
        "Porcupine", "Armadillo", "Bat", "Elephant", "Giraffe", "Zebra", "Rhinoceros", "Hippopotamus", "Camel",
        "Alpaca", "Deer", "Antelope", "Cattle", "Bull", "Goat", "Sheep", "Pig", "Mule",
        // Vehicles, things that carry people (Stroller, Wheelchair, Carseat...) and vehicle parts.
        "Car", "Van", "Truck", "Bus", "Limousine", "Ambulance", "Tank", "Train", "Motorcycle", "Scooter", "Segway",
        "Bicycle", "Kid bike", "Unicycle", "Golf cart", "Snowmobile", "Snowplow", "Jet ski", "Boat", "Ship",
        "Barge", "Gondola", "Canoe", "Submarine", "Airplane", "Helicopter", "Rocket", "Drone", "Parachute", "Cart",
        "Stroller", "Wheelchair", "Carseat", "Baby carrier", "Stretcher", "Wheel", "Tire", "Bicycle wheel",
        "License plate",
        // Sports, fitness and protective gear (helmets, goggles, life jackets), outdoor play (Kite, Balloon).
        "Ball", "Football", "Soccer ball", "Basketball", "Volleyball", "Rugby ball", "Baseball", "Cricket ball",
        "Golf ball", "Tennis ball", "Baseball bat", "Baseball glove", "Racket", "Tennis racket",
        "Table tennis racket", "Paddle", "Ski", "Snowboard", "Skateboard", "Surfboard", "Ice skate",
        "Roller skates", "Flying disc", "Kite", "Balloon", "Dartboard", "Billiard table", "Scoreboard", "Helmet",
        "Bicycle helmet", "Football helmet", "Goggles", "Lifejacket", "Treadmill", "Stationary bicycle",
        "Indoor rower", "Weight training bench", "Dumbbell", "Punching bag",
        // Musical instruments.
        "Musical keyboard", "Piano", "Organ", "Harpsichord", "Accordion", "Guitar", "Banjo", "Violin", "Harp",
        "Drum", "Maracas", "Trumpet", "Trombone", "Horn", "Saxophone", "Flute", "Oboe", "Harmonica",
        // Weapons.
        "Weapon", "Handgun", "Rifle", "Shotgun", "Sword", "Bow and arrow", "Cannon",
        // Medical and laboratory equipment.
        "Syringe", "Stethoscope", "Crutch", "Band-aid", "Beaker",
        // Street furniture and signs.
        "Traffic light", "Traffic sign", "Stop sign", "Street light", "Parking meter", "Fire hydrant", "Flag",
        // Documents, money and codes.
        "Driver's license", "Passport", "Business card", "Check", "Receipt", "Menu", "Coin", "Barcode",
        "1D barcode", "2D barcode",
        // Packaging of unknown content, and the rest (Honeycomb: mostly bee frames; Snowman).
        "Packaged goods", "Shipping box", "Tin can", "Honeycomb", "Snowman",
    ]
}
