import Foundation
import LiteVisionTestSupport
import LiteVisionVideo
import Testing

extension VideoTests {
    /// Locations that cannot be read: each fails at once with an error naming the cause, a URL's password masked.
    @Suite("VideoSource: locations refused with a clear error") struct Locations {
        @Test("the kind of a location, without opening it")
        func kinds() throws {
            #expect(try VideoSource.kind(of: "clip.mp4") == .file)
            #expect(try VideoSource.kind(of: "a:b.mp4") == .file)
            #expect(try VideoSource.kind(of: "/dev/video7") == .device)
            #expect(try VideoSource.kind(of: "/dev/null") == .device)
            for url in [
                "rtsp://h/x", "RTSPS://h/x", "http://h/x.m3u8", "https://h/", "udp://0.0.0.0:5000", "rtp://:5004",
                "tcp://h:1",
            ] {
                #expect(try VideoSource.kind(of: url) == .network, "\(url)")
            }
        }

        @Test(
            "an unknown scheme is refused by name",
            arguments: ["ftp://host/x.mp4", "file:///etc/passwd", "concat://a|b", "smb://h/x"])
        func unknownScheme(_ location: String) {
            let scheme = String(location.prefix { $0 != ":" }).lowercased()
            #expect {
                try VideoSource(location)
            } throws: { error in
                guard case .unsupportedLocation(_, let reason)? = error as? VideoError else { return false }
                return reason.contains("'\(scheme)'")
            }
        }

        @Test("nothing listening: refused at once, the password masked in the message")
        func refused() throws {
            let port = try LoopbackPort.unused()
            let start = Date()
            do {
                _ = try VideoSource("rtsp://admin:hunter2@127.0.0.1:\(port)/cam")
                Issue.record("opened a closed port")
            } catch {
                #expect(error == .connectionFailed(location: "rtsp://admin:***@127.0.0.1:\(port)/cam", cause: .refused))
                #expect(!"\(error)".contains("hunter2"))
                #expect("\(error)".contains("refused"))
            }
            #expect(Date().timeIntervalSince(start) < 2)
        }

        @Test("secrets in a URL never shown: query secrets masked, credentials with '#' refused; RTSP:// is rtsp")
        func secrets() throws {
            do {
                _ = try VideoSource("rtsp://admin:s3cr#t@127.0.0.1:1/cam")
                Issue.record("a password holding '#' was taken apart")
            } catch {
                #expect(!"\(error)".contains("s3cr") && "\(error)".contains("percent-encode"), "\(error)")
            }
            let port = try LoopbackPort.unused()
            do {
                _ = try VideoSource("HTTP://127.0.0.1:\(port)/video.mjpg?user=admin&Password=hunter2&token=abc123")
                Issue.record("opened a closed port")
            } catch {
                let message = "\(error)"
                #expect(!message.contains("hunter2") && !message.contains("abc123"), "\(message)")
                #expect(message.contains("Password=***&token=***") && message.contains("refused"), "\(message)")
            }
        }

        @Test("a host that does not resolve is named", arguments: ["http", "rtsp"])
        func unknownHost(_ scheme: String) {
            #expect(
                throws: VideoError.connectionFailed(
                    location: "\(scheme)://camera.invalid/x", cause: .hostNotFound("camera.invalid"))
            ) {
                try VideoSource("\(scheme)://camera.invalid/x")
            }
        }

        @Test("V4L2: a missing device and a character device that is not a camera")
        func devices() {
            #expect {
                try VideoSource("/dev/video63")
            } throws: { error in
                guard case .deviceUnavailable(let path, let reason)? = error as? VideoError else { return false }
                return path == "/dev/video63" && reason.contains("no such device")
            }
            #expect {
                try VideoSource("/dev/null")
            } throws: { error in
                guard case .deviceUnavailable(_, let reason)? = error as? VideoError else { return false }
                return reason.contains("not a V4L2 video capture device")
            }
        }

        @Test("options out of range are refused")
        func badOptions() throws {
            var options = VideoSource.Options()
            options.stallTimeout = 0
            #expect(throws: VideoError.self) { try VideoSource(VideoFixtures.video("cup.mp4"), options: options) }
            options = VideoSource.Options()
            options.device.width = 640
            #expect(throws: VideoError.self) { try VideoSource(VideoFixtures.video("cup.mp4"), options: options) }
            options = VideoSource.Options()
            options.device.pixelFormat = "mjpeg,rawvideo;x"
            #expect(throws: VideoError.self) { try VideoSource(VideoFixtures.video("cup.mp4"), options: options) }
        }

        @Test("a file whose name looks like a protocol is read as a file")
        func fileNamedLikeAProtocol() throws {
            let folder = TestData.temporaryDirectory("protocol-name")
            defer { try? FileManager.default.removeItem(at: folder) }
            let odd = folder.appendingPathComponent("subfile:x.mp4").path
            try FileManager.default.copyItem(atPath: VideoFixtures.video("traffic_frames.mp4"), toPath: odd)
            let source = try VideoSource(odd)
            #expect(try source.next()?.index == 0)
        }

        @Test("stop joins the thread and closes every descriptor; cancelling the consuming task stops the source")
        func stopAndCancel() async throws {
            // A private copy: other suites in this process may open the shared file at the same time.
            let folder = TestData.temporaryDirectory("source-stop")
            defer { try? FileManager.default.removeItem(at: folder) }
            let video = folder.appendingPathComponent("vtest.avi").path
            try FileManager.default.copyItem(atPath: VideoFixtures.video("vtest.avi"), toPath: video)
            let source = try VideoSource(video, options: latest())
            #expect(try source.next() != nil)
            #expect(SourceResources.descriptors(on: video) == 1)
            let start = Date()
            source.stop()
            #expect(Date().timeIntervalSince(start) < 1)
            #expect(try source.next() == nil)
            #expect(SourceResources.descriptors(on: video) == 0)
            try await cancellingTheConsumerStops()
        }

        private func cancellingTheConsumerStops() async throws {
            let source = try VideoSource(VideoFixtures.video("vtest.avi"), options: latest())
            let consumer = Task {
                var count = 0
                for try await _ in source.frames { count += 1 }
                return count
            }
            try await Task.sleep(for: .milliseconds(300))
            let start = Date()
            consumer.cancel()
            let count = try await consumer.value
            #expect(Date().timeIntervalSince(start) < 1)
            #expect(count > 0 && count < 795)
            #expect(try source.next() == nil)
        }

        private func latest() -> VideoSource.Options {
            var options = VideoSource.Options()
            options.delivery = .latest
            return options
        }
    }
}
