import LiteVision
import LiteVisionSystem
import Synchronization

/// Several cameras or streams through object detectors at once, sharing the cores fairly: what
/// `litevision track A B C D` runs.
///
/// Each source gets a detector of its own, so each has its own tracker and tracking IDs are never shared between
/// sources. A few worker threads (by default one per core, and no more than the sources) take the sources' frames
/// in turn: a free worker takes the waiting frame of the next source, after the one served last, that has a frame
/// and is not being processed. So:
/// - when the workers cannot keep up with every source, each live source gets an equal share of them (none
///   starves because another sends more frames);
/// - a source's frames are processed one at a time, in order, so `body` sees each source's results in order; each
///   goes to the detector with its timestamp (``ObjectDetector/results(in:timestamp:)``), so the tracker knows
///   the rate at which it sees the source's frames (a 10 fps camera, or frames dropped while the workers are busy)
///   and under 20 per second follows faster turns (``TrackingOptions/frameRate``);
/// - memory is bounded: with ``VideoSource/Delivery/latest`` (the default for cameras and streams) a source holds
///   at most one waiting frame, replaced by newer ones while its turn has not come (counted as dropped in its
///   ``VideoSource/statistics``).
///
/// ```swift
/// let sources = try ["rtsp://10.0.0.5/cam", "rtsp://10.0.0.6/cam"].map { try VideoSource($0) }
/// let options = ObjectDetectorOptions()
/// options.shouldEnableClassification = true
/// options.processing.threadCount = 1        // parallelism comes from the workers
/// let pipeline = try VideoPipeline(sources: sources, options: options)
/// await pipeline.run { result in
///     print(result.sourceIndex, result.frame.index, result.objects.map(\.trackingID))
/// }
/// ```
///
/// The pipeline owns the frames of its sources: do not read them with ``VideoSource/next()`` or
/// ``VideoSource/frames`` as well. One detector inference per worker runs at a time, so with as many sources as
/// cores, `processing.threadCount = 1` avoids two inferences fighting over each core.
public final class VideoPipeline: Sendable {
    /// The sources, in the order given; ``Result/sourceIndex`` indexes this array.
    public let sources: [VideoSource]
    /// The detector of each source, made in ``ObjectDetectorOptions/DetectorMode/stream`` mode (with tracking).
    public let detectors: [ObjectDetector]
    /// How many threads run detectors.
    public let workerCount: Int
    private let scheduler: FrameScheduler
    /// The error that ended each source's detection, if any.
    private let failures: Mutex<[VisionError?]>
    private let started = Mutex(false)

    /// A pipeline of `sources`, each with its own ``ObjectDetector`` made from `options` (in stream mode, whatever
    /// its ``CommonObjectDetectorOptions/detectorMode``, since that is what tracks).
    ///
    /// - Parameters:
    ///   - sources: Opened sources; each may belong to one pipeline only, once.
    ///   - options: The detectors' options (copied; changing them later has no effect).
    ///   - workerCount: Threads running detectors; by default the number of cores, at most the number of sources.
    /// - Throws: The ``VisionError`` of a detector that cannot be made (a missing model, say);
    ///   ``VideoError/invalidArgument(_:)`` for a source that belongs to a pipeline already.
    public convenience init(
        sources: [VideoSource], options: CommonObjectDetectorOptions, workerCount: Int? = nil
    )
        throws
    {
        var detectors: [ObjectDetector] = []
        for _ in sources { detectors.append(try ObjectDetector(streamingWith: options)) }
        try self.init(sources: sources, detectors: detectors, workerCount: workerCount)
    }

