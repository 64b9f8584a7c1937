import ArgumentParser

/// `--lenient-decoding` (`label`, `detect`): a damaged photo (a corrupt or cut-short JPEG, a PNG with a bad CRC) is
/// decoded as far as it goes, its damaged parts grey, instead of refused
/// (``LiteVision/ProcessingOptions/allowsDamagedImageData``).
package struct DecodingArguments: ParsableArguments {
    /// The arguments, as ArgumentParser fills them.
    package init() {}

    @Flag(
        name: .customLong("lenient-decoding"),
        help: "Decode damaged JPEG/PNG files as far as they go (damaged parts come out grey) instead of refusing them.")
    package var lenient = false
}
