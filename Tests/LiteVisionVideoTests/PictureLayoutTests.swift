import CFFmpeg
import LiteVisionImaging
import LiteVisionSystem
import Testing

@testable import LiteVisionVideo

/// swscale writes whole vector registers: a tightly packed RGB destination was overrun for every width that is
/// not a multiple of its block (426x240 aborted with `malloc(): corrupted top size`). These tests convert every
/// frame size from 1x1 to 64x64, in the pixel formats decoders produce, into a buffer of exactly
/// ``PictureLayout/capacity`` bytes whose end touches an unmapped page: a write past it kills the test process.
@Suite("Picture layout for FFmpeg")
struct PictureLayoutTests {
    /// The formats video decoders hand over: H.264/MPEG-4/VP9 (4:2:0), MJPEG (full-range 4:2:2 and 4:2:0),
    /// hardware-style NV12, 4:4:4, grey, and packed RGB from raw and PNG videos.
    static let formats: [AVPixelFormat] = [
        AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_NV12, AV_PIX_FMT_YUV444P,
        AV_PIX_FMT_GRAY8, AV_PIX_FMT_RGB24, AV_PIX_FMT_BGR0,
    ]

    @Test("every size from 1x1 to 64x64 converts inside its buffer, with the pixels of a roomy conversion")
    func everySmallSize() throws {
        let guarded = try GuardedBuffer(capacity: PictureLayout(width: 64, height: 64, bytesPerPixel: 3).capacity)
        let converter = RGBConverter()
        var converted = 0
        for format in Self.formats {
            for width in 1...64 {
                for height in 1...64 {
                    try check(format: format, width: width, height: height, converter: converter, guarded: guarded)
                    converted += 1
                }
            }
        }
        #expect(converted == Self.formats.count * 4096)
    }

    @Test(
        "common sizes convert inside their buffer",
        arguments: [(426, 240), (854, 480), (1366, 768), (176, 144), (352, 288), (202, 114), (1279, 719), (640, 480)])
    func commonSizes(width: Int, height: Int) throws {
        let layout = PictureLayout(width: width, height: height, bytesPerPixel: 3)
        let guarded = try GuardedBuffer(capacity: layout.capacity)
        let converter = RGBConverter()
        for format in Self.formats {
            try check(format: format, width: width, height: height, converter: converter, guarded: guarded)
        }
    }

    @Test("rows hold whole 32-pixel blocks, are aligned to 64 bytes, and are packed back in place")
    func layoutArithmetic() {
        let layout = PictureLayout(width: 426, height: 3, bytesPerPixel: 3)
        #expect(layout.rowBytes == 1278 && layout.stride == 1344 && layout.capacity == 3 * 1344 + 256)
        #expect(PictureLayout(width: 640, height: 1, bytesPerPixel: 3).stride == 1920, "no packing for 640")
        #expect(PictureLayout(width: 1, height: 1, bytesPerPixel: 3).stride == 128)
        #expect(PictureLayout(width: 17, height: 1, bytesPerPixel: 3).stride == 128, "room for a 32-pixel block")
        var bytes = [UInt8](repeating: 0, count: layout.capacity)
        for row in 0..<3 { for column in 0..<layout.rowBytes { bytes[row * layout.stride + column] = UInt8(row + 1) } }
        bytes.withUnsafeMutableBufferPointer { layout.pack($0.baseAddress!) }
        #expect(
            bytes[0..<layout.packedByteCount].elementsEqual(
                (0..<3).flatMap { Array(repeating: UInt8($0 + 1), count: 1278) }))
    }

    /// Converts a patterned frame of `format` and size into the guarded buffer (its end against the unmapped
    /// page) and through ``RGBConverter/convert(_:)``, and compares both with a conversion into a roomy buffer.
    private func check(
        format: AVPixelFormat, width: Int, height: Int, converter: RGBConverter, guarded: GuardedBuffer
    ) throws {
        let frame = try PatternFrame(format: format, width: width, height: height)
        defer { frame.free() }
        let layout = PictureLayout(width: width, height: height, bytesPerPixel: 3)
        let context = try converter.prepare(for: frame.pointer).get()
        let destination = guarded.end - layout.capacity
        #expect(RGBConverter.scale(frame.pointer, with: context, into: destination, layout: layout))

        // The same conversion with rows far apart and plenty of room after them.
        let roomy = PictureLayout(width: width + 64, height: height + 1, bytesPerPixel: 3)
        var reference = [UInt8](repeating: 0, count: roomy.capacity)
        reference.withUnsafeMutableBufferPointer { buffer in
            var planes: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(roomy.stride), 0, 0, 0]
            _ = withUnsafePointer(to: frame.pointer.pointee.data) { dataTuple in
                withUnsafePointer(to: frame.pointer.pointee.linesize) { strideTuple in
                    dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { sourcePlanes in
                        strideTuple.withMemoryRebound(to: Int32.self, capacity: 8) { sourceStrides in
                            sws_scale(context, sourcePlanes, sourceStrides, 0, Int32(height), &planes, &strides)
                        }
                    }
                }
            }
        }
        let image = try converter.convert(frame.pointer).get()
        #expect(image.width == width && image.height == height && image.bytesPerRow == width * 3)
        #expect(image.pixels.count == width * height * 3)
        for row in 0..<height {
            let expected = reference[row * roomy.stride..<row * roomy.stride + width * 3]
            let guardedRow = UnsafeBufferPointer(start: destination + row * layout.stride, count: width * 3)
            let packedRow = image.pixels[row * width * 3..<(row + 1) * width * 3]
            guard expected.elementsEqual(guardedRow), expected.elementsEqual(packedRow) else {
                Issue.record("\(formatName(format)) \(width)x\(height): row \(row) differs from the roomy conversion")
                return
            }
        }
    }

    private func formatName(_ format: AVPixelFormat) -> String {
        av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "\(format.rawValue)"
    }
}

