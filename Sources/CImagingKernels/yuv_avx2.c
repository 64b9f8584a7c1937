// AVX2 form of YUVRowKernel (BT.601 YCbCr 4:2:0 to RGB8, 13 fractional bits), sixteen pixels per step:
// the same integers as the Swift kernel and the scalar YUVCoefficients.rgb, so the bytes are identical.
#include "litevision_imaging_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
#define INLINE static inline __attribute__((always_inline))

/// The pshufb masks that interleave 16 R, 16 G and 16 B bytes into 48 bytes of RGB: mask [block][channel].
static const uint8_t interleave_masks[3][3][16] = {
    {{0, 128, 128, 1, 128, 128, 2, 128, 128, 3, 128, 128, 4, 128, 128, 5},
     {128, 0, 128, 128, 1, 128, 128, 2, 128, 128, 3, 128, 128, 4, 128, 128},
     {128, 128, 0, 128, 128, 1, 128, 128, 2, 128, 128, 3, 128, 128, 4, 128}},
    {{128, 128, 6, 128, 128, 7, 128, 128, 8, 128, 128, 9, 128, 128, 10, 128},
     {5, 128, 128, 6, 128, 128, 7, 128, 128, 8, 128, 128, 9, 128, 128, 10},
     {128, 5, 128, 128, 6, 128, 128, 7, 128, 128, 8, 128, 128, 9, 128, 128}},
    {{128, 11, 128, 128, 12, 128, 128, 13, 128, 128, 14, 128, 128, 15, 128, 128},
     {128, 128, 11, 128, 128, 12, 128, 128, 13, 128, 128, 14, 128, 128, 15, 128},
     {10, 128, 128, 11, 128, 128, 12, 128, 128, 13, 128, 128, 14, 128, 128, 15}},
};

/// Sixteen values (pixels 0-7 in `a`, 8-15 in `b`) clipped to 0 ... 255 as sixteen ordered bytes: the two
/// saturating packs together are the clip, the permutation undoes the packs' per-half order.
AVX2 INLINE __m128i clip_to_bytes(__m256i a, __m256i b) {
  __m256i words = _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), _MM_SHUFFLE(3, 1, 2, 0));
  return _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
}

AVX2 INLINE __m128i interleave(__m128i r, __m128i g, __m128i b, int block) {
  const __m128i* m = (const __m128i*)interleave_masks[block];
  return _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(r, _mm_loadu_si128(m)), _mm_shuffle_epi8(g, _mm_loadu_si128(m + 1))),
                      _mm_shuffle_epi8(b, _mm_loadu_si128(m + 2)));
}

/// `layout`: 0 planar (`chroma0` = Cb, `chroma1` = Cr), 1 interleaved Cb first, 2 interleaved Cr first
/// (`chroma0` = the plane).
AVX2 INLINE intptr_t yuv420_row(const uint8_t* y, const uint8_t* chroma0, const uint8_t* chroma1, int layout,
                                intptr_t width, const int32_t* k, uint8_t* out) {
  // (first, second) 16-bit coefficient pairs in the order the chroma samples are stored.
  const int cr_first = layout == 2;
#define PAIR(cb, cr)                                                                                \
  _mm256_set1_epi32(cr_first ? (int32_t)(((uint32_t)(uint16_t)(cb) << 16) | (uint16_t)(cr))        \
                             : (int32_t)(((uint32_t)(uint16_t)(cr) << 16) | (uint16_t)(cb)))
  const __m256i luma = _mm256_set1_epi32(k[0] & 0xFFFF), bias = _mm256_set1_epi32(k[1]);
  const __m256i red = PAIR(0, k[2]), green = PAIR(k[3], k[4]), blue = PAIR(k[5], 0);
#undef PAIR
  const __m256i lower = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3), upper = _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7);
  const __m256i offset = _mm256_set1_epi16(128);
  intptr_t x = 0;
  for (; x + 16 <= width; x += 16) {
    __m128i luma_bytes = _mm_loadu_si128((const __m128i*)(y + x));
    // (Y, 0) pairs times (luma, 0): Y * luma, plus the bias.
    __m256i t0 = _mm256_add_epi32(_mm256_madd_epi16(_mm256_cvtepu8_epi32(luma_bytes), luma), bias);
    __m256i t1 = _mm256_add_epi32(_mm256_madd_epi16(_mm256_cvtepu8_epi32(_mm_srli_si128(luma_bytes, 8)), luma), bias);
    __m128i pairs;
    if (layout == 0) {
      pairs = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i*)(chroma0 + x / 2)),
                                _mm_loadl_epi64((const __m128i*)(chroma1 + x / 2)));
    } else {
      pairs = _mm_loadu_si128((const __m128i*)(chroma0 + x));
    }
    __m256i c = _mm256_sub_epi16(_mm256_cvtepu8_epi16(pairs), offset);  // eight (C1 - 128, C2 - 128) pairs
    __m256i rc = _mm256_madd_epi16(c, red), gc = _mm256_madd_epi16(c, green), bc = _mm256_madd_epi16(c, blue);
    __m256i r0 = _mm256_srai_epi32(_mm256_add_epi32(t0, _mm256_permutevar8x32_epi32(rc, lower)), 13);
    __m256i r1 = _mm256_srai_epi32(_mm256_add_epi32(t1, _mm256_permutevar8x32_epi32(rc, upper)), 13);
    __m256i g0 = _mm256_srai_epi32(_mm256_add_epi32(t0, _mm256_permutevar8x32_epi32(gc, lower)), 13);
    __m256i g1 = _mm256_srai_epi32(_mm256_add_epi32(t1, _mm256_permutevar8x32_epi32(gc, upper)), 13);
    __m256i b0 = _mm256_srai_epi32(_mm256_add_epi32(t0, _mm256_permutevar8x32_epi32(bc, lower)), 13);
    __m256i b1 = _mm256_srai_epi32(_mm256_add_epi32(t1, _mm256_permutevar8x32_epi32(bc, upper)), 13);
    __m128i r = clip_to_bytes(r0, r1), g = clip_to_bytes(g0, g1), b = clip_to_bytes(b0, b1);
    uint8_t* o = out + x * 3;
    _mm_storeu_si128((__m128i*)o, interleave(r, g, b, 0));
    _mm_storeu_si128((__m128i*)(o + 16), interleave(r, g, b, 1));
    _mm_storeu_si128((__m128i*)(o + 32), interleave(r, g, b, 2));
  }
  return x;
}

AVX2 intptr_t litevision_avx2_yuv420_row(const uint8_t* y, const uint8_t* chroma0, const uint8_t* chroma1,
                                         int layout, intptr_t width, const int32_t* coefficients, uint8_t* out) {
  switch (layout) {
    case 0: return yuv420_row(y, chroma0, chroma1, 0, width, coefficients, out);
    case 1: return yuv420_row(y, chroma0, chroma1, 1, width, coefficients, out);
    default: return yuv420_row(y, chroma0, chroma1, 2, width, coefficients, out);
  }
}

#else

intptr_t litevision_avx2_yuv420_row(const uint8_t* y, const uint8_t* chroma0, const uint8_t* chroma1, int layout,
                                    intptr_t width, const int32_t* coefficients, uint8_t* out) {
  __builtin_trap();
}

#endif
