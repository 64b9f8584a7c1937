import Foundation
import LiteVisionTestSupport
import Testing

/// Paths given to `litevision` (issue 9, paths): an output is never an input, never replaces a device, FIFO or
/// folder, and two outputs never share a file; each refusal comes before any work, with status 2 and a message
/// naming the option and the problem. Real processes on real files (through ``PathSafety``). Empty and root paths,
/// outputs that cannot be written and inputs that are FIFOs or devices have suites of their own.
@Suite("litevision: input and output paths")
struct PathSafetyCLITests {
    // MARK: outputs that are inputs

    @Test("track: --json, --mot or --annotate naming the video (by any name) is refused and the video kept")
    func trackOutputIsTheVideo() throws {
        let (folder, video, _) = try PathSafety.fixtures()
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
                try PathSafety.expectRefusal(
                    ["track", option, output] + PathSafety.models + [video], option: option,
                    reason: "it is the input \(video); an output never replaces an input", untouched: [video, link])
            }
        }
    }

    @Test("track: --json and --mot naming one file are refused (one would be lost), existing or not")
    func trackTwoOutputsOneFile() throws {
        let (folder, video, _) = try PathSafety.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.txt").path
        try PathSafety.expectRefusal(
            ["track", "--json", path, "--mot", folder.path + "/./out.txt"] + PathSafety.models + [video],
            option: "--mot",
            reason: "--json writes the same file", untouched: [video])
        #expect(!FileManager.default.fileExists(atPath: path))
        try Data("previous results\n".utf8).write(to: URL(fileURLWithPath: path))
        try PathSafety.expectRefusal(
            ["track", "--mot", path, "--annotate", path] + PathSafety.models + [video], option: "--annotate",
            reason: "--mot writes the same file", untouched: [video, path])
    }

    @Test("detect --annotate: the photo itself, a model, or a folder where a drawing would replace a photo")
    func detectOutputIsAnInput() throws {
        let (folder, _, photo) = try PathSafety.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        try PathSafety.expectRefusal(
            ["detect", "--annotate", photo] + PathSafety.models + [photo], option: "--annotate",
            reason: "it is the input \(photo)", untouched: [photo])
        // A classifier whose name ends in .png, named as the drawing.
        let model = folder.appendingPathComponent("classifier.png").path
        try FileManager.default.copyItem(atPath: TestData.model("bird.tflite"), toPath: model)
        try PathSafety.expectRefusal(
            ["detect", "--model", model, "--annotate", model] + PathSafety.models + [TestData.image("burger.jpg")],
            option: "--annotate", reason: "it is the input \(model)", untouched: [model])
        try FileManager.default.removeItem(atPath: model)
        // `detect --annotate . photo.png` in the photo's folder: the drawing of photo.png is ./photo.png.
        try PathSafety.expectRefusal(
            ["detect", "--annotate", "."] + PathSafety.models + ["photo.png"], option: "--annotate for photo.png",
            reason: "it is the input photo.png", untouched: [photo], in: folder)
        // A folder of photos drawn into itself: photo.png's drawing would replace it.
        let burger = folder.appendingPathComponent("burger.jpg").path
        try FileManager.default.copyItem(atPath: TestData.image("burger.jpg"), toPath: burger)
        try PathSafety.expectRefusal(
            ["detect", "--annotate", folder.path] + PathSafety.models + [folder.path],
            option: "--annotate for \(folder.path)/photo.png", reason: "an output never replaces an input",
            untouched: [photo, burger])
    }

    @Test("detect --annotate DIR: two photos whose drawings share a name are refused before any is drawn")
    func detectTwoDrawingsOneFile() throws {
        let (folder, _, photo) = try PathSafety.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = folder.appendingPathComponent("photo.jpg").path
        try FileManager.default.copyItem(atPath: TestData.image("burger.jpg"), toPath: jpeg)
        let out = folder.appendingPathComponent("drawn").path
        try PathSafety.expectRefusal(
            ["detect", "--annotate", out] + PathSafety.models + [jpeg, photo], option: "--annotate for \(photo)",
            reason: "--annotate for \(jpeg) writes the same file", untouched: [jpeg, photo])
        #expect(!FileManager.default.fileExists(atPath: out + "/photo.png"))
    }

    // MARK: outputs that are not regular files

    @Test("An output that is a FIFO is refused at once and stays a FIFO", arguments: ["--json", "--mot", "--annotate"])
    func outputFIFO(option: String) throws {
        let (folder, video, _) = try PathSafety.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("out.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        try PathSafety.expectRefusal(
            ["track", option, fifo] + PathSafety.models + [video], option: option,
            reason: "it exists and is a FIFO (named pipe); refusing to replace it", untouched: [fifo, video])
        let png = folder.appendingPathComponent("out.png").path
        #expect(mkfifo(png, 0o600) == 0)
        try PathSafety.expectRefusal(
            ["detect", "--annotate", png] + PathSafety.models + [TestData.image("burger.jpg")], option: "--annotate",
            reason: "it exists and is a FIFO (named pipe)", untouched: [png])
    }

    @Test("An output that is a device (/dev/null, and a node made here when allowed) is refused and kept")
    func outputDevice() throws {
        let (folder, video, _) = try PathSafety.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        var devices = ["/dev/null"]
        // A character device of our own with the null device's numbers (Linux's makedev(1, 3): major << 8 | minor),
        // when this user may make one (root).
        let node = folder.appendingPathComponent("null.png").path
        if mknod(node, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 { devices.append(node) }
        for device in devices {
            for option in ["--json", "--mot", "--annotate"] {
                try PathSafety.expectRefusal(
                    ["track", option, device] + PathSafety.models + [video], option: option,
                    reason: "it exists and is a character device; refusing to replace it", untouched: [device])
            }
        }
        try PathSafety.expectRefusal(
            ["detect", "--annotate", devices.last!] + PathSafety.models + [TestData.image("burger.jpg")],
            option: "--annotate", reason: devices.count > 1 ? "is a character device" : "not a folder",
            untouched: [devices.last!])
    }

    @Test("An output that is a folder is refused; one that is a symbolic link to a file replaces the link only")
    func outputFolderAndLink() throws {
        let (folder, video, _) = try PathSafety.fixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        try PathSafety.expectRefusal(
            ["track", "--json", folder.path] + PathSafety.models + [video], option: "--json",
            reason: "it exists and is a directory; refusing to replace it", untouched: [folder.path])
        try PathSafety.expectRefusal(
            ["track", "--mot", folder.path + "/"] + PathSafety.models + [video], option: "--mot",
            reason: "it names a folder, not a file")
        try PathSafety.expectRefusal(
            ["track", "--json", folder.path + "/missing/out.json"] + PathSafety.models + [video], option: "--json",
            reason: "does not exist")
        // A link to a regular file that is no input: the link is replaced by the results, its target kept.
        let target = folder.appendingPathComponent("target.txt").path
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: target))
        let link = folder.appendingPathComponent("results.txt").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let result = try PathSafety.run(["track", "--mot", link] + PathSafety.models + [video])
        #expect(result.status == 0, "\(result.errors)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
        #expect(try String(contentsOfFile: link, encoding: .utf8).split(separator: "\n").count > 100)
    }
}
