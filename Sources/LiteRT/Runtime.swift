import CDynamicLibrary
import CLiteRt
import Dispatch
import LiteVisionSystem
import FoundationEssentials
import Synchronization

/// The loaded LiteRT runtime (`libLiteRt.so`) and its environment, shared by every model of the process.
///
/// Load it once with ``shared()`` (or ``load(libraryPath:)`` for a specific file). The runtime is
/// dlopen'ed rather than linked, so a missing runtime is a ``RuntimeLoadError`` that lists every place
/// tried, not a loader failure at start-up.
///
/// Discovery order: an explicit path; the `LITERT_LIBRARY` environment variable (a full path); a bare
/// `libLiteRt.so` (`LD_LIBRARY_PATH`, the ld.so cache); the executable's folder; a path remembered from an
/// earlier discovery; last, asking `python3` where the `ai_edge_litert` package lives (remembered
/// afterwards in `~/.cache/litevision/runtime-path`).
package final class Runtime: @unchecked Sendable {
    // @unchecked: every stored property is immutable after init. The runtime's environment is used
    // concurrently only for model loading and compilation, which `creationLock` serializes.

    /// The runtime release LiteVision is written and tested against (`pip install ai-edge-litert==2.3.0`).
    package static let pinnedVersion = "2.3.0"

    /// The file the runtime was loaded from.
    package let libraryPath: String
    /// The identity of the library file the dynamic loader mapped (``libraryPath`` may be a bare name it searched
    /// for): what caches of compiled data key on. Nil when it cannot be told.
    package let libraryIdentity: FileIdentity?
    let api: UnsafePointer<LiteVisionLiteRtApi>
    let environment: LiteRtEnvironment
    let creationLock = PosixLock()

    private init(libraryPath: String, api: UnsafePointer<LiteVisionLiteRtApi>) throws(LiteRTError) {
        self.libraryPath = libraryPath
        self.api = api
        var file = [CChar](repeating: 0, count: 4096)
        let function = unsafeBitCast(api.pointee.CreateModelFromFile, to: UnsafeRawPointer.self)
        libraryIdentity =
            litevision_dynamic_library_file(function, &file, file.count) == 1
            ? FileIdentity(path: String(cString: file)) : nil
        // Log errors only, and register only the CPU accelerator so no GPU/NPU plugin is probed.
        var options = [
            LiteRtEnvOption(
                tag: Int32(kLiteVisionEnvOptionMinLoggerSeverity),
                value: LiteRtAny(type: Int32(kLiteVisionAnyTypeInt), value: .init(int_value: 3))),
            LiteRtEnvOption(
                tag: Int32(kLiteVisionEnvOptionAutoRegisterAccelerators),
                value: LiteRtAny(
                    type: Int32(kLiteVisionAnyTypeInt),
                    value: .init(int_value: Int64(kLiteVisionHwAcceleratorCpu)))),
        ]
        var environment: LiteRtEnvironment?
        try check(
            api.pointee.CreateEnvironment(Int32(options.count), &options, &environment),
            "create an environment")
        guard let environment else { throw LiteRTError(status: 9, operation: "create an environment") }
        self.environment = environment
    }

    private static let cache = Mutex<[String: Runtime]>([:])

    /// The runtime found by the discovery order, loaded once per process.
    package static func shared() throws(RuntimeLoadError) -> Runtime {
        try load(libraryPath: nil)
    }

    /// Loads the runtime, from `libraryPath` if given (and only from there), else by the discovery order.
    /// The same file is loaded once per process: later calls return the same runtime.
    package static func load(libraryPath: String?) throws(RuntimeLoadError) -> Runtime {
        let key = libraryPath ?? ""
        if let runtime = cache.withLock({ $0[key] }) { return runtime }
        // One load at a time: a caller arriving while another loads waits for it and gets its runtime.
        loadLock.lock()
        defer { loadLock.unlock() }
        if let runtime = cache.withLock({ $0[key] }) { return runtime }
        // A load started ahead (startLoading) that failed: its error, once, instead of searching again (the search
        // may ask python3, ~150 ms). A later call searches afresh.
        if let failure = aheadFailures.withLock({ $0.removeValue(forKey: key) }) { throw failure }
        var attempts: [(place: String, reason: String)] = []
        let candidates = libraryPath.map { [("the path given", $0)] } ?? LibraryLocator.candidates(explicitPath: nil)
        for (place, path) in candidates {
            switch open(path) {
            case .success(let runtime):
                return remember(runtime, as: key)
            case .failure(let reason):
                attempts.append(("\(place): \(path)", reason))
            }
        }
        if libraryPath == nil {
            let found = LibraryLocator.pythonPackagePath()
            if let path = found.path {
                switch open(path) {
                case .success(let runtime):
                    LibraryLocator.remember(path)
                    return remember(runtime, as: key)
                case .failure(let reason):
                    attempts.append(("python3's ai_edge_litert package: \(path)", reason))
                }
            } else {
                attempts.append(("python3's ai_edge_litert package", found.reason))
            }
        }
        throw RuntimeLoadError(attempts: attempts)
    }

    private static let loadLock = PosixLock()
    private static let aheadFailures = Mutex<[String: RuntimeLoadError]>([:])

    /// Starts loading the runtime on another thread, so that loading it (~2 ms: mapping and relocating an 8 MB
    /// library, creating the environment) overlaps the caller's own work, such as reading and checking a model
    /// file. A later ``load(libraryPath:)`` waits for it; errors are reported by that call.
    package static func startLoading(libraryPath: String?) {
        if cache.withLock({ $0[libraryPath ?? ""] }) != nil { return }
        DispatchQueue.global(qos: .userInitiated).async {
            do throws(RuntimeLoadError) {
                _ = try load(libraryPath: libraryPath)
            } catch {
                aheadFailures.withLock { $0[libraryPath ?? ""] = error }
            }
        }
    }

    /// Keeps the first runtime loaded under `key` (a concurrent loader's duplicate is dropped).
    private static func remember(_ runtime: Runtime, as key: String) -> Runtime {
        cache.withLock { cache in
            if let existing = cache[key] { return existing }
            cache[key] = runtime
            return runtime
        }
    }

    private enum OpenResult { case success(Runtime), failure(String) }

    private static func open(_ path: String) -> OpenResult {
        if path.contains("/") && access(path, F_OK) != 0 {
            return .failure(errorDescription(errno))
        }
        var message = [CChar](repeating: 0, count: 1024)
        guard let api = litevision_litert_load(path, &message, message.count) else {
            var reason = String(nulTerminated: message)
            if reason.contains("does not export LiteRtCreateModelFromFd") {
                reason += " (a runtime older than 2.1.6, whose model functions have other signatures)"
            }
            return .failure(reason)
        }
        do {
            return .success(try Runtime(libraryPath: path, api: api))
        } catch {
            return .failure(error.description)
        }
    }

    /// The number of threads inference uses by default: the number of cores.
    package static var defaultThreadCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// The most threads one inference may use: 64, or the number of cores on a machine with more. Each thread is
    /// a real one, started when a model is compiled; an unbounded count (`--threads 1000000`) would start threads
    /// until the system's process table is full.
    package static var maximumThreadCount: Int { max(64, ProcessInfo.processInfo.activeProcessorCount) }
}
