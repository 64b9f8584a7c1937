import Foundation
import LiteVisionImaging
import LiteVisionTestSupport
import LiteVisionVideo
import Testing

extension VideoTests {
    /// Decoding and encoding at sizes the shared clips do not have: every buffer FFmpeg reads or writes must be
    /// aligned and padded (see `PictureLayoutTests` for every size up to 64x64 in memory). These run under
    /// AddressSanitizer in `scripts/sanitize.sh address`.
    @Suite("Odd and small video sizes") struct Sizes {
        private let scratch = ScratchDirectory()

        static let sizes: [(Int, Int)] = [
            (1, 1), (2, 2), (3, 5), (4, 4), (7, 3), (10, 10), (16, 15), (17, 9), (30, 18), (33, 65), (64, 64),
            (202, 114), (426, 240), (854, 480), (1366, 768),
        ]

        @Test("files made by ffmpeg decode to every frame at their size", arguments: sizes)
        func decode(width: Int, height: Int) throws {
            let path = try GeneratedVideo.make(width: width, height: height, frames: 6, in: scratch.url)
            let decoder = try VideoDecoder(path: path)
            #expect(decoder.info.width == width && decoder.info.height == height)
            var frames = 0
            let ending = VideoFixtures.decodeAll(decoder) { frame in
                #expect(frame.image.width == width && frame.image.height == height)
                #expect(frame.image.pixels.count == width * height * 3 && frame.image.bytesPerRow == width * 3)
                frames += 1
            }
            #expect(ending == nil)
            #expect(frames == 6)
        }

        @Test("odd sizes are written one pixel larger, the last column and row repeated", arguments: sizes)
        func encode(width: Int, height: Int) throws {
            let path = scratch.path("odd.mp4")
            let encoder = try VideoEncoder(path: path, width: width, height: height, frameRate: 10)
            let image = Self.quadrants(width: width, height: height)
            for _ in 0..<3 { try encoder.append(image) }
            try encoder.finish()
            let decoder = try VideoDecoder(path: path)
            let (videoWidth, videoHeight) = (width + width % 2, height + height % 2)
            #expect(decoder.info.width == videoWidth && decoder.info.height == videoHeight)
            var frames = 0
            _ = VideoFixtures.decodeAll(decoder) { frame in
                frames += 1
                guard width >= 8, height >= 8 else { return }  // too small for colours to survive 4:2:0 coding
                // The image's last column and row are green, and so are the padding's (a black or shifted pad is
                // not): with an odd size the stripe and its copy share one chroma sample.
                let pixels = frame.image.pixels, stride = frame.image.bytesPerRow
                func green(_ x: Int, _ y: Int) -> Int { Int(pixels[y * stride + x * 3 + 1]) }
                #expect(green(videoWidth - 1, height / 4) > 150 && green(videoWidth - 1, videoHeight - 1) > 150)
                #expect(green(width / 4, videoHeight - 1) > 150)
                #expect(green(width - 3, height - 3) < 100, "inside the picture is not green")
                #expect(Int(pixels[0]) > 150, "top left is red")
            }
            #expect(frames == 3)
        }

        @Test("every width and height up to 64 is encoded (MPEG-4 Part 2) and decodes at its padded size")
        func everySmallSizeEncodes() throws {
            let sizes =
                (1...64).flatMap { width in [1, 2, 3, 7, 64].map { (width, $0) } }
                + (1...64).flatMap { height in [1, 2, 5].map { ($0, height) } }
            for (width, height) in sizes {
                let path = scratch.path("\(width)x\(height).mp4")
                let encoder = try VideoEncoder(path: path, width: width, height: height, frameRate: 10, codec: .mpeg4)
                try encoder.append(Self.quadrants(width: width, height: height))
                try encoder.finish()
                let decoder = try VideoDecoder(path: path)
                #expect(decoder.info.width == width + width % 2 && decoder.info.height == height + height % 2)
                var frames = 0
                #expect(VideoFixtures.decodeAll(decoder) { _ in frames += 1 } == nil)
                #expect(frames == 1, "\(width)x\(height)")
                try FileManager.default.removeItem(atPath: path)
            }
        }

        /// Red top-left, the rest blue, the last column and row green: sharp enough to see a shifted or wrongly
        /// padded picture.
        static func quadrants(width: Int, height: Int) -> ImageBuffer {
            var image = ImageBuffer(width: width, height: height, format: .rgb8)
            for y in 0..<height {
                for x in 0..<width {
                    let color: [UInt8] =
                        x == width - 1 || y == height - 1
                        ? [0, 230, 0]
                        : x < max(1, width / 2) && y < max(1, height / 2) ? [230, 20, 20] : [20, 20, 230]
                    image.pixels.replaceSubrange((y * width + x) * 3..<(y * width + x) * 3 + 3, with: color)
                }
            }
            return image
        }
    }
}
