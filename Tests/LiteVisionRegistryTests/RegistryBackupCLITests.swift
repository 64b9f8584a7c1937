import Foundation
import LiteVisionModelStore
import LiteVisionTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// `litevision registry backup`, and the commands whose output must reach the user (token create, backup): part of
// the command-line suite (serialized with it).
extension RegistryCLITests {
    @Test("backup copies a running registry into a new folder that serves the same models; it never overwrites")
    func backup() throws {
        try Self.withRegistry { setup in
            let registry = setup.server.base
            #expect(
                try setup.models([
                    "publish", "--registry", registry, "--token-file", setup.tokenFile, "birds",
                    TestData.model("bird.tflite"),
                ]).status == 0)
            let out = setup.folder.appendingPathComponent("backup").path
            let made = try Executables.litevision(["registry", "backup", "--data", setup.server.data, out])
            #expect(made.status == 0 && made.output.contains("1 versions and 1 model files"), "\(made.errors)")
            // A folder that holds no registry is not turned into an empty one and backed up.
            let missing = setup.folder.appendingPathComponent("no-such-data").path
            let mistyped = try Executables.litevision([
                "registry", "backup", "--data", missing, setup.folder.appendingPathComponent("empty").path,
            ])
            #expect(mistyped.status == 1 && mistyped.errors.contains("holds no registry"), "\(mistyped.errors)")
            #expect(!FileManager.default.fileExists(atPath: missing))
            let again = try Executables.litevision(["registry", "backup", "--data", setup.server.data, out])
            #expect(again.status == 1 && again.errors.contains("never overwrites"))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: setup.folder.path).filter {
                $0.hasPrefix("backup.partial")
            }
            #expect(leftovers.isEmpty, "\(leftovers)")
            // A folder that happens to have the old temporary name is not touched.
            let bystander = setup.folder.appendingPathComponent("other.partial")
            try FileManager.default.createDirectory(at: bystander, withIntermediateDirectories: true)
            try Data("keep".utf8).write(to: bystander.appendingPathComponent("notes.txt"))
            let other = try Executables.litevision([
                "registry", "backup", "--data", setup.server.data, setup.folder.appendingPathComponent("other").path,
            ])
            #expect(other.status == 0, "\(other.errors)")
            #expect(FileManager.default.fileExists(atPath: bystander.appendingPathComponent("notes.txt").path))

            let copy = try RegistryProcess(data: out)
            defer { copy.stop() }
            let cache = setup.folder.appendingPathComponent("cache-copy").path
            let downloaded = try Executables.litevision([
                "models", "download", "--registry", copy.base, "birds", "--cache", cache, "--json",
            ])
            #expect(downloaded.status == 0 && downloaded.output.contains(Self.birdSHA256), "\(downloaded.errors)")
        }
    }

    /// `litevision-registry ARGUMENTS` with standard output on /dev/full: its status and standard error.
    static func runWithFullOutput(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        try FullOutput.run(Executables.registry, arguments)
    }

    @Test("Standard output that cannot be written (/dev/full): token create and backup end with status 1 and say so")
    func fullStandardOutput() throws {
        try Self.withRegistry { setup in
            let data = setup.server.data
            let token = try Self.runWithFullOutput(["token", "create", "--data", data, "--role", "read"])
            #expect(token.status == 1, "\(token.errors)")
            #expect(
                token.errors.lowercased().contains("standard output could not be written: no space left on device")
                    && token.errors.contains("create another"), "\(token.errors)")

            let out = setup.folder.appendingPathComponent("backup").path
            let backup = try Self.runWithFullOutput(["backup", "--data", data, out])
            #expect(backup.status == 1, "\(backup.errors)")
            #expect(backup.errors.contains("standard output could not be written"), "\(backup.errors)")
            #expect(backup.errors.contains("the backup in \(out) is complete"), "\(backup.errors)")
            #expect(FileManager.default.fileExists(atPath: out + "/registry.sqlite"))

            // With somewhere to write, the same token command succeeds: the failure above was the output's.
            let normal = try Executables.run(
                Executables.registry, ["token", "create", "--data", data, "--role", "read"])
            #expect(normal.status == 0 && normal.output.count > 20, "\(normal.errors)")
        }
        // Help is output too: lost, it is a failure.
        for arguments in [["--help"], ["serve", "--help"]] {
            let help = try Self.runWithFullOutput(arguments)
            #expect(help.status == 1, "\(arguments): \(help.errors)")
            #expect(help.errors.contains("standard output could not be written"), "\(help.errors)")
            let shown = try Executables.run(Executables.registry, arguments)
            #expect(shown.status == 0 && shown.output.contains("USAGE:"), "\(shown.errors)")
        }
    }
}
