// dlopen()s libLiteRt.so and resolves the functions LiteVision uses (see litert_c_api.h).
#include "litert_c_api.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "litevision_dynamic_library.h"

static const LiteVisionSymbol kSymbols[] = {
    {"LiteRtCreateModelFromFd", offsetof(LiteVisionLiteRtApi, CreateModelFromFd)},  // the version guard goes first
    {"LiteRtCreateEnvironment", offsetof(LiteVisionLiteRtApi, CreateEnvironment)},
    {"LiteRtDestroyEnvironment", offsetof(LiteVisionLiteRtApi, DestroyEnvironment)},
    {"LiteRtCreateModelFromFile", offsetof(LiteVisionLiteRtApi, CreateModelFromFile)},
    {"LiteRtCreateModelFromBuffer", offsetof(LiteVisionLiteRtApi, CreateModelFromBuffer)},
    {"LiteRtDestroyModel", offsetof(LiteVisionLiteRtApi, DestroyModel)},
    {"LiteRtGetNumModelSignatures", offsetof(LiteVisionLiteRtApi, GetNumModelSignatures)},
    {"LiteRtGetModelSignature", offsetof(LiteVisionLiteRtApi, GetModelSignature)},
    {"LiteRtGetNumSignatureInputs", offsetof(LiteVisionLiteRtApi, GetNumSignatureInputs)},
    {"LiteRtGetNumSignatureOutputs", offsetof(LiteVisionLiteRtApi, GetNumSignatureOutputs)},
    {"LiteRtGetSignatureInputTensorByIndex", offsetof(LiteVisionLiteRtApi, GetSignatureInputTensorByIndex)},
    {"LiteRtGetSignatureOutputTensorByIndex", offsetof(LiteVisionLiteRtApi, GetSignatureOutputTensorByIndex)},
    {"LiteRtGetTensorName", offsetof(LiteVisionLiteRtApi, GetTensorName)},
    {"LiteRtGetRankedTensorType", offsetof(LiteVisionLiteRtApi, GetRankedTensorType)},
    {"LiteRtGetQuantizationTypeId", offsetof(LiteVisionLiteRtApi, GetQuantizationTypeId)},
    {"LiteRtGetPerTensorQuantization", offsetof(LiteVisionLiteRtApi, GetPerTensorQuantization)},
    {"LiteRtCreateOptions", offsetof(LiteVisionLiteRtApi, CreateOptions)},
    {"LiteRtDestroyOptions", offsetof(LiteVisionLiteRtApi, DestroyOptions)},
    {"LiteRtSetOptionsHardwareAccelerators", offsetof(LiteVisionLiteRtApi, SetOptionsHardwareAccelerators)},
    {"LiteRtCreateOpaqueOptions", offsetof(LiteVisionLiteRtApi, CreateOpaqueOptions)},
    {"LiteRtDestroyOpaqueOptions", offsetof(LiteVisionLiteRtApi, DestroyOpaqueOptions)},
    {"LiteRtAddOpaqueOptions", offsetof(LiteVisionLiteRtApi, AddOpaqueOptions)},
    {"LiteRtCreateCompiledModel", offsetof(LiteVisionLiteRtApi, CreateCompiledModel)},
    {"LiteRtDestroyCompiledModel", offsetof(LiteVisionLiteRtApi, DestroyCompiledModel)},
    {"LiteRtGetCompiledModelInputBufferRequirements", offsetof(LiteVisionLiteRtApi, GetCompiledModelInputBufferRequirements)},
    {"LiteRtGetCompiledModelOutputBufferRequirements", offsetof(LiteVisionLiteRtApi, GetCompiledModelOutputBufferRequirements)},
    {"LiteRtGetCompiledModelOutputTensorLayouts", offsetof(LiteVisionLiteRtApi, GetCompiledModelOutputTensorLayouts)},
    {"LiteRtRunCompiledModel", offsetof(LiteVisionLiteRtApi, RunCompiledModel)},
    {"LiteRtSetCompiledModelCancellationFunction", offsetof(LiteVisionLiteRtApi, SetCompiledModelCancellationFunction)},
    {"LiteRtCreateManagedTensorBufferFromRequirements", offsetof(LiteVisionLiteRtApi, CreateManagedTensorBufferFromRequirements)},
    {"LiteRtCreateManagedTensorBuffer", offsetof(LiteVisionLiteRtApi, CreateManagedTensorBuffer)},
    {"LiteRtDestroyTensorBuffer", offsetof(LiteVisionLiteRtApi, DestroyTensorBuffer)},
    {"LiteRtGetTensorBufferSize", offsetof(LiteVisionLiteRtApi, GetTensorBufferSize)},
    {"LiteRtLockTensorBuffer", offsetof(LiteVisionLiteRtApi, LockTensorBuffer)},
    {"LiteRtUnlockTensorBuffer", offsetof(LiteVisionLiteRtApi, UnlockTensorBuffer)},
};

const LiteVisionLiteRtApi* litevision_litert_load(const char* path, char* error, size_t error_capacity) {
  return litevision_dynamic_library_load(path, kSymbols, sizeof(kSymbols) / sizeof(kSymbols[0]), sizeof(LiteVisionLiteRtApi), error,
                                         error_capacity);
}

char* litevision_strdup_payload(const char* text) { return strdup(text); }
void litevision_free_payload(void* payload) { free(payload); }
