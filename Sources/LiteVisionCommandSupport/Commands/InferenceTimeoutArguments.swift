import ArgumentParser

/// `--inference-timeout SECONDS` (`label`, `detect`, `track`): how long one inference may run before the
/// runtime stops it (``LiteVision/ProcessingOptions/inferenceTimeout``). A model whose loop never ends then fails
/// with a message instead of keeping a core busy forever.
package struct InferenceTimeoutArguments: ParsableArguments {
    /// `--inference-timeout` as given: `nil` when it is not (see ``seconds``).
    @Option(
        name: .customLong("inference-timeout"),
        help: ArgumentHelp(
            "Seconds one inference may take before it is stopped (default 10; 0: no limit).", valueName: "seconds"))
    package var given: Double?

    /// The seconds one inference may take: `--inference-timeout`, else 10 (0: no limit).
    package var seconds: Double { given ?? 10 }

    package init() {}

    package func validate() throws {
        guard seconds.isFinite, seconds >= 0 else {
            throw ValidationError("--inference-timeout must be a number of seconds, 0 or more, got \(seconds).")
        }
    }

    /// The deadline for ``LiteVision/ProcessingOptions/inferenceTimeout``: `nil` (no limit) for 0.
    package var timeout: Double? { seconds == 0 ? nil : seconds }
}
