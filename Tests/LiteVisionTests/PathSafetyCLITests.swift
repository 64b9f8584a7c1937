import Foundation
import LiteVisionTestSupport
import Testing

/// Paths given to `litevision` (issue 9, paths): an output is never an input, never replaces a device, FIFO or
/// folder, never goes to an empty path or the root folder, and two outputs never share a file; each refusal comes
/// before any work, with status 2 and a message naming the option and the problem. An input that is a FIFO, in
/// any position, is refused at once instead of waiting for a writer. Real processes on real files.
@Suite("litevision: input and output paths")
struct PathSafetyCLITests {
    static let models = ["--model-dir", TestData.path("models")]

    /// What a finished (or killed) run left.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
        var seconds: Double
        var timedOut: Bool
    }

    /// Runs `litevision` with `arguments` in `directory`, killed after `timeout` seconds (a run that blocks on a
    /// FIFO must fail the test, not hang it). Standard output and error go to files, so a child that writes much
    /// never blocks on a full pipe. With `fileSizeLimit` (in the shell's `ulimit -f` blocks) no file the child
    /// writes may grow past it: a write beyond fails (EFBIG, SIGXFSZ ignored), as on a full disk.
    static func run(
        _ arguments: [String], in directory: URL? = nil, timeout: Double = 60, fileSizeLimit: Int? = nil,
        environment: [String: String] = [:]
    ) throws -> Run {
        let scratch = TestData.temporaryDirectory("path-safety-run")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out"), errURL = scratch.appendingPathComponent("err")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        if let fileSizeLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "trap '' XFSZ; ulimit -f \(fileSizeLimit); exec \"$0\" \"$@\"", CLITests.executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: CLITests.executable)
            process.arguments = arguments
        }
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        let started = Date()
        try process.run()
        while process.isRunning && Date().timeIntervalSince(started) < timeout { usleep(10_000) }
        let timedOut = process.isRunning
        if timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(started)
        return Run(
            status: process.terminationStatus,
            output: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "", seconds: seconds, timedOut: timedOut)
    }

    /// The device, inode, type and size of `path` (not following a final symbolic link), and its bytes when it
    /// is a regular file: what must be the same after a refused run.
    struct Snapshot: Equatable {
        var device: UInt64
        var inode: UInt64
        var type: UInt32
        var deviceNumber: UInt64
        var bytes: Data?

        init(_ path: String) throws {
            var info = stat()
            try #require(lstat(path, &info) == 0, "\(path) is missing")
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            type = UInt32(info.st_mode & S_IFMT)
            deviceNumber = UInt64(info.st_rdev)
            bytes = type == UInt32(S_IFREG) ? try Data(contentsOf: URL(fileURLWithPath: path)) : nil
        }
    }

    /// A run that must end within a second (a refusal, before any work): run again once when it took longer, as the
    /// other tests running meanwhile on two cores can delay a process start; a run that waits does so both times.
    static func runPromptly(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> Run {
        let first = try run(arguments, in: directory, timeout: 20, environment: environment)
        if first.timedOut || first.seconds < 1 { return first }
        return try run(arguments, in: directory, timeout: 20, environment: environment)
    }

    /// A refusal: status 2, within a second, a message naming `option` and containing `reason`, nothing on standard
    /// output, and every path of `untouched` as it was before.
    static func expectRefusal(
        _ arguments: [String], option: String, reason: String, untouched: [String] = [], in directory: URL? = nil,
        environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try untouched.map(Snapshot.init)
        let result = try runPromptly(arguments, in: directory, environment: environment)
        #expect(result.status == 2, "\(arguments): \(result.errors)", sourceLocation: sourceLocation)
        #expect(
            result.errors.contains("(\(option))") && result.errors.contains(reason),
            "\(arguments): \(result.errors)", sourceLocation: sourceLocation)
        #expect(result.seconds < 1, "\(arguments) took \(result.seconds) s", sourceLocation: sourceLocation)
        #expect(result.output.isEmpty, "\(result.output)", sourceLocation: sourceLocation)
        #expect(try untouched.map(Snapshot.init) == before, "\(arguments)", sourceLocation: sourceLocation)
    }

    /// A folder with a copy of cup.mp4 and of a photo, as `clip.mp4` and `photo.png` (a PNG, so that it can be
    /// named as a drawing).
    static func fixtures() throws -> (folder: URL, video: String, photo: String) {
        let folder = TestData.temporaryDirectory("path-safety")
        let video = folder.appendingPathComponent("clip.mp4").path
        try FileManager.default.copyItem(atPath: TestData.path("video/cup.mp4"), toPath: video)
        let photo = folder.appendingPathComponent("photo.png").path
        let drawn = try run(["detect", "--annotate", photo] + models + [TestData.image("burger.jpg")])
        try #require(drawn.status == 0, "\(drawn.errors)")
        return (folder, video, photo)
    }

    // MARK: outputs that are inputs

    @Test("track: --json, --mot or --annotate naming the video (by any name) is refused and the video kept")
    func trackOutputIsTheVideo() throws {
        let (folder, video, _) = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("link.mp4").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: video)
        let hard = folder.appendingPathComponent("hard.mp4").path
        try FileManager.default.linkItem(atPath: video, toPath: hard)
        let other = folder.appendingPathComponent("sub/../clip.mp4").path
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for option in ["--json", "--mot", "--annotate"] {
            for output in [video, link, hard, other] {
                try Self.expectRefusal(
                    ["track", option, output] + Self.models + [video], option: option,
                    reason: "it is the input \(video); an output never replaces an input", untouched: [video, link])
            }
        }
    }

    @Test("track: --json and --mot naming one file are refused (one would be lost), existing or not")
    func trackTwoOutputsOneFile() throws {
        let (folder, video, _) = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.txt").path
        try Self.expectRefusal(
            ["track", "--json", path, "--mot", folder.path + "/./out.txt"] + Self.models + [video], option: "--mot",
            reason: "--json writes the same file", untouched: [video])
        #expect(!FileManager.default.fileExists(atPath: path))
        try Data("previous results\n".utf8).write(to: URL(fileURLWithPath: path))
        try Self.expectRefusal(
            ["track", "--mot", path, "--annotate", path] + Self.models + [video], option: "--annotate",
            reason: "--mot writes the same file", untouched: [video, path])
    }

    @Test("detect --annotate: the photo itself, a model, or a folder where a drawing would replace a photo")
    func detectOutputIsAnInput() throws {
        let (folder, _, photo) = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.expectRefusal(
            ["detect", "--annotate", photo] + Self.models + [photo], option: "--annotate",
            reason: "it is the input \(photo)", untouched: [photo])
        // A classifier whose name ends in .png, named as the drawing.
        let model = folder.appendingPathComponent("classifier.png").path
        try FileManager.default.copyItem(atPath: TestData.model("bird.tflite"), toPath: model)
        try Self.expectRefusal(
            ["detect", "--model", model, "--annotate", model] + Self.models + [TestData.image("burger.jpg")],
            option: "--annotate", reason: "it is the input \(model)", untouched: [model])
        try FileManager.default.removeItem(atPath: model)
        // `detect --annotate . photo.png` in the photo's folder: the drawing of photo.png is ./photo.png.
        try Self.expectRefusal(
            ["detect", "--annotate", "."] + Self.models + ["photo.png"], option: "--annotate for photo.png",
            reason: "it is the input photo.png", untouched: [photo], in: folder)
        // A folder of photos drawn into itself: photo.png's drawing would replace it.
        let burger = folder.appendingPathComponent("burger.jpg").path
        try FileManager.default.copyItem(atPath: TestData.image("burger.jpg"), toPath: burger)
        try Self.expectRefusal(
            ["detect", "--annotate", folder.path] + Self.models + [folder.path],
            option: "--annotate for \(folder.path)/photo.png", reason: "an output never replaces an input",
            untouched: [photo, burger])
    }

    @Test("detect --annotate DIR: two photos whose drawings share a name are refused before any is drawn")
    func detectTwoDrawingsOneFile() throws {
        let (folder, _, photo) = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = folder.appendingPathComponent("photo.jpg").path
        try FileManager.default.copyItem(atPath: TestData.image("burger.jpg"), toPath: jpeg)
        let out = folder.appendingPathComponent("drawn").path
        try Self.expectRefusal(
            ["detect", "--annotate", out] + Self.models + [jpeg, photo], option: "--annotate for \(photo)",
            reason: "--annotate for \(jpeg) writes the same file", untouched: [jpeg, photo])
        #expect(!FileManager.default.fileExists(atPath: out + "/photo.png"))
    }

    // MARK: outputs that are not regular files

    @Test("An output that is a FIFO is refused at once and stays a FIFO", arguments: ["--json", "--mot", "--annotate"])
    func outputFIFO(option: String) throws {
        let (folder, video, _) = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("out.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        try Self.expectRefusal(
            ["track", option, fifo] + Self.models + [video], option: option,
            reason: "it exists and is a FIFO (named pipe); refusing to replace it", untouched: [fifo, video])
        let png = folder.appendingPathComponent("out.png").path
        #expect(mkfifo(png, 0o600) == 0)
        try Self.expectRefusal(
            ["detect", "--annotate", png] + Self.models + [TestData.image("burger.jpg")], option: "--annotate",
            reason: "it exists and is a FIFO (named pipe)", untouched: [png])
    }

    @Test("An output that is a device (/dev/null, and a node made here when allowed) is refused and kept")
    func outputDevice() throws {
        let (folder, video, _) = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        var devices = ["/dev/null"]
        // A character device of our own with the null device's numbers (Linux's makedev(1, 3): major << 8 | minor),
        // when this user may make one (root).
        let node = folder.appendingPathComponent("null.png").path
        if mknod(node, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 { devices.append(node) }
        for device in devices {
            for option in ["--json", "--mot", "--annotate"] {
                try Self.expectRefusal(
                    ["track", option, device] + Self.models + [video], option: option,
                    reason: "it exists and is a character device; refusing to replace it", untouched: [device])
            }
        }
        try Self.expectRefusal(
            ["detect", "--annotate", devices.last!] + Self.models + [TestData.image("burger.jpg")],
            option: "--annotate", reason: devices.count > 1 ? "is a character device" : "not a folder",
            untouched: [devices.last!])
    }

    @Test("An output that is a folder is refused; one that is a symbolic link to a file replaces the link only")
    func outputFolderAndLink() throws {
        let (folder, video, _) = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.expectRefusal(
            ["track", "--json", folder.path] + Self.models + [video], option: "--json",
            reason: "it exists and is a directory; refusing to replace it", untouched: [folder.path])
        try Self.expectRefusal(
            ["track", "--mot", folder.path + "/"] + Self.models + [video], option: "--mot",
            reason: "it names a folder, not a file")
        try Self.expectRefusal(
            ["track", "--json", folder.path + "/missing/out.json"] + Self.models + [video], option: "--json",
            reason: "does not exist")
        // A link to a regular file that is no input: the link is replaced by the results, its target kept.
        let target = folder.appendingPathComponent("target.txt").path
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: target))
        let link = folder.appendingPathComponent("results.txt").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let result = try Self.run(["track", "--mot", link] + Self.models + [video])
        #expect(result.status == 0, "\(result.errors)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
        #expect(try String(contentsOfFile: link, encoding: .utf8).split(separator: "\n").count > 100)
    }

    // MARK: outputs that cannot be written

    /// The names in `folder` that start with a dot: temporary files left behind.
    static func hiddenNames(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(".") }
    }

    @Test("An output that cannot be written (a file size limit, as a full disk) ends with status 1 and a message")
    func unwritableOutputs() throws {
        let (folder, video, _) = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (["track", "--json", out.path + "/t.json"] + Self.models + [video], "Cannot write \(out.path)/t.json"),
            (["track", "--mot", out.path + "/t.txt"] + Self.models + [video], "Cannot write \(out.path)/t.txt"),
            (["track", "--annotate", out.path + "/t.mp4"] + Self.models + [video], "Writing the video failed"),
            (
                ["detect", "--annotate", out.path + "/d.png"] + Self.models + [TestData.image("burger.jpg")],
                "Cannot write \(out.path)/d.png"
            ),
        ]
        for (arguments, message) in cases {
            let result = try Self.run(arguments, fileSizeLimit: 1)
            #expect(result.status == 1, "\(arguments): \(result.errors)")
            #expect(
                result.errors.contains(message) && result.errors.lowercased().contains("too large"), "\(result.errors)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }

    @Test("track: when the drawn video cannot be written, --json and --mot still get every frame")
    func videoFailsOthersWritten() throws {
        let (folder, video, _) = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("t.json").path, mot = folder.appendingPathComponent("t.txt").path
        let drawn = folder.appendingPathComponent("t.mp4").path
        // The JSON of cup.mp4 is about 43 kB and the drawn video about 800 kB: a limit of 200 blocks parts them.
        let result = try Self.run(
            ["track", "--json", json, "--mot", mot, "--annotate", drawn] + Self.models + [video], fileSizeLimit: 200)
        #expect(result.status == 1, "\(result.errors)")
        #expect(result.errors.contains("Writing the video failed"), "\(result.errors)")
        // Every frame is in the JSON: as many lines as a run without the video writes.
        let all = folder.appendingPathComponent("all.json").path
        let complete = try Self.run(["track", "--json", all] + Self.models + [video])
        #expect(complete.status == 0, "\(complete.errors)")
        let lines = try String(contentsOfFile: json, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == (try String(contentsOfFile: all, encoding: .utf8).split(separator: "\n").count))
        #expect(
            lines.count > 100 && lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
        #expect(try String(contentsOfFile: mot, encoding: .utf8).split(separator: "\n").count > 100)
        #expect(!FileManager.default.fileExists(atPath: drawn))
        #expect(Self.hiddenNames(in: folder).isEmpty)
    }

    // MARK: empty and root paths

    @Test("track: an empty path and the root folder are refused for every output option")
    func trackEmptyAndRoot() throws {
        let (folder, video, _) = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        for option in ["--json", "--mot", "--annotate"] {
            try Self.expectRefusal(
                ["track", option, ""] + Self.models + [video], option: option, reason: "the path is empty",
                untouched: [video])
            try Self.expectRefusal(
                ["track", option, "/"] + Self.models + [video], option: option, reason: "it is the root folder",
                untouched: [video])
        }
    }

    @Test("detect --annotate: an empty path and the root folder are refused, and nothing is written at /")
    func detectEmptyAndRoot() throws {
        let (folder, _, _) = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A photo with a name of its own, so that a drawing written at the root would be this test's.
        let name = "litevision-root-probe-\(UUID().uuidString)"
        let photo = folder.appendingPathComponent(name + ".jpg").path
        try FileManager.default.copyItem(atPath: TestData.image("burger.jpg"), toPath: photo)
        let second = folder.appendingPathComponent("second.jpg").path
        try FileManager.default.copyItem(atPath: TestData.image("burger.jpg"), toPath: second)
        defer { try? FileManager.default.removeItem(atPath: "/" + name + ".png") }
        for photos in [[photo], [photo, second]] {
            try Self.expectRefusal(
                ["detect", "--annotate", ""] + Self.models + photos, option: "--annotate",
                reason: "the path is empty", untouched: photos)
            for root in ["/", "//", "/.", "/.."] {
                try Self.expectRefusal(
                    ["detect", "--annotate", root] + Self.models + photos, option: "--annotate",
                    reason: "it is the root folder", untouched: photos)
            }
            #expect(!FileManager.default.fileExists(atPath: "/" + name + ".png"))
        }
    }

    @Test("An output inside the model cache is refused: models appear there while the command runs")
    func outputInTheModelCache() throws {
        let (folder, video, photo) = try Self.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let reason = "it is inside the model cache \(cache.path)"
        try Self.expectRefusal(
            ["detect", "--annotate", cache.path + "/drawn.png"] + Self.models + [photo], option: "--annotate",
            reason: reason, environment: ["LITEVISION_MODEL_CACHE": cache.path])
        try Self.expectRefusal(
            ["track", "--json", cache.path + "/tracks.json"] + Self.models + [video], option: "--json",
            reason: reason, environment: ["LITEVISION_MODEL_CACHE": cache.path])
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).isEmpty)
    }

    @Test("--cache: an empty path and the root folder are refused before the registry is asked")
    func cacheEmptyAndRoot() throws {
        for cache in ["", "/"] {
            for command in [
                ["label", "--remote-model", "flowers", "--registry", "http://127.0.0.1:1", "--cache", cache]
                    + [TestData.image("daisy.jpeg")],
                ["models", "download", "--registry", "http://127.0.0.1:1", "--cache", cache, "flowers"],
            ] {
                try Self.expectRefusal(
                    command, option: "--cache", reason: cache.isEmpty ? "the path is empty" : "it is the root folder")
            }
        }
    }

    @Test("registry backup to an empty path is refused before anything is copied")
    func backupEmptyPath() throws {
        let folder = TestData.temporaryDirectory("path-safety-backup")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let token = try Self.run(["registry", "token", "create", "--data", data, "--role", "read"])
        try #require(token.status == 0, "\(token.errors)")
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let result = try Self.run(["registry", "backup", "--data", data, ""], in: folder)
        #expect(result.status == 1 && result.errors.contains("the backup folder's path is empty"), "\(result.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == before)
    }

    // MARK: inputs that are FIFOs or devices

    /// A run given a FIFO or a device as an input: it must end within a second (no wait for a writer, no endless
    /// read of /dev/zero; see ``runPromptly(_:in:environment:)``), fail, and say which file and what it is.
    static func expectSpecialFileRefused(
        _ arguments: [String], naming: String, kind: SpecialFile, status: Int32? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try runPromptly(arguments)
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
        let run = try Self.run(["detect", "--model-dir", model, daisy], timeout: 20)
        let what = kind == .fifo ? "a FIFO (named pipe)" : "a character device"
        #expect(run.status == 64 && run.errors.contains("--model-dir \(model) is \(what)"), "\(run.errors)")
        let ssd = TestData.model("coco_ssd_mobilenet_v1.tflite")
        for arguments in [
            ["--detector", model], ["--detector", ssd, "--detector-labels", labels], ["--model", model],
            ["--model", flowers, "--labels", labels],
        ] {
            try Self.expectSpecialFileRefused(
                ["detect"] + Self.models + arguments + [daisy], naming: arguments[arguments.count - 1], kind: kind,
                status: 2)
        }
        try Self.expectSpecialFileRefused(["detect"] + Self.models + [image], naming: image, kind: kind, status: 1)
        try Self.expectSpecialFileRefused(
            ["detect"] + Self.models + [photos.path], naming: inFolder, kind: kind, status: 1)
        try Self.expectSpecialFileRefused(
            ["detect", "--annotate", folder.appendingPathComponent("drawn").path] + Self.models + [image],
            naming: image, kind: kind, status: 1)

        // track: the video, played offline and live.
        // Its outputs' temporary files, made before the video is opened, are deleted again.
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let outputs = ["--json", out.path + "/t.json", "--mot", out.path + "/t.txt"]
        try Self.expectSpecialFileRefused(
            ["track"] + Self.models + outputs + [video], naming: video, kind: kind, status: 2)
        try Self.expectSpecialFileRefused(
            ["track", "--live"] + Self.models + outputs + [video], naming: video, kind: kind, status: 2)
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
