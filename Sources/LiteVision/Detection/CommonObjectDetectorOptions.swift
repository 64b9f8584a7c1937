import LiteVisionModelStore
import LiteVisionTracking
import Synchronization

/// The settings every object detector has, as ML Kit's `CommonObjectDetectorOptions`: the base class of
/// ``ObjectDetectorOptions`` (the built-in detector and its coarse categories) and
/// ``CustomObjectDetectorOptions`` (your classifier). You make one of those two, never this class itself.
///
/// As in ML Kit, options are objects you configure through a constant and then hand to
/// ``ObjectDetector/objectDetector(options:)``:
///
/// ```swift
/// let options = ObjectDetectorOptions()
/// options.detectorMode = .singleImage
/// options.shouldEnableMultipleObjects = true
/// options.shouldEnableClassification = true
/// let objectDetector = ObjectDetector.objectDetector(options: options)
/// ```
///
/// **A detector takes a copy.** The detector reads every setting when it is made; changing the options
/// afterwards has no effect on it (make a new detector). Options may be read and changed from any thread —
/// each property is read and written under a lock — but, as in ML Kit, configure them fully before making a
/// detector: a detector made while another thread is still changing them gets some mix of old and new values.
public class CommonObjectDetectorOptions: @unchecked Sendable {
    // @unchecked Sendable: the class is not final (ML Kit's class hierarchy), so the compiler cannot check it.
    // Its only stored property is `state`, a Mutex every setting is read and written under, and its two
    // subclasses add no stored property.
    let state: Mutex<DetectorConfiguration>

    init(_ configuration: DetectorConfiguration) {
        state = Mutex(configuration)
    }

    /// One setting, read or written under the lock.
    subscript<Value: Sendable>(setting keyPath: WritableKeyPath<DetectorConfiguration, Value>) -> Value {
        get { state.withLock { $0[keyPath: keyPath] } }
        set { state.withLock { $0[keyPath: keyPath] = newValue } }
    }

    /// A copy of every setting, as a detector takes it when it is made.
    var configuration: DetectorConfiguration { state.withLock { $0 } }

    /// Stream (video, with tracking IDs; the default) or single image.
    public var detectorMode: DetectorMode {
        get { self[setting: \.detectorMode] }
        set { self[setting: \.detectorMode] = newValue }
    }

    /// Off (the default): only the most prominent object is returned (see ``ObjectDetector``). On: up to
    /// ``maximumObjectCount`` objects, 5 by default as in ML Kit.
    public var shouldEnableMultipleObjects: Bool {
        get { self[setting: \.shouldEnableMultipleObjects] }
        set { self[setting: \.shouldEnableMultipleObjects] = newValue }
    }

    /// Classify each object: into ML Kit's five coarse categories with ``ObjectDetectorOptions``, or with your
    /// model with ``CustomObjectDetectorOptions``. Off by default, for both, as in ML Kit; off, objects have
    /// no ``DetectedObject/labels``.
    public var shouldEnableClassification: Bool {
        get { self[setting: \.shouldEnableClassification] }
        set { self[setting: \.shouldEnableClassification] = newValue }
    }

    /// The most objects returned with multiple objects on (LiteVision addition; ML Kit's fixed cap is 5).
    public var maximumObjectCount: Int {
        get { self[setting: \.maximumObjectCount] }
        set { self[setting: \.maximumObjectCount] = newValue }
    }

    /// The lowest detector score of an object reported in single-image mode, and of a new track in stream mode
    /// (LiteVision addition). Default 0.5.
    public var detectionThreshold: Float {
        get { self[setting: \.detectionThreshold] }
        set { self[setting: \.detectionThreshold] = newValue }
    }

    /// Your own SSD-style detector instead of the built-in one (LiteVision addition): a TFLite model with the
    /// four post-processed outputs, with or without metadata. Give a label file in the `LocalModel` if the
    /// model has none in its metadata. The detector's class of an object is its
    /// ``DetectedObject/detectorLabel``, never one of its ``DetectedObject/labels``.
    public var detectorModel: LocalModel? {
        get { self[setting: \.detectorModel] }
        set { self[setting: \.detectorModel] = newValue }
    }

    /// The coordinate space of each object's ``DetectedObject/frame`` (LiteVision addition): upright (the default,
    /// as ML Kit on Android and MediaPipe) or, for camera buffers, the buffer's own pixels as ML Kit on iOS
    /// returns them. See ``ObjectDetectorOptions/FrameCoordinates``. Tracking is the same in both.
    public var frameCoordinates: ObjectDetectorOptions.FrameCoordinates {
        get { self[setting: \.frameCoordinates] }
        set { self[setting: \.frameCoordinates] = newValue }
    }

    /// The output order of ``detectorModel``, when LiteVision cannot work it out (see
    /// ``ObjectDetectorOptions/DetectorOutputLayout``).
    public var detectorOutputLayout: ObjectDetectorOptions.DetectorOutputLayout? {
        get { self[setting: \.detectorOutputLayout] }
        set { self[setting: \.detectorOutputLayout] = newValue }
    }

    /// How many lines of the detector's label file come before class 0. Default: 1 when the first line is
    /// `background`, else 0.
    public var detectorLabelOffset: Int? {
        get { self[setting: \.detectorLabelOffset] }
        set { self[setting: \.detectorLabelOffset] = newValue }
    }

    /// How objects are followed across frames in stream mode (LiteVision addition); what starts an object is
    /// ``detectionThreshold``.
    public var tracking: TrackingOptions {
        get { self[setting: \.tracking] }
        set { self[setting: \.tracking] = newValue }
    }

    /// In stream mode, an object is classified again after this many frames (LiteVision addition; its labels
    /// are smoothed over time in between). Default 5.
    public var classificationInterval: Int {
        get { self[setting: \.classificationInterval] }
        set { self[setting: \.classificationInterval] = newValue }
    }

    /// Where the built-in models are looked for first (LiteVision addition); see <doc:Models>.
    public var modelDirectory: String? {
        get { self[setting: \.modelDirectory] }
        set { self[setting: \.modelDirectory] = newValue }
    }

    /// The model cache folder of the remote classifier (LiteVision addition): where its downloaded copy is read
    /// from (the folder given to `ModelManager(cacheFolder:)` or `litevision models download --cache`). When unset
    /// (`nil`) or empty, `LITEVISION_MODEL_CACHE`, else `~/.cache/litevision/models` (`$XDG_CACHE_HOME` when set). Built-in
    /// models do not use it: they are looked for in ``modelDirectory``, `LITEVISION_MODEL_DIR` and
    /// `~/.cache/litevision/models`, and downloaded to the last.
    public var modelCacheFolder: String? {
        get { self[setting: \.modelCacheFolder] }
        set { self[setting: \.modelCacheFolder] = newValue }
    }

    /// Whether a built-in model found in no folder is downloaded from its official URL (or
    /// `LITEVISION_MODEL_BASE_URL`) into the cache, verified by its SHA-256 (LiteVision addition). Default true.
    public var allowsModelDownload: Bool {
        get { self[setting: \.allowsModelDownload] }
        set { self[setting: \.allowsModelDownload] = newValue }
    }

    /// Threads, runtime library and JPEG decoding (LiteVision addition). See ``ProcessingOptions``.
    public var processing: ProcessingOptions {
        get { self[setting: \.processing] }
        set { self[setting: \.processing] = newValue }
    }
}
