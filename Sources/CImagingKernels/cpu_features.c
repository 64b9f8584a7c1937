// litevision_cpu_has_avx2: cpuid for the instruction set, xgetbv for the operating system's support of the
// 256-bit registers (an AVX2 processor under a kernel that does not save them must not run AVX2 code).
#include "litevision_imaging_kernels.h"

#if defined(__x86_64__)
#include <cpuid.h>

int litevision_cpu_has_avx2(void) {
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
  const unsigned int osxsave = 1u << 27, avx = 1u << 28;
  if ((ecx & osxsave) == 0 || (ecx & avx) == 0) return 0;
  unsigned int xcr0_low, xcr0_high;
  __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
  if ((xcr0_low & 6) != 6) return 0;  // XMM and YMM state enabled by the OS
  if (__get_cpuid_max(0, 0) < 7) return 0;
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  return (ebx >> 5) & 1;
}

#else

int litevision_cpu_has_avx2(void) { return 0; }

#endif
