// AVX2 forms of the resampling kernels (see litevision_imaging_kernels.h). The Swift kernels they mirror
// explain the arithmetic: paired rows (`p | p << 23`) multiplied by weight pairs with pmaddwd, sums of 32-bit
// integers rounded with (sum + 2^21) >> 22. Integer sums wrap the same way in any order, so taking two
// vectors per instruction changes no result.
#include "litevision_imaging_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#define AVX2 __attribute__((target("avx2")))
#define INLINE static inline __attribute__((always_inline))

/// UnclippedRounding / ClippedRounding.
AVX2 INLINE __m128i round4(__m128i sum, int clip) {
  __m128i v = _mm_srai_epi32(_mm_add_epi32(sum, _mm_set1_epi32(1 << 21)), 22);
  if (clip) v = _mm_min_epi32(_mm_max_epi32(v, _mm_setzero_si128()), _mm_set1_epi32(255));
  return v;
}

AVX2 INLINE __m256i round8(__m256i sum, int clip) {
  __m256i v = _mm256_srai_epi32(_mm256_add_epi32(sum, _mm256_set1_epi32(1 << 21)), 22);
  if (clip) v = _mm256_min_epi32(_mm256_max_epi32(v, _mm256_setzero_si256()), _mm256_set1_epi32(255));
  return v;
}

/// ByteSink / PairedSink: pixel `i` (R, G, B in lanes 0-2) of a row.
AVX2 INLINE void store_pixel(__m128i v, intptr_t i, int last, uint8_t* out, int paired) {
  if (paired) {
    _mm_storeu_si128((__m128i*)(out + i * 12), _mm_or_si128(v, _mm_slli_epi32(v, 23)));
    return;
  }
  // The low byte of each lane (truncation, as SIMD4<UInt8>(truncatingIfNeeded:)).
  const __m128i low_bytes = _mm_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  uint32_t word = (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi8(v, low_bytes));
  if (last) {
    out[i * 3] = (uint8_t)word;
    out[i * 3 + 1] = (uint8_t)(word >> 8);
    out[i * 3 + 2] = (uint8_t)(word >> 16);
  } else {
    memcpy(out + i * 3, &word, 4);  // the fourth byte is overwritten by the next pixel
  }
}

AVX2 INLINE __m256i madd256(const uint8_t* p, const uint8_t* k) {
  return _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)p), _mm256_loadu_si256((const __m256i*)k));
}

AVX2 INLINE __m128i madd128(const uint8_t* p, const uint8_t* k) {
  return _mm_madd_epi16(_mm_loadu_si128((const __m128i*)p), _mm_loadu_si128((const __m128i*)k));
}

/// HorizontalKernel.channels3: R, G, B from accumulators whose lanes hold channels (4j + lane) % 3.
AVX2 INLINE __m128i channels3(__m128i a0, __m128i a1, __m128i a2) {
  __m128i t1 = _mm_alignr_epi8(a1, a0, 12);                     // a0[3] a1[0] a1[1] a1[2]
  __m128i t2 = _mm_alignr_epi8(a2, a1, 8);                      // a1[2] a1[3] a2[0] a2[1]
  __m128i t3 = _mm_shuffle_epi32(a2, _MM_SHUFFLE(3, 3, 2, 1));  // a2[1] a2[2] a2[3] a2[3]
  return _mm_add_epi32(_mm_add_epi32(a0, t1), _mm_add_epi32(t2, t3));
}

#define LO(v) _mm256_castsi256_si128(v)
#define HI(v) _mm256_extracti128_si256(v, 1)

