import Foundation
import LiteVisionTestSupport
import LiteVisionVideo
import Synchronization
import Testing

extension VideoTests {
    /// Network sources against real servers on loopback: GStreamer's RTSP server, an HTTP server streaming MJPEG
    /// and HLS, a listener that never answers.
    @Suite("VideoSource: network streams from real servers on loopback") struct Network {
        @Test("RTSP: a slow consumer gets recent frames, not a backlog; stop leaves no thread or socket")
        func latestOverRTSP() throws {
            let server = try RTSPTestServer()
            let source = try VideoSource(server.url)
            #expect(source.kind == .network && source.delivery == .latest)
            #expect(source.info.width == 640 && source.info.height == 480 && source.info.codec == "h264")
            let interval = 1 / source.info.frameRate, work = 0.15
            var ages: [Double] = [], indices: [Int] = []
            let start = Date()
            while Date().timeIntervalSince(start) < 3, let frame = try source.next() {
                let age = ContinuousClock.now - frame.receivedAt
                ages.append(Double(age.components.seconds) + Double(age.components.attoseconds) / 1e18)
                indices.append(frame.index)
                Thread.sleep(forTimeInterval: work)  // a detector that needs 150 ms a frame
            }
            // After the first frames (probing delivers a few at once), each frame is at most two frame intervals
            // plus the consumer's time old: never a backlog.
            let settled = ages.dropFirst(3)
            #expect(settled.allSatisfy { $0 < 2 * interval + work }, "ages \(ages)")
            #expect(indices.count >= 12 && zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 })
            #expect(indices.last! - indices.first! > indices.count * 3, "gaps where frames were dropped: \(indices)")
            #expect(source.statistics.dropped > 20 && source.statistics.received >= source.statistics.decoded)
            let stopping = Date()
            source.stop()
            #expect(Date().timeIntervalSince(stopping) < 1)
            #expect(SourceResources.sockets(toPort: server.port) == 0)
        }

        @Test("RTSP: the server killed and restarted mid-stream; frames resume, indices and timestamps go on")
        func reconnects() throws {
            let folder = TestData.temporaryDirectory("rtsp-restart")
            defer { try? FileManager.default.removeItem(at: folder) }
            let clip = try StreamFixtures.concatenated(StreamFixtures.defaultClip, times: 3, in: folder)
            let server = try RTSPTestServer(clip: clip)
            let events = Mutex<[VideoSource.Event]>([])
            var options = VideoSource.Options()
            options.delivery = .every
            options.eventHandler = { event in events.withLock { $0.append(event) } }
            let source = try VideoSource(server.url, options: options)
            var frames: [VideoFrame] = []
            let start = Date()
            var restarted = false
            while Date().timeIntervalSince(start) < 12, let frame = try source.next() {
                frames.append(frame)
                if !restarted, Date().timeIntervalSince(start) > 3 {
                    server.stop()
                    Thread.sleep(forTimeInterval: 1.5)
                    try server.restart()
                    restarted = true
                }
            }
            source.stop()
            let seen = events.withLock { $0 }
            #expect(seen.contains { if case .disconnected = $0 { true } else { false } }, "\(seen)")
            #expect(seen.contains { if case .reconnected = $0 { true } else { false } }, "\(seen)")
            #expect(source.statistics.reconnects == 1)
            let gap =
                frames.indices.dropLast().first { frames[$0 + 1].timestamp - frames[$0].timestamp > 1 } ?? frames.count
            #expect(gap > 40 && frames.count - gap > 60, "\(frames.count) frames, the gap after \(gap)")
            #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.index < $1.index && $0.timestamp <= $1.timestamp })
        }

