import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionSystem

/// The arguments of `litevision detect`, and the command's work, shared by `litevision` (which runs it) and
/// `litevision-media` (which runs it when the objects are to be drawn: `--annotate` needs Cairo).
package struct DetectArguments: ParsableArguments {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Detect objects in photos (ML Kit's object detection, single-image mode).",
        discussion: """
            Prints each object's frame (x, y, width, height in pixels of the upright photo), detector confidence and \
            labels. With --annotate, draws the objects: OUT.png for one photo, or a folder of PNGs for several. A photo \
            that cannot be read gets a one-line error and the others go on; the exit status is then 1. A damaged photo (a \
            corrupt or cut-short JPEG, a PNG with a bad CRC) is such a photo unless --lenient-decoding is given.
            """
    )

    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @OptionGroup package var detector: DetectorArguments

    @Option(
        name: .long, help: "Write the photo with the objects drawn on it (a .png file, or a folder for several photos)."
    )
    package var annotate: String?

    @Flag(name: .long, help: "Print one JSON object per photo, with ML Kit's field names.")
    package var json = false

    @OptionGroup package var decoding: DecodingArguments

    @Argument(help: "Photos (JPEG or PNG) or folders of photos.")
    package var images: [String]

    /// Draws `objects` on a photo and writes it to a path; given when `--annotate` is.
    package typealias Annotator = (_ image: VisionImage, _ objects: [DetectedObject], _ path: String) throws -> Void

    /// Detects the objects of every photo, prints them, and draws them with `annotator` when `--annotate` is given.
    package func run(annotator: Annotator?) throws {
        let files = ImageFiles.expand(images)
        let annotateFolder = annotate.flatMap { files.count > 1 || !$0.lowercased().hasSuffix(".png") ? $0 : nil }
        if let annotate, annotator != nil {
            // Before the model loads: no drawing may replace a photo, a model, or another drawing.
            try OutputPaths.check(inputs: files.map(\.path) + detector.inputPaths, cache: detector.remote.cache) {
                outputs throws(OutputPathError) in
                guard let annotateFolder else { return try outputs.claimFile(annotate, for: "--annotate") }
                try outputs.claimFolder(annotateFolder, for: "--annotate")
                for file in files where file.problem == nil {
                    try outputs.claimFile(
                        Self.drawing(of: file.name, in: annotateFolder), for: "--annotate for \(file.name)")
                }
            }
        }
        // Before the model loads: with nothing to detect in, the command ends at once.
        guard !files.isEmpty else {
            Console.error("litevision: no images given")
            throw ExitCode(2)
        }
        let objectDetector = try detector.makeDetector(mode: .singleImage)
        if let annotateFolder {
            try? FileManager.default.createDirectory(atPath: annotateFolder, withIntermediateDirectories: true)
        }
        var failures = 0
        for file in files {
            do {
                if let problem = file.problem { throw VisionError.fileNotReadable(path: file.name, reason: problem) }
                let image = try VisionImage(contentsOfFile: file.path).decoded(
                    allowsDamagedImageData: decoding.lenient, preprocessing: detector.processing.preprocessing)
                let objects = try objectDetector.results(in: image)
                // Objects JSON cannot hold fail the photo (NotFiniteResult), as an error would.
                Console.output(
                    json
                        ? try DetectOutput.jsonLine(
                            file: file.name, objects: objects, classification: detector.classification)
                        : DetectOutput.table(file: file.name, objects: objects))
                if let annotate, let annotator {
                    try annotator(
                        image, objects, annotateFolder.map { Self.drawing(of: file.name, in: $0) } ?? annotate)
                }
            } catch {
                failures += 1
                Console.error("litevision: \(file.name): \(error)")
                if json { Console.output(DetectOutput.jsonError(file: file.name, error: "\(error)")) }
            }
        }
        if failures > 0 {
            Console.error("litevision: \(failures) of \(files.count) images could not be processed")
            throw ExitCode(1)
        }
    }

    /// Where the drawing of the photo `path` goes in the `--annotate` folder: its name, with `.png` for its extension.
    private static func drawing(of path: String, in folder: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let stem = name.split(separator: ".").dropLast().joined(separator: ".")
        return folder + "/" + (stem.isEmpty ? name : stem) + ".png"
    }
}
