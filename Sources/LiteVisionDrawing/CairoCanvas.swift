import CCairo
import LiteVisionGeometry

/// A Cairo drawing context over pixel memory the caller owns, with the few operations annotations need.
///
/// Only valid inside ``draw(into:width:height:stride:format:_:)``: the surface wraps the caller's bytes
/// without copying them and is flushed and released before that function returns.
struct CairoCanvas: ~Copyable {
    private let context: OpaquePointer

    private init(context: OpaquePointer) {
        self.context = context
    }

    /// Runs `body` with a canvas drawing into `pixels` (`stride * height` bytes in Cairo's `format`).
    /// Returns false, without calling `body`, when Cairo cannot wrap the memory (a size or stride it refuses).
    static func draw(
        into pixels: UnsafeMutableRawBufferPointer, width: Int, height: Int, stride: Int,
        format: cairo_format_t, _ body: (borrowing CairoCanvas) -> Void
    ) -> Bool {
        guard let base = pixels.baseAddress, width > 0, height > 0,
            width <= Int(Int32.max), height <= Int(Int32.max), stride <= Int(Int32.max),
            pixels.count >= stride * height
        else { return false }
        guard
            let surface = cairo_image_surface_create_for_data(
                base.assumingMemoryBound(to: UInt8.self), format, Int32(width), Int32(height), Int32(stride))
        else { return false }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else {
            return false
        }
        defer { cairo_destroy(context) }
        guard cairo_status(context) == CAIRO_STATUS_SUCCESS else { return false }
        body(CairoCanvas(context: context))
        cairo_surface_flush(surface)
        return true
    }

    /// Sets the color of the next strokes, fills and text.
    func setColor(_ color: AnnotationColor) {
        cairo_set_source_rgb(context, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255)
    }

    /// Draws the outline of `rect` with a line `lineWidth` pixels wide lying entirely inside it, so the
    /// outline is pixel-exact (no antialiasing) and visible even for a box on the image border. A rectangle
    /// too small for two lines is filled instead.
    func strokeInside(_ rect: PixelRect, lineWidth: Int) {
        let half = Double(lineWidth) / 2
        guard rect.width > 2 * lineWidth, rect.height > 2 * lineWidth else {
            fill(x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height))
            return
        }
        cairo_set_line_width(context, Double(lineWidth))
        cairo_set_line_join(context, CAIRO_LINE_JOIN_MITER)
        cairo_rectangle(
            context, Double(rect.x) + half, Double(rect.y) + half,
            Double(rect.width - lineWidth), Double(rect.height - lineWidth))
        cairo_stroke(context)
    }

    /// Fills a rectangle.
    func fill(x: Double, y: Double, width: Double, height: Double) {
        cairo_rectangle(context, x, y, width, height)
        cairo_fill(context)
    }

    /// Selects Cairo's toy-API sans-serif face (fontconfig picks the installed one), bold, at `size` pixels.
    func setFont(size: Double) {
        cairo_select_font_face(context, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(context, size)
    }

    /// The current font's ascent and descent (the same for every text, so captions line up).
    func fontMetrics() -> (ascent: Double, descent: Double) {
        var extents = cairo_font_extents_t()
        cairo_font_extents(context, &extents)
        return (extents.ascent, extents.descent)
    }

    /// How far `text` advances horizontally in the current font.
    func advance(of text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        return extents.x_advance
    }

    /// Draws `text` with its baseline starting at (`x`, `baseline`).
    func showText(_ text: String, x: Double, baseline: Double) {
        cairo_move_to(context, x, baseline)
        cairo_show_text(context, text)
        cairo_new_path(context)
    }

    /// Draws `text` reading upwards (turned a quarter turn anticlockwise), its baseline starting at (`x`, `y`)
    /// and running towards smaller `y`.
    func showTextUpwards(_ text: String, x: Double, y: Double) {
        cairo_save(context)
        cairo_move_to(context, x, y)
        cairo_rotate(context, -Double.pi / 2)
        cairo_show_text(context, text)
        cairo_new_path(context)
        cairo_restore(context)
    }

    /// Restricts drawing to a rectangle until ``resetClip()``.
    func clip(x: Double, y: Double, width: Double, height: Double) {
        cairo_rectangle(context, x, y, width, height)
        cairo_clip(context)
    }

    /// Removes the clip set by ``clip(x:y:width:height:)``.
    func resetClip() {
        cairo_reset_clip(context)
    }

    /// Draws a polyline through `points` (antialiased), `lineWidth` pixels wide.
    func strokeLine(_ points: [(x: Double, y: Double)], lineWidth: Double) {
        guard let first = points.first else { return }
        cairo_set_line_width(context, lineWidth)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        cairo_move_to(context, first.x, first.y)
        for point in points.dropFirst() { cairo_line_to(context, point.x, point.y) }
        cairo_stroke(context)
    }
}
