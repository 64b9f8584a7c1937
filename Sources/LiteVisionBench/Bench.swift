import Foundation
import LiteRT
import LiteVision

/// `litevision-bench`: LiteVision's labeling speed next to the raw LiteRT invoke and MediaPipe Tasks, all
/// measured in this one run on this machine, printed as one Markdown table.
///
///     swift run -c release litevision-bench [--repeats N]     (image labeling)
///     swift run -c release litevision-bench video              (detection and tracking on video)
///
/// Reads the shared photos and models from LITEVISION_TEST_DATA (default ../shared). MediaPipe is measured
/// by benchmarks/mediapipe_peer.py (`pip install mediapipe==1.2.2`; scripts/setup.sh --bench installs it).
@main
struct Bench {
    static func main() throws {
        let arguments = CommandLine.arguments
        var repeats = 30
        if let index = arguments.firstIndex(of: "--repeats"), index + 1 < arguments.count,
            let value = Int(arguments[index + 1])
        {
            repeats = max(3, value)
        }
        let data = ProcessInfo.processInfo.environment["LITEVISION_TEST_DATA"] ?? "../shared"
        if arguments.dropFirst().first == "video" {
            try VideoBench.run(data: data)
            return
        }
        let table = Table()
        FileHandle.standardError.write(Data("bench: measuring MediaPipe Tasks (peer)...\n".utf8))
        let peer = Peer.measure(shared: data, repeats: max(5, repeats / 3))
        for model in ["bird.tflite", "object_labeler.tflite"] {
            FileHandle.standardError.write(Data("bench: measuring LiteVision with \(model)...\n".utf8))
            try measureLabeling(
                model: model, data: data, repeats: repeats, peer: peer.models[model] ?? [:], table: table)
        }
        FileHandle.standardError.write(Data("bench: measuring camera frames (NV12)...\n".utf8))
        try CameraBench.measure(data: data, repeats: repeats, table: table)
        try measureProcess(data: data, peer: peer, table: table)
        print(
            "Machine: \(ProcessInfo.processInfo.activeProcessorCount) cores; MediaPipe \(peer.version ?? "missing: \(peer.error ?? "")"); medians of \(repeats) runs; times in ms.\n"
        )
        table.print()
    }

    static func measureLabeling(model: String, data: String, repeats: Int, peer: [String: Double], table: Table) throws
    {
        let modelPath = "\(data)/models/\(model)"
        let labeler = try ImageLabeler(
            options: CustomImageLabelerOptions(localModel: LocalModel(path: modelPath)))

        // The floor: the runtime alone, 2 threads, input already in place.
        let runtime = try Runtime.shared()
        let compiled = try CompiledModel(
            model: try Model(runtime: runtime, path: modelPath),
            options: CompilationOptions(threadCount: 2))
        _ = try compiled.withInput(0) { $0.initializeMemory(as: UInt8.self, repeating: 100) }
        let raw = try Measure.medianMilliseconds(repeats) { try compiled.run() }
        table.add("\(model): raw LiteRT invoke, 2 threads (floor)", ours: raw, raw: raw, mediapipe: nil, target: nil)

        for name in ["grace_hopper.jpg", "beach.jpg"] {
            let decoded = try VisionImage(contentsOfFile: "\(data)/images/\(name)").decoded(scale: .full)
            let ours = try Measure.medianMilliseconds(repeats) { _ = try labeler.results(in: decoded) }
            let target: Target =
                name == "beach.jpg"
                ? .init("≤ 1.0× MediaPipe") { _, mp in mp.map { ours <= $0 } }
                : .init("≤ 1.15× raw, ≤ 0.7× MediaPipe") { raw, mp in mp.map { ours <= 1.15 * raw && ours <= 0.7 * $0 }
                }
            table.add(
                "\(model): (a) label decoded \(name)", ours: ours, raw: raw, mediapipe: peer["decoded/\(name)"],
                target: target)
        }
        for name in ["grace_hopper.jpg", "bird.jpg", "beach.jpg"] {
            let path = "\(data)/images/\(name)"
            let ours = try Measure.medianMilliseconds(repeats) {
                _ = try labeler.results(in: try VisionImage(contentsOfFile: path))
            }
            let target: Target? =
                name == "grace_hopper.jpg"
                ? nil
                : .init("≤ 0.6× MediaPipe") { _, mp in mp.map { ours <= 0.6 * $0 } }
            table.add(
                "\(model): (b) JPEG file to labels, \(name)", ours: ours, raw: raw, mediapipe: peer["file/\(name)"],
                target: target)
        }
        if model == "object_labeler.tflite" {
            try MediaPipeModeBench.measure(
                model: model, data: data, repeats: repeats, raw: raw, peer: peer, table: table)
        }
        let photos = try FileManager.default.contentsOfDirectory(atPath: "\(data)/images")
            .filter { [".jpg", ".jpeg", ".png"].contains(where: $0.lowercased().hasSuffix) }.sorted()
        // As `litevision label DIR` does it: one inference thread per worker, one worker per core.
        let batchOptions = CustomImageLabelerOptions(localModel: LocalModel(path: modelPath))
        batchOptions.processing.threadCount = 1
        let batchLabeler = try ImageLabeler(options: batchOptions)
        let paths = photos.map { "\(data)/images/\($0)" }
        var failures = 0
        batchLabeler.labelFiles(paths) { _, result in if case .failure = result { failures += 1 } }  // warm-up
        let start = Measure.now()
        batchLabeler.labelFiles(paths) { _, result in if case .failure = result { failures += 1 } }
        guard failures == 0 else { throw BenchError("\(failures) photos could not be labeled") }
        let perSecond = Double(photos.count) / ((Measure.now() - start) / 1000)
        table.addRate(
            "\(model): (c) batch, \(photos.count) photos, images/s", ours: perSecond,
            mediapipe: peer["batch_images_per_second"])
    }

