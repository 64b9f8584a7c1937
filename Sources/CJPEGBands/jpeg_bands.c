// See include/jpeg_bands.h. libjpeg reports errors by calling error_exit, which must not return: it
// longjmps back to the call that set up the decompressor, which then destroys it. (So each entry point has its
// own setjmp: the frame that calls setjmp must still be running when libjpeg jumps.)
#include "jpeg_bands.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char *message;
    size_t message_size;
} band_error;

static void band_copy_message(j_common_ptr cinfo) {
    band_error *error = (band_error *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    if (error->message_size > 0) {
        snprintf(error->message, error->message_size, "%s", text);
    }
}

static void band_error_exit(j_common_ptr cinfo) {
    band_copy_message(cinfo);
    longjmp(((band_error *)cinfo->err)->jump, 1);
}

// Level -1 is a warning (damaged data libjpeg could go on from): stop at the first one, as TurboJPEG's
// TJFLAG_STOPONWARNING does. Trace messages (levels 0 and up) are ignored.
static void band_emit_message(j_common_ptr cinfo, int level) {
    if (level < 0) {
        band_copy_message(cinfo);
        longjmp(((band_error *)cinfo->err)->jump, 1);
    }
}

static void band_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void band_fail(char *message, size_t message_size, const char *text) {
    if (message_size > 0) {
        snprintf(message, message_size, "%s", text);
    }
}

// Zeroes the decompressor first, so that destroying it after an error in jpeg_create_decompress itself is safe.
static void band_setup_errors(struct jpeg_decompress_struct *cinfo, band_error *error, char *message,
                              size_t message_size) {
    memset(cinfo, 0, sizeof(*cinfo));
    cinfo->err = jpeg_std_error(&error->pub);
    error->pub.error_exit = band_error_exit;
    error->pub.emit_message = band_emit_message;
    error->pub.output_message = band_output_message;
    error->message = message;
    error->message_size = message_size;
    if (message_size > 0) {
        message[0] = '\0';
    }
}

// Reads the headers and sets the output parameters shared by both calls.
static void band_start(struct jpeg_decompress_struct *cinfo, const unsigned char *data, size_t size,
                       unsigned scale_denom) {
    jpeg_create_decompress(cinfo);
    jpeg_mem_src(cinfo, data, (unsigned long)size);
    jpeg_read_header(cinfo, TRUE);
    cinfo->out_color_space = JCS_RGB;
    cinfo->scale_num = 1;
    cinfo->scale_denom = scale_denom;
    cinfo->dct_method = JDCT_ISLOW;
    cinfo->do_fancy_upsampling = TRUE;
}

static int band_single_scan(struct jpeg_decompress_struct *cinfo) {
    int colour = cinfo->jpeg_color_space == JCS_YCbCr || cinfo->jpeg_color_space == JCS_GRAYSCALE ||
                 cinfo->jpeg_color_space == JCS_RGB;
    return colour && !jpeg_has_multiple_scans(cinfo);
}

int lv_jpeg_band_layout_read(const unsigned char *data, size_t size, unsigned scale_denom,
                             lv_jpeg_band_layout *layout, char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    band_error error;
    band_setup_errors(&cinfo, &error, message, message_size);
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    band_start(&cinfo, data, size, scale_denom);
    jpeg_calc_output_dimensions(&cinfo);
    layout->width = cinfo.output_width;
    layout->height = cinfo.output_height;
#if JPEG_LIB_VERSION >= 70
    layout->rows_per_imcu_row = (unsigned)(cinfo.max_v_samp_factor * cinfo.min_DCT_v_scaled_size);
#else
    layout->rows_per_imcu_row = (unsigned)(cinfo.max_v_samp_factor * cinfo.min_DCT_scaled_size);
#endif
    layout->single_scan = band_single_scan(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

int lv_jpeg_band_decode_rgb(const unsigned char *data, size_t size, unsigned scale_denom,
                            unsigned expected_width, unsigned expected_height,
                            unsigned first_row, unsigned row_count,
                            unsigned char *out, size_t stride,
                            char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    band_error error;
    band_setup_errors(&cinfo, &error, message, message_size);
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    band_start(&cinfo, data, size, scale_denom);
    if (!band_single_scan(&cinfo)) {
        jpeg_destroy_decompress(&cinfo);
        band_fail(message, message_size, "not a single-scan colour or grayscale JPEG");
        return -1;
    }
    jpeg_start_decompress(&cinfo);
    unsigned height = cinfo.output_height;
    if (cinfo.output_width != expected_width || height != expected_height || cinfo.output_components != 3 ||
        first_row > height || row_count > height - first_row || row_count == 0) {
        jpeg_destroy_decompress(&cinfo);
        band_fail(message, message_size, "band outside the image, or the image changed size");
        return -1;
    }
    if (first_row > 0 && jpeg_skip_scanlines(&cinfo, first_row) != first_row) {
        jpeg_destroy_decompress(&cinfo);
        band_fail(message, message_size, "could not skip to the band's first row");
        return -1;
    }
    unsigned end = first_row + row_count;
    while (cinfo.output_scanline < end) {
        JSAMPROW rows[16];
        unsigned count = end - cinfo.output_scanline;
        if (count > 16) {
            count = 16;
        }
        for (unsigned i = 0; i < count; i++) {
            rows[i] = out + (size_t)(cinfo.output_scanline - first_row + i) * stride;
        }
        if (jpeg_read_scanlines(&cinfo, rows, count) == 0) {
            jpeg_destroy_decompress(&cinfo);
            band_fail(message, message_size, "libjpeg returned no rows");
            return -1;
        }
    }
    if (end == height) {
        jpeg_finish_decompress(&cinfo);
    } else {
        jpeg_abort_decompress(&cinfo);
    }
    jpeg_destroy_decompress(&cinfo);
    return 0;
}
