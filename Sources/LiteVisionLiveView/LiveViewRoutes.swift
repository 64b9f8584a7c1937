import Hummingbird
import NIOCore
import LiteVisionSystem

/// The live view's routes: the page, the sources, the MJPEG streams, the events, the metrics and the health.
struct LiveViewRoutes: Sendable {
    /// MJPEG viewers at once, over all sources; more are refused with 503.
    static let maximumPictureViewers = 16
    /// `/events` subscribers at once; more are refused with 503.
    static let maximumEventViewers = 16
    /// The boundary between the pictures of an MJPEG stream.
    static let boundary = "litevision-frame"

    let hub: LiveViewHub
    private let viewers = ViewerCount()
    /// The page, with a card per source (its video in an `<img>`, so that the browser loads it with the page).
    private let page: ByteBuffer

    init(hub: LiveViewHub) {
        self.hub = hub
        let cards = hub.sources.enumerated().map { index, source in
            let name = Self.htmlEscaped(source.name)
            return """
                <section data-index="\(index)" data-name="\(name)"><h2>\(name)</h2>\
                <img src="sources/\(index)/stream.mjpg" width="\(source.width)" height="\(source.height)" \
                alt="annotated video of \(name)"><p class="stats">waiting for frames</p>\
                <table><thead><tr><th>ID</th><th>label</th><th>confidence</th><th>box</th></tr></thead>\
                <tbody></tbody></table></section>
                """
        }
        var text = String(decoding: PackageResources.live_view_html, as: UTF8.self)
        if let marker = text.firstRange(of: "<!--SOURCES-->") {
            text.replaceSubrange(marker, with: cards.joined(separator: "\n"))
        }
        page = ByteBuffer(string: text)
    }

    func add(to router: Router<some RequestContext>) {
        router.get("/") { _, _ in
            Response(
                status: .ok,
                headers: [
                    .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                    .contentSecurityPolicy:
                        "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self'",
                ],
                body: ResponseBody(byteBuffer: page))
        }
        router.get("/health") { _, _ in
            Self.text("{\"status\":\"ok\",\"sources\":\(hub.sources.count)}\n", type: "application/json")
        }
        router.get("/metrics") { _, _ in Self.text(LiveViewMetrics.render(hub), type: LiveViewMetrics.contentType) }
        router.get("/sources") { _, _ in Self.text(sourcesJSON(), type: "application/json") }
        router.get("/stream.mjpg") { _, _ in pictures(of: 0) }
        router.get("/sources/:index/stream.mjpg") { _, context in
            guard let index = context.parameters.get("index", as: Int.self), hub.sources.indices.contains(index) else {
                return Self.text(
                    "No source of that number: the sources are numbered 0 to \(hub.sources.count - 1).\n",
                    status: .notFound)
            }
            return pictures(of: index)
        }
        router.get("/events") { _, _ in events() }
    }

    /// The MJPEG stream of source `index`: `multipart/x-mixed-replace`, each part a JPEG, sent as fast as the
    /// viewer reads (a slow viewer gets the newest picture each time, skipping the ones in between).
    private func pictures(of index: Int) -> Response {
        let channel = hub.pictures[index]
        guard let lease = ViewerCount.Lease(.pictures, in: viewers, limit: Self.maximumPictureViewers, channel: channel)
        else { return Self.busy("MJPEG") }
        return Response(
            status: .ok,
            headers: [
                .contentType: "multipart/x-mixed-replace; boundary=\(Self.boundary)",
                .cacheControl: "no-store", .connection: "close",
            ],
            body: ResponseBody { writer in
                _ = lease  // held until the stream ends (or the body is dropped unwritten)
                var sent = 0
                while let (sequence, jpeg) = await channel.next(after: sent) {
                    sent = sequence
                    guard jpeg.readableBytes > 0 else { continue }  // a heartbeat before the first picture
                    var part = ByteBuffer(
                        string:
                            "--\(Self.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.readableBytes)\r\n\r\n"
                    )
                    part.writeImmutableBuffer(jpeg)
                    part.writeString("\r\n")
                    try await writer.write(part)
                }
                try await writer.finish(nil)
            })
    }

    /// Server-Sent Events: one `data:` line per processed frame (the record of `--json`), and a comment line as a
    /// heartbeat when nothing happened for a while.
    private func events() -> Response {
        guard let lease = ViewerCount.Lease(.events, in: viewers, limit: Self.maximumEventViewers) else {
            return Self.busy("event")
        }
        let stream = hub.events.subscribe()
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store", .connection: "close"],
            body: ResponseBody { writer in
                _ = lease  // held until the stream ends (or the body is dropped unwritten)
                try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                for await message in stream {
                    switch message {
                    case .record(let record): try await writer.write(ByteBuffer(string: "data: \(record)\n\n"))
                    case .heartbeat: try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                    }
                }
                try await writer.finish(nil)
            })
    }

    /// `/sources`: each source's index, name, picture size and counters, as JSON.
    private func sourcesJSON() -> String {
        let items = hub.sources.enumerated().map { index, source in
            let counters = hub.counters(index)
            let processed = hub.processedState(of: index)
            return
                "{\"index\":\(index),\"name\":\(JSONString.quoted(source.name)),\"width\":\(source.width),\"height\":\(source.height),"
                + "\"received\":\(counters.received),\"processed\":\(processed.frames),\"dropped\":\(counters.dropped),"
                + "\"reconnects\":\(counters.reconnects)}"
        }
        return "[" + items.joined(separator: ",") + "]\n"
    }

    private static func text(
        _ text: String, status: HTTPResponse.Status = .ok, type: String = "text/plain; charset=utf-8"
    )
        -> Response
    {
        Response(
            status: status, headers: [.contentType: type, .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    private static func busy(_ kind: String) -> Response {
        var response = text(
            "Too many \(kind) viewers at once (\(kind == "MJPEG" ? maximumPictureViewers : maximumEventViewers)): try again when one has left.\n",
            status: .serviceUnavailable)
        response.headers[.retryAfter] = "5"
        return response
    }

    /// `value` as HTML text or attribute value: `&`, `<`, `>`, `"` and `'` escaped.
    static func htmlEscaped(_ value: String) -> String {
        var result = ""
        for character in value {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

}
