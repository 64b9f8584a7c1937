import LiteVisionModelStore

/// Options for an ``ImageLabeler`` running your own TFLite classifier, as ML Kit's
/// `CustomImageLabelerOptions`.
///
/// ```swift
/// let options = CustomImageLabelerOptions(localModel: localModel)
/// options.confidenceThreshold = NSNumber(value: 0.5)
/// options.maxResultCount = 3
/// let imageLabeler = ImageLabeler.imageLabeler(options: options)
/// ```
///
/// With a hosted model, `CustomImageLabelerOptions(remoteModel:)` runs its downloaded copy; a labeler made
/// before it is downloaded reports ``VisionError/remoteModelNotDownloaded(_:)``.
///
/// The settings every labeler has (threshold, cache folder, processing) are those of
/// ``CommonImageLabelerOptions``; a labeler takes a copy of them when it is made.
public final class CustomImageLabelerOptions: CommonImageLabelerOptions, @unchecked Sendable {
    // @unchecked Sendable: restated from CommonImageLabelerOptions; this class adds no stored property, its
    // model and limits are in the base class's `state` Mutex.

    /// Options for the classifier in `localModel`, with ML Kit's defaults.
    public init(localModel: LocalModel) {
        super.init(LabelerConfiguration(model: .local(localModel)))
    }

    /// Options for the downloaded copy of the classifier `remoteModel`, with ML Kit's defaults.
    public init(remoteModel: CustomRemoteModel) {
        super.init(LabelerConfiguration(model: .remote(remoteModel)))
    }

    /// The local classifier, when the options were made with one.
    public var localModel: LocalModel? {
        if case .local(let model) = configuration.model { return model }
        return nil
    }

    /// The remote classifier, when the options were made with one.
    public var remoteModel: CustomRemoteModel? {
        if case .remote(let model) = configuration.model { return model }
        return nil
    }

    /// At most this many labels are returned: 10 by default, as in ML Kit. A value below 1 counts as 10.
    public var maxResultCount: Int {
        get { state.withLock { $0.maxResultCount } }
        set { state.withLock { $0.maxResultCount = newValue } }
    }
}