/// The three-element window of one pixel. The window starts at a multiple of three 16-byte vectors, so with
/// six vectors per step the halves of the accumulators A, B, C hold channel patterns 0 1 | 2 0 | 1 2.
AVX2 INLINE __m128i window3(const uint8_t* p, const uint8_t* k, intptr_t vectors) {
  __m256i a = _mm256_setzero_si256(), b = a, c = a;
  intptr_t j = 0;
  for (; j + 6 <= vectors; j += 6, p += 96, k += 96) {
    a = _mm256_add_epi32(a, madd256(p, k));
    b = _mm256_add_epi32(b, madd256(p + 32, k + 32));
    c = _mm256_add_epi32(c, madd256(p + 64, k + 64));
  }
  intptr_t r = vectors - j;
  if (r >= 2) a = _mm256_add_epi32(a, madd256(p, k));
  if (r >= 4) b = _mm256_add_epi32(b, madd256(p + 32, k + 32));
  __m128i a0 = _mm_add_epi32(LO(a), HI(b)), a1 = _mm_add_epi32(HI(a), LO(c)), a2 = _mm_add_epi32(LO(b), HI(c));
  if (r & 1) {
    __m128i s = madd128(p + (r - 1) * 16, k + (r - 1) * 16);  // vector r - 1: pattern (r - 1) % 3
    if (r == 1) a0 = _mm_add_epi32(a0, s);
    else if (r == 3) a2 = _mm_add_epi32(a2, s);
    else a1 = _mm_add_epi32(a1, s);
  }
  return channels3(a0, a1, a2);
}

/// window3 for two rows (`delta` bytes apart) sharing the weight loads.
AVX2 INLINE void window3x2(const uint8_t* p, intptr_t delta, const uint8_t* k, intptr_t vectors, __m128i* out_a,
                           __m128i* out_b) {
  __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a, e = a, f = a;
  intptr_t j = 0;
  for (; j + 6 <= vectors; j += 6, p += 96, k += 96) {
    __m256i k0 = _mm256_loadu_si256((const __m256i*)k), k1 = _mm256_loadu_si256((const __m256i*)(k + 32));
    __m256i k2 = _mm256_loadu_si256((const __m256i*)(k + 64));
    a = _mm256_add_epi32(a, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)p), k0));
    d = _mm256_add_epi32(d, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(p + delta)), k0));
    b = _mm256_add_epi32(b, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(p + 32)), k1));
    e = _mm256_add_epi32(e, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(p + delta + 32)), k1));
    c = _mm256_add_epi32(c, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(p + 64)), k2));
    f = _mm256_add_epi32(f, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(p + delta + 64)), k2));
  }
  intptr_t r = vectors - j;
  if (r >= 2) {
    __m256i k0 = _mm256_loadu_si256((const __m256i*)k);
    a = _mm256_add_epi32(a, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)p), k0));
    d = _mm256_add_epi32(d, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(p + delta)), k0));
  }
  if (r >= 4) {
    __m256i k1 = _mm256_loadu_si256((const __m256i*)(k + 32));
    b = _mm256_add_epi32(b, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(p + 32)), k1));
    e = _mm256_add_epi32(e, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(p + delta + 32)), k1));
  }
  __m128i a0 = _mm_add_epi32(LO(a), HI(b)), a1 = _mm_add_epi32(HI(a), LO(c)), a2 = _mm_add_epi32(LO(b), HI(c));
  __m128i b0 = _mm_add_epi32(LO(d), HI(e)), b1 = _mm_add_epi32(HI(d), LO(f)), b2 = _mm_add_epi32(LO(e), HI(f));
  if (r & 1) {
    const uint8_t* q = p + (r - 1) * 16;
    __m128i kk = _mm_loadu_si128((const __m128i*)(k + (r - 1) * 16));
    __m128i s = _mm_madd_epi16(_mm_loadu_si128((const __m128i*)q), kk);
    __m128i t = _mm_madd_epi16(_mm_loadu_si128((const __m128i*)(q + delta)), kk);
    if (r == 1) {
      a0 = _mm_add_epi32(a0, s);
      b0 = _mm_add_epi32(b0, t);
    } else if (r == 3) {
      a2 = _mm_add_epi32(a2, s);
      b2 = _mm_add_epi32(b2, t);
    } else {
      a1 = _mm_add_epi32(a1, s);
      b1 = _mm_add_epi32(b1, t);
    }
  }
  *out_a = channels3(a0, a1, a2);
  *out_b = channels3(b0, b1, b2);
}

