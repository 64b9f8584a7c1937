import CImagingKernels

/// The vector instruction set the resampling kernels run with.
///
/// The Swift kernels use SSE2 (the baseline of x86-64, on every processor Swift runs on); the AVX2 forms of
/// the same kernels live in the `CImagingKernels` C target, compiled for AVX2 function by function, and
/// compute exactly the same integers. ``best`` picks AVX2 when the processor and the operating system
/// support it, checked once per process; tests pass ``sse2`` to force the fallback.
enum InstructionSet: Sendable, Equatable {
    /// The Swift SIMD kernels (SSE2 on x86-64; whatever the target's baseline is elsewhere).
    case sse2
    /// The AVX2 kernels of `CImagingKernels`.
    case avx2

    /// The fastest set this machine runs (`cpuid` and `xgetbv`, read once).
    static let best: InstructionSet = litevision_cpu_has_avx2() != 0 ? .avx2 : .sse2

    /// `self`, or ``sse2`` when this machine cannot run it.
    var available: InstructionSet { self == .avx2 && InstructionSet.best != .avx2 ? .sse2 : self }
}