/// Memory whose last byte is followed by a page that cannot be read or written: a buffer placed so that it ends
/// at ``end`` makes any overrun a crash at the first byte too far.
final class GuardedBuffer {
    private let base: UnsafeMutableRawPointer
    private let length: Int
    /// The first byte of the guard page.
    let end: UnsafeMutablePointer<UInt8>

    init(capacity: Int) throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let usable = (capacity + page - 1) / page * page
        length = usable + page
        guard let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            mapped != MAP_FAILED
        else { throw TestSetupError("mmap failed (errno \(errno))") }
        base = mapped
        guard mprotect(mapped + usable, page, PROT_NONE) == 0 else {
            throw TestSetupError("mprotect failed (errno \(errno))")
        }
        end = (mapped + usable).assumingMemoryBound(to: UInt8.self)
    }

    deinit { munmap(base, length) }
}

/// A frame FFmpeg allocated (aligned and padded, as a decoder's), every plane filled with a fixed pattern.
struct PatternFrame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init(format: AVPixelFormat, width: Int, height: Int) throws {
        guard let frame = av_frame_alloc() else { throw TestSetupError("av_frame_alloc failed (errno \(errno))") }
        pointer = frame
        frame.pointee.format = format.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        guard av_frame_get_buffer(frame, 0) >= 0, let descriptor = av_pix_fmt_desc_get(format) else {
            var owned: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&owned)
            throw TestSetupError("av_frame_get_buffer failed (errno \(errno))")
        }
        let chromaHeight = (height + (1 << descriptor.pointee.log2_chroma_h) - 1) >> descriptor.pointee.log2_chroma_h
        let planar = descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0
        withUnsafePointer(to: frame.pointee.data) { dataTuple in
            withUnsafePointer(to: frame.pointee.linesize) { strideTuple in
                dataTuple.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                    strideTuple.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                        var seed: UInt32 = 0x9E37_79B9 &* UInt32(width * 97 + height)
                        for plane in 0..<4 {
                            guard let data = planes[plane] else { continue }
                            let rows = plane == 0 || plane == 3 || !planar ? height : chromaHeight
                            for index in 0..<(Int(strides[plane]) * rows) {
                                seed = seed &* 1_664_525 &+ 1_013_904_223
                                data[index] = UInt8(truncatingIfNeeded: seed >> 24)
                            }
                        }
                    }
                }
            }
        }
    }

    func free() {
        var owned: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&owned)
    }
}

/// A test could not prepare its input.
struct TestSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
