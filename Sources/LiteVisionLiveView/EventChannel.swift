import Synchronization

/// The records of processed frames, for the viewers of `/events`: each subscriber gets every record in order
/// through a buffer of its own holding at most ``bufferedRecords``; one that reads slower loses the oldest ones
/// (the tracking thread that publishes never waits).
final class EventChannel: Sendable {
    /// Records a subscriber may have waiting before the oldest are dropped.
    static let bufferedRecords = 256

    /// What a subscriber receives: a record (one JSON line), or a heartbeat (nothing happened for a while).
    enum Message: Sendable {
        case record(String)
        case heartbeat
    }

    private struct State {
        var subscribers: [Int: AsyncStream<Message>.Continuation] = [:]
        var nextID = 0
        var closed = false
    }

    private let state = Mutex(State())

    /// Subscribers connected now.
    var subscribers: Int { state.withLock { $0.subscribers.count } }

    /// A new subscriber's stream of messages; it ends when the subscriber's task is cancelled or the channel closes.
    func subscribe() -> AsyncStream<Message> {
        let (stream, continuation) = AsyncStream<Message>.makeStream(
            bufferingPolicy: .bufferingNewest(Self.bufferedRecords))
        let id: Int? = state.withLock { state in
            guard !state.closed else { return nil }
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends `message` to every subscriber.
    func publish(_ message: Message) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber.yield(message) }
    }

    /// Ends every subscriber's stream.
    func close() {
        let subscribers = state.withLock { state in
            state.closed = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
