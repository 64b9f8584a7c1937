import LiteVisionGeometry
import LiteVisionImaging

/// A rectangle of one of the shared photos (`TestData.image(name)`), in pixels of the upright photo.
package struct PhotoCrop: Sendable, Equatable, Hashable {
    /// The photo's file name in the shared `images/` folder.
    package var photo: String
    /// The region of the photo.
    package var rect: BoundingBox
    /// A short name for what the region shows (for messages).
    package var name: String

    /// A region of a shared photo.
    package init(_ photo: String, x: Double, y: Double, width: Double, height: Double, name: String) {
        self.photo = photo
        self.rect = BoundingBox(x: x, y: y, width: width, height: height)
        self.name = name
    }

    /// Width over height.
    package var aspectRatio: Double { rect.width / rect.height }
}

/// Real objects cut out of the shared photos by a rectangle (from the photos' reference detections, checked
/// by eye), to be moved around synthetic sequences.
package enum SpriteCatalog {
    /// The running greyhound of `pets.jpg`.
    package static let greyhound = PhotoCrop("pets.jpg", x: 104, y: 8, width: 160, height: 290, name: "greyhound")
    /// The Boston terrier of `pets.jpg`.
    package static let terrier = PhotoCrop("pets.jpg", x: 334, y: 160, width: 164, height: 210, name: "terrier")
    /// The large shaggy dog of `dogs.jpg`.
    package static let shaggyDog = PhotoCrop("dogs.jpg", x: 100, y: 18, width: 148, height: 372, name: "shaggy dog")
    /// The small dog of `dogs.jpg`.
    package static let smallDog = PhotoCrop("dogs.jpg", x: 352, y: 132, width: 196, height: 210, name: "small dog")
    /// The poodle of `cats_and_dogs.jpg`.
    package static let poodle = PhotoCrop("cats_and_dogs.jpg", x: 380, y: 205, width: 262, height: 395, name: "poodle")
    /// The corgi of `cats_and_dogs.jpg`.
    package static let corgi = PhotoCrop("cats_and_dogs.jpg", x: 600, y: 150, width: 300, height: 450, name: "corgi")
    /// The right cat of `cats_and_dogs.jpg`.
    package static let cat = PhotoCrop("cats_and_dogs.jpg", x: 870, y: 400, width: 212, height: 200, name: "cat")
    /// The burger of `burger.jpg`.
    package static let burger = PhotoCrop("burger.jpg", x: 20, y: 30, width: 372, height: 285, name: "burger")
    /// The big daisy of `daisy.jpeg`.
    package static let daisy = PhotoCrop("daisy.jpeg", x: 85, y: 92, width: 285, height: 175, name: "daisy")
    /// A red rose of `roses.jpeg`.
    package static let rose = PhotoCrop("roses.jpeg", x: 62, y: 6, width: 132, height: 130, name: "rose")
    /// The bunch of `sunflower.jpg`.
    package static let sunflowers = PhotoCrop("sunflower.jpg", x: 5, y: 37, width: 597, height: 547, name: "sunflowers")
    /// The dog of `yolox_dog_bicycle_truck.jpg`.
    package static let sittingDog = PhotoCrop(
        "yolox_dog_bicycle_truck.jpg", x: 128, y: 205, width: 208, height: 330,
        name: "sitting dog")
    /// The pickup truck of `yolox_dog_bicycle_truck.jpg`.
    package static let truck = PhotoCrop(
        "yolox_dog_bicycle_truck.jpg", x: 462, y: 76, width: 234, height: 98,
        name: "truck")
    /// The soccer ball of `multi_objects.jpg`.
    package static let ball = PhotoCrop("multi_objects.jpg", x: 420, y: 140, width: 112, height: 108, name: "ball")
    /// The heron of `bird.jpg`.
    package static let heron = PhotoCrop("bird.jpg", x: 450, y: 105, width: 1136, height: 1234, name: "heron")
    /// A tulip of `tulips.jpeg`.
    package static let tulip = PhotoCrop("tulips.jpeg", x: 106, y: 2, width: 84, height: 130, name: "tulip")
    /// A tomato dish of `img_meal_one.jpg`.
    package static let tomato = PhotoCrop("img_meal_one.jpg", x: 285, y: 255, width: 200, height: 208, name: "tomato")
    /// Grace Hopper's portrait.
    package static let person = PhotoCrop("grace_hopper.jpg", x: 16, y: 30, width: 491, height: 564, name: "person")

    /// Every sprite.
    package static let all: [PhotoCrop] = [
        greyhound, terrier, shaggyDog, smallDog, poodle, corgi, cat, burger, daisy, rose, sunflowers, sittingDog,
        truck, ball, heron, tulip, tomato, person,
    ]
}

/// Regions of the shared photos without a prominent object, used as backgrounds (blurred and faded by
/// ``Background``).
package enum BackgroundCatalog {
    /// The whole beach of `beach.jpg` (sky, sea, sand, a few rocks).
    package static let beach = PhotoCrop("beach.jpg", x: 0, y: 0, width: 4096, height: 3040, name: "beach")
    /// Wet sand and water at the bottom of `beach.jpg`.
    package static let sand = PhotoCrop("beach.jpg", x: 0, y: 1900, width: 2400, height: 1100, name: "sand")
    /// Clouds left of the statue in `liberty.jpg`.
    package static let clouds = PhotoCrop("liberty.jpg", x: 0, y: 0, width: 900, height: 1000, name: "clouds")
    /// Sky right of the statue in `liberty.jpg`.
    package static let sky = PhotoCrop("liberty.jpg", x: 1400, y: 0, width: 1048, height: 700, name: "sky")
    /// Sea and waves of `kite_and_cold.jpg`.
    package static let sea = PhotoCrop("kite_and_cold.jpg", x: 700, y: 450, width: 652, height: 450, name: "sea")
    /// Artificial grass of `pets.jpg`.
    package static let grass = PhotoCrop("pets.jpg", x: 0, y: 320, width: 330, height: 110, name: "grass")
    /// A lawn of `dogs.jpg`.
    package static let lawn = PhotoCrop("dogs.jpg", x: 420, y: 330, width: 220, height: 97, name: "lawn")

    /// Every background.
    package static let all: [PhotoCrop] = [beach, sand, clouds, sky, sea, grass, lawn]
}
