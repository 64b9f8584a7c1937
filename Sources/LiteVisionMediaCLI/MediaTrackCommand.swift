import ArgumentParser
import LiteVisionCommandSupport

/// `litevision track`, as `litevision-media` runs it: the command's shell in this program, its work in
/// ``TrackArguments/run()`` (TrackRun.swift).
struct MediaTrackCommand: ParsableCommand {
    static let configuration = TrackArguments.configuration

    @OptionGroup var arguments: TrackArguments

    func run() throws { try arguments.run() }
}
