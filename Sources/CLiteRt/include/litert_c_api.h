// Declarations of the part of the LiteRT C API ("CompiledModel" API of libLiteRt.so) that LiteVision
// uses, written for this project from the public documentation of google-ai-edge/LiteRT `litert/c/`.
// The runtime is not linked: litevision_litert_load() dlopen()s it and fills a table of function
// pointers, so the package builds where the runtime is not installed and a missing runtime becomes a
// readable error instead of a loader failure.
//
// Pinned ABI: ai-edge-litert 2.3.0 (model creation takes a leading LiteRtEnvironment since 2.1.6).
#ifndef LITEVISION_LITERT_C_API_H
#define LITEVISION_LITERT_C_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t LiteRtStatus;  // 0 = ok; the error codes are named in Swift (LiteRTError).

typedef struct LiteRtEnvironmentT* LiteRtEnvironment;
typedef struct LiteRtModelT* LiteRtModel;
typedef struct LiteRtSignatureT* LiteRtSignature;
typedef struct LiteRtTensorT* LiteRtTensor;
typedef struct LiteRtOptionsT* LiteRtOptions;
typedef struct LiteRtOpaqueOptionsT* LiteRtOpaqueOptions;
typedef struct LiteRtCompiledModelT* LiteRtCompiledModel;
typedef struct LiteRtTensorBufferT* LiteRtTensorBuffer;
typedef struct LiteRtTensorBufferRequirementsT* LiteRtTensorBufferRequirements;
typedef size_t LiteRtParamIndex;

// LiteRtAny: a type tag, then an 8-byte union at offset 8 (16 bytes).
enum { kLiteVisionAnyTypeInt = 2 };
typedef struct {
  int32_t type;
  union {
    bool bool_value;
    int64_t int_value;
    double real_value;
    const char* _Nullable str_value;
    const void* _Nullable ptr_value;
  } value;
} LiteRtAny;

// LiteRtEnvOption: tag, then LiteRtAny at offset 8 (24 bytes).
enum {
  kLiteVisionEnvOptionAutoRegisterAccelerators = 24,
  kLiteVisionEnvOptionMinLoggerSeverity = 25,
};
typedef struct {
  int32_t tag;
  LiteRtAny value;
} LiteRtEnvOption;

#define LITEVISION_LITERT_MAX_RANK 8
// LiteRtLayout: rank (7 bits) and has_strides (1 bit) share one 32-bit word.
typedef struct {
  unsigned int rank : 7;
  unsigned int has_strides : 1;
  int32_t dimensions[LITEVISION_LITERT_MAX_RANK];
  uint32_t strides[LITEVISION_LITERT_MAX_RANK];
} LiteRtLayout;

// Element types use TFLite's TfLiteType numbering (Float32 1, Int32 2, UInt8 3, ...).
typedef struct {
  int32_t element_type;
  LiteRtLayout layout;
} LiteRtRankedTensorType;

enum { kLiteVisionQuantizationPerTensor = 1 };
typedef struct {
  float scale;
  int64_t zero_point;
} LiteRtQuantizationPerTensor;

enum {
  kLiteVisionHwAcceleratorCpu = 1,
  kLiteVisionLockModeRead = 0,
  kLiteVisionLockModeWrite = 1,
  kLiteVisionTensorBufferTypeHostMemory = 1,
};

_Static_assert(sizeof(LiteRtAny) == 16, "LiteRtAny layout");
_Static_assert(offsetof(LiteRtAny, value) == 8, "LiteRtAny layout");
_Static_assert(sizeof(LiteRtEnvOption) == 24, "LiteRtEnvOption layout");
_Static_assert(offsetof(LiteRtEnvOption, value) == 8, "LiteRtEnvOption layout");
_Static_assert(sizeof(LiteRtLayout) == 68, "LiteRtLayout layout");
_Static_assert(offsetof(LiteRtLayout, dimensions) == 4, "LiteRtLayout layout");
_Static_assert(offsetof(LiteRtLayout, strides) == 36, "LiteRtLayout layout");
_Static_assert(sizeof(LiteRtRankedTensorType) == 72, "LiteRtRankedTensorType layout");
_Static_assert(offsetof(LiteRtRankedTensorType, layout) == 4, "LiteRtRankedTensorType layout");
_Static_assert(sizeof(LiteRtQuantizationPerTensor) == 16, "LiteRtQuantizationPerTensor layout");
_Static_assert(offsetof(LiteRtQuantizationPerTensor, zero_point) == 8, "LiteRtQuantizationPerTensor layout");

