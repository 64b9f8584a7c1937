import LiteVisionGeometry
import Foundation
import Testing
import LiteVisionImaging
import LiteVisionVideo

extension VideoTests {
    @Suite("Rotation and logging") struct Metadata {
        private let scratch = ScratchDirectory()

        /// cup.mp4 with the display matrix of its video track (`tkhd`, the one with a width) set to `matrix`
        /// (a, b, c, d in 16.16 fixed point), as a phone writes for portrait recordings.
        private func cup(withMatrix matrix: (Int32, Int32, Int32, Int32)) throws -> String {
            var data = try VideoFixtures.bytes("cup.mp4")
            let moov = data.prefix(30_000)
            var patched = 0
            var search = moov.startIndex
            while let range = moov.range(of: Data("tkhd".utf8), in: search..<moov.endIndex) {
                search = range.upperBound
                let box = range.lowerBound - 4
                guard data[range.upperBound] == 0 else { continue }  // version 0 layout only
                let matrixOffset = box + 48, widthOffset = box + 84
                let width = data[widthOffset..<widthOffset + 4].reduce(0) { $0 << 8 | Int($1) }
                guard width >> 16 == 640 else { continue }  // the audio track has no width
                for (index, value) in [matrix.0, matrix.1, matrix.2, matrix.3].enumerated() {
                    let offset = matrixOffset + [0, 4, 12, 16][index]
                    let bytes = withUnsafeBytes(of: value.bigEndian) { Array($0) }
                    data.replaceSubrange(offset..<offset + 4, with: bytes)
                }
                patched += 1
            }
            precondition(patched == 1, "expected one video tkhd in cup.mp4")
            return try scratch.write(data, named: "rotated-cup.mp4")
        }

        @Test(
            "the display matrix gives the rotation and orientation; frames stay as stored",
            arguments: [
                (Int32(0), Int32(0x10000), Int32(-0x10000), Int32(0), 90, ImageOrientation.right),
                (-0x10000, 0, 0, -0x10000, 180, .down),
                (0, -0x10000, 0x10000, 0, 270, .left),
                (0x10000, 0, 0, 0x10000, 0, .up),
            ])
        func rotation(a: Int32, b: Int32, c: Int32, d: Int32, degrees: Int, orientation: ImageOrientation) throws {
            let decoder = try VideoDecoder(path: try cup(withMatrix: (a, b, c, d)))
            #expect(decoder.info.rotation == degrees)
            #expect(decoder.info.orientation == orientation)
            let frame = try #require(try decoder.nextFrame())
            #expect(frame.image.width == 640 && frame.image.height == 480)
        }

        @Test("FFmpeg is quiet by default, and the level can be changed")
        func logging() {
            _ = try? VideoDecoder(path: VideoFixtures.video("traffic_frames.mp4"))
            #expect(FFmpegLogging.level == .quiet)
            FFmpegLogging.level = .error
            #expect(FFmpegLogging.level == .error)
            FFmpegLogging.level = .quiet
            #expect(FFmpegLogging.level == .quiet)
        }

        @Test("error messages name the file and the problem")
        func messages() {
            let corrupt = VideoError.corrupt(path: "/v/a.mp4", frame: 1, reason: "bad packet")
            #expect(corrupt.description == "'/v/a.mp4' is damaged: decoding stopped after 1 good frame (bad packet).")
            let missing = VideoError.fileNotReadable(path: "/v/b.mp4", reason: "no such file")
            #expect(missing.description == "Cannot read the video file '/v/b.mp4': no such file.")
        }
    }
}
