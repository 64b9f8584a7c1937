import ArgumentParser
import LiteVision
import LiteVisionCommandSupport
import LiteVisionSystem
import LiteVisionVideo

extension TrackArguments {
    /// Runs `litevision track`: detects and tracks the objects of every frame of the video and prints a line per
    /// frame, or writes the outputs asked for (`--json`, `--mot`, `--annotate`). A bad video or output path ends
    /// the command with status 2 before any work; a damaged video, or an output that cannot be written, with 1
    /// once the outputs are written.
    func run() throws {
        // The video by the bytes of its name (one that is not UTF-8 too); messages and JSON name it by `named.name`.
        let named = CommandLinePath.arguments([video])[0]
        if let problem = named.problem {
            Console.error("litevision: \(named.name): \(problem)")
            throw ExitCode(2)
        }
        try checkOutputPaths(video: named.path)
        // Their temporary files are made now, so a folder that cannot be written fails before the video is processed.
        let jsonFile = try json.map(TrackOutput.openFile), motFile = try mot.map(TrackOutput.openFile)
        let objectDetector = try detector.makeDetector(mode: .stream)
        let frames = try openFrames(named.path)
        var pass = TrackingPass(arguments: self, videoName: named.name, encoder: try openEncoder(for: frames.info))
        pass.process(frames, with: objectDetector)
        if case .live(let source) = frames, source.droppedFrames > 0 {
            Console.error("litevision: \(source.droppedFrames) frames dropped while the detector was busy (--live)")
        }
        try pass.writeOutputs(json: jsonFile, mot: motFile)
    }

    /// Before the model loads and the video is read: no output may replace the video, a model, or another output.
    private func checkOutputPaths(video: String) throws {
        try OutputPaths.check(inputs: [video] + detector.inputPaths, cache: detector.remote.cache) {
            outputs throws(OutputPathError) in
            if let json { try outputs.claimFile(json, for: "--json") }
            if let mot { try outputs.claimFile(mot, for: "--mot") }
            if let annotate { try outputs.claimFile(annotate, for: "--annotate") }
        }
    }

    /// The frames of the video at `path`: all of them, or at real-time pace with `--live`. A video that cannot be
    /// opened is printed and ends the command with status 2.
    private func openFrames(_ path: String) throws -> FrameStream {
        do {
            return live ? try .live(LiveFrameSource(path: path)) : try .offline(VideoDecoder(path: path))
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
    }

    /// The encoder of the drawn video (`--annotate`), upright, at the video's frame rate (25 when unknown); nil
    /// without `--annotate`. One that cannot be made is printed and ends the command with status 2.
    private func openEncoder(for info: VideoInfo) throws -> VideoEncoder? {
        guard let annotate else { return nil }
        let upright = info.orientation.uprightSize(width: info.width, height: info.height)
        do {
            return try VideoEncoder(
                path: annotate, width: upright.0, height: upright.1,
                frameRate: info.frameRate > 0 ? info.frameRate : 25)
        } catch {
            Console.error("litevision: \(error)")
            throw ExitCode(2)
        }
    }
}