        @Test(
            "stopped while reconnecting, or by cancelling the consuming task: within a second, no socket left",
            .timeLimit(.minutes(1)))
        func stopping() async throws {
            let server = try RTSPTestServer()
            let reconnecting = try VideoSource(server.url)
            #expect(try reconnecting.next() != nil)
            server.stop()
            try await Task.sleep(for: .milliseconds(1500))  // between reconnection attempts
            var start = ContinuousClock.now
            reconnecting.stop()
            #expect(ContinuousClock.now - start < .seconds(1))
            #expect(reconnecting.statistics.reconnects == 0)
            try server.restart()
            let source = try VideoSource(server.url)
            let received = Atomic<Int>(0)
            let consumer = Task {
                for try await _ in source.frames { received.add(1, ordering: .relaxed) }
            }
            // Cancelled while frames flow. A restarted server on a loaded machine (the live suites share two cores)
            // took more than 1.5 s to send its first frames in one run (2 frames by then): wait for 10, up to 20 s.
            let flowing = ContinuousClock.now
            while received.load(ordering: .relaxed) < 10, ContinuousClock.now - flowing < .seconds(20) {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(received.load(ordering: .relaxed) >= 10, "frames before the consuming task is cancelled")
            start = ContinuousClock.now
            consumer.cancel()
            try await consumer.value
            #expect(ContinuousClock.now - start < .seconds(1))
            #expect(SourceResources.sockets(toPort: server.port) == 0)
        }

        @Test("HTTP MJPEG and HLS: frames of the right size arrive")
        func http() throws {
            let server = try HTTPStreamTestServer()
            for url in [server.mjpegURL, server.hlsURL] {
                let source = try VideoSource(url)
                var count = 0
                while count < 10, let frame = try source.next() {
                    #expect(frame.pixels.width == 640 && frame.pixels.height == 480, "\(url)")
                    count += 1
                }
                #expect(count == 10, "\(url)")
                source.stop()
            }
        }

        /// The intervals between the timestamps of every frame of `location` from frame `skip` (the first frames may
        /// come at once, read ahead while the stream was probed) to frame `count`, sorted.
        static func intervals(_ location: String, count: Int, skip: Int) throws -> [Double] {
            var options = VideoSource.Options()
            options.delivery = .every
            let source = try VideoSource(location, options: options)
            defer { source.stop() }
            var timestamps: [Double] = []
            while timestamps.count < count, let frame = try source.next() { timestamps.append(frame.timestamp) }
            #expect(timestamps.count == count)
            return zip(timestamps.dropFirst(skip), timestamps.dropFirst(skip + 1)).map { $1 - $0 }.sorted()
        }

        @Test("MJPEG over HTTP carries no timestamps: a 10 fps camera's frames are timed by arrival, 0.1 s apart")
        func mjpegTimedByArrival() throws {
            // FFmpeg's multipart JPEG reader would time them 1/25 s apart whatever the camera's rate.
            let server = try HTTPStreamTestServer(framesPerSecond: 10)
            let intervals = try Self.intervals(server.mjpegURL, count: 25, skip: 10)
            let median = intervals.isEmpty ? 0 : intervals[intervals.count / 2]
            #expect(median > 0.08 && median < 0.12, "intervals \(intervals)")
        }

        @Test("Raw H.264 over UDP carries no timestamps: a 10 fps sender's frames are timed by arrival, 0.1 s apart")
        func rawH264TimedByArrival() throws {
            // FFmpeg's raw H.264 reader times them by the rate the stream declares (4 a second here, whatever the
            // sender's rate: vtest.avi's 10), 0.25 s apart; checked by turning arrival timing off. The frames read
            // while the stream was probed (5 s of its declared time, about 20 frames) come at once.
            let sender = try UDPStreamTestSender(clip: TestData.path("video/vtest.avi"), payload: .rawH264)
            defer { sender.stop() }
            let intervals = try Self.intervals(sender.url, count: 50, skip: 30)
            let median = intervals.isEmpty ? 0 : intervals[intervals.count / 2]
            #expect(median > 0.08 && median < 0.12, "intervals \(intervals)")
        }

        @Test("Raw H.264 over TCP, the server closing after 60 frames: timed by arrival on both connections, in order")
        func rawH264OverTCPReconnected() throws {
            // vtest.avi plays at 10 fps; its stream declares 4. The frames read while each connection is probed
            // (5 s of declared time, 20 frames) come at once: the intervals are read after them.
            let server = try TCPStreamTestServer(clip: TestData.path("video/vtest.avi"), framesPerConnection: 60)
            var options = VideoSource.Options()
            options.delivery = .every
            options.reconnectTimeout = 20  // a server that died fails the test within the deadline below
            let source = try VideoSource(server.url, options: options)
            defer { source.stop() }
            var connections: [[Double]] = [[]]
            let deadline = Date().addingTimeInterval(40)
            while connections.count < 3, Date() < deadline, let frame = try source.next() {
                let connection = source.statistics.reconnects
                while connections.count <= connection { connections.append([]) }
                connections[connection].append(frame.timestamp)
                if connection == 1 && connections[1].count == 40 { break }
            }
            #expect(server.connections == 2 && connections.count == 2, "\(connections)")
            guard connections.count == 2, let last = connections[0].last, let next = connections[1].first else {
                return
            }
            for (number, times) in connections.enumerated() {
                let settled = Array(times.dropFirst(25))
                let intervals = zip(settled, settled.dropFirst()).map { $1 - $0 }.sorted()
                let median = intervals.isEmpty ? 0 : intervals[intervals.count / 2]
                #expect(median > 0.08 && median < 0.12, "connection \(number): \(times)")
            }
            // The second connection follows the first by the time the stream was away: the backoff (0.5 s) and
            // the probe (about 2 s) at least.
            #expect(next - last > 1 && next - last < 15, "from \(last) to \(next)")
            #expect(zip(connections[1], connections[1].dropFirst()).allSatisfy { $0 <= $1 })
        }

        @Test(
            "A bare H.264 file from a web server that takes byte ranges (nginx) is read as a file: same times, one end")
        func servedBareFile() throws {
            // Without byte ranges it could be a camera's stream: timed by arrival (as fast as it is read) and
            // reconnected when it ends, that is replayed.
            let folder = TestData.temporaryDirectory("served-file")
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = try StreamFixtures.bareH264(of: StreamFixtures.defaultClip, in: folder)
            chmod(folder.path, 0o755)  // nginx's workers run as `nobody`
            chmod(file, 0o644)
            let nginx = try NginxProcess { port, _ in
                "events {} http { access_log off; server { listen 127.0.0.1:\(port); root \(folder.path); } }"
            }
            var options = VideoSource.Options()
            options.delivery = .every
            func timestamps(_ location: String, limit: Int) throws -> ([Double], reconnects: Int) {
                let source = try VideoSource(location, options: options)
                defer { source.stop() }
                var times: [Double] = []
                while times.count < limit, let frame = try source.next() { times.append(frame.timestamp) }
                return (times, source.statistics.reconnects)
            }
            let local = try timestamps(file, limit: 1000).0
            let name = URL(fileURLWithPath: file).lastPathComponent
            let served = try timestamps(nginx.base + "/" + name, limit: 2 * local.count)
            #expect(local.count == 217 && served.reconnects == 0)
            #expect(served.0.count == local.count)
            #expect(zip(served.0, local).allSatisfy { abs($0 - $1) < 1e-9 }, "\(served.0.prefix(20))")
        }

        @Test("an HLS video of known length ends when it ends: every frame once, no replay")
        func finiteHLS() throws {
            let server = try HTTPStreamTestServer()
            var options = VideoSource.Options()
            options.delivery = .every
            let source = try VideoSource(server.hlsURL, options: options)
            var count = 0
            while try source.next() != nil { count += 1 }
            #expect(count == 217)
            #expect(source.statistics.reconnects == 0)
        }

        @Test("UDP MPEG-TS sent to this machine: frames of the right size arrive")
        func udp() throws {
            let sender = try UDPStreamTestSender()
            defer { sender.stop() }
            let source = try VideoSource(sender.url)
            var count = 0
            while count < 10, let frame = try source.next() {
                #expect(frame.pixels.width == 640 && frame.pixels.height == 480)
                count += 1
            }
            #expect(count == 10)
            source.stop()
        }

        @Test("401: RTSP and HTTP without the right credentials are refused as unauthorized; the password never shown")
        func unauthorized() throws {
            let rtsp = try RTSPTestServer(user: "admin", password: "opensesame")
            let wrong = rtsp.url(user: "admin", password: "wrong-secret")
            #expect(throws: VideoError.connectionFailed(location: rtsp.url, cause: .unauthorized)) {
                try VideoSource(rtsp.url)
            }
            do {
                _ = try VideoSource(wrong)
                Issue.record("opened with a wrong password")
            } catch {
                #expect(!"\(error)".contains("wrong-secret") && "\(error)".contains("admin:***@"))
            }
            let right = try VideoSource(rtsp.authenticatedURL)
            #expect(try right.next() != nil)
            #expect(!right.location.contains("opensesame"))
            right.stop()
            let http = try HTTPStreamTestServer()
            #expect(throws: VideoError.connectionFailed(location: http.url("/private/mjpeg"), cause: .unauthorized)) {
                try VideoSource(http.url("/private/mjpeg"))
            }
        }

