import ArgumentParser
import FoundationEssentials
import LiteVision
import LiteVisionModelStore

/// How the `models` commands treat a registry's answers.
enum RegistryAnswer {
    /// What the registry says about models (the fields the commands print).
    struct Model: Decodable {
        struct Version: Decodable {
            var version: Int
            var sha256: String
            var size: Int
            var created: String
        }

        var name: String
        var latestVersion: Int?
        var rolloutVersion: Int?
        var rolloutPercent: Int
        var isPrivate: Bool?
        var versions: [Version]?
        var served: Version?
    }

    /// Runs a registry request: the answer, or the error printed and exit status 1.
    static func request<T, Failure: Error>(_ body: () throws(Failure) -> T) throws -> T {
        do {
            return try body()
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(1)
        }
    }

    /// Decodes the registry's JSON answer; exit status 1 when it is not what a registry sends.
    static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
        guard let value = try? JSONDecoder().decode(type, from: Data(bytes)) else {
            Console.error("litevision: the registry's answer is not the JSON a LiteVision registry sends")
            throw ExitCode(1)
        }
        return value
    }

    /// One line describing a model.
    static func line(_ model: Model) -> ConsoleText {
        var text: ConsoleText = "\(model.name)  latest \(model.latestVersion.map(String.init) ?? "-")"
        if let rollout = model.rolloutVersion, model.rolloutPercent > 0 {
            text.append("  rollout v\(rollout) to \(model.rolloutPercent)%")
        }
        if model.isPrivate == true { text.append("  private") }
        return text
    }
}