/// Two vectors per step; the halves of the accumulator both hold the four channels.
AVX2 INLINE __m128i window4(const uint8_t* p, const uint8_t* k, intptr_t vectors) {
  __m256i a = _mm256_setzero_si256(), b = a;
  intptr_t j = 0;
  for (; j + 4 <= vectors; j += 4, p += 64, k += 64) {
    a = _mm256_add_epi32(a, madd256(p, k));
    b = _mm256_add_epi32(b, madd256(p + 32, k + 32));
  }
  if (j + 2 <= vectors) {
    a = _mm256_add_epi32(a, madd256(p, k));
    j += 2, p += 32, k += 32;
  }
  a = _mm256_add_epi32(a, b);
  __m128i sum = _mm_add_epi32(LO(a), HI(a));
  if (j < vectors) sum = _mm_add_epi32(sum, madd128(p, k));
  return sum;
}

AVX2 INLINE void horizontal3(const uint8_t* paired, intptr_t vectors, const uint8_t* weights,
                             const intptr_t* starts, intptr_t out_count, uint8_t* out, int clip, int paired_out) {
  for (intptr_t i = 0; i < out_count; i++) {
    __m128i v = window3(paired + starts[i] * 16, weights + i * vectors * 16, vectors);
    store_pixel(round4(v, clip), i, i == out_count - 1, out, paired_out);
  }
}

AVX2 void litevision_avx2_horizontal3(const void* paired, intptr_t vectors, const void* weights,
                                      const intptr_t* starts, intptr_t out_count, void* out, int clip,
                                      int paired_output) {
  // Constant flags, so that each case is compiled without branches in the pixel loop.
  if (clip) {
    if (paired_output) horizontal3(paired, vectors, weights, starts, out_count, out, 1, 1);
    else horizontal3(paired, vectors, weights, starts, out_count, out, 1, 0);
  } else {
    if (paired_output) horizontal3(paired, vectors, weights, starts, out_count, out, 0, 1);
    else horizontal3(paired, vectors, weights, starts, out_count, out, 0, 0);
  }
}

AVX2 INLINE void horizontal3x2(const uint8_t* paired_a, const uint8_t* paired_b, intptr_t vectors,
                               const uint8_t* weights, const intptr_t* starts, intptr_t out_count, uint8_t* out_a,
                               uint8_t* out_b, int clip, int paired_out) {
  intptr_t delta = paired_b - paired_a;
  for (intptr_t i = 0; i < out_count; i++) {
    __m128i va, vb;
    window3x2(paired_a + starts[i] * 16, delta, weights + i * vectors * 16, vectors, &va, &vb);
    int last = i == out_count - 1;
    store_pixel(round4(va, clip), i, last, out_a, paired_out);
    store_pixel(round4(vb, clip), i, last, out_b, paired_out);
  }
}

AVX2 void litevision_avx2_horizontal3x2(const void* paired_a, const void* paired_b, intptr_t vectors,
                                        const void* weights, const intptr_t* starts, intptr_t out_count,
                                        void* out_a, void* out_b, int clip, int paired_output) {
  if (clip) {
    if (paired_output) horizontal3x2(paired_a, paired_b, vectors, weights, starts, out_count, out_a, out_b, 1, 1);
    else horizontal3x2(paired_a, paired_b, vectors, weights, starts, out_count, out_a, out_b, 1, 0);
  } else {
    if (paired_output) horizontal3x2(paired_a, paired_b, vectors, weights, starts, out_count, out_a, out_b, 0, 1);
    else horizontal3x2(paired_a, paired_b, vectors, weights, starts, out_count, out_a, out_b, 0, 0);
  }
}

/// Eight 32-bit products of eight source bytes at `s` and eight plain 32-bit weights at `k` (the exact
/// `p * K` that pmaddwd makes of a paired vector: below 2^30, so vpmulld gives the same integers).
AVX2 INLINE __m256i mul8(const uint8_t* s, const uint8_t* k) {
  return _mm256_mullo_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i*)s)),
                            _mm256_loadu_si256((const __m256i*)k));
}

AVX2 INLINE __m128i mul4(const uint8_t* s, const uint8_t* k) {
  int32_t four;
  memcpy(&four, s, 4);
  return _mm_mullo_epi32(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(four)), _mm_loadu_si128((const __m128i*)k));
}

