import Foundation
import LiteVisionTestSupport
import Testing

/// A registry address with a password: every message shows it masked.
@Suite("A password in a registry URL is never printed")
struct RegistryPasswordCLITests {
    @Test("label --remote-model with user:password@ in --registry, nothing listening")
    func maskedInErrors() throws {
        let cache = TestData.temporaryDirectory("password-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        let result = try LiteVisionExecutable.run(
            [
                "label", "--remote-model", "birds", "--registry", "http://reader:s3cr3t-pw@127.0.0.1:9/",
                "--cache", cache.path, TestData.image("bird.jpg"),
            ])
        #expect(result.status != 0)
        #expect(result.errors.contains("reader:***@127.0.0.1:9"), "\(result.errors)")
        #expect(!result.errors.contains("s3cr3t") && !result.output.contains("s3cr3t"), "\(result.errors)")
    }
}
