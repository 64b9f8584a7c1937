// swift-tools-version:6.0
// LiteVision: Google ML Kit's on-device vision API for Swift on Linux, on the official LiteRT runtime.
//
// Layering (dependencies point downward only):
//   litevision (CLI), litevision-bench            executables
//   LiteVisionVideo (FFmpeg), LiteVisionDrawing (Cairo)   heavy extras, used by the CLI, not by the core
//   LiteVision                                    vision features: labeling, detection, tracking
//   LiteVisionImaging   TFLiteModel   LiteRTRuntime
//   CTurboJPEG, CPNG (Debian C libraries)          CLiteRt (our own C declarations, loaded with dlopen)
import PackageDescription

let package = Package(
    name: "LiteVision",
    products: [
        .library(name: "LiteVision", targets: ["LiteVision"]),
        .executable(name: "litevision", targets: ["litevision"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // C declarations of the LiteRT C API (written for this project; the runtime is dlopen'ed).
        .target(name: "CLiteRt", linkerSettings: [.linkedLibrary("dl")]),
        // Thin Swift wrapper over the runtime: loading, environment, compiled models, tensor buffers.
        .target(name: "LiteRTRuntime", dependencies: ["CLiteRt"]),
        // C declarations of the few libcurl functions the model downloader uses (libcurl.so.4 is dlopen'ed).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // Reader for .tflite FlatBuffers, TFLite Model Metadata and the associated-files zip.
        .target(name: "TFLiteModel", dependencies: ["CZlib"]),
        // Debian's zlib (inflating deflated entries of a model's associated-files zip).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Debian's libjpeg-turbo and libpng.
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        // Images: pixel buffers, orientation, codecs, resampling.
        .target(name: "LiteVisionImaging", dependencies: ["CTurboJPEG", "CPNG"]),
        // FFmpeg (video decoding/encoding) and Cairo (drawing), kept out of the core library.
        .systemLibrary(name: "CFFmpeg", pkgConfig: "libavformat",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .target(name: "LiteVisionVideo", dependencies: ["CFFmpeg", "LiteVisionImaging"]),
        .target(name: "LiteVisionDrawing", dependencies: ["CCairo", "LiteVisionImaging"]),
        // Multi-object tracking (motion model, association, label smoothing); pure Swift.
        .target(name: "LiteVisionTracking", dependencies: ["LiteVisionImaging"]),
        // The ML Kit-style vision features.
        .target(name: "LiteVision", dependencies: ["LiteRTRuntime", "CCurl", "TFLiteModel", "LiteVisionImaging", "LiteVisionTracking"]),
        .executableTarget(name: "litevision", dependencies: [
            "LiteVision", "LiteVisionVideo", "LiteVisionDrawing",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "litevision-bench", dependencies: ["LiteVision", "LiteRTRuntime", "LiteVisionVideo"]),
        // Test helpers: where the shared test data lives (LITEVISION_TEST_DATA, default ../shared).
        .target(name: "LiteVisionTestSupport", path: "Tests/LiteVisionTestSupport"),
        .testTarget(name: "LiteRTRuntimeTests", dependencies: ["LiteRTRuntime", "LiteVisionTestSupport"]),
        .testTarget(name: "TFLiteModelTests", dependencies: ["TFLiteModel", "LiteVisionTestSupport"]),
        .testTarget(name: "LiteVisionImagingTests", dependencies: ["LiteVisionImaging", "LiteVisionTestSupport"]),
        // Synthetic tracking sequences (real photo crops moving over real backgrounds) and MOT metrics.
        .target(name: "LiteVisionTrackingTestSupport", dependencies: ["LiteVisionTracking", "LiteVisionImaging", "LiteVisionTestSupport"],
                path: "Tests/LiteVisionTrackingTestSupport"),
        .testTarget(name: "LiteVisionTrackingTests", dependencies: ["LiteVisionTracking", "LiteVisionTrackingTestSupport", "LiteVisionTestSupport"]),
        .testTarget(name: "LiteVisionVideoTests", dependencies: ["LiteVisionVideo", "LiteVisionTestSupport"]),
        .testTarget(name: "LiteVisionDrawingTests", dependencies: ["LiteVisionDrawing", "LiteVisionTestSupport"]),
        .testTarget(name: "LiteVisionTests", dependencies: ["LiteVision", "LiteVisionVideo", "LiteVisionTestSupport",
                                                            "LiteVisionTrackingTestSupport"],
                    exclude: ["Fixtures/make_bad_models.py"]),
    ],
    swiftLanguageModes: [.v6]
)
