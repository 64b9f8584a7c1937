import LiteVisionGeometry
import LiteVisionImaging

/// A synthetic tracking clip described by its geometry: objects (real photo crops) moving along known paths
/// over a background, and occluders hiding them. Turn it into ground truth with ``ScenarioTruth`` (no pixels
/// needed) or into frames with ``SyntheticSequence``.
package struct Scenario: Sendable {
    /// A name for messages.
    package var name: String
    /// Frame width in pixels.
    package var width: Int
    /// Frame height in pixels.
    package var height: Int
    /// Number of frames.
    package var frameCount: Int
    /// What is behind the objects.
    package var background: Background
    /// The objects; their index is their ``TruthObject/objectIndex``.
    package var objects: [MovingObject]
    /// Patches drawn over the objects.
    package var occluders: [Occluder]

    /// A scenario from its parts.
    package init(
        name: String, width: Int = 640, height: Int = 480, frameCount: Int, background: Background,
        objects: [MovingObject], occluders: [Occluder] = []
    ) {
        precondition(width > 0 && height > 0 && frameCount > 0, "Scenario: empty")
        self.name = name
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.background = background
        self.objects = objects
        self.occluders = occluders
    }
}

/// The background of a synthetic clip: a photo region stretched to the frame, blurred and faded so that it
/// does not compete with the objects.
package struct Background: Sendable, Equatable {
    /// The photo region.
    package var crop: PhotoCrop
    /// Blur strength: the region is shrunk by this factor and enlarged back (1 = sharp). Default 4.
    package var blur: Int
    /// Color saturation, 0 (gray) to 1 (unchanged). Default 0.6.
    package var saturation: Double
    /// Contrast toward middle gray, 0 (flat) to 1 (unchanged). Default 0.7.
    package var contrast: Double

    /// A background from a photo region.
    package init(_ crop: PhotoCrop, blur: Int = 4, saturation: Double = 0.6, contrast: Double = 0.7) {
        self.crop = crop
        self.blur = max(1, blur)
        self.saturation = saturation
        self.contrast = contrast
    }
}

/// A position of an object's center at a given frame.
package struct Keyframe: Sendable, Equatable {
    /// The frame index.
    package var frame: Int
    /// Center x in pixels (may be outside the frame).
    package var x: Double
    /// Center y in pixels (may be outside the frame).
    package var y: Double

    /// A keyframe.
    package init(_ frame: Int, x: Double, y: Double) {
        self.frame = frame
        self.x = x
        self.y = y
    }
}

/// An object moving along a piecewise-linear path.
package struct MovingObject: Sendable, Equatable {
    /// The photo crop drawn for the object.
    package var sprite: PhotoCrop
    /// Drawn width in pixels.
    package var width: Int
    /// Drawn height in pixels.
    package var height: Int
    /// The path: the object exists from the first keyframe's frame to the last one's, its center moving
    /// linearly between keyframes (sorted by frame).
    package var keyframes: [Keyframe]
    /// Drawing order: an object with a larger depth is nearer and hides those behind it.
    package var depth: Int
    /// A class for class-aware tests, or `nil`.
    package var classIndex: Int?

    /// An object of the given height (the width follows the crop's aspect ratio unless given).
    package init(
        sprite: PhotoCrop, height: Int, width: Int? = nil, keyframes: [Keyframe], depth: Int = 0,
        classIndex: Int? = nil
    ) {
        precondition(!keyframes.isEmpty, "MovingObject: no keyframe")
        self.sprite = sprite
        self.height = height
        self.width = width ?? max(1, Int((Double(height) * sprite.aspectRatio).rounded()))
        self.keyframes = keyframes.sorted { $0.frame < $1.frame }
        self.depth = depth
        self.classIndex = classIndex
    }

    /// The whole box (pixel-aligned, possibly outside the frame) at `frame`, or `nil` when the object does not
    /// exist then.
    package func box(at frame: Int) -> BoundingBox? {
        guard let first = keyframes.first, let last = keyframes.last, frame >= first.frame, frame <= last.frame
        else { return nil }
        var x = first.x, y = first.y
        if let next = keyframes.firstIndex(where: { $0.frame >= frame }) {
            let b = keyframes[next]
            if next == 0 || b.frame == frame {
                x = b.x
                y = b.y
            } else {
                let a = keyframes[next - 1]
                let t = Double(frame - a.frame) / Double(b.frame - a.frame)
                x = a.x + (b.x - a.x) * t
                y = a.y + (b.y - a.y) * t
            }
        }
        return BoundingBox(
            x: (x - Double(width) / 2).rounded(), y: (y - Double(height) / 2).rounded(),
            width: Double(width), height: Double(height))
    }
}

/// A patch drawn over the objects (a pillar, a sign, a passing vehicle), hiding what is behind it.
package struct Occluder: Sendable, Equatable {
    /// How the patch looks.
    package enum Style: Sendable, Equatable {
        /// Gray noise (deterministic) around a gray level.
        case noise(gray: UInt8, seed: UInt64)
        /// A plain color.
        case flat(red: UInt8, green: UInt8, blue: UInt8)
        /// A region of a photo, stretched to the patch (faded like a background).
        case photo(PhotoCrop)
    }

    /// Where the patch is, in pixels.
    package var box: BoundingBox
    /// The frames in which it is there (`nil`: all).
    package var frames: ClosedRange<Int>?
    /// Its look.
    package var style: Style

    /// An occluder.
    package init(box: BoundingBox, frames: ClosedRange<Int>? = nil, style: Style = .noise(gray: 128, seed: 1)) {
        self.box = box
        self.frames = frames
        self.style = style
    }

    /// Whether it is there at `frame`.
    package func isActive(at frame: Int) -> Bool { frames?.contains(frame) ?? true }
}
