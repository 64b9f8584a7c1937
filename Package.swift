// swift-tools-version:6.0
// LiteVision: Google ML Kit's on-device vision API for Swift on Linux, on the official LiteRT runtime.
//
// Layers: the repository's one layer table (README and CONTRIBUTING.md link here). A module imports only modules
// of lower layers; `scripts/check-layering.py` reads this table and enforces it in CI.
//   6  LiteVisionCLI (the `litevision` command), LiteVisionMediaCLI (`litevision-media`, run by `litevision track`,
//      `detect --annotate` and `eval --plot`), LiteVisionRegistryServer (`litevision-registry`, run by
//      `litevision registry`), LiteVisionBench (`litevision-bench`), LiteVisionFuzz (`litevision-fuzz`, run by
//      scripts/fuzz.sh), LiteVisionTrackingExample (`litevision-track-example`, the porting guide's ported ML Kit camera
//      program)                                                                               executables
//   5  LiteVisionModelManager (hosted models; Foundation), LiteVisionRegistry (model registry server: Hummingbird,
//      GRDB), LiteVisionRegistryPostgres (the registry's PostgreSQL storage: postgres-nio), LiteVisionVideo (FFmpeg),
//      LiteVisionDrawing (Cairo), LiteVisionLiveView (`track --serve`'s web view: Hummingbird), LiteVisionMQTT
//      (`track --mqtt`'s results to a broker: libmosquitto), LiteVisionCommandSupport (what the commands share)
//   4  LiteVision                                               the ML Kit-shaped API: labeling, detection, tracking
//      LiteVisionRegistryStorage                                the registry's storage protocols and records
//      LiteVisionEvaluation                                     `litevision eval`'s metrics: COCO, HOTA/CLEAR/ID, top-k
//   3  LiteRT  TFLiteFormat  LiteVisionImaging  LiteVisionTracking  LiteVisionModelStore
//   2  LiteVisionSystem (files, errors, platform)  LiteVisionGeometry (rectangles, orientation)
//   1  CLiteRt, CCurl: our C declarations of the libraries loaded at run time (libLiteRt.so, libcurl)
//   0  CDynamicLibrary (the dlopen loader they share), CImagingKernels (AVX2 image kernels), CJPEGBands (JPEG
//      band decoding through libjpeg), CStbImage (stb_image from Debian's libstb-dev header: MediaPipe's file
//      decoder); Debian's CZlib, CTurboJPEG, CPNG, CFFmpeg, CCairo, CMosquitto
import PackageDescription

