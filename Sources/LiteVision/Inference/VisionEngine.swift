/// What a labeler or detector runs once its models are loaded: it turns an image into results.
protocol VisionEngine: Sendable {
    /// One result: an ``ImageLabel`` or a ``DetectedObject``.
    associatedtype Output: Sendable

    /// The results for `image`, synchronously.
    func results(in image: VisionImage) throws(VisionError) -> [Output]
}
