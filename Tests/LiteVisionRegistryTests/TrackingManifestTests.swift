import Foundation
import Testing

/// `deploy/kubernetes/tracking.yaml`, the StatefulSet of tracking processes, checked by `scripts/check-deploy.py`
/// (its fields, and its consistency with `litevision track --serve … --mqtt …`), and its entry point run for real.
@Suite("Tracking deployment manifest")
struct TrackingManifestTests {
    static let folder = DeployManifestTests.root.appendingPathComponent("deploy/kubernetes")

    @Test("each breakage of tracking.yaml is reported with its reason")
    func breakages() throws {
        let liveness = "livenessProbe:\n            httpGet:\n              path: /health"
        try DeployManifestTests.expectReported(
            [
                (
                    liveness, liveness.replacingOccurrences(of: "/health", with: "/ready"),
                    "livenessProbe must GET /health"
                ),
                (
                    "- /secrets/token", "- /secret/token",
                    "--serve-token-file /secret/token is not a key of a mounted Secret"
                ),
                (
                    "prometheus.io/port: \"8080\"", "prometheus.io/port: \"9090\"",
                    "prometheus.io/port 9090 is not the --serve port"
                ),
                ("prometheus.io/path: /metrics", "prometheus.io/path: /stats", "prometheus.io/path must be /metrics"),
                ("  cameras-1: |", "  cameras-7: |", "has no cameras-1 for pod ordinal 1"),
                ("replicas: 2", "replicas: 3", "has no cameras-2 for pod ordinal 2"),
                ("key: mqtt-password", "key: mqtt-pasword", "which no Secret here has"),
                (
                    "mqtt://litevision@broker", "mqtt://litevision:hunter2hunter2@broker",
                    "the --mqtt password must come from a Secret"
                ),
                (
                    "name: LITEVISION_MQTT_PASSWORD", "name: MQTT_PASSWORD",
                    "needs its password in LITEVISION_MQTT_PASSWORD"
                ),
                ("- 0.0.0.0:8080", "- 127.0.0.1:8080", "--serve must listen on 0.0.0.0"),
                (
                    "serviceName: litevision-tracking", "serviceName: tracking",
                    "serviceName tracking names no headless Service"
                ),
                ("fieldPath: metadata.name", "fieldPath: metadata.namespace", "POD_NAME must come from the pod's name"),
                ("rtsp://camera-0.", "rtsp://admin:pw@camera-0.", "holds a URL with a password"),
                ("/etc/litevision/entrypoint.sh\"]", "/etc/litevision/start.sh\"]", "must run an entrypoint script"),
                ("mountPath: /cache", "mountPath: /var/cache", "XDG_CACHE_HOME"),
                ("serviceName:", "servicename:", "not a field Kubernetes has here"),
            ], in: "tracking.yaml")
    }

    @Test("the entry point gives each pod its own camera group, and names the group a pod lacks")
    func entrypoint() throws {
        // The ConfigMap's files, as Kubernetes mounts them, in a folder of their own.
        let mount = FileManager.default.temporaryDirectory.appendingPathComponent("tracking-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: mount) }
        let extract = try Executables.run(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import os, sys, yaml
                config = next(d for d in yaml.safe_load_all(open(sys.argv[1])) if d["kind"] == "ConfigMap")
                os.makedirs(sys.argv[2])
                for key, value in config["data"].items():
                    open(os.path.join(sys.argv[2], key), "w").write(value.replace("/etc/litevision", sys.argv[2]))
                """,
                Self.folder.appendingPathComponent("tracking.yaml").path, mount.path,
            ])
        try #require(extract.status == 0, "\(extract.errors)")
        let script = mount.appendingPathComponent("entrypoint.sh").path
        for (pod, cameras) in [
            ("litevision-tracking-0", ["camera-0", "camera-1", "camera-2"]),
            ("litevision-tracking-1", ["camera-3", "camera-4", "camera-5"]),
        ] {
            let run = try Executables.run(
                "/bin/sh", [script, "/usr/bin/printf", "%s\\n", "track"], environment: ["POD_NAME": pod])
            let expected = ["track"] + cameras.map { "rtsp://\($0).cameras.example.internal:554/stream1" }
            #expect(run.status == 0 && run.output.split(separator: "\n").map(String.init) == expected, "\(run.output)")
        }
        let missing = try Executables.run(
            "/bin/sh", [script, "/usr/bin/printf", "x"], environment: ["POD_NAME": "litevision-tracking-2"])
        #expect(missing.status == 1 && missing.errors.contains("add cameras-2 to the ConfigMap"), "\(missing.errors)")
    }
}