/// The functions LiteVision calls, resolved with dlsym. Every pointer is non-null once loaded.
typedef struct {
  LiteRtStatus (*_Nonnull CreateEnvironment)(int num_options, const LiteRtEnvOption* _Nullable options,
                                             LiteRtEnvironment _Nullable* _Nonnull environment);
  void (*_Nonnull DestroyEnvironment)(LiteRtEnvironment _Nonnull environment);

  LiteRtStatus (*_Nonnull CreateModelFromFile)(LiteRtEnvironment _Nonnull environment,
                                               const char* _Nonnull filename,
                                               LiteRtModel _Nullable* _Nonnull model);
  LiteRtStatus (*_Nonnull CreateModelFromBuffer)(LiteRtEnvironment _Nonnull environment,
                                                 const void* _Nonnull buffer, size_t size,
                                                 LiteRtModel _Nullable* _Nonnull model);
  void (*_Nonnull DestroyModel)(LiteRtModel _Nonnull model);
  LiteRtStatus (*_Nonnull GetNumModelSignatures)(LiteRtModel _Nonnull model, LiteRtParamIndex* _Nonnull count);
  LiteRtStatus (*_Nonnull GetModelSignature)(LiteRtModel _Nonnull model, LiteRtParamIndex index,
                                             LiteRtSignature _Nullable* _Nonnull signature);
  LiteRtStatus (*_Nonnull GetNumSignatureInputs)(LiteRtSignature _Nonnull signature,
                                                 LiteRtParamIndex* _Nonnull count);
  LiteRtStatus (*_Nonnull GetNumSignatureOutputs)(LiteRtSignature _Nonnull signature,
                                                  LiteRtParamIndex* _Nonnull count);
  LiteRtStatus (*_Nonnull GetSignatureInputTensorByIndex)(LiteRtSignature _Nonnull signature,
                                                          LiteRtParamIndex index,
                                                          LiteRtTensor _Nullable* _Nonnull tensor);
  LiteRtStatus (*_Nonnull GetSignatureOutputTensorByIndex)(LiteRtSignature _Nonnull signature,
                                                           LiteRtParamIndex index,
                                                           LiteRtTensor _Nullable* _Nonnull tensor);
  LiteRtStatus (*_Nonnull GetTensorName)(LiteRtTensor _Nonnull tensor, const char* _Nullable* _Nonnull name);
  LiteRtStatus (*_Nonnull GetRankedTensorType)(LiteRtTensor _Nonnull tensor,
                                               LiteRtRankedTensorType* _Nonnull type);
  LiteRtStatus (*_Nonnull GetQuantizationTypeId)(LiteRtTensor _Nonnull tensor, int32_t* _Nonnull type_id);
  LiteRtStatus (*_Nonnull GetPerTensorQuantization)(LiteRtTensor _Nonnull tensor,
                                                    LiteRtQuantizationPerTensor* _Nonnull quantization);

  LiteRtStatus (*_Nonnull CreateOptions)(LiteRtOptions _Nullable* _Nonnull options);
  void (*_Nonnull DestroyOptions)(LiteRtOptions _Nonnull options);
  LiteRtStatus (*_Nonnull SetOptionsHardwareAccelerators)(LiteRtOptions _Nonnull options, int accelerators);
  LiteRtStatus (*_Nonnull CreateOpaqueOptions)(const char* _Nonnull identifier, void* _Nullable payload,
                                               void (*_Nullable destructor)(void* _Nullable),
                                               LiteRtOpaqueOptions _Nullable* _Nonnull options);
  void (*_Nonnull DestroyOpaqueOptions)(LiteRtOpaqueOptions _Nonnull options);
  LiteRtStatus (*_Nonnull AddOpaqueOptions)(LiteRtOptions _Nonnull options, LiteRtOpaqueOptions _Nonnull opaque);

  LiteRtStatus (*_Nonnull CreateCompiledModel)(LiteRtEnvironment _Nonnull environment, LiteRtModel _Nonnull model,
                                               LiteRtOptions _Nullable options,
                                               LiteRtCompiledModel _Nullable* _Nonnull compiled);
  void (*_Nonnull DestroyCompiledModel)(LiteRtCompiledModel _Nonnull compiled);
  LiteRtStatus (*_Nonnull GetCompiledModelInputBufferRequirements)(
      LiteRtCompiledModel _Nonnull compiled, LiteRtParamIndex signature, LiteRtParamIndex input,
      LiteRtTensorBufferRequirements _Nullable* _Nonnull requirements);
  LiteRtStatus (*_Nonnull GetCompiledModelOutputBufferRequirements)(
      LiteRtCompiledModel _Nonnull compiled, LiteRtParamIndex signature, LiteRtParamIndex output,
      LiteRtTensorBufferRequirements _Nullable* _Nonnull requirements);
  LiteRtStatus (*_Nonnull GetCompiledModelOutputTensorLayouts)(LiteRtCompiledModel _Nonnull compiled,
                                                               LiteRtParamIndex signature, size_t num_layouts,
                                                               LiteRtLayout* _Nonnull layouts, bool update_allocation);
  LiteRtStatus (*_Nonnull RunCompiledModel)(LiteRtCompiledModel _Nonnull compiled, LiteRtParamIndex signature,
                                            size_t num_inputs, LiteRtTensorBuffer _Nonnull* _Nullable inputs,
                                            size_t num_outputs, LiteRtTensorBuffer _Nonnull* _Nullable outputs);

  LiteRtStatus (*_Nonnull CreateManagedTensorBufferFromRequirements)(
      LiteRtEnvironment _Nonnull environment, const LiteRtRankedTensorType* _Nonnull type,
      LiteRtTensorBufferRequirements _Nonnull requirements, LiteRtTensorBuffer _Nullable* _Nonnull buffer);
  LiteRtStatus (*_Nonnull CreateManagedTensorBuffer)(LiteRtEnvironment _Nonnull environment, int32_t buffer_type,
                                                     const LiteRtRankedTensorType* _Nonnull type, size_t size,
                                                     LiteRtTensorBuffer _Nullable* _Nonnull buffer);
  void (*_Nonnull DestroyTensorBuffer)(LiteRtTensorBuffer _Nonnull buffer);
  LiteRtStatus (*_Nonnull GetTensorBufferSize)(LiteRtTensorBuffer _Nonnull buffer, size_t* _Nonnull size);
  LiteRtStatus (*_Nonnull LockTensorBuffer)(LiteRtTensorBuffer _Nonnull buffer, void* _Nullable* _Nonnull address,
                                            int32_t lock_mode);
  LiteRtStatus (*_Nonnull UnlockTensorBuffer)(LiteRtTensorBuffer _Nonnull buffer);

  // Called by the runtime between operators, in every subgraph: returning true stops the run with
  // kLiteRtStatusCancelled (100). Used for the inference deadline.
  LiteRtStatus (*_Nonnull SetCompiledModelCancellationFunction)(LiteRtCompiledModel _Nonnull compiled,
                                                                void* _Nullable data,
                                                                bool (*_Nonnull check)(void* _Nullable data));

  // Present only from 2.1.6 on, when model creation gained its environment parameter: the guard
  // against older runtimes whose signatures differ silently.
  LiteRtStatus (*_Nonnull CreateModelFromFd)(LiteRtEnvironment _Nonnull environment, int fd, size_t offset,
                                             size_t size, LiteRtModel _Nullable* _Nonnull model);
} LiteVisionLiteRtApi;

/// Opens the shared library at `path` and resolves every function of the table.
/// Returns the table (valid for the life of the process: the library is never closed), or NULL with a
/// message in `error` (the dlopen error, or the first missing symbol).
const LiteVisionLiteRtApi* _Nullable litevision_litert_load(const char* _Nonnull path, char* _Nonnull error,
                                                            size_t error_capacity);

/// The rank of a layout (the 7-bit field), for Swift, which cannot read C bit-fields portably.
static inline int litevision_layout_rank(const LiteRtLayout* _Nonnull layout) { return (int)layout->rank; }

/// A copy of a heap C string, freed by litevision_free_payload; used for opaque option payloads, which
/// the runtime owns and frees through the destructor it is given.
char* _Nullable litevision_strdup_payload(const char* _Nonnull text);
void litevision_free_payload(void* _Nullable payload);

#ifdef __cplusplus
}
#endif
#endif
