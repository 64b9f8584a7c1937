extension HTTPStreamTestServer {
    /// The server: Python's threading http.server. Arguments: the folder (with `frames/`, `hls/`, where it makes
    /// the FIFO `secret.ts` and writes `requests.log` and `secret-opened`), frames a second, user, password.
    static let script = #"""
        import base64, http.server, json, os, re, sys, threading, time
        root, fps, user, password = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
        frames_dir, hls_dir = os.path.join(root, "frames"), os.path.join(root, "hls")
        frames = [open(os.path.join(frames_dir, name), "rb").read()
                  for name in sorted(os.listdir(frames_dir)) if name.endswith(".jpg")]
        lines = open(os.path.join(hls_dir, "index.m3u8")).read().splitlines()
        segments = [(float(line[8:].split(",")[0]), lines[i + 1]) for i, line in enumerate(lines)
                    if line.startswith("#EXTINF:")]
        secret = os.path.join(root, "secret.ts")
        os.mkfifo(secret)
        expected = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
        log_lock = threading.Lock()
        started = time.monotonic()
        BOUNDARY = "litevisionframe"
        M3U8 = "application/vnd.apple.mpegurl"

        def watch_secret():
            # Opening a FIFO for writing without blocking succeeds only while somebody has it open for reading.
            while True:
                try:
                    fd = os.open(secret, os.O_WRONLY | os.O_NONBLOCK)
                except OSError:
                    time.sleep(0.01)
                    continue
                with open(os.path.join(root, "secret-opened"), "a") as flag:
                    flag.write(".")
                try:
                    os.write(fd, b"\x47" + b"\xff" * 187)
                except OSError:
                    pass
                os.close(fd)
                time.sleep(0.2)

        def evil(kind):
            target = {"index": "file://" + secret, "concat": f"concat:file://{secret}|file://{secret}",
                      "path": secret, "mixed": "file://" + secret}[kind]
            head = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
            if kind == "mixed":
                head += f"#EXTINF:{segments[0][0]:.6f},\n/hls/{segments[0][1]}\n"
            return head + f"#EXTINF:1.000000,\n{target}\n#EXT-X-ENDLIST\n"

        def live_playlist():
            # A camera's sliding window of three segments, the VOD segments looping, three there from the start.
            count, total = len(segments), sum(duration for duration, _ in segments)
            loops, rest = divmod(time.monotonic() - started + 3.5, total)
            index = 0
            while index < count - 1 and rest >= segments[index][0]:
                rest -= segments[index][0]
                index += 1
            last = int(loops) * count + index - 1
            first = max(0, last - 2)
            target = int(max(duration for duration, _ in segments)) + 1
            out = ["#EXTM3U", "#EXT-X-VERSION:3", f"#EXT-X-TARGETDURATION:{target}",
                   f"#EXT-X-MEDIA-SEQUENCE:{first}", f"#EXT-X-DISCONTINUITY-SEQUENCE:{first // count}"]
            for number in range(first, last + 1):
                if number % count == 0 and number > first:
                    out.append("#EXT-X-DISCONTINUITY")
                out += [f"#EXTINF:{segments[number % count][0]:.6f},", f"seg{number}.ts"]
            return "\n".join(out) + "\n"

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args): pass

            def do_GET(self):
                authorization = self.headers.get("Authorization")
                with log_lock, open(os.path.join(root, "requests.log"), "a") as log:
                    log.write(json.dumps({"path": self.path, "authorization": authorization is not None}) + "\n")
                path = self.path.split("?")[0]
                if path.startswith("/private/"):
                    if authorization != expected:
                        body = b"authentication required\n"
                        self.send_response(401)
                        self.send_header("WWW-Authenticate", 'Basic realm="LiteVision test"')
                        self.send_header("Content-Type", "text/plain")
                        self.send_header("Content-Length", str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                        return
                    path = path[len("/private"):]
                if path in ("/mjpeg", "/mjpeg-once"):
                    return self.mjpeg(path == "/mjpeg")
                match = re.fullmatch(r"/hls/(index\.m3u8|seg\d+\.ts)", path)
                if match:
                    return self.file(os.path.join(hls_dir, match.group(1)))
                if path == "/live/index.m3u8":
                    return self.body(live_playlist().encode(), M3U8)
                match = re.fullmatch(r"/live/seg(\d+)\.ts", path)
                if match:
                    return self.file(os.path.join(hls_dir, segments[int(match.group(1)) % len(segments)][1]))
                match = re.fullmatch(r"/evil/(index|concat|path|mixed)\.m3u8", path)
                if match:
                    return self.body(evil(match.group(1)).encode(), M3U8)
                self.send_error(404)

            def body(self, data, kind):
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                self.wfile.write(data)

            def file(self, path):
                if not os.path.isfile(path):
                    return self.send_error(404)
                self.body(open(path, "rb").read(), M3U8 if path.endswith(".m3u8") else "video/mp2t")

            def mjpeg(self, forever):
                self.send_response(200)
                self.send_header("Content-Type", f"multipart/x-mixed-replace; boundary={BOUNDARY}")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                start, number = time.monotonic(), 0
                try:
                    while forever or number < len(frames):
                        delay = start + number / fps - time.monotonic()
                        if delay > 0:
                            time.sleep(delay)
                        data = frames[number % len(frames)]
                        head = f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(data)}\r\n\r\n"
                        self.wfile.write(head.encode() + data + b"\r\n")
                        number += 1
                    self.wfile.write(f"--{BOUNDARY}--\r\n".encode())
                except OSError:
                    pass  # the client hung up

        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True
            def handle_error(self, request, client_address): pass  # clients that hang up on purpose

        # Exit when the test closes our standard input (or dies).
        threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()
        threading.Thread(target=watch_secret, daemon=True).start()
        server = Server(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
