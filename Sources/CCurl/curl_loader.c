// dlopen()s libcurl and resolves the functions LiteVision uses (see litevision_curl.h).
#include "litevision_curl.h"

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

const LiteVisionCurlApi* litevision_curl_load(const char* path, char* error, size_t error_capacity) {
  if (error_capacity > 0) error[0] = '\0';
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char* message = dlerror();
    snprintf(error, error_capacity, "%s", message ? message : "dlopen failed");
    return NULL;
  }
  LiteVisionCurlApi* table = calloc(1, sizeof(LiteVisionCurlApi));
  if (table == NULL) {
    snprintf(error, error_capacity, "out of memory");
    dlclose(handle);
    return NULL;
  }
  RESOLVE(global_init, "curl_global_init");
  RESOLVE(easy_init, "curl_easy_init");
  RESOLVE(easy_setopt, "curl_easy_setopt");
  RESOLVE(easy_perform, "curl_easy_perform");
  RESOLVE(easy_getinfo, "curl_easy_getinfo");
  RESOLVE(easy_cleanup, "curl_easy_cleanup");
  RESOLVE(easy_strerror, "curl_easy_strerror");
  return table;  // never freed: the library stays loaded for the life of the process
}

LiteVisionCurlCode litevision_curl_setopt_long(const LiteVisionCurlApi* api, LiteVisionCurl* handle, int option,
                                               long value) {
  return api->easy_setopt(handle, option, value);
}

LiteVisionCurlCode litevision_curl_setopt_string(const LiteVisionCurlApi* api, LiteVisionCurl* handle, int option,
                                                 const char* value) {
  return api->easy_setopt(handle, option, value);
}

LiteVisionCurlCode litevision_curl_setopt_pointer(const LiteVisionCurlApi* api, LiteVisionCurl* handle, int option,
                                                  void* value) {
  return api->easy_setopt(handle, option, value);
}

LiteVisionCurlCode litevision_curl_setopt_write_function(const LiteVisionCurlApi* api, LiteVisionCurl* handle,
                                                         LiteVisionCurlWriteCallback callback) {
  return api->easy_setopt(handle, kLiteVisionCurlOptWriteFunction, callback);
}

LiteVisionCurlCode litevision_curl_setopt_off_t(const LiteVisionCurlApi* api, LiteVisionCurl* handle, int option,
                                                int64_t value) {
  return api->easy_setopt(handle, option, value);
}

LiteVisionCurlCode litevision_curl_getinfo_long(const LiteVisionCurlApi* api, LiteVisionCurl* handle, int info,
                                                long* value) {
  return api->easy_getinfo(handle, info, value);
}
