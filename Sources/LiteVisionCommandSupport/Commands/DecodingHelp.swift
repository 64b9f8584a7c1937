/// Help texts about image decoding that several commands share.
package enum DecodingHelp {
    /// The help of `--lenient-decoding` (`label` and `detect`).
    package static let lenient =
        "Decode damaged JPEG/PNG files as far as they go (damaged parts come out grey) instead of refusing them."
}
