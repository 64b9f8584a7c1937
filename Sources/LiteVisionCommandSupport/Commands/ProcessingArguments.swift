import ArgumentParser
import LiteVision

/// The processing settings `label`, `detect`, `track` and `eval classify` share (``LiteVision/ProcessingOptions``):
/// `--threads N`, `--preprocessing exact|mediapipe` and `--inference-timeout SECONDS`. `Default` says, in the help of
/// `--threads`, what the command uses without it.
///
/// `--threads` is checked by the command's own `validate()`, with ``ThreadCountArgument/validate(_:)``, where it
/// was checked before this group existed, so that a command with several bad options still reports the same one
/// first (a group's `validate()` runs while the arguments are parsed, before the command's).
package struct ProcessingArguments<Default: ThreadCountDefault>: ParsableArguments {
    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @Option(name: .long, help: ThreadCountArgument.help(defaultCount: Default.description))
    package var threads: Int?

    /// `--preprocessing` as given: `nil` when it is not (see ``preprocessing``), so that a command can refuse it
    /// where it does nothing (`track --detections`).
    @Option(name: .customLong("preprocessing"), help: ProcessingOptions.Preprocessing.help)
    package var preprocessingChoice: ProcessingOptions.Preprocessing?

    /// The preprocessing to use: `--preprocessing`, else `exact`.
    package var preprocessing: ProcessingOptions.Preprocessing { preprocessingChoice ?? .exact }

    @OptionGroup package var inference: InferenceTimeoutArguments

    /// Sets `processing` as these arguments say: the thread count of `--threads`, else `defaultThreadCount` when
    /// one is given (else it is left as it is), the preprocessing and the inference deadline.
    package func apply(to processing: inout ProcessingOptions, defaultThreadCount: Int? = nil) {
        if let count = threads ?? defaultThreadCount { processing.threadCount = count }
        processing.preprocessing = preprocessing
        processing.inferenceTimeout = inference.timeout
    }
}
