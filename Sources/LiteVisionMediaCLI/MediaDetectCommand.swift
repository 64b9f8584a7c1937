import ArgumentParser
import LiteVisionCommandSupport

/// `litevision detect`, as `litevision-media` runs it: with `--annotate`, the objects are drawn with Cairo.
struct MediaDetectCommand: ParsableCommand {
    static let configuration = DetectArguments.configuration

    @OptionGroup var arguments: DetectArguments

    func run() throws {
        try arguments.run(annotator: AnnotatedImageWriter.write)
    }
}