    /// A pipeline of `sources` with the detectors given, `detectors[i]` for `sources[i]`: made beforehand, say, so
    /// that live sources are opened only once the models are loaded. Make them in stream mode to track.
    ///
    /// - Throws: ``VideoError/invalidArgument(_:)`` when the counts differ, a detector is given twice (two sources
    ///   would share its tracker), or a source belongs to a pipeline already.
    public init(sources: [VideoSource], detectors: [ObjectDetector], workerCount: Int? = nil) throws(VideoError) {
        guard detectors.count == sources.count else {
            throw .invalidArgument(
                "a pipeline needs one detector per source: \(sources.count) sources, \(detectors.count) detectors")
        }
        guard Set(detectors.map(ObjectIdentifier.init)).count == detectors.count else {
            throw .invalidArgument("each source needs a detector of its own: a detector is given twice")
        }
        var claimed: [VideoSource] = []
        for source in sources {
            guard source.claim() else {
                for earlier in claimed { earlier.unclaim() }
                throw .invalidArgument("\(source.location) belongs to a pipeline already (or is given twice)")
            }
            claimed.append(source)
        }
        self.sources = sources
        self.detectors = detectors
        let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        self.workerCount = max(1, min(workerCount ?? cores, max(sources.count, 1)))
        scheduler = FrameScheduler(sources: sources)
        failures = Mutex(Array(repeating: nil, count: sources.count))
    }

    /// Processes frames until every source has ended or ``stop()`` is called, handing each result to `body` on a
    /// worker thread as soon as it is ready. `body` runs concurrently for different sources, and in frame order for
    /// each source; the worker waits for it, so keep it short (write, queue, publish). A pipeline runs once: a second
    /// call returns at once (and cancelling its task, in the async form, stops the pipeline all the same).
    ///
    /// A source that fails (a stream lost for good) ends, and the others go on: see ``error(ofSource:)``.
    public func run(_ body: @escaping @Sendable (Result) -> Void) {
        guard
            started.withLock({ was in
                defer { was = true }; return !was
            })
        else { return }
        var threads: [pthread_t] = []
        for _ in 0..<workerCount {
            if let thread = DedicatedThread.start({ [self] in work(body) }) { threads.append(thread) }
        }
        if threads.isEmpty { work(body) }  // no thread to be had: this one does the work
        for thread in threads { pthread_join(thread, nil) }
    }

    /// ``run(_:)`` for async code: waits without holding a thread of Swift's concurrency pool. Cancelling the task
    /// stops the pipeline (as ``stop()`` does; the sources are joined on the pipeline's own thread).
    public func run(_ body: @escaping @Sendable (Result) -> Void) async {
        await withTaskCancellationHandler {
            await DedicatedThread.run { [self] in
                run(body)
                stop()
            }
        } onCancel: {
            interrupt()
        }
    }

    /// Stops every source and the workers: ``run(_:)`` returns once the frames being processed are done. Every
    /// source is interrupted first, then joined, so that this takes about a second however many there are.
    public func stop() {
        interrupt()
        for source in sources { source.stop() }
    }

    /// Stops the workers and interrupts every source, without waiting for their threads.
    private func interrupt() {
        scheduler.stop()
        for source in sources { source.interruptWithoutJoining() }
    }

    /// Why source `index` ended early: its ``VideoSource/error`` (a damaged file, a stream lost for good) or the
    /// error of its detector on a frame (which stops that source); `nil` while it runs, and when it ended
    /// normally or was stopped.
    public func error(ofSource index: Int) -> (any Error)? {
        if let failure = failures.withLock({ $0[index] }) { return failure }
        return sources[index].error
    }

    /// One worker: frames from the scheduler through their source's detector, until the scheduler says no more.
    private func work(_ body: @Sendable (Result) -> Void) {
        while let (index, frame) = scheduler.next() {
            do {
                let objects = try detectors[index].results(in: frame.image, timestamp: frame.timestamp)
                body(Result(sourceIndex: index, frame: frame, objects: objects, latency: .now - frame.receivedAt))
                scheduler.done(index)
            } catch {
                failures.withLock { $0[index] = error }
                scheduler.retire(index)
                sources[index].stop()
            }
        }
    }
}

extension VideoPipeline {
    /// What a ``VideoPipeline`` found in one frame.
    public struct Result: Sendable {
        /// The frame's source: an index into ``VideoPipeline/sources``.
        public let sourceIndex: Int
        /// The frame.
        public let frame: VideoFrame
        /// The objects the source's detector found, with tracking IDs of that source.
        public let objects: [DetectedObject]
        /// From the frame's arrival (``VideoFrame/receivedAt``) to the end of its detection.
        public let latency: Duration
    }
}
