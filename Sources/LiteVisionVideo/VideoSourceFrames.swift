extension VideoSource {
    /// The frames of a ``VideoSource`` as an async sequence (``VideoSource/frames``). Iterating suspends the task
    /// instead of blocking a thread; cancelling the task stops the source (its thread is joined when the iteration
    /// ends). The sequence throws the ``VideoError`` that ended the source early, after the frames before it.
    public struct Frames: AsyncSequence, Sendable {
        /// The frames' type.
        public typealias Element = VideoFrame

        let source: VideoSource

        /// An iterator over the source's frames.
        public func makeAsyncIterator() -> Iterator { Iterator(source: source) }

        /// Takes the source's frames one by one.
        public struct Iterator: AsyncIteratorProtocol {
            let source: VideoSource

            /// The next frame; `nil` at the end, after ``VideoSource/stop()`` or once the task is cancelled.
            public mutating func next() async throws -> VideoFrame? {
                let source = source
                let frame: VideoFrame?
                do {
                    frame = try await withTaskCancellationHandler {
                        try await source.nextAsync()
                    } onCancel: {
                        source.interruptWithoutJoining()
                    }
                } catch {
                    source.stop()  // the source failed: its thread is joined before the error reaches the loop
                    throw error
                }
                if frame == nil { source.stop() }  // joins the thread: nothing is left running after the loop
                return frame
            }
        }
    }
}