/// window3x2 reading the source bytes themselves (`s`: the window's first element in row A; row B is `delta`
/// bytes on) with plain weights: no paired row is written.
AVX2 INLINE void window3x2_bytes(const uint8_t* s, intptr_t delta, const uint8_t* k, intptr_t vectors,
                                 __m128i* out_a, __m128i* out_b) {
  __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a, e = a, f = a;
  intptr_t j = 0;
  for (; j + 6 <= vectors; j += 6, s += 24, k += 96) {
    a = _mm256_add_epi32(a, mul8(s, k));
    d = _mm256_add_epi32(d, mul8(s + delta, k));
    b = _mm256_add_epi32(b, mul8(s + 8, k + 32));
    e = _mm256_add_epi32(e, mul8(s + delta + 8, k + 32));
    c = _mm256_add_epi32(c, mul8(s + 16, k + 64));
    f = _mm256_add_epi32(f, mul8(s + delta + 16, k + 64));
  }
  intptr_t r = vectors - j;
  if (r >= 2) {
    a = _mm256_add_epi32(a, mul8(s, k));
    d = _mm256_add_epi32(d, mul8(s + delta, k));
  }
  if (r >= 4) {
    b = _mm256_add_epi32(b, mul8(s + 8, k + 32));
    e = _mm256_add_epi32(e, mul8(s + delta + 8, k + 32));
  }
  __m128i a0 = _mm_add_epi32(LO(a), HI(b)), a1 = _mm_add_epi32(HI(a), LO(c)), a2 = _mm_add_epi32(LO(b), HI(c));
  __m128i b0 = _mm_add_epi32(LO(d), HI(e)), b1 = _mm_add_epi32(HI(d), LO(f)), b2 = _mm_add_epi32(LO(e), HI(f));
  if (r & 1) {
    __m128i x = mul4(s + (r - 1) * 4, k + (r - 1) * 16), y = mul4(s + delta + (r - 1) * 4, k + (r - 1) * 16);
    if (r == 1) {
      a0 = _mm_add_epi32(a0, x);
      b0 = _mm_add_epi32(b0, y);
    } else if (r == 3) {
      a2 = _mm_add_epi32(a2, x);
      b2 = _mm_add_epi32(b2, y);
    } else {
      a1 = _mm_add_epi32(a1, x);
      b1 = _mm_add_epi32(b1, y);
    }
  }
  *out_a = channels3(a0, a1, a2);
  *out_b = channels3(b0, b1, b2);
}

AVX2 INLINE void horizontal3x2_bytes(const uint8_t* row_a, const uint8_t* row_b, intptr_t vectors,
                                     const uint8_t* weights, const intptr_t* starts, intptr_t out_count,
                                     uint8_t* out_a, uint8_t* out_b, int clip, int paired_out) {
  intptr_t delta = row_b - row_a;
  for (intptr_t i = 0; i < out_count; i++) {
    __m128i va, vb;
    window3x2_bytes(row_a + starts[i] * 4, delta, weights + i * vectors * 16, vectors, &va, &vb);
    int last = i == out_count - 1;
    store_pixel(round4(va, clip), i, last, out_a, paired_out);
    store_pixel(round4(vb, clip), i, last, out_b, paired_out);
  }
}

AVX2 void litevision_avx2_horizontal3x2_bytes(const uint8_t* row_a, const uint8_t* row_b, intptr_t vectors,
                                              const void* weights, const intptr_t* starts, intptr_t out_count,
                                              void* out_a, void* out_b, int clip, int paired_output) {
  if (clip) {
    if (paired_output) horizontal3x2_bytes(row_a, row_b, vectors, weights, starts, out_count, out_a, out_b, 1, 1);
    else horizontal3x2_bytes(row_a, row_b, vectors, weights, starts, out_count, out_a, out_b, 1, 0);
  } else {
    if (paired_output) horizontal3x2_bytes(row_a, row_b, vectors, weights, starts, out_count, out_a, out_b, 0, 1);
    else horizontal3x2_bytes(row_a, row_b, vectors, weights, starts, out_count, out_a, out_b, 0, 0);
  }
}

