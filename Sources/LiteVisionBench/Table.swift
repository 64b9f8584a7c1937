import Foundation

/// A pass/fail rule for a row: given the raw invoke time and MediaPipe's time (if measured).
struct Target {
    let text: String
    let check: (_ raw: Double, _ mediapipe: Double?) -> Bool?

    init(_ text: String, check: @escaping (_ raw: Double, _ mediapipe: Double?) -> Bool?) {
        self.text = text
        self.check = check
    }
}

/// The benchmark's one output table, in Markdown.
final class Table {
    private var rows: [[String]] = []

    private func format(_ value: Double?) -> String {
        guard let value else { return "—" }
        return String(format: value < 10 ? "%.2f" : "%.1f", value)
    }

    private func ratio(_ a: Double, _ b: Double?) -> String {
        guard let b, b > 0 else { return "—" }
        return String(format: "%.2f×", a / b)
    }

    private func verdict(_ met: Bool?) -> String {
        switch met {
        case true?: "yes"
        case false?: "**no**"
        case nil: "—"
        }
    }

    func add(_ name: String, ours: Double, raw: Double?, mediapipe: Double?, target: Target?) {
        let met = target.flatMap { $0.check(raw ?? 0, mediapipe) }
        rows.append([
            name, format(ours), format(raw), format(mediapipe), raw.map { ratio(ours, $0) } ?? "—",
            ratio(ours, mediapipe), target?.text ?? "", verdict(met),
        ])
    }

    func addRate(_ name: String, ours: Double, mediapipe: Double?) {
        let met = mediapipe.map { ours >= 2 * $0 }
        rows.append([
            name, format(ours), "—", format(mediapipe), "—", ratio(ours, mediapipe),
            "≥ 2× MediaPipe", verdict(met),
        ])
    }

    func addMemory(_ name: String, megabytes: Double, limit: Double) {
        rows.append([name, format(megabytes), "—", "—", "—", "—", "≤ \(Int(limit)) MB", verdict(megabytes <= limit)])
    }

    func print() {
        let header = ["measurement", "LiteVision", "raw LiteRT", "MediaPipe", "÷ raw", "÷ MediaPipe", "target", "met"]
        Swift.print("| " + header.joined(separator: " | ") + " |")
        Swift.print("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
        for row in rows { Swift.print("| " + row.joined(separator: " | ") + " |") }
    }
}

/// MediaPipe Tasks' numbers, from benchmarks/mediapipe_peer.py run in this same benchmark.
struct Peer {
    var version: String?
    var error: String?
    var models: [String: [String: Double]] = [:]

    static func measure(shared: String, repeats: Int) -> Peer {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("benchmarks/mediapipe_peer.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, shared, String(repeats)]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return Peer(error: "python3 could not run: \(error)") }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let json = try? JSONSerialization.jsonObject(with: output) as? [String: Any] else {
            return Peer(error: "the peer script printed no result")
        }
        var peer = Peer(version: json["version"] as? String, error: json["error"] as? String)
        for (model, values) in json["models"] as? [String: [String: Any]] ?? [:] {
            peer.models[model] = values.compactMapValues { ($0 as? NSNumber)?.doubleValue }
        }
        return peer
    }
}
