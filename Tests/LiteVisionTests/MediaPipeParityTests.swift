import CZlib
import Foundation
import LiteVision
import LiteVisionImaging
import LiteVisionTestSupport
import Testing

/// `preprocessing: .mediapipe` gives MediaPipe Tasks' results (Python, mediapipe==1.2.2, run by
/// Fixtures/mediapipe_results.py) exactly, from the same files: MediaPipe opens each photo with
/// `Image.create_from_file` as its users do, LiteVision with `VisionImage(contentsOfFile:)`. Both make the same
/// upright pixels of every file (compared by CRC-32), and give the same score for every category of every
/// classifier, and the same detections (scores equal, boxes within a pixel) for both detectors, on every shared
/// photo, on photos the test makes (tiny, odd-sized, very wide and very tall; stored in all 8 EXIF orientations),
/// on files MediaPipe reads in ways of its own (Fixtures/make_file_variants.py: PNGs with alpha, palettes, 16-bit
/// samples or interlacing; progressive, CMYK, 4:2:2 and restart-marker JPEGs; EXIF orientations MediaPipe reads
/// differently from most readers), and on camera frames turned by 90°, 180° and 270° (pixels given to both,
/// MediaPipe's `rotation_degrees`; for 180° and 270° the detections' scores only: MediaPipe's own box projection is
/// several pixels off there).
@Suite("MediaPipe parity of .mediapipe preprocessing")
struct MediaPipeParityTests {
    /// ReferenceDetections' detectors return every object at 0.3 or more.
    static let detectionThreshold: Float = 0.3

    /// Made files MediaPipe opens but cannot classify (its classifier gets one channel from a gray file) or refuses
    /// (a gray PNG with alpha has two channels, which create_from_file does not take).
    static let unclassifiable = ["gray.jpg", "gray.png", "gray-alpha.png"]