let package = Package(
    name: "LiteVision",
    products: [
        .library(name: "LiteVision", targets: ["LiteVision"]),
        // Hosted models: ML Kit's ModelManager (uses Foundation, so it is a library of its own).
        .library(name: "LiteVisionModelManager", targets: ["LiteVisionModelManager"]),
        // Cameras, network streams and video files as frames (FFmpeg, so it is a library of its own).
        .library(name: "LiteVisionVideo", targets: ["LiteVisionVideo"]),
        // The tracker alone, for the boxes of detectors LiteVision does not run (`ObjectTracker`; pure Swift).
        .library(name: "LiteVisionTracking", targets: ["LiteVisionTracking"]),
        .executable(name: "litevision", targets: ["LiteVisionCLI"]),
        // `litevision track`, `detect --annotate` and `eval --plot` (FFmpeg, Cairo), run by `litevision` so that it starts light.
        .executable(name: "litevision-media", targets: ["LiteVisionMediaCLI"]),
        .executable(name: "litevision-bench", targets: ["LiteVisionBench"]),
        // Fuzz targets: `litevision-fuzz TARGET FILE…` replays inputs; scripts/fuzz.sh builds it with libFuzzer.
        .executable(name: "litevision-fuzz", targets: ["LiteVisionFuzz"]),
        // The porting guide's example: ML Kit's iOS tracking camera code, ported, reading a video as a camera.
        .executable(name: "litevision-track-example", targets: ["LiteVisionTrackingExample"]),
        // The model registry server (`litevision registry …` runs it), apart so that `litevision` stays light.
        .executable(name: "litevision-registry", targets: ["LiteVisionRegistryServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
        // The model registry server (LiteVisionRegistry), not linked into the library.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // The registry's PostgreSQL storage (LiteVisionRegistryPostgres), run as a service of the server.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // Layers 0-1: C. Our own declarations for the libraries loaded at run time with dlopen (so that neither
        // LiteRT nor libcurl is needed to build) and the loader they share; Debian's -dev packages for the rest.
        .target(name: "CDynamicLibrary", linkerSettings: [.linkedLibrary("dl")]),
        // AVX2 forms of the resampling kernels (compiled for AVX2 per function, run after a cpuid check).
        .target(name: "CImagingKernels"),
        // Band decoding of large JPEGs on several threads, through libjpeg-turbo's libjpeg API (a C file: libjpeg
        // reports errors by longjmp).
        .target(name: "CJPEGBands", linkerSettings: [.linkedLibrary("jpeg")]),
        // stb_image's JPEG and PNG decoders, compiled from Debian's libstb-dev header (never copied here): how
        // MediaPipe's Image.create_from_file decodes files, for `.mediapipe` preprocessing.
        .target(name: "CStbImage"),
        .target(name: "CLiteRt", dependencies: ["CDynamicLibrary"]),
        .target(name: "CCurl", dependencies: ["CDynamicLibrary"]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat",
            providers: [
                .apt(["libavformat-dev", "libavdevice-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])
            ]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // The MQTT client library (LiteVisionMQTT: `track --mqtt`).
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),

        // Layer 2: the system layer (platform imports, whole-file reading, atomic writing, error text, locks)
        // and plane geometry.
        .target(name: "LiteVisionSystem"),
        .target(name: "LiteVisionGeometry"),

        // Layer 3: the runtime, the model format, images, tracking and the model store.
        // Thin Swift wrapper over the LiteRT C API: loading, environment, compiled models, tensor buffers.
        .target(name: "LiteRT", dependencies: ["CLiteRt", "CDynamicLibrary", "LiteVisionSystem"]),
        // Bounds-checked reader of .tflite FlatBuffers, TFLite Model Metadata and the associated-files zip.
        .target(name: "TFLiteFormat", dependencies: ["CZlib", "LiteVisionSystem"]),
        // Pixel buffers, orientation, JPEG/PNG codecs, resampling.
        .target(
            name: "LiteVisionImaging",
            dependencies: [
                "CTurboJPEG", "CJPEGBands", "CPNG", "CStbImage", "CImagingKernels", "LiteVisionGeometry",
                "LiteVisionSystem",
            ]),
        // Multi-object tracking (motion model, association, label smoothing); pure Swift.
        .target(name: "LiteVisionTracking", dependencies: ["LiteVisionGeometry"]),
        // Where models come from: local files and AutoML bundles, the built-in model catalog, verified downloads.
        .target(
            name: "LiteVisionModelStore",
            dependencies: [
                "CCurl", "LiteVisionSystem", .product(name: "Crypto", package: "swift-crypto"),
            ]),

        // Layer 4: the ML Kit-shaped API.
        .target(
            name: "LiteVision",
            dependencies: [
                "LiteRT", "TFLiteFormat", "LiteVisionImaging", "LiteVisionTracking", "LiteVisionModelStore",
                "LiteVisionGeometry", "LiteVisionSystem",
            ]),

        // The metrics of `litevision eval` (COCO box AP/AR as pycocotools, HOTA/CLEAR/Identity as TrackEval,
        // classification accuracy) and the readers of their files; pure Swift, no Foundation.
        .target(
            name: "LiteVisionEvaluation",
            dependencies: ["LiteVisionTracking", "LiteVisionGeometry", "LiteVisionSystem"]),

        // The registry's storage, behind two protocols (metadata, model files), with the records they exchange:
        // the SQLite + disk pair lives in LiteVisionRegistry, the PostgreSQL pair in LiteVisionRegistryPostgres.
        .target(
            name: "LiteVisionRegistryStorage",
            dependencies: [
                "LiteVisionModelStore", "LiteVisionSystem",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),

        // Layer 5: ML Kit's ModelManager (Foundation: Progress, NotificationCenter); video (FFmpeg) and drawing
        // (Cairo), kept out of the library.
        .target(
            name: "LiteVisionModelManager", dependencies: ["LiteVision", "LiteVisionModelStore", "LiteVisionSystem"]),
        // Results to an MQTT broker (`track --mqtt`): libmosquitto's client, its network thread, a bounded queue.
        .target(name: "LiteVisionMQTT", dependencies: ["CMosquitto", "LiteVisionSystem"]),
        // The model registry: metadata in SQLite (GRDB), model files content-addressed on disk, HTTP (Hummingbird).
        .target(
            name: "LiteVisionRegistry",
            dependencies: [
                "LiteVision", "LiteVisionModelStore", "TFLiteFormat", "LiteVisionSystem", "LiteVisionRegistryStorage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.embedInCode("openapi.yaml")]),
        // The registry's metadata and model files in PostgreSQL (`serve --database postgres://…`), so that any
        // number of replicas share them; apart so that the embedded registry does not link postgres-nio.
        .target(
            name: "LiteVisionRegistryPostgres",
            dependencies: [
                "LiteVisionRegistryStorage", "LiteVisionModelStore", "LiteVisionSystem",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .target(
            name: "LiteVisionVideo",
            dependencies: ["CFFmpeg", "LiteVision", "LiteVisionImaging", "LiteVisionGeometry", "LiteVisionSystem"]),
        .target(name: "LiteVisionDrawing", dependencies: ["CCairo", "LiteVisionImaging", "LiteVisionGeometry"]),
        // `litevision track --serve`: the live view (page, MJPEG, Server-Sent Events, metrics) over Hummingbird.
        .target(
            name: "LiteVisionLiveView",
            dependencies: [
                "LiteVisionSystem",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.embedInCode("live-view.html")]),

        // What the commands share: their arguments, output formats, the console, starting a sibling program.
        .target(
            name: "LiteVisionCommandSupport",
            dependencies: [
                "LiteVision", "LiteVisionModelStore", "LiteVisionSystem", "LiteVisionEvaluation", "LiteVisionTracking",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // Layer 6: executables. `litevision` links neither FFmpeg nor Cairo nor the server libraries: it hands
        // the commands that need them to `litevision-media` and `litevision-registry`.
        .executableTarget(
            name: "LiteVisionCLI",
            dependencies: [
                "LiteVision", "LiteVisionModelStore", "LiteVisionCommandSupport", "LiteVisionSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The Swift runtime and FoundationEssentials linked in (their static copies ship with the toolchain):
            // a fresh `litevision` then maps 8 files instead of 19 and starts ~5 ms sooner. FoundationEssentials'
            // own static dependencies are not linked automatically, hence the two libraries named here. An
            // executable's flags do not reach packages that depend on the LiteVision library.
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-l_FoundationCollections", "-l_FoundationCShims"])]),
        .executableTarget(
            name: "LiteVisionMediaCLI",
            dependencies: [
                "LiteVision", "LiteVisionCommandSupport", "LiteVisionVideo", "LiteVisionDrawing", "LiteVisionImaging",
                "LiteVisionLiveView", "LiteVisionMQTT", "LiteVisionSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "LiteVisionRegistryServer",
            dependencies: [
                "LiteVisionRegistry", "LiteVisionRegistryStorage", "LiteVisionRegistryPostgres", "LiteVisionSystem",
                "LiteVisionCommandSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .executableTarget(
            name: "LiteVisionBench",
            dependencies: [
                "LiteVision", "LiteRT", "LiteVisionImaging", "LiteVisionTracking", "LiteVisionGeometry",
                "LiteVisionVideo",
                "LiteVisionSystem",
            ]),
        // The fuzz targets of the parsers of untrusted bytes (scripts/fuzz.sh builds them with libFuzzer).
        .executableTarget(
            name: "LiteVisionFuzz",
            dependencies: [
                "TFLiteFormat", "LiteVisionImaging", "LiteVisionModelStore", "LiteVisionEvaluation", "LiteVisionSystem",
                "LiteVisionCommandSupport", "LiteVisionTracking",
            ]),
        // The porting guide's example program (layer 6): ML Kit's camera code, frames from LiteVisionVideo.
        .executableTarget(
            name: "LiteVisionTrackingExample", dependencies: ["LiteVision", "LiteVisionVideo", "LiteVisionSystem"]),

        // Tests. Helpers: where the shared test data lives (LITEVISION_TEST_DATA, default ../shared).
        .target(name: "LiteVisionTestSupport", path: "Tests/LiteVisionTestSupport"),
        .testTarget(
            name: "LiteVisionRegistryTests",
            dependencies: [
                "LiteVisionRegistry", "LiteVisionRegistryPostgres", "LiteVisionRegistryStorage", "LiteVisionModelStore",
                "LiteVisionModelManager", "LiteVisionTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .testTarget(name: "LiteVisionSystemTests", dependencies: ["LiteVisionSystem", "LiteVisionTestSupport"]),
        .testTarget(name: "LiteRTTests", dependencies: ["LiteRT", "LiteVisionSystem", "LiteVisionTestSupport"]),
        .testTarget(
            name: "TFLiteFormatTests",
            dependencies: ["TFLiteFormat", "CZlib", "LiteVisionSystem", "LiteVisionTestSupport"]),
        .testTarget(
            name: "LiteVisionImagingTests",
            dependencies: [
                "LiteVisionImaging", "LiteVisionGeometry",
                "LiteVisionTestSupport", "CZlib",
            ]),
        // Synthetic tracking sequences (real photo crops moving over real backgrounds) and MOT metrics.
        .target(
            name: "LiteVisionTrackingTestSupport",
            dependencies: ["LiteVisionTracking", "LiteVisionGeometry", "LiteVisionImaging", "LiteVisionTestSupport"],
            path: "Tests/LiteVisionTrackingTestSupport"),
        .testTarget(
            name: "LiteVisionTrackingTests",
            dependencies: [
                "LiteVisionTracking", "LiteVisionGeometry", "LiteVisionImaging",
                "LiteVisionTrackingTestSupport", "LiteVisionTestSupport",
            ]),
        .testTarget(
            name: "LiteVisionVideoTests",
            dependencies: [
                "LiteVisionVideo", "LiteVision", "LiteVisionImaging", "LiteVisionGeometry", "LiteVisionSystem",
                "CFFmpeg", "LiteVisionTestSupport",
            ]),
        .testTarget(
            name: "LiteVisionDrawingTests",
            dependencies: [
                "LiteVisionDrawing", "LiteVisionImaging",
                "LiteVisionGeometry", "LiteVisionTestSupport",
            ]),
        .testTarget(
            name: "LiteVisionTests",
            dependencies: [
                "LiteVision", "LiteVisionVideo", "LiteVisionImaging",
                "LiteVisionModelStore", "LiteVisionGeometry", "LiteVisionTracking",
                "TFLiteFormat", "LiteVisionModelManager", "LiteVisionTestSupport",
                "LiteVisionTrackingTestSupport", "CZlib",
            ],
            exclude: [
                "Fixtures/make_bad_models.py", "Fixtures/mediapipe_results.py", "Fixtures/make_file_variants.py",
            ]),
        // The evaluation metrics' pieces against the references' own (SciPy's assignment, Python's JSON reading).
        .testTarget(
            name: "LiteVisionEvaluationTests", dependencies: ["LiteVisionEvaluation", "LiteVisionTestSupport"]),
        // The commands, run as a user runs them: the built `litevision` and `litevision-media`.
        .testTarget(
            name: "LiteVisionCLITests",
            dependencies: [
                "LiteVision", "LiteVisionImaging", "LiteVisionVideo", "LiteVisionCommandSupport", "LiteVisionSystem",
                "LiteVisionEvaluation", "LiteVisionTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The reference script of EvalCLITests (pycocotools, TrackEval), run with python3.
            exclude: ["Fixtures/eval_reference.py"]),
        // The model store: downloads, the cache, transfer limits (real servers on loopback).
        .testTarget(
            name: "LiteVisionModelStoreTests",
            dependencies: ["LiteVision", "LiteVisionModelStore", "LiteVisionTestSupport"]),
        // ML Kit's ModelManager (progress, notifications, shared transfers) and its errors as NSError.
        .testTarget(
            name: "LiteVisionModelManagerTests",
            dependencies: [
                "LiteVision", "LiteVisionModelStore", "LiteVisionModelManager", "LiteVisionImaging", "LiteRT",
                "LiteVisionTestSupport",
            ]),
        // The MQTT publisher against Debian's mosquitto broker and mosquitto_sub on loopback.
        .testTarget(name: "LiteVisionMQTTTests", dependencies: ["LiteVisionMQTT", "LiteVisionTestSupport"]),
        // A program MLKitFidelityTests runs to see where completion handlers are called with and without a main loop.
        .executableTarget(
            name: "MainQueueCallbackProbe", dependencies: ["LiteVision", "LiteVisionModelManager"],
            path: "Tests/MainQueueCallbackProbe"),
        // Every Swift snippet of ML Kit's iOS guides (../shared/seeds), verbatim, compiled and run.
        .testTarget(
            name: "SeedSnippetTests",
            dependencies: ["LiteVision", "LiteVisionModelManager", "LiteVisionImaging", "LiteVisionTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
