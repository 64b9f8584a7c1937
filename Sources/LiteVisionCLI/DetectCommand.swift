import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionDrawing
import LiteVisionImaging
import LiteVisionSystem

/// `litevision detect`: object detection in photos (single-image mode).
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Detect objects in photos (ML Kit's object detection, single-image mode).",
        discussion: """
            Prints each object's frame (x, y, width, height in pixels of the upright photo), detector confidence and \
            labels. With --annotate, draws the objects: OUT.png for one photo, or a folder of PNGs for several. A photo \
            that cannot be read gets a one-line error and the others go on; the exit status is then 1.
            """
    )

    @OptionGroup var detector: DetectorArguments

    @Option(
        name: .long, help: "Write the photo with the objects drawn on it (a .png file, or a folder for several photos)."
    )
    var annotate: String?

    @Flag(name: .long, help: "Print one JSON object per photo, with ML Kit's field names.")
    var json = false

    @Argument(help: "Photos (JPEG or PNG) or folders of photos.")
    var images: [String]

    func run() throws {
        let objectDetector = try detector.makeDetector(mode: .singleImage)
        let files = ImageFiles.expand(images)
        guard !files.isEmpty else {
            Console.error("litevision: no images given")
            throw ExitCode(2)
        }
        let annotateFolder = annotate.flatMap { files.count > 1 || !$0.lowercased().hasSuffix(".png") ? $0 : nil }
        if let annotateFolder {
            try? FileManager.default.createDirectory(atPath: annotateFolder, withIntermediateDirectories: true)
        }
        var failures = 0
        for file in files {
            do {
                if let problem = file.problem { throw VisionError.fileNotReadable(path: file.path, reason: problem) }
                let image = try VisionImage(contentsOfFile: file.path).decoded()
                let objects = try objectDetector.results(in: image)
                Console.output(
                    json
                        ? DetectOutput.jsonLine(file: file.path, objects: objects)
                        : DetectOutput.table(file: file.path, objects: objects))
                if let annotate {
                    let target = annotateFolder.map { $0 + "/" + baseName(file.path) + ".png" } ?? annotate
                    try AnnotatedImageWriter.write(image, objects: objects, to: target)
                }
            } catch {
                failures += 1
                Console.error("litevision: \(file.path): \(error)")
                if json { Console.output(DetectOutput.jsonError(file: file.path, error: "\(error)")) }
            }
        }
        if failures > 0 {
            Console.error("litevision: \(failures) of \(files.count) images could not be processed")
            throw ExitCode(1)
        }
    }

    private func baseName(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.split(separator: ".").dropLast().joined(separator: ".").isEmpty
            ? name
            : name.split(separator: ".").dropLast().joined(separator: ".")
    }
}

/// Draws detected objects on a photo and writes it as PNG (to a temporary name, renamed when complete).
enum AnnotatedImageWriter {
    static func write(_ image: VisionImage, objects: [DetectedObject], to path: String) throws {
        let upright = try image.uprightPixels()
        let drawn = Annotator.draw(objects.map(Annotation.init), on: upright)
        let bytes = try PNGEncoder.encode(drawn)
        do throws(SystemError) {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw VisionError.fileNotWritable(path: path, reason: error.reason)
        }
    }
}

extension Annotation {
    /// The drawing of a detected object: its box, tracking ID and labels with confidences.
    init(_ object: DetectedObject) {
        self.init(
            box: object.frame, trackingID: object.trackingID,
            labels: object.labels.map { "\($0.text) \(fixed($0.confidence, digits: 2))" })
    }
}
