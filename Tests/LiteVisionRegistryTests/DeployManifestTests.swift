import Foundation
import Testing

/// The Kubernetes manifests in `deploy/kubernetes`, checked by `scripts/check-deploy.py` (a schema of the fields
/// they use, and their consistency with each other and with `litevision-registry serve`), since no kubeconform or
/// kubectl installs from this project's registries. The nginx configuration is run for real in
/// ``RegistryPostgresTests``.
@Suite("Deployment manifests")
struct DeployManifestTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func check(_ folder: URL) throws -> (status: Int32, output: String) {
        let result = try Executables.run(
            "/usr/bin/env", ["python3", root.appendingPathComponent("scripts/check-deploy.py").path, folder.path])
        return (result.status, result.output + result.errors)
    }

    /// Checks copies of `deploy/kubernetes`, each with one breakage: `original` replaced by `broken` in every
    /// manifest that has it (only in `file`, when given). Each copy must fail the check, which must report `reason`.
    static func expectReported(
        _ breakages: [(original: String, broken: String, reason: String)], in file: String? = nil
    )
        throws
    {
        let folder = root.appendingPathComponent("deploy/kubernetes")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("manifests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        for (original, broken, reason) in breakages {
            try? FileManager.default.removeItem(at: copy)
            try FileManager.default.copyItem(at: folder, to: copy)
            var changed = false
            for name in try FileManager.default.contentsOfDirectory(atPath: copy.path) where file == nil || name == file
            {
                let manifest = copy.appendingPathComponent(name)
                let text = try String(contentsOf: manifest, encoding: .utf8)
                guard text.contains(original) else { continue }
                try text.replacingOccurrences(of: original, with: broken).write(
                    to: manifest, atomically: true, encoding: .utf8)
                changed = true
            }
            #expect(changed, "no manifest has \(original)")
            let failed = try check(copy)
            #expect(failed.status == 1 && failed.output.contains(reason), "\(broken): \(failed.output)")
        }
    }

    @Test("deploy/kubernetes passes the schema and consistency check; a broken copy of it does not")
    func manifests() throws {
        let passed = try Self.check(Self.root.appendingPathComponent("deploy/kubernetes"))
        #expect(passed.status == 0, "\(passed.output)")
        // Each breakage is reported with its reason.
        try Self.expectReported([
            ("readinessProbe:", "readinesProbe:", "not a field Kubernetes has here"),
            ("path: /ready", "path: /healthz", "readinessProbe must GET /ready"),
            ("key: password", "key: pasword", "which no Secret here has"),
            ("containerPort: 8470", "containerPort: \"8470\"", "str where int goes"),
            ("targetPort: http", "targetPort: web", "targetPort web is not a port"),
        ])
    }
}
