// stb_image's JPEG and PNG decoders, as MediaPipe's `Image.create_from_file` uses them, behind functions of our
// own (stb_image itself is compiled into this target with internal linkage, from Debian's libstb-dev header).
// The data is a whole file in memory; nothing is read from disk here.
#ifndef LITEVISION_STB_IMAGE_H
#define LITEVISION_STB_IMAGE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// stb_image's `stbi_info_from_memory` for one format (`png` 1: PNG, 0: JPEG), so that its failure reason is that
/// format's (`stbi_info_from_memory` tries every format and ends with "unknown image type"): reads only the
/// header. Returns 1 and sets `width`, `height` and `channels` (as stored: 1 gray, 2 gray and alpha, 3 RGB, 4 RGB
/// and alpha) when stb_image can read it, 0 otherwise (`litevision_stb_failure_reason` says why). No allocation
/// it makes may exceed 1 MiB.
int litevision_stb_info(const unsigned char *bytes, int length, int png, int *width, int *height, int *channels);

/// stb_image's `stbi_load_from_memory` with `desired_channels`: the pixels, `width * height * desired_channels`
/// bytes (free them with `litevision_stb_free`), or NULL (`litevision_stb_failure_reason` says why).
/// `channels` receives the channels stored in the file. Every allocation stb_image makes during the call is
/// zero-filled and refused (the decode then fails, "outofmem") when larger than `largest_allocation` bytes: the
/// caller derives it from the size `litevision_stb_info` declared, so that data inflating far beyond it (a PNG
/// "zip bomb") cannot exhaust memory.
unsigned char *litevision_stb_load(
    const unsigned char *bytes, int length, int *width, int *height, int *channels, int desired_channels,
    size_t largest_allocation);

/// Frees pixels returned by `litevision_stb_load`.
void litevision_stb_free(void *pixels);

/// Why the last call on this thread failed: stb_image's short reason ("bad huffman code", "too large", ...),
/// never NULL.
const char *litevision_stb_failure_reason(void);

/// The largest width or height stb_image accepts (its STBI_MAX_DIMENSIONS, 2^24: stb_image's default, which
/// MediaPipe's build keeps).
int litevision_stb_max_dimension(void);

#ifdef __cplusplus
}
#endif

#endif
