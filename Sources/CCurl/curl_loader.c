// dlopen()s libcurl and resolves the functions LiteVision uses (see litevision_curl.h).
#include "litevision_curl.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "litevision_dynamic_library.h"

static const LiteVisionSymbol kSymbols[] = {
    {"curl_global_init", offsetof(LiteVisionCurlApi, global_init)},
    {"curl_easy_init", offsetof(LiteVisionCurlApi, easy_init)},
    {"curl_easy_setopt", offsetof(LiteVisionCurlApi, easy_setopt)},
    {"curl_easy_perform", offsetof(LiteVisionCurlApi, easy_perform)},
    {"curl_easy_getinfo", offsetof(LiteVisionCurlApi, easy_getinfo)},
    {"curl_easy_cleanup", offsetof(LiteVisionCurlApi, easy_cleanup)},
    {"curl_easy_strerror", offsetof(LiteVisionCurlApi, easy_strerror)},
    {"curl_slist_append", offsetof(LiteVisionCurlApi, slist_append)},
    {"curl_slist_free_all", offsetof(LiteVisionCurlApi, slist_free_all)},
};

const LiteVisionCurlApi* litevision_curl_load(const char* path, char* error, size_t error_capacity) {
  return litevision_dynamic_library_load(path, kSymbols, sizeof(kSymbols) / sizeof(kSymbols[0]), sizeof(LiteVisionCurlApi), error,
                                         error_capacity);
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

LiteVisionCurlCode litevision_curl_setopt_read_function(const LiteVisionCurlApi* api, LiteVisionCurl* handle,
                                                        LiteVisionCurlWriteCallback callback) {
  return api->easy_setopt(handle, kLiteVisionCurlOptReadFunction, callback);
}

LiteVisionCurlCode litevision_curl_setopt_header_function(const LiteVisionCurlApi* api, LiteVisionCurl* handle,
                                                          LiteVisionCurlWriteCallback callback) {
  return api->easy_setopt(handle, kLiteVisionCurlOptHeaderFunction, callback);
}

LiteVisionCurlCode litevision_curl_setopt_xferinfo_function(const LiteVisionCurlApi* api, LiteVisionCurl* handle,
                                                            LiteVisionCurlXferInfoCallback callback) {
  return api->easy_setopt(handle, kLiteVisionCurlOptXferInfoFunction, callback);
}

LiteVisionCurlCode litevision_curl_setopt_off_t(const LiteVisionCurlApi* api, LiteVisionCurl* handle, int option,
                                                int64_t value) {
  return api->easy_setopt(handle, option, value);
}

LiteVisionCurlCode litevision_curl_getinfo_long(const LiteVisionCurlApi* api, LiteVisionCurl* handle, int info,
                                                long* value) {
  return api->easy_getinfo(handle, info, value);
}
