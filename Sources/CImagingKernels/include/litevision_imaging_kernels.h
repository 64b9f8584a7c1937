// AVX2 forms of LiteVisionImaging's resampling kernels, and the CPU check that decides whether they run.
//
// Every function here computes exactly the integers of its SSE2 Swift counterpart in
// Sources/LiteVisionImaging/Resampling (named on each function), only with 256-bit vectors: the output is
// bit-identical. They are compiled for AVX2 one function at a time (`__attribute__((target("avx2")))`), so
// the rest of the program keeps the baseline x86-64 target; call them only when
// `litevision_cpu_has_avx2()` returns 1. On other architectures they are absent in effect: the check returns 0
// and the functions trap.
#ifndef LITEVISION_IMAGING_KERNELS_H
#define LITEVISION_IMAGING_KERNELS_H

#include <stdint.h>

/// 1 when the processor has AVX2 and the operating system saves the 256-bit registers (cpuid and xgetbv),
/// else 0. Cheap, but callers keep the answer.
int litevision_cpu_has_avx2(void);

/// HorizontalKernel.pairRow: `paired[i] = p | p << 23` (32 bits) for the `count` bytes `p` at `source`.
void litevision_avx2_pair_row(const uint8_t* _Nonnull source, intptr_t count, void* _Nonnull paired);

/// HorizontalKernel.row3 (three elements per pixel): `out_count` pixels of one paired row.
/// `weights` holds `vectors` 16-byte weight vectors per output pixel, `starts` the first 16-byte vector of
/// each pixel's window. `clip` selects ClippedRounding (else UnclippedRounding); `paired_output` selects
/// PairedSink (16 bytes at a 12-byte pitch) over ByteSink (3 bytes per pixel).
void litevision_avx2_horizontal3(const void* _Nonnull paired, intptr_t vectors, const void* _Nonnull weights,
                                 const intptr_t* _Nonnull starts, intptr_t out_count, void* _Nonnull out, int clip,
                                 int paired_output);

/// HorizontalKernel.row3x2: litevision_avx2_horizontal3 for two paired rows sharing the weight loads.
void litevision_avx2_horizontal3x2(const void* _Nonnull paired_a, const void* _Nonnull paired_b, intptr_t vectors,
                                   const void* _Nonnull weights, const intptr_t* _Nonnull starts,
                                   intptr_t out_count, void* _Nonnull out_a, void* _Nonnull out_b, int clip,
                                   int paired_output);

/// litevision_avx2_horizontal3x2 straight from two source rows of RGB bytes (`row_b` any distance from
/// `row_a`), with `weights` holding the plain 32-bit weight of each lane (HorizontalTable.plainWeights)
/// instead of pmaddwd pairs: no paired row is made. Reads each row up to element `4 * (starts[i] + vectors)`
/// for every pixel `i` (past the row's end, with zero weights; the memory must be readable).
void litevision_avx2_horizontal3x2_bytes(const uint8_t* _Nonnull row_a, const uint8_t* _Nonnull row_b,
                                         intptr_t vectors, const void* _Nonnull weights,
                                         const intptr_t* _Nonnull starts, intptr_t out_count, void* _Nonnull out_a,
                                         void* _Nonnull out_b, int clip, int paired_output);

/// litevision_avx2_horizontal3x2_bytes for the four rows at `row`, `row + stride`, `row + 2 * stride`,
/// `row + 3 * stride`, into `outs[0]` ... `outs[3]`: each weight load serves four rows.
void litevision_avx2_horizontal3x4_bytes(const uint8_t* _Nonnull row, intptr_t stride, intptr_t vectors,
                                         const void* _Nonnull weights, const intptr_t* _Nonnull starts,
                                         intptr_t out_count, void* _Nonnull const* _Nonnull outs, int clip,
                                         int paired_output);

/// HorizontalKernel.row4 (four elements per pixel, alpha weighted zero); `bgra` swaps lanes 0 and 2.
void litevision_avx2_horizontal4(const void* _Nonnull paired, intptr_t vectors, const void* _Nonnull weights,
                                 const intptr_t* _Nonnull starts, intptr_t out_count, void* _Nonnull out, int clip,
                                 int paired_output, int bgra);

/// HorizontalKernel.row1 (gray, replicated into R, G, B).
void litevision_avx2_horizontal1(const void* _Nonnull paired, intptr_t vectors, const void* _Nonnull weights,
                                 const intptr_t* _Nonnull starts, intptr_t out_count, void* _Nonnull out, int clip,
                                 int paired_output);

/// VerticalPairedKernel.resampleRow for `count` >= 16: `taps` paired rows (`rows`), the per-tap weight
/// vectors `pairs` (16 bytes each) from VerticalPairedKernel.prepareWeights, `count` output bytes.
void litevision_avx2_vertical_paired(const void* _Nonnull const* _Nonnull rows, const void* _Nonnull pairs,
                                     intptr_t taps, intptr_t count, uint8_t* _Nonnull out, int clip);

/// VerticalKernel.resampleRow for `count` >= 16: `taps` byte rows, the weight vectors `pairs` (high parts
/// then low parts per pair of taps) from VerticalKernel.prepareWeights, `count` output bytes (always clipped).
void litevision_avx2_vertical_bytes(const uint8_t* _Nonnull const* _Nonnull rows, const void* _Nonnull pairs,
                                    intptr_t taps, intptr_t count, uint8_t* _Nonnull out);

/// YUVRowKernel.convertRow: the first `width / 16 * 16` pixels of one row of 4:2:0 YCbCr to RGB8 at `out`;
/// returns how many pixels it converted (the caller converts the rest). `layout` 0: planar, `chroma0` the
/// Cb row and `chroma1` the Cr row (I420); 1: one interleaved plane, Cb first (NV12); 2: Cr first (NV21),
/// `chroma0` the plane row and `chroma1` unused. `coefficients`: luma, bias, red Cr, green Cb, green Cr,
/// blue Cb (YUVCoefficients, 13 fractional bits).
intptr_t litevision_avx2_yuv420_row(const uint8_t* _Nonnull y, const uint8_t* _Nonnull chroma0,
                                    const uint8_t* _Nonnull chroma1, int layout, intptr_t width,
                                    const int32_t* _Nonnull coefficients, uint8_t* _Nonnull out);

#endif
