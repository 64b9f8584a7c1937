import Foundation
import LiteVisionTestSupport
import Testing

/// Inputs that are FIFOs or devices (issue 9, paths): refused at once, in any position, instead of waiting for a
/// writer or reading forever.
@Suite("litevision: FIFO and device inputs")
struct SpecialFileInputCLITests {
    /// A run given a FIFO or a device as an input: it must end within a second (no wait for a writer, no endless
    /// read of /dev/zero; see ``PathSafety/runPromptly(_:in:environment:)``), fail, and say which file and what it is.
    static func expectSpecialFileRefused(
        _ arguments: [String], naming: String, kind: SpecialFile, status: Int32? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try PathSafety.runPromptly(arguments)
        #expect(!result.timedOut, "\(arguments) waited on its input", sourceLocation: sourceLocation)
        #expect(result.seconds < 1, "\(arguments) took \(result.seconds) s", sourceLocation: sourceLocation)
        #expect(result.status != 0, "\(arguments)", sourceLocation: sourceLocation)
        if let status { #expect(result.status == status, "\(arguments)", sourceLocation: sourceLocation) }
        #expect(
            result.errors.contains(naming) && result.errors.contains(kind.word),
            "\(arguments): \(result.errors)", sourceLocation: sourceLocation)
    }

    /// The special files every input position is tried with.
    enum SpecialFile: String, CaseIterable, CustomTestStringConvertible {
        /// A named pipe: opening it for reading waits for a writer.
        case fifo
        /// A character device that never ends: a symbolic link to /dev/zero (a node made here could not be opened
        /// on a temporary folder mounted `nodev`; the link reaches the same check, on the opened file).
        case endlessDevice
        var testDescription: String { self == .fifo ? "a FIFO" : "a device (/dev/zero)" }
        /// What the refusal calls it.
        var word: String { self == .fifo ? "FIFO" : "character device" }
    }

    @Test(
        "A FIFO or a device in every input position is refused within a second, with its name",
        arguments: SpecialFile.allCases)
    func specialFileInputs(_ kind: SpecialFile) throws {
        let folder = TestData.temporaryDirectory("path-safety-\(kind.rawValue)")
        defer { try? FileManager.default.removeItem(at: folder) }
        func special(_ name: String) -> String {
            let path = folder.appendingPathComponent(name).path
            try? FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            switch kind {
            case .fifo:
                #expect(mkfifo(path, 0o600) == 0)
            case .endlessDevice:
                #expect(symlink("/dev/zero", path) == 0)
            }
            return path
        }
        let model = special("model.tflite"), labels = special("labels.txt"), image = special("photo.jpg")
        let video = special("clip.mp4"), manifest = special("manifest.json")
        let bird = TestData.model("bird.tflite"), flowers = TestData.model("automl_flowers.tflite")
        let daisy = TestData.image("daisy.jpeg")

        // label: the model, the label file, a photo, a photo in a folder, a manifest and what a manifest names.
        try Self.expectSpecialFileRefused(["label", "--model", model, daisy], naming: model, kind: kind, status: 2)
        try Self.expectSpecialFileRefused(
            ["label", "--model", flowers, "--labels", labels, daisy], naming: labels, kind: kind, status: 2)
        try Self.expectSpecialFileRefused(["label", "--model", bird, image], naming: image, kind: kind, status: 1)
        try Self.expectSpecialFileRefused(
            ["label", "--model", manifest, daisy], naming: manifest, kind: kind, status: 2)
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: daisy, toPath: photos.appendingPathComponent("a.jpeg").path)
        let inFolder = special("photos/b.jpg")
        try Self.expectSpecialFileRefused(
            ["label", "--model", bird, photos.path], naming: inFolder, kind: kind, status: 1)
        for (key, value) in [("modelFile", model), ("labelsFile", labels)] {
            let bundle = folder.appendingPathComponent("bundle-\(key)")
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            let fields = key == "modelFile" ? ["modelFile": value] : ["modelFile": flowers, "labelsFile": value]
            let json = try JSONSerialization.data(
                withJSONObject: fields.merging(["modelType": "IMAGE_LABELING"]) { $1 })
            let path = bundle.appendingPathComponent("manifest.json").path
            try json.write(to: URL(fileURLWithPath: path))
            try Self.expectSpecialFileRefused(["label", "--model", path, daisy], naming: value, kind: kind, status: 2)
        }

