import ArgumentParser

/// `litevision eval`: how well a model or tracker does on your own annotated data.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Evaluate a classifier, a detector or a tracker on annotated data.",
        discussion: """
            classify: top-1/top-5 accuracy on photos in one folder per class. detect: COCO AP/AR (as pycocotools). \
            track: HOTA, CLEAR and Identity on MOTChallenge files (as TrackEval). See docs/evaluation.md.
            """,
        subcommands: [EvalClassifyCommand.self, EvalDetectCommand.self, EvalTrackCommand.self]
    )
}
