import LiteVisionSystem
import Testing

@Suite("URL passwords are masked")
struct URLCredentialsTests {
    @Test(
        "the password becomes ***, the rest stays",
        arguments: [
            ("https://user:secret@host:8470/v1/models", "https://user:***@host:8470/v1/models"),
            ("rtsp://admin:p@ss:w0rd@10.0.0.5/stream?x=1", "rtsp://admin:***@10.0.0.5/stream?x=1"),
            ("https://user@host/", "https://user@host/"),
            ("https://host/path@x:y", "https://host/path@x:y"),
            ("http://:secret@host", "http://:***@host"),
            ("no scheme:secret@host", "no scheme:secret@host"),
        ])
    func masked(url: String, expected: String) {
        #expect(URLCredentials.masked(url) == expected)
    }
}
