import ArgumentParser
import LiteVisionCommandSupport

/// `litevision detect`: object detection in photos (single-image mode). With `--annotate` the command is run by
/// `litevision-media`, which draws with Cairo; without it, here.
struct DetectCommand: ParsableCommand {
    static let configuration = DetectArguments.configuration

    @OptionGroup var arguments: DetectArguments

    func run() throws {
        if arguments.annotate != nil {
            try SiblingProgram.execForwardingArguments(to: SiblingProgram.media)
        }
        try arguments.run(annotator: nil)
    }
}
