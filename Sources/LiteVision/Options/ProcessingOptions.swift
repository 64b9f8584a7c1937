import LiteRT

/// How LiteVision runs models and reads images, shared by every feature's options (LiteVision addition; ML
/// Kit chooses these itself): inference threads, where the LiteRT runtime is, how JPEGs are decoded.
///
/// ```swift
/// let options = CustomImageLabelerOptions(localModel: LocalModel(path: "bird.tflite"))
/// options.processing.threadCount = 1          // one thread per inference, e.g. to label files in parallel
/// ```
public struct ProcessingOptions: Sendable, Hashable {
    /// Threads one inference may use. Defaults to the number of cores.
    public var threadCount: Int = Runtime.defaultThreadCount

    /// Load the LiteRT runtime from this file only. `nil`, the default, searches for it: `LITERT_LIBRARY`, the
    /// dynamic loader's path, the executable's folder, a remembered path, and last the `ai_edge_litert`
    /// Python package.
    public var runtimeLibraryPath: String?

    /// How far large JPEGs may be downscaled while decoding. See ``ProcessingOptions/DecodingScale``.
    public var decodingScale: DecodingScale = .full

    /// The defaults: one thread per core, the runtime found by search, full decoding.
    public init() {}
}
