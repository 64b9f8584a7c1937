import LiteRT

/// How LiteVision runs models and reads images, shared by every feature's options (LiteVision addition; ML
/// Kit chooses these itself): inference threads, where the LiteRT runtime is, how JPEGs are decoded and
/// resampled.
///
/// ```swift
/// let options = CustomImageLabelerOptions(localModel: LocalModel(path: "bird.tflite"))
/// options.processing.threadCount = 1          // one thread per inference, e.g. to label files in parallel
/// ```
public struct ProcessingOptions: Sendable, Hashable {
    /// Threads one image may use: for inference, and for decoding a large JPEG (a photo of a megapixel or more
    /// with one sequential scan is decoded in bands on up to 4 threads and no more than the cores, with the same
    /// pixels). Defaults to the number of cores. (Resizing to the model input always uses every core.)
    ///
    /// Always between 1 and ``maximumThreadCount``: a value outside is brought to the nearer bound when it is
    /// set (`threadCount = 1_000_000` reads back as 64 on a machine of up to 64 cores), since every thread is
    /// started for real and an unbounded count would fill the system's process table.
    public var threadCount: Int = Runtime.defaultThreadCount {
        didSet { threadCount = min(max(1, threadCount), Self.maximumThreadCount) }
    }

    /// The most threads ``threadCount`` may ask for: 64, or the number of cores on a machine with more.
    public static var maximumThreadCount: Int { Runtime.maximumThreadCount }

    /// Load the LiteRT runtime from this file only. `nil`, the default, searches for it: `LITERT_LIBRARY`, the
    /// dynamic loader's path, the executable's folder, a remembered path, and last the `ai_edge_litert`
    /// Python package.
    public var runtimeLibraryPath: String?

    /// How far large JPEGs may be downscaled while decoding. See ``ProcessingOptions/DecodingScale``. (Not with
    /// ``Preprocessing/mediapipe``, which decodes files at full size, as MediaPipe does.)
    public var decodingScale: DecodingScale = .full

    /// Whether damaged JPEG and PNG data is decoded as far as it goes instead of being refused. `false`, the
    /// default, is strict: an image file that libjpeg-turbo or libpng finds damaged (a marker or a second frame
    /// header inside a JPEG's compressed data, a bad Huffman code, a file cut short, a PNG without its IEND
    /// chunk) fails with ``VisionError/imageDecoding(_:)``, as Pillow refuses it, instead of giving results
    /// for a partly grey picture. `true` is lenient (best effort, as browsers show such files): what
    /// libjpeg-turbo can recover from is decoded, damaged or missing parts coming out grey or wrong. Damage
    /// fatal to the libraries (a PNG CRC error in IHDR or IDAT, PNG data that ends inside the image) stays an
    /// error either way. With ``Preprocessing/mediapipe`` files are decoded by stb_image as MediaPipe decodes
    /// them, in its one mode, and this does not apply.
    public var allowsDamagedImageData = false

    /// How images are decoded and resampled to the model input: ``Preprocessing/exact`` (the default:
    /// antialiased, the reference outputs' convention) or ``Preprocessing/mediapipe`` (MediaPipe Tasks' scores,
    /// bit for bit, from the same files or pixels).
    public var preprocessing: Preprocessing = .exact

    /// The longest one inference may take, in seconds: 10 by default. A run still going then is stopped by the
    /// runtime between two operators, and the call fails with ``VisionError/runtime(_:)`` (status `Cancelled`).
    /// It protects a process from a model whose loop never ends (a `WHILE` the model verifier cannot prove
    /// endless) or far too slow for the machine: the shared models run in 1 to 30 ms on two cores. `nil`,
    /// 0 or a negative value means no limit (as `--inference-timeout 0` on the command line).
    public var inferenceTimeout: Double? = 10

    /// The defaults: one thread per core, the runtime found by search, full decoding, damaged images refused,
    /// exact preprocessing, a
    /// 10 s inference deadline.
    public init() {}
}
