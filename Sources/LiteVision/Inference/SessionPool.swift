import Dispatch
import LiteRTRuntime
import LiteVisionImaging

/// One compiled model plus the scratch memory a call needs, used by one caller at a time.
final class InferenceSession {
    let compiled: CompiledModel
    /// Resized pixels in stored orientation, when they cannot go straight into the input tensor.
    var resized: [UInt8] = []
    /// Upright pixels, for float models fed from a rotated image.
    var oriented: [UInt8] = []
    /// The resize coefficients of the last call.
    var cachedPlan: ResizePlan?
    /// Dequantized scores of the output.
    var scores: [Float] = []

    init(compiled: CompiledModel) {
        self.compiled = compiled
    }
}

/// Compiled models of one model, handed to one caller at a time, so one feature object serves many
/// threads and tasks without data races. Sessions are created on demand up to `limit`; beyond that a caller
/// waits for one to come back.
final class SessionPool: @unchecked Sendable {
    // @unchecked: `idle` is only touched with `lock` held, and a session taken out of it belongs to exactly
    // one caller until it is put back. `available` counts the sessions a caller may still take or create.
    private let lock = PosixLock()
    private var idle: [InferenceSession] = []
    private let available: DispatchSemaphore
    private let make: @Sendable () throws -> InferenceSession

    init(limit: Int, first: InferenceSession, make: @escaping @Sendable () throws -> InferenceSession) {
        self.available = DispatchSemaphore(value: max(1, limit))
        self.make = make
        self.idle = [first]
    }

    /// Runs `body` with a session of its own.
    func withSession<R>(_ body: (InferenceSession) throws -> R) throws -> R {
        available.wait()
        defer { available.signal() }
        let session = try lock.withLock { idle.popLast() } ?? make()
        defer { lock.withLock { idle.append(session) } }
        return try body(session)
    }
}

extension InferenceSession {
    /// The resize coefficients for a `sourceWidth`×`sourceHeight` → `width`×`height` resize, kept from the
    /// previous call when the sizes are the same (every frame of a video).
    func plan(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) -> ResizePlan {
        if let cached = cachedPlan, cached.matches(sourceWidth: sourceWidth, sourceHeight: sourceHeight,
                                                   width: width, height: height) {
            return cached
        }
        let plan = ResizePlan(sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height)
        cachedPlan = plan
        return plan
    }
}
