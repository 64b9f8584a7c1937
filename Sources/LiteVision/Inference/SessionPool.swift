import Foundation
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
    // @unchecked: `idle` and `created` are only touched with `condition` locked; a session taken out of
    // `idle` belongs to exactly one caller until it is put back.
    private let condition = NSCondition()
    private var idle: [InferenceSession] = []
    private var created = 0
    private let limit: Int
    private let make: @Sendable () throws -> InferenceSession

    init(limit: Int, first: InferenceSession, make: @escaping @Sendable () throws -> InferenceSession) {
        self.limit = max(1, limit)
        self.make = make
        self.idle = [first]
        self.created = 1
    }

    /// Runs `body` with a session of its own.
    func withSession<R>(_ body: (InferenceSession) throws -> R) throws -> R {
        let session = try checkOut()
        defer { checkIn(session) }
        return try body(session)
    }

    private func checkOut() throws -> InferenceSession {
        condition.lock()
        while idle.isEmpty && created >= limit { condition.wait() }
        if let session = idle.popLast() {
            condition.unlock()
            return session
        }
        created += 1
        condition.unlock()
        do {
            return try make()
        } catch {
            condition.lock()
            created -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func checkIn(_ session: InferenceSession) {
        condition.lock()
        idle.append(session)
        condition.signal()
        condition.unlock()
    }
}

extension InferenceSession {
    /// The resize coefficients for `image` → `width`×`height`, kept from the previous call when the sizes
    /// are the same (every frame of a video).
    func plan(for image: ImageBuffer, width: Int, height: Int) -> ResizePlan {
        if let cached = cachedPlan, cached.matches(sourceWidth: image.width, sourceHeight: image.height,
                                                   width: width, height: height) {
            return cached
        }
        let plan = ResizePlan(sourceWidth: image.width, sourceHeight: image.height, width: width, height: height)
        cachedPlan = plan
        return plan
    }
}
