// dlopen()s libLiteRt.so and resolves the functions LiteVision uses (see litert_c_api.h).
#include "litert_c_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RESOLVE(field, symbol)                                                          \
  do {                                                                                  \
    void* address = dlsym(handle, symbol);                                              \
    if (address == NULL) {                                                              \
      snprintf(error, error_capacity, "%s does not export %s", path, symbol);           \
      dlclose(handle);                                                                  \
      free(table);                                                                      \
      return NULL;                                                                      \
    }                                                                                   \
    memcpy(&table->field, &address, sizeof(address));                                   \
  } while (0)

const LiteVisionLiteRtApi* litevision_litert_load(const char* path, char* error, size_t error_capacity) {
  if (error_capacity > 0) error[0] = '\0';
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char* message = dlerror();
    snprintf(error, error_capacity, "%s", message ? message : "dlopen failed");
    return NULL;
  }
  LiteVisionLiteRtApi* table = calloc(1, sizeof(LiteVisionLiteRtApi));
  if (table == NULL) {
    snprintf(error, error_capacity, "out of memory");
    dlclose(handle);
    return NULL;
  }
  RESOLVE(CreateModelFromFd, "LiteRtCreateModelFromFd");  // the version guard goes first
  RESOLVE(CreateEnvironment, "LiteRtCreateEnvironment");
  RESOLVE(DestroyEnvironment, "LiteRtDestroyEnvironment");
  RESOLVE(CreateModelFromFile, "LiteRtCreateModelFromFile");
  RESOLVE(CreateModelFromBuffer, "LiteRtCreateModelFromBuffer");
  RESOLVE(DestroyModel, "LiteRtDestroyModel");
  RESOLVE(GetNumModelSignatures, "LiteRtGetNumModelSignatures");
  RESOLVE(GetModelSignature, "LiteRtGetModelSignature");
  RESOLVE(GetNumSignatureInputs, "LiteRtGetNumSignatureInputs");
  RESOLVE(GetNumSignatureOutputs, "LiteRtGetNumSignatureOutputs");
  RESOLVE(GetSignatureInputTensorByIndex, "LiteRtGetSignatureInputTensorByIndex");
  RESOLVE(GetSignatureOutputTensorByIndex, "LiteRtGetSignatureOutputTensorByIndex");
  RESOLVE(GetTensorName, "LiteRtGetTensorName");
  RESOLVE(GetRankedTensorType, "LiteRtGetRankedTensorType");
  RESOLVE(GetQuantizationTypeId, "LiteRtGetQuantizationTypeId");
  RESOLVE(GetPerTensorQuantization, "LiteRtGetPerTensorQuantization");
  RESOLVE(CreateOptions, "LiteRtCreateOptions");
  RESOLVE(DestroyOptions, "LiteRtDestroyOptions");
  RESOLVE(SetOptionsHardwareAccelerators, "LiteRtSetOptionsHardwareAccelerators");
  RESOLVE(CreateOpaqueOptions, "LiteRtCreateOpaqueOptions");
  RESOLVE(DestroyOpaqueOptions, "LiteRtDestroyOpaqueOptions");
  RESOLVE(AddOpaqueOptions, "LiteRtAddOpaqueOptions");
  RESOLVE(CreateCompiledModel, "LiteRtCreateCompiledModel");
  RESOLVE(DestroyCompiledModel, "LiteRtDestroyCompiledModel");
  RESOLVE(GetCompiledModelInputBufferRequirements, "LiteRtGetCompiledModelInputBufferRequirements");
  RESOLVE(GetCompiledModelOutputBufferRequirements, "LiteRtGetCompiledModelOutputBufferRequirements");
  RESOLVE(GetCompiledModelOutputTensorLayouts, "LiteRtGetCompiledModelOutputTensorLayouts");
  RESOLVE(RunCompiledModel, "LiteRtRunCompiledModel");
  RESOLVE(CreateManagedTensorBufferFromRequirements, "LiteRtCreateManagedTensorBufferFromRequirements");
  RESOLVE(CreateManagedTensorBuffer, "LiteRtCreateManagedTensorBuffer");
  RESOLVE(DestroyTensorBuffer, "LiteRtDestroyTensorBuffer");
  RESOLVE(GetTensorBufferSize, "LiteRtGetTensorBufferSize");
  RESOLVE(LockTensorBuffer, "LiteRtLockTensorBuffer");
  RESOLVE(UnlockTensorBuffer, "LiteRtUnlockTensorBuffer");
  return table;  // never freed: the library stays loaded for the life of the process
}

char* litevision_strdup_payload(const char* text) { return strdup(text); }
void litevision_free_payload(void* payload) { free(payload); }