/// window3x2_bytes for four rows `stride` bytes apart: each weight load serves four rows (the 111 KB weight
/// table of a 12 MP → 224 resize lives in L2, so its loads are what the two-row loop waits on).
AVX2 INLINE void window3x4_bytes(const uint8_t* s, intptr_t stride, const uint8_t* k, intptr_t vectors,
                                 __m128i out[4]) {
  __m256i acc[4][3];
  for (int r = 0; r < 4; r++) acc[r][0] = acc[r][1] = acc[r][2] = _mm256_setzero_si256();
  intptr_t j = 0;
  for (; j + 6 <= vectors; j += 6, s += 24, k += 96) {
    for (int v = 0; v < 3; v++) {
      __m256i w = _mm256_loadu_si256((const __m256i*)(k + 32 * v));
      for (int r = 0; r < 4; r++) {
        __m256i d = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i*)(s + r * stride + 8 * v)));
        acc[r][v] = _mm256_add_epi32(acc[r][v], _mm256_mullo_epi32(d, w));
      }
    }
  }
  intptr_t rest = vectors - j;
  for (int v = 0; v < 2; v++) {
    if (rest < 2 * (v + 1)) break;
    __m256i w = _mm256_loadu_si256((const __m256i*)(k + 32 * v));
    for (int r = 0; r < 4; r++) {
      __m256i d = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i*)(s + r * stride + 8 * v)));
      acc[r][v] = _mm256_add_epi32(acc[r][v], _mm256_mullo_epi32(d, w));
    }
  }
  for (int r = 0; r < 4; r++) {
    __m256i a = acc[r][0], b = acc[r][1], c = acc[r][2];
    __m128i a0 = _mm_add_epi32(LO(a), HI(b)), a1 = _mm_add_epi32(HI(a), LO(c)), a2 = _mm_add_epi32(LO(b), HI(c));
    if (rest & 1) {
      __m128i x = mul4(s + r * stride + (rest - 1) * 4, k + (rest - 1) * 16);
      if (rest == 1) a0 = _mm_add_epi32(a0, x);
      else if (rest == 3) a2 = _mm_add_epi32(a2, x);
      else a1 = _mm_add_epi32(a1, x);
    }
    out[r] = channels3(a0, a1, a2);
  }
}

AVX2 INLINE void horizontal3x4_bytes(const uint8_t* row, intptr_t stride, intptr_t vectors, const uint8_t* weights,
                                     const intptr_t* starts, intptr_t out_count, uint8_t* const* outs, int clip,
                                     int paired_out) {
  uint8_t *o0 = outs[0], *o1 = outs[1], *o2 = outs[2], *o3 = outs[3];
  for (intptr_t i = 0; i < out_count; i++) {
    __m128i v[4];
    window3x4_bytes(row + starts[i] * 4, stride, weights + i * vectors * 16, vectors, v);
    int last = i == out_count - 1;
    store_pixel(round4(v[0], clip), i, last, o0, paired_out);
    store_pixel(round4(v[1], clip), i, last, o1, paired_out);
    store_pixel(round4(v[2], clip), i, last, o2, paired_out);
    store_pixel(round4(v[3], clip), i, last, o3, paired_out);
  }
}

AVX2 void litevision_avx2_horizontal3x4_bytes(const uint8_t* row, intptr_t stride, intptr_t vectors,
                                              const void* weights, const intptr_t* starts, intptr_t out_count,
                                              void* const* outs, int clip, int paired_output) {
  uint8_t* const* o = (uint8_t* const*)outs;
  if (clip) {
    if (paired_output) horizontal3x4_bytes(row, stride, vectors, weights, starts, out_count, o, 1, 1);
    else horizontal3x4_bytes(row, stride, vectors, weights, starts, out_count, o, 1, 0);
  } else {
    if (paired_output) horizontal3x4_bytes(row, stride, vectors, weights, starts, out_count, o, 0, 1);
    else horizontal3x4_bytes(row, stride, vectors, weights, starts, out_count, o, 0, 0);
  }
}