        // detect: a built-in model in --model-dir, --detector, --detector-labels, --model, --labels, photos.
        let modelDir = folder.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: modelDir, withIntermediateDirectories: true)
        let builtIn = special("models/mobile_object_localizer_v1.tflite")
        try Self.expectSpecialFileRefused(
            ["detect", "--model-dir", modelDir.path, daisy], naming: builtIn, kind: kind, status: 2)
        // --model-dir itself a FIFO or device: a usage error, not a search that goes on to download the models.
        let run = try PathSafety.run(["detect", "--model-dir", model, daisy], timeout: 20)
        let what = kind == .fifo ? "a FIFO (named pipe)" : "a character device"
        #expect(run.status == 64 && run.errors.contains("--model-dir \(model) is \(what)"), "\(run.errors)")
        let ssd = TestData.model("coco_ssd_mobilenet_v1.tflite")
        for arguments in [
            ["--detector", model], ["--detector", ssd, "--detector-labels", labels], ["--model", model],
            ["--model", flowers, "--labels", labels],
        ] {
            try Self.expectSpecialFileRefused(
                ["detect"] + PathSafety.models + arguments + [daisy], naming: arguments[arguments.count - 1],
                kind: kind,
                status: 2)
        }
        try Self.expectSpecialFileRefused(
            ["detect"] + PathSafety.models + [image], naming: image, kind: kind, status: 1)
        try Self.expectSpecialFileRefused(
            ["detect"] + PathSafety.models + [photos.path], naming: inFolder, kind: kind, status: 1)
        try Self.expectSpecialFileRefused(
            ["detect", "--annotate", folder.appendingPathComponent("drawn").path] + PathSafety.models + [image],
            naming: image, kind: kind, status: 1)

        // track: the video, played offline and live.
        // Its outputs' temporary files, made before the video is opened, are deleted again.
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let outputs = ["--json", out.path + "/t.json", "--mot", out.path + "/t.txt"]
        try Self.expectSpecialFileRefused(
            ["track"] + PathSafety.models + outputs + [video], naming: video, kind: kind, status: 2)
        try Self.expectSpecialFileRefused(
            ["track", "--live"] + PathSafety.models + outputs + [video], naming: video, kind: kind, status: 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)

        // The registry's token and certificate files.
        let token = special("token"), certificates = special("ca.pem")
        let registry = ["--remote-model", "flowers", "--registry", "http://127.0.0.1:1"]
        try Self.expectSpecialFileRefused(
            ["label"] + registry + ["--token-file", token, daisy], naming: token, kind: kind, status: 2)
        try Self.expectSpecialFileRefused(
            ["label"] + registry + ["--cacert", certificates, "--cache", folder.path, daisy], naming: certificates,
            kind: kind,
            status: 2)
        try Self.expectSpecialFileRefused(
            ["models", "download", "--registry", "http://127.0.0.1:1", "--token-file", token, "flowers"],
            naming: token, kind: kind)
        // The registry server's TLS certificate and key.
        let data = folder.appendingPathComponent("registry").path
        let pem = folder.appendingPathComponent("empty.pem").path
        FileManager.default.createFile(atPath: pem, contents: Data())
        for (certificate, key) in [(certificates, pem), (pem, certificates)] {
            try Self.expectSpecialFileRefused(
                ["registry", "serve", "--data", data, "--port", "0", "--tls-cert", certificate, "--tls-key", key],
                naming: certificates, kind: kind, status: 1)
        }
    }
}
