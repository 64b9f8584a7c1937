/// What a tensor holds, from the metadata's `Content.content_properties` union.
package enum ContentKind: Sendable, Equatable {
    /// Generic features (scores, classes, counts…).
    case feature
    /// An image.
    case image(ImageProperties)
    /// Bounding boxes, with their layout.
    case boundingBox(BoundingBoxProperties)
    /// Audio samples.
    case audio(AudioProperties)
    /// A content type this library does not know (its union type number).
    case other(Int)
}

/// Properties of an image tensor.
package struct ImageProperties: Sendable, Equatable {
    /// The color space the model expects.
    package var colorSpace: ColorSpace
    /// The default image size, for tensors whose shape is dynamic; nil when not given.
    package var defaultSize: ImageSize?

    /// Image properties with the given color space and default size.
    package init(colorSpace: ColorSpace, defaultSize: ImageSize? = nil) {
        self.colorSpace = colorSpace
        self.defaultSize = defaultSize
    }
}

/// The color space of an image tensor (`ColorSpaceType`).
package enum ColorSpace: Sendable, Equatable {
    /// Not stated.
    case unknown
    /// Red, green, blue channels.
    case rgb
    /// One gray channel.
    case grayscale
    /// A color space number this library does not know.
    case other(Int)

    /// The color space for a schema `ColorSpaceType` number.
    package init(schemaValue: Int) {
        switch schemaValue {
        case 0: self = .unknown
        case 1: self = .rgb
        case 2: self = .grayscale
        default: self = .other(schemaValue)
        }
    }
}

/// A width and height in pixels.
package struct ImageSize: Sendable, Equatable {
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int

    /// A size of `width` by `height` pixels.
    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// Properties of an audio tensor.
package struct AudioProperties: Sendable, Equatable {
    /// The sample rate in Hz.
    package var sampleRate: Int
    /// The number of channels.
    package var channels: Int

    /// Audio properties with the given sample rate and channel count.
    package init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

/// How the four numbers of each bounding box are laid out.
package struct BoundingBoxProperties: Sendable, Equatable {
    /// Where each element of the ``type``'s default order is stored: element `k` of the default order
    /// (for ``BoundingBoxType/boundaries``: left, top, right, bottom) is at position `index[k]` of a box.
    /// For example `[1, 0, 3, 2]` means boxes are stored as `[top, left, bottom, right]`.
    /// Empty means the default order.
    package var index: [Int]
    /// Which four numbers describe a box.
    package var type: BoundingBoxType
    /// Whether coordinates are fractions of the image size or pixels.
    package var coordinateType: CoordinateType

    /// Bounding box properties with the given layout.
    package init(index: [Int], type: BoundingBoxType, coordinateType: CoordinateType) {
        self.index = index
        self.type = type
        self.coordinateType = coordinateType
    }
}

/// Which four numbers describe a bounding box (`BoundingBoxType`).
package enum BoundingBoxType: Sendable, Equatable {
    /// Not stated.
    case unknown
    /// Left, top, right, bottom.
    case boundaries
    /// Upper-left x, upper-left y, width, height.
    case upperLeft
    /// Center x, center y, width, height.
    case center
    /// A box type number this library does not know.
    case other(Int)

    /// The box type for a schema `BoundingBoxType` number.
    package init(schemaValue: Int) {
        switch schemaValue {
        case 0: self = .unknown
        case 1: self = .boundaries
        case 2: self = .upperLeft
        case 3: self = .center
        default: self = .other(schemaValue)
        }
    }
}

/// The unit of bounding box coordinates (`CoordinateType`).
package enum CoordinateType: Sendable, Equatable {
    /// Fractions of the image size, from 0 to 1.
    case ratio
    /// Pixels.
    case pixel
    /// A coordinate type number this library does not know.
    case other(Int)

    /// The coordinate type for a schema `CoordinateType` number.
    package init(schemaValue: Int) {
        switch schemaValue {
        case 0: self = .ratio
        case 1: self = .pixel
        default: self = .other(schemaValue)
        }
    }
}
