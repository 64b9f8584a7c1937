import ArgumentParser
import LiteVision

/// `--preprocessing exact|mediapipe` (`label`, `detect`, `track`): ``ProcessingOptions/Preprocessing`` read
/// from the command line.
extension ProcessingOptions.Preprocessing: ExpressibleByArgument {
    /// The mode named on the command line (`exact` or `mediapipe`).
    public init?(argument: String) { self.init(name: argument) }

    /// The help of `--preprocessing`, shared by the commands that take it.
    package static let help = ArgumentHelp(
        "How images are decoded and resampled to the model input: exact (antialiased, the reference outputs; "
            + "default) or mediapipe (MediaPipe Tasks' decoding and sampling: its scores bit for bit from the same "
            + "files, constant cost on large photos).",
        valueName: "exact|mediapipe")
}
