import ArgumentParser

/// The arguments of `litevision track`. `litevision` parses them (so that its help and errors are complete) and
/// hands the command to `litevision-media`, which decodes the video with FFmpeg.
package struct TrackArguments: ParsableArguments {
    /// The command's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Detect and track objects through a video (ML Kit's stream mode, with tracking IDs).",
        discussion: """
            Every frame goes through the detector in stream mode; objects keep their tracking ID while they stay in \
            view. Without an output option, prints one line per frame. --live plays the video at its real pace and \
            drops the frames that arrive while the detector is busy, as a camera would (ML Kit's \
            alwaysDiscardsLateVideoFrames); otherwise every frame is processed. A damaged video is processed up to \
            the damage, the outputs are written, and the exit status is 1.
            """
    )

    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @OptionGroup package var detector: DetectorArguments

    @Argument(help: "The video file (anything FFmpeg decodes: MP4/H.264, AVI/MPEG-4, ...).")
    package var video: String

    @Option(name: .long, help: "Write one JSON object per frame (ML Kit's field names) to this file.")
    package var json: String?

    @Option(name: .long, help: "Write MOTChallenge rows (frame,id,x,y,w,h,score,-1,-1,-1) to this file.")
    package var mot: String?

    @Option(name: .long, help: "Write the video with the tracked objects drawn on it (MP4).")
    package var annotate: String?

    @Flag(name: .long, help: "Play at real-time pace and drop frames that arrive while the detector is busy.")
    package var live = false
}
