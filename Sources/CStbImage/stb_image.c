// stb_image compiled from Debian's libstb-dev header (stb_image 2.27; MediaPipe 1.2.2 builds 2.26, whose JPEG and
// PNG decoding of valid files is the same). Only JPEG and PNG are compiled in, from memory only (no stdio); the
// rest is stb_image's defaults, as MediaPipe builds them: SSE2 on x86-64, no vertical flip, no premultiplied-alpha
// or iPhone-PNG conversion, STBI_MAX_DIMENSIONS 2^24, assertions off (MediaPipe's optimized build defines NDEBUG).
//
// Hostile data: stb_image gets its memory from `bounded_*` below, which zero every byte it hands out (stb_image
// 2.27 reads some fields of its JPEG decoder uninitialized on damaged files; 2.28 zeroes them) and refuse any
// allocation over the caller's bound. What else 2.27 lacks of 2.28's fixes for JPEG (Huffman tables of more than
// 256 codes overflowing its arrays) is refused by the Swift caller before stb_image sees the file.
// The failure reason and the bound are thread-local, so decodes may run on any number of threads at once.
#include <stdlib.h>
#include <string.h>

#include "litevision_stb_image.h"

static _Thread_local size_t largest_allocation = 1 << 20;

static void *bounded_malloc(size_t size) {
    if (size > largest_allocation) return NULL;
    return calloc(1, size ? size : 1);
}

static void *bounded_realloc(void *pointer, size_t old_size, size_t new_size) {
    if (new_size > largest_allocation) return NULL;
    unsigned char *grown = realloc(pointer, new_size ? new_size : 1);
    if (grown && new_size > old_size) memset(grown + old_size, 0, new_size - old_size);
    return grown;
}

#define STBI_MALLOC(size) bounded_malloc(size)
#define STBI_REALLOC_SIZED(pointer, old_size, new_size) bounded_realloc(pointer, old_size, new_size)
#define STBI_FREE(pointer) free(pointer)
#define STBI_ASSERT(condition) ((void)0)

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_JPEG
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#define STBI_MAX_DIMENSIONS (1 << 24)
#include <stb/stb_image.h>

int litevision_stb_info(const unsigned char *bytes, int length, int png, int *width, int *height, int *channels) {
    largest_allocation = 1 << 20;
    stbi__context context;
    stbi__start_mem(&context, bytes, length);
    return png ? stbi__png_info(&context, width, height, channels)
               : stbi__jpeg_info(&context, width, height, channels);
}

unsigned char *litevision_stb_load(
    const unsigned char *bytes, int length, int *width, int *height, int *channels, int desired_channels,
    size_t largest) {
    largest_allocation = largest;
    unsigned char *pixels = stbi_load_from_memory(bytes, length, width, height, channels, desired_channels);
    largest_allocation = 1 << 20;
    return pixels;
}

void litevision_stb_free(void *pixels) { stbi_image_free(pixels); }

const char *litevision_stb_failure_reason(void) {
    const char *reason = stbi_failure_reason();
    return reason ? reason : "unknown error";
}

int litevision_stb_max_dimension(void) { return STBI_MAX_DIMENSIONS; }