AVX2 void litevision_avx2_horizontal4(const void* paired, intptr_t vectors, const void* weights,
                                      const intptr_t* starts, intptr_t out_count, void* out, int clip,
                                      int paired_output, int bgra) {
  const uint8_t* p = paired;
  const uint8_t* k = weights;
  for (intptr_t i = 0; i < out_count; i++) {
    __m128i v = window4(p + starts[i] * 16, k + i * vectors * 16, vectors);
    if (bgra) v = _mm_shuffle_epi32(v, _MM_SHUFFLE(3, 0, 1, 2));
    store_pixel(round4(v, clip), i, i == out_count - 1, out, paired_output);
  }
}

AVX2 void litevision_avx2_horizontal1(const void* paired, intptr_t vectors, const void* weights,
                                      const intptr_t* starts, intptr_t out_count, void* out, int clip,
                                      int paired_output) {
  const uint8_t* p = paired;
  const uint8_t* k = weights;
  for (intptr_t i = 0; i < out_count; i++) {
    __m128i v = window4(p + starts[i] * 16, k + i * vectors * 16, vectors);
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));  // the wrapped sum in every lane
    store_pixel(round4(v, clip), i, i == out_count - 1, out, paired_output);
  }
}

AVX2 void litevision_avx2_pair_row(const uint8_t* source, intptr_t count, void* paired) {
  uint8_t* out = paired;
  intptr_t i = 0;
  for (; i + 16 <= count; i += 16) {
    __m128i bytes = _mm_loadu_si128((const __m128i*)(source + i));
    __m256i lo = _mm256_cvtepu8_epi32(bytes), hi = _mm256_cvtepu8_epi32(_mm_srli_si128(bytes, 8));
    _mm256_storeu_si256((__m256i*)(out + i * 4), _mm256_or_si256(lo, _mm256_slli_epi32(lo, 23)));
    _mm256_storeu_si256((__m256i*)(out + i * 4 + 32), _mm256_or_si256(hi, _mm256_slli_epi32(hi, 23)));
  }
  for (; i < count; i++) {
    uint32_t d = source[i];
    d |= d << 23;
    memcpy(out + i * 4, &d, 4);
  }
}

/// 32 output bytes of the paired vertical pass at element `at`.
AVX2 INLINE void vertical_paired32(const void* const* rows, const uint8_t* pairs, intptr_t taps, intptr_t at,
                                   uint8_t* out, int clip) {
  __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
  intptr_t offset = at * 4;
  for (intptr_t t = 0; t < taps; t++) {
    const uint8_t* r = (const uint8_t*)rows[t] + offset;
    __m256i k = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i*)(pairs + t * 16)));
    a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)r), k));
    a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(r + 32)), k));
    a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(r + 64)), k));
    a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(r + 96)), k));
  }
  // Every value is 0 ... 255 (see UnclippedRounding), so the saturating packs are the truncation of the
  // Swift kernel. The packs work within 128-bit halves; the permutation restores the element order.
  __m256i w01 = _mm256_packus_epi32(round8(a0, clip), round8(a1, clip));
  __m256i w23 = _mm256_packus_epi32(round8(a2, clip), round8(a3, clip));
  __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(w01, w23), _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
  _mm256_storeu_si256((__m256i*)(out + at), bytes);
}

/// 16 output bytes of the paired vertical pass at element `at`.
AVX2 INLINE void vertical_paired16(const void* const* rows, const uint8_t* pairs, intptr_t taps, intptr_t at,
                                   uint8_t* out, int clip) {
  __m256i a0 = _mm256_setzero_si256(), a1 = a0;
  intptr_t offset = at * 4;
  for (intptr_t t = 0; t < taps; t++) {
    const uint8_t* r = (const uint8_t*)rows[t] + offset;
    __m256i k = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i*)(pairs + t * 16)));
    a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)r), k));
    a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(r + 32)), k));
  }
  __m256i w = _mm256_packus_epi32(round8(a0, clip), round8(a1, clip));  // 0-3 8-11 | 4-7 12-15
  w = _mm256_permute4x64_epi64(w, _MM_SHUFFLE(3, 1, 2, 0));
  _mm_storeu_si128((__m128i*)(out + at), _mm_packus_epi16(LO(w), HI(w)));
}