    /// How many shared libraries a run of `arguments` maps (the dynamic loader's own trace, LD_DEBUG=files).
    static func mappedLibraries(_ arguments: [String]) throws -> Int {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("litevision-ld-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Measure.process(
            arguments,
            environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": folder.appendingPathComponent("trace").path])
        guard run.status == 0 else { throw BenchError("\(arguments.joined(separator: " ")) failed: \(run.status)") }
        var files = Set<Substring>()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("generating link map") {
                guard let range = line.range(of: "file=") else { continue }
                files.insert(line[range.upperBound...].prefix { $0 != " " })
            }
        }
        return files.count
    }

    static func measureProcess(data: String, peer: Peer, table: Table) throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("litevision").path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw BenchError("\(executable) is missing: build it first (swift build -c release)")
        }
        let model = "\(data)/models/bird.tflite"
        let libraries = try mappedLibraries([executable, "label", "--model", model, "\(data)/images/grace_hopper.jpg"])
        // Median of 15 fresh processes each. The first run writes the weight cache entry the others use, as it
        // is on any machine after the model's first use; the "cache off" row is a process that packs the
        // weights itself, as the very first run does.
        func median(_ image: String, environment: [String: String] = [:]) throws -> Double {
            let arguments = [executable, "label", "--model", model, "\(data)/images/\(image)"]
            _ = try Measure.process(arguments, environment: environment)
            var times: [Double] = []
            for _ in 0..<15 {
                let run = try Measure.process(arguments, environment: environment)
                guard run.status == 0 else { throw BenchError("litevision label failed with status \(run.status)") }
                times.append(run.milliseconds)
            }
            return times.sorted()[times.count / 2]
        }
        let small = try median("grace_hopper.jpg")
        table.add(
            "bird.tflite: fresh `litevision label` process, grace_hopper.jpg (wall; \(libraries) libraries mapped)",
            ours: small, raw: nil, mediapipe: nil, target: .init("≤ 30 ms") { _, _ in small <= 30 })
        let uncached = try median("grace_hopper.jpg", environment: ["LITEVISION_WEIGHT_CACHE": "off"])
        table.add(
            "bird.tflite: fresh process, grace_hopper.jpg, weight cache off (wall)", ours: uncached, raw: nil,
            mediapipe: nil, target: nil)
        let large = try median("bird.jpg")
        table.add(
            "bird.tflite: fresh `litevision label` process, bird.jpg (wall)", ours: large, raw: nil,
            mediapipe: peer.models["bird.tflite"]?["cold_start_ms"],
            target: .init("≤ 60 ms") { _, _ in large <= 60 })
        let memory = try Measure.peakMegabytes([executable, "label", "--model", model, "\(data)/images/beach.jpg"])
        table.addMemory("bird.tflite: peak memory labeling beach.jpg (MB)", megabytes: memory, limit: 100)
    }
}