    @Test("Every classifier and detector gives MediaPipe's scores exactly from the same files")
    func sameAsMediaPipe() throws {
        let folder = TestData.temporaryDirectory("mediapipe-photos")
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = try Self.writeCameraFrames(into: folder)
        let variants = try Self.writeFileVariants(into: folder)
        let files =
            try TestData.imageNames.map { TestData.image($0) } + Self.writeMadePhotos(into: folder)
            + variants.filter { !Self.unclassifiable.contains(($0 as NSString).lastPathComponent) }
        let photos = files + frames.keys.sorted()
        let classifiers = ReferenceLabels.models
        let mediapipe = try MediaPipeResults.compute(
            classifiers: classifiers.map { TestData.model($0.file) },
            detectors: ReferenceDetections.detectors.map { TestData.model($0) },
            images: photos, detectionThreshold: Self.detectionThreshold,
            rotations: frames.mapValues { Self.rotationDegrees[$0.orientation]! })
        /// A camera frame is its pixels with an orientation; a photo is its file (EXIF orientation).
        func image(_ photo: String) throws -> VisionImage {
            guard let frame = frames[photo] else { return try VisionImage(contentsOfFile: photo) }
            return VisionImage(buffer: frame.pixels, orientation: frame.orientation)
        }

        var failures = try Self.pixelFailures(files, mediapipe: mediapipe)
        var compared = 0
        for (model, open) in classifiers {
            let labeler = try exhaustiveLabeler(open(), preprocessing: .mediapipe, maxResultCount: 5000)
            for photo in photos {
                let name = (photo as NSString).lastPathComponent
                let expected = try #require(
                    mediapipe.classify[model]?[name], "MediaPipe gave nothing for \(model) \(name)")
                let labels = try labeler.results(in: try image(photo))
                let found = Dictionary(labels.map { ($0.index, $0.confidence) }, uniquingKeysWith: { a, _ in a })
                for pair in expected {
                    compared += 1
                    let index = Int(pair[0]), score = Float(pair[1])
                    if found[index] != score {
                        failures.append("\(model) \(name): label \(index) \(found[index] ?? -1), MediaPipe \(score)")
                    }
                }
                // MediaPipe returned the scores of at least 1e-9 (its threshold 0 means "the metadata's").
                let extra = labels.filter { $0.confidence >= Float(1e-9) }.count - expected.count
                if extra != 0 { failures.append("\(model) \(name): \(extra) more labels than MediaPipe") }
            }
        }
        var detections = 0
        var turnedFrames = Set<String>()
        for model in ReferenceDetections.detectors {
            let detector = try ReferenceDetections.detector(for: model, preprocessing: .mediapipe)
            for photo in photos {
                let name = (photo as NSString).lastPathComponent
                let expected = try #require(
                    mediapipe.detect[model]?[name], "MediaPipe gave nothing for \(model) \(name)")
                let vision = try image(photo)
                let objects = try detector.results(in: vision)
                detections += expected.count
                // MediaPipe gives a rotated frame's boxes in its stored pixels: compare there.
                let frame = frames[photo]
                if frame != nil { turnedFrames.insert(name) }
                let boxes = objects.map { object in
                    frame.map {
                        $0.orientation.mapToStored(
                            rect: object.frame, storedWidth: $0.pixels.width, storedHeight: $0.pixels.height)
                    } ?? object.frame
                }
                // A file's size as MediaPipe turned it (its EXIF reading may differ from `vision.uprightSize`'s).
                let size =
                    try frame.map { ($0.pixels.width, $0.pixels.height) }
                    ?? #require(mediapipe.pixels[name].map { (Int($0[0]), Int($0[1])) })
                let differences = Self.detectionFailures(
                    zip(objects, boxes).map { (score: $0.detectionConfidence, frame: $1) }, expected: expected,
                    imageSize: size, context: "\(model) \(name)")
                failures += differences
            }
        }
        print(
            "mediapipe parity: \(photos.count) photos (\(files.count) files), \(compared) scores and \(detections) "
                + "detections compared, \(failures.count) differ (\(turnedFrames.count) of the photos are frames "
                + "turned by 90°, 180° or 270°)")
        #expect(compared >= photos.count * classifiers.count)
        #expect(mediapipe.pixels.count == files.count)
        #expect(detections >= 40)
        // The thin 1199x17 frame turned by 180° and 270° is among them: its scores and boxes differed until the
        // region's corners followed OpenCV 5's RotatedRect::points (see OpenCVWarpMatrix.regionCorners).
        #expect(turnedFrames.contains("wide-frame-down.png") && turnedFrames.contains("wide-frame-left.png"))
        #expect(failures.isEmpty, "\(failures.prefix(40).joined(separator: "\n"))")
    }

    @Test("Gray files MediaPipe cannot classify decode to its gray pixels, and give the scores of those as RGB")
    func grayFiles() throws {
        let folder = TestData.temporaryDirectory("mediapipe-gray")
        defer { try? FileManager.default.removeItem(at: folder) }
        let variants = try Self.writeFileVariants(into: folder)
        let gray = variants.filter { ["gray.jpg", "gray.png"].contains(($0 as NSString).lastPathComponent) }
        let mediapipe = try MediaPipeResults.compute(
            classifiers: [], detectors: [], images: [], detectionThreshold: Self.detectionThreshold, decodeOnly: gray)
        var failures = try Self.pixelFailures(gray, mediapipe: mediapipe)
        let labeler = try exhaustiveLabeler(
            LocalModel(path: TestData.model("object_labeler.tflite")), preprocessing: .mediapipe)
        for file in gray {
            let pixels = try VisionImage(contentsOfFile: file).decoded(preprocessing: .mediapipe).uprightPixels()
            let fromFile = try labeler.results(in: VisionImage(contentsOfFile: file))
            let fromPixels = try labeler.results(in: VisionImage(buffer: pixels))
            if fromFile.map(\.confidence) != fromPixels.map(\.confidence) || fromFile.isEmpty {
                failures.append("\(file): other scores than its pixels'")
            }
        }
        // MediaPipe refuses a gray PNG with alpha (two channels); LiteVision reads it as gray.
        let grayAlpha = try #require(variants.first { $0.hasSuffix("gray-alpha.png") })
        let pixels = try VisionImage(contentsOfFile: grayAlpha).decoded(preprocessing: .mediapipe).uprightPixels()
        let bytes = pixels.pixels
        let isGray = stride(from: 0, to: bytes.count, by: 3).allSatisfy { (index: Int) -> Bool in
            bytes[index] == bytes[index + 1] && bytes[index] == bytes[index + 2]
        }
        #expect(isGray && pixels.width == 301 && pixels.height == 203)
        #expect(gray.count == 2 && failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test("Camera buffers (RGBA8, BGRA8 with padded rows, Gray8) give the scores of the same pixels as RGB8")
    func everyPixelFormat() throws {
        let labeler = try exhaustiveLabeler(
            LocalModel(path: TestData.model("object_labeler.tflite")), preprocessing: .mediapipe)
        let rgb = try PhotoFixtures.upright("pets.jpg")
        let expected = try labeler.results(in: VisionImage(buffer: rgb))
        for (format, order) in [(PixelFormat.rgba8, [0, 1, 2]), (.bgra8, [2, 1, 0])] {
            let stride = rgb.width * 4 + 12
            var bytes = [UInt8](repeating: 77, count: stride * rgb.height)
            for y in 0..<rgb.height {
                for x in 0..<rgb.width {
                    for channel in 0..<3 {
                        bytes[y * stride + x * 4 + order[channel]] = rgb.pixels[y * rgb.bytesPerRow + x * 3 + channel]
                    }
                }
            }
            let image = try VisionImage(
                pixels: bytes, width: rgb.width, height: rgb.height, format: format, bytesPerRow: stride)
            let labels = try labeler.results(in: image)
            #expect(labels.map(\.index) == expected.map(\.index), "\(format)")
            #expect(labels.map(\.confidence) == expected.map(\.confidence), "\(format)")
        }
        let gray = (0..<rgb.width * rgb.height).map { rgb.pixels[$0 * 3 + 1] }
        let grayAsRGB = gray.flatMap { [$0, $0, $0] }
        let fromGray = try labeler.results(
            in: VisionImage(pixels: gray, width: rgb.width, height: rgb.height, format: .gray8))
        let fromRGB = try labeler.results(
            in: VisionImage(pixels: grayAsRGB, width: rgb.width, height: rgb.height, format: .rgb8))
        #expect(fromGray.map(\.confidence) == fromRGB.map(\.confidence))
        #expect(fromGray.map(\.index) == fromRGB.map(\.index))
    }

    /// Each MediaPipe detection must have an object with the same score and a box within 1 pixel (MediaPipe
    /// gives whole pixels), and there must be as many objects as detections. LiteVision clips boxes to the
    /// image, MediaPipe keeps a box's whole width and height (its origin clamped at 0): on an axis where
    /// LiteVision's box touches the image's edge, MediaPipe's extent must only be at least LiteVision's.
    static func detectionFailures(
        _ objects: [(score: Float, frame: BoundingBox)], expected: [[Double]], imageSize: (Int, Int),
        context: String
    ) -> [String] {
        func extentMatches(_ start: Double, _ extent: Double, _ limit: Int, _ theirs: Double) -> Bool {
            let clipped = start <= 0.5 || start + extent >= Double(limit) - 0.5
            return clipped ? theirs >= extent - 1 : abs(extent - theirs) <= 1
        }
        var failures: [String] = []
        if objects.count != expected.count {
            failures.append("\(context): \(objects.count) objects, MediaPipe \(expected.count)")
        }
        var unmatched = objects
        for detection in expected {
            let score = Float(detection[0])
            let index = unmatched.firstIndex { object in
                let frame = object.frame
                guard object.score == score else { return false }
                return abs(frame.x - detection[1]) <= 1
                    && abs(frame.y - detection[2]) <= 1
                    && extentMatches(frame.x, frame.width, imageSize.0, detection[3])
                    && extentMatches(frame.y, frame.height, imageSize.1, detection[4])
            }
            guard let index else {
                failures.append("\(context): no object like MediaPipe's \(detection) in \(objects)")
                continue
            }
            unmatched.remove(at: index)
        }
        return failures
    }

    /// Where the upright pixels LiteVision makes of each of `files` for `.mediapipe` differ from those MediaPipe's
    /// `Image.create_from_file` made (size, or CRC-32 of the RGB bytes).
    static func pixelFailures(_ files: [String], mediapipe: MediaPipeResults) throws -> [String] {
        var failures: [String] = []
        for file in files {
            let name = (file as NSString).lastPathComponent
            let expected = try #require(mediapipe.pixels[name], "MediaPipe gave no pixels for \(name)")
            let upright = try VisionImage(contentsOfFile: file).decoded(preprocessing: .mediapipe).uprightPixels()
            let checksum = upright.pixels.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
            let found = [UInt32(upright.width), UInt32(upright.height), checksum]
            if found != expected { failures.append("\(name): pixels \(found), MediaPipe's \(expected)") }
        }
        return failures
    }

    /// Writes Fixtures/make_file_variants.py's files, made from pets.jpg, into `folder`; returns their paths.
    static func writeFileVariants(into folder: URL) throws -> [String] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/make_file_variants.py").path
        let output = folder.appendingPathComponent("variants")
        try PythonTool.run(script, arguments: [TestData.image("pets.jpg"), output.path], needs: "Pillow and numpy")
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(names.count >= 20, "make_file_variants.py wrote \(names)")
        return names.map { output.appendingPathComponent($0).path }
    }

    /// MediaPipe's `rotation_degrees` for a frame stored turned by an orientation.
    static let rotationDegrees: [ImageOrientation: Int] = [.right: 90, .down: 180, .left: 270]

    /// Writes pets.jpg and the "wide" made photo as camera frames stored turned by 90°, 180° and 270° (PNG, for
    /// MediaPipe); returns each file's path with its pixels and orientation.
    static func writeCameraFrames(
        into folder: URL
    ) throws -> [String: (pixels: ImageBuffer, orientation: ImageOrientation)] {
        let wide = try #require(OrientationParityTests.madePhotos.first { $0.0 == "wide" })
        let photos = [
            ("pets", try PhotoFixtures.upright("pets.jpg")),
            (
                "wide",
                OrientationParityTests.crop(
                    try PhotoFixtures.upright(wide.1), x: wide.2, y: wide.3, width: wide.4, height: wide.5)
            ),
        ]
        var frames: [String: (pixels: ImageBuffer, orientation: ImageOrientation)] = [:]
        for (name, upright) in photos {
            for orientation in rotationDegrees.keys {
                let path = folder.appendingPathComponent("\(name)-frame-\(orientation).png").path
                let stored = Resampler.orient(upright, orientation.inverse)
                try Data(try PNGEncoder.encode(stored)).write(to: URL(fileURLWithPath: path))
                frames[path] = (stored, orientation)
            }
        }
        return frames
    }

    /// Writes the made photos (OrientationParityTests' crops, and pets.jpg) as 4:4:4 JPEGs stored in every EXIF
    /// orientation; returns their paths.
    static func writeMadePhotos(into folder: URL) throws -> [String] {
        var photos: [(String, ImageBuffer)] = [("pets", try PhotoFixtures.upright("pets.jpg"))]
        for (name, source, x, y, width, height) in OrientationParityTests.madePhotos {
            photos.append(
                (
                    name,
                    OrientationParityTests.crop(
                        try PhotoFixtures.upright(source), x: x, y: y, width: width, height: height)
                ))
        }
        var paths: [String] = []
        for (name, upright) in photos {
            for orientation in ImageOrientation.allCases {
                let path = folder.appendingPathComponent("\(name)-exif\(orientation.exifValue).jpg").path
                let stored = Resampler.orient(upright, orientation.inverse)
                let bytes = try JPEGEncoder.encode(stored, quality: 95, exifOrientation: orientation.exifValue)
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                paths.append(path)
            }
        }
        return paths
    }
}