AVX2 INLINE void vertical_paired(const void* const* rows, const uint8_t* pairs, intptr_t taps, intptr_t count,
                                 uint8_t* out, int clip) {
  if (count < 32) {
    for (intptr_t x = 0; x < count; x += 16) vertical_paired16(rows, pairs, taps, x < count - 16 ? x : count - 16, out, clip);
    return;
  }
  for (intptr_t x = 0; x < count; x += 32) vertical_paired32(rows, pairs, taps, x < count - 32 ? x : count - 32, out, clip);
}

AVX2 void litevision_avx2_vertical_paired(const void* const* rows, const void* pairs, intptr_t taps, intptr_t count,
                                          uint8_t* out, int clip) {
  if (clip) vertical_paired(rows, pairs, taps, count, out, 1);
  else vertical_paired(rows, pairs, taps, count, out, 0);
}

/// 16 output bytes of the byte-row vertical pass at element `at` (VerticalKernel.chunk16).
AVX2 INLINE void vertical_bytes16(const uint8_t* const* rows, const uint8_t* pairs, intptr_t taps, intptr_t at,
                                  uint8_t* out) {
  __m256i h_lo = _mm256_setzero_si256(), h_hi = h_lo, l_lo = h_lo, l_hi = h_lo;
  for (intptr_t t = 0; t < taps; t += 2, pairs += 32) {
    __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i*)(rows[t] + at)));
    __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i*)(rows[t + 1 < taps ? t + 1 : t] + at)));
    __m256i lo = _mm256_unpacklo_epi16(a, b);  // (a, b) pairs of elements 0-3 | 8-11
    __m256i hi = _mm256_unpackhi_epi16(a, b);  // 4-7 | 12-15
    __m256i kh = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i*)pairs));
    __m256i kl = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i*)(pairs + 16)));
    h_lo = _mm256_add_epi32(h_lo, _mm256_madd_epi16(lo, kh));
    l_lo = _mm256_add_epi32(l_lo, _mm256_madd_epi16(lo, kl));
    h_hi = _mm256_add_epi32(h_hi, _mm256_madd_epi16(hi, kh));
    l_hi = _mm256_add_epi32(l_hi, _mm256_madd_epi16(hi, kl));
  }
  __m256i v_lo = round8(_mm256_add_epi32(_mm256_slli_epi32(h_lo, 11), l_lo), 1);
  __m256i v_hi = round8(_mm256_add_epi32(_mm256_slli_epi32(h_hi, 11), l_hi), 1);
  __m256i w = _mm256_packus_epi32(v_lo, v_hi);  // elements 0-7 | 8-15
  _mm_storeu_si128((__m128i*)(out + at), _mm_packus_epi16(LO(w), HI(w)));
}

/// Chunks of 16 bytes that the many-tap vertical pass sums together, taps outermost.
enum { STRIP_CHUNKS = 16 };