        @Test("a hostile HLS playlist pointing at local files: the file is never opened")
        func hostilePlaylists() throws {
            let server = try HTTPStreamTestServer()
            var options = VideoSource.Options()
            options.reconnectTimeout = 0  // a playlist that ends is the end
            for playlist in HTTPStreamTestServer.evilPlaylists {
                // A playlist whose first segment is the file is refused; one with a real segment first plays that.
                guard let source = try? VideoSource(server.url(playlist), options: options) else { continue }
                var count = 0
                while count < 1000, (try? source.next()) != nil { count += 1 }
                #expect(count < 1000, "\(playlist)")
            }
            #expect(throws: VideoError.self) { try VideoSource(server.url("/evil/index.m3u8"), options: options) }
            Thread.sleep(forTimeInterval: 0.1)  // the server polls the named pipe every 10 ms
            #expect(!server.secretWasOpened)
        }

        @Test("a server that accepts and never answers: timed out after the connect timeout, not a hang")
        func stalled() throws {
            let server = try StalledTestServer()
            var options = VideoSource.Options()
            options.connectTimeout = 2
            for scheme in ["rtsp", "http"] {
                let start = Date()
                #expect(
                    throws: VideoError.connectionFailed(
                        location: server.url(scheme: scheme), cause: .timedOut(seconds: 2))
                ) {
                    try VideoSource(server.url(scheme: scheme), options: options)
                }
                let elapsed = Date().timeIntervalSince(start)
                #expect(elapsed > 1.9 && elapsed < 4, "\(scheme): \(elapsed) s")
            }
            #expect(SourceResources.sockets(toPort: server.port) == 0)
        }
    }
}
