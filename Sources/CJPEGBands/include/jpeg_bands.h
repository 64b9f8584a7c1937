// Decoding one horizontal band of a baseline JPEG with libjpeg-turbo's libjpeg API, so that several
// threads can decode one large image together (LiteVisionImaging's TurboJPEGDecoder).
//
// Each call decodes the image from its start: the rows above the band are entropy-decoded and thrown
// away (jpeg_skip_scanlines: no inverse DCT, upsampling or colour conversion for whole skipped rows), the
// band's rows are decoded in full, and decoding stops after the band (the last band reads on to the end
// of the image). The band's pixels are the ones a whole-image decode gives for those rows.
#ifndef LITEVISION_JPEG_BANDS_H
#define LITEVISION_JPEG_BANDS_H

#include <stddef.h>

/// What a band decode needs to know about an image, from its headers only.
typedef struct {
    /// Output width and height at the requested scale.
    unsigned width;
    unsigned height;
    /// Output rows per iMCU row: band starts on multiples of this skip whole iMCU rows.
    unsigned rows_per_imcu_row;
    /// 1 when the image has one interleaved sequential scan (every component in one scan, not
    /// progressive), colour (YCbCr or RGB) or grayscale: only then does skipping rows skip their work.
    int single_scan;
} lv_jpeg_band_layout;

/// Reads the headers of `data` and fills `layout` for decoding at 1/`scale_denom` (1, 2, 4 or 8).
/// Returns 0, or -1 with a message in `message` (at most `message_size` bytes, NUL-terminated).
int lv_jpeg_band_layout_read(const unsigned char *data, size_t size, unsigned scale_denom,
                             lv_jpeg_band_layout *layout, char *message, size_t message_size);

/// Decodes output rows [first_row, first_row + row_count) of `data` at 1/`scale_denom` to RGB8, writing
/// row `first_row` at `out` and each next row `stride` bytes further.
///
/// Settings are TurboJPEG's defaults (accurate integer IDCT, smooth chroma upsampling). The first
/// libjpeg warning stops decoding, like TurboJPEG's TJFLAG_STOPONWARNING; a band that ends at the
/// image's last row also reads to the end-of-image marker. The image must still have the size of
/// `expected_width` x `expected_height` at this scale and be a single scan.
/// Returns 0, or -1 with libjpeg's message in `message`; the band's rows are then unspecified.
int lv_jpeg_band_decode_rgb(const unsigned char *data, size_t size, unsigned scale_denom,
                            unsigned expected_width, unsigned expected_height,
                            unsigned first_row, unsigned row_count,
                            unsigned char *out, size_t stride,
                            char *message, size_t message_size);

#endif