/// The vertical pass for windows of many rows: strips of up to STRIP_CHUNKS × 16 bytes, summed one pair of rows
/// at a time into accumulators that stay in the first-level cache. Reading two rows at a time, rather than every
/// row of the window at each position, keeps the loads from falling into the same cache set when the row
/// stride is a multiple of 4096 bytes (a 4096-pixel-wide RGB photo) and lets the prefetcher follow them. The
/// sums are the same integers as vertical_bytes16's: (Σ high << 11) + Σ low = Σ ((high << 11) + low).
AVX2 static void vertical_bytes_strips(const uint8_t* const* rows, const uint8_t* pairs, intptr_t taps,
                                       intptr_t count, uint8_t* out) {
  __m256i acc[STRIP_CHUNKS][2];
  for (intptr_t x0 = 0; x0 < count; x0 += STRIP_CHUNKS * 16) {
    intptr_t chunks = (count - x0 + 15) / 16;
    if (chunks > STRIP_CHUNKS) chunks = STRIP_CHUNKS;
    for (intptr_t c = 0; c < chunks; c++) acc[c][0] = acc[c][1] = _mm256_setzero_si256();
    const uint8_t* k = pairs;
    for (intptr_t t = 0; t < taps; t += 2, k += 32) {
      const uint8_t* ra = rows[t];
      const uint8_t* rb = rows[t + 1 < taps ? t + 1 : t];
      __m256i kh = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i*)k));
      __m256i kl = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i*)(k + 16)));
      for (intptr_t c = 0; c < chunks; c++) {
        intptr_t at = x0 + c * 16 < count - 16 ? x0 + c * 16 : count - 16;
        __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i*)(ra + at)));
        __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i*)(rb + at)));
        __m256i lo = _mm256_unpacklo_epi16(a, b);
        __m256i hi = _mm256_unpackhi_epi16(a, b);
        acc[c][0] = _mm256_add_epi32(
            acc[c][0], _mm256_add_epi32(_mm256_slli_epi32(_mm256_madd_epi16(lo, kh), 11), _mm256_madd_epi16(lo, kl)));
        acc[c][1] = _mm256_add_epi32(
            acc[c][1], _mm256_add_epi32(_mm256_slli_epi32(_mm256_madd_epi16(hi, kh), 11), _mm256_madd_epi16(hi, kl)));
      }
    }
    for (intptr_t c = 0; c < chunks; c++) {
      intptr_t at = x0 + c * 16 < count - 16 ? x0 + c * 16 : count - 16;
      __m256i w = _mm256_packus_epi32(round8(acc[c][0], 1), round8(acc[c][1], 1));
      _mm_storeu_si128((__m128i*)(out + at), _mm_packus_epi16(LO(w), HI(w)));
    }
  }
}

AVX2 void litevision_avx2_vertical_bytes(const uint8_t* const* rows, const void* pairs, intptr_t taps, intptr_t count,
                                         uint8_t* out) {
  if (taps > 8) {
    vertical_bytes_strips(rows, pairs, taps, count, out);
    return;
  }
  for (intptr_t x = 0; x < count; x += 16) vertical_bytes16(rows, pairs, taps, x < count - 16 ? x : count - 16, out);
}

#else  // not x86-64: litevision_cpu_has_avx2() is 0 and nothing calls these.

void litevision_avx2_pair_row(const uint8_t* source, intptr_t count, void* paired) { __builtin_trap(); }
void litevision_avx2_horizontal3(const void* paired, intptr_t vectors, const void* weights, const intptr_t* starts,
                                 intptr_t out_count, void* out, int clip, int paired_output) {
  __builtin_trap();
}
void litevision_avx2_horizontal3x2(const void* paired_a, const void* paired_b, intptr_t vectors, const void* weights,
                                   const intptr_t* starts, intptr_t out_count, void* out_a, void* out_b, int clip,
                                   int paired_output) {
  __builtin_trap();
}
void litevision_avx2_horizontal4(const void* paired, intptr_t vectors, const void* weights, const intptr_t* starts,
                                 intptr_t out_count, void* out, int clip, int paired_output, int bgra) {
  __builtin_trap();
}
void litevision_avx2_horizontal3x2_bytes(const uint8_t* row_a, const uint8_t* row_b, intptr_t vectors,
                                         const void* weights, const intptr_t* starts, intptr_t out_count, void* out_a,
                                         void* out_b, int clip, int paired_output) {
  __builtin_trap();
}
void litevision_avx2_horizontal3x4_bytes(const uint8_t* row, intptr_t stride, intptr_t vectors, const void* weights,
                                         const intptr_t* starts, intptr_t out_count, void* const* outs, int clip,
                                         int paired_output) {
  __builtin_trap();
}
void litevision_avx2_horizontal1(const void* paired, intptr_t vectors, const void* weights, const intptr_t* starts,
                                 intptr_t out_count, void* out, int clip, int paired_output) {
  __builtin_trap();
}
void litevision_avx2_vertical_paired(const void* const* rows, const void* pairs, intptr_t taps, intptr_t count,
                                     uint8_t* out, int clip) {
  __builtin_trap();
}
void litevision_avx2_vertical_bytes(const uint8_t* const* rows, const void* pairs, intptr_t taps, intptr_t count,
                                    uint8_t* out) {
  __builtin_trap();
}

#endif
