import ArgumentParser
import LiteVisionCommandSupport
import LiteVisionRegistry
import LiteVisionSystem

/// `litevision registry backup`.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the registry into a new folder, consistently, while the server runs.",
        discussion: """
            The database is copied with SQLite's online backup and every model file it refers to is linked into \
            DATA/.backup-…, in one transaction (consistent however fast the registry changes); each file is then \
            copied with its SHA-256 checked (a corrupted one fails the backup, named). The copy is built in a new \
            OUT.partial-… folder and renamed to OUT when complete; OUT must not exist. Serve the copy with \
            `litevision registry serve --data OUT`.
            """)

    @Option(name: .long, help: "The registry's data folder.")
    var data: String

    @Argument(help: "The new folder for the copy.")
    var out: String

    func run() async throws {
        // Opening a registry creates one where there is none: a mistyped --data must not become an empty backup.
        guard (try? FileContents.requireRegularFile(atPath: data + "/registry.sqlite")) != nil else {
            Console.error(
                "litevision registry: \(data) holds no registry (no registry.sqlite): give the folder of `serve --data`"
            )
            throw ExitCode(1)
        }
        let copied: (versions: Int, blobs: Int)
        do {
            copied = try await ModelRegistry(dataFolder: data, access: .shared).service.backup(to: out)
        } catch {
            Console.error("litevision registry: \(error)")
            throw ExitCode(1)
        }
        do {
            try Console.checkedOutput(
                "litevision registry: backed up \(copied.versions) versions and \(copied.blobs) model files to \(out)")
        } catch {
            Console.error("litevision registry: \(error) (the backup in \(out) is complete)")
            throw ExitCode(1)
        }
    }
}
