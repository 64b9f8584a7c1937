// The small part of libcurl's "easy" interface that LiteVision's model downloader uses, declared for this
// project from curl's public documentation (https://curl.se/libcurl/c/, values checked against curl's
// include/curl/curl.h). libcurl is not linked: litevision_curl_load() dlopen()s it (libcurl.so.4, Debian
// package libcurl4) and fills a table of function pointers, so the package builds where libcurl is absent
// and a missing libcurl becomes a readable error. Swift cannot call C variadic functions, so
// curl_easy_setopt and curl_easy_getinfo are reached through the typed, non-variadic wrappers below.
#ifndef LITEVISION_CURL_H
#define LITEVISION_CURL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void LiteVisionCurl;    // CURL (an opaque easy handle)
typedef int LiteVisionCurlCode; // CURLcode: 0 = CURLE_OK

// Option numbers: type base (LONG 0, OBJECTPOINT/STRINGPOINT/CBPOINT 10000, FUNCTIONPOINT 20000,
// OFF_T 30000) plus the option's index.
enum {
  kLiteVisionCurlOptWriteData = 10001,        // CURLOPT_WRITEDATA (CBPOINT + 1)
  kLiteVisionCurlOptURL = 10002,              // CURLOPT_URL (STRINGPOINT + 2)
  kLiteVisionCurlOptErrorBuffer = 10010,      // CURLOPT_ERRORBUFFER (OBJECTPOINT + 10)
  kLiteVisionCurlOptUserAgent = 10018,        // CURLOPT_USERAGENT (STRINGPOINT + 18)
  kLiteVisionCurlOptWriteFunction = 20011,    // CURLOPT_WRITEFUNCTION (FUNCTIONPOINT + 11)
  kLiteVisionCurlOptHTTPHeader = 10023,       // CURLOPT_HTTPHEADER (SLISTPOINT + 23)
  kLiteVisionCurlOptHeaderData = 10029,       // CURLOPT_HEADERDATA (CBPOINT + 29)
  kLiteVisionCurlOptHeaderFunction = 20079,   // CURLOPT_HEADERFUNCTION (FUNCTIONPOINT + 79)
  kLiteVisionCurlOptXferInfoData = 10057,     // CURLOPT_XFERINFODATA (CBPOINT + 57)
  kLiteVisionCurlOptXferInfoFunction = 20219, // CURLOPT_XFERINFOFUNCTION (FUNCTIONPOINT + 219)
  kLiteVisionCurlOptResumeFromLarge = 30116,  // CURLOPT_RESUME_FROM_LARGE (OFF_T + 116)
  kLiteVisionCurlOptLowSpeedLimit = 19,       // CURLOPT_LOW_SPEED_LIMIT (LONG + 19), bytes per second
  kLiteVisionCurlOptLowSpeedTime = 20,        // CURLOPT_LOW_SPEED_TIME (LONG + 20), seconds
  kLiteVisionCurlOptNoProgress = 43,          // CURLOPT_NOPROGRESS
  kLiteVisionCurlOptFailOnError = 45,         // CURLOPT_FAILONERROR: HTTP >= 400 is an error
  kLiteVisionCurlOptFollowLocation = 52,      // CURLOPT_FOLLOWLOCATION
  kLiteVisionCurlOptMaxRedirs = 68,           // CURLOPT_MAXREDIRS
  kLiteVisionCurlOptConnectTimeout = 78,      // CURLOPT_CONNECTTIMEOUT, seconds
  kLiteVisionCurlOptNoSignal = 99,            // CURLOPT_NOSIGNAL
  kLiteVisionCurlOptMaxFileSizeLarge = 30117, // CURLOPT_MAXFILESIZE_LARGE (OFF_T + 117)
  kLiteVisionCurlOptProtocolsStr = 10318,     // CURLOPT_PROTOCOLS_STR (STRINGPOINT + 318), curl >= 7.85
  kLiteVisionCurlOptRedirProtocolsStr = 10319, // CURLOPT_REDIR_PROTOCOLS_STR (STRINGPOINT + 319), curl >= 7.85
  kLiteVisionCurlOptReadData = 10009,          // CURLOPT_READDATA (CBPOINT + 9)
  kLiteVisionCurlOptReadFunction = 20012,      // CURLOPT_READFUNCTION (FUNCTIONPOINT + 12)
  kLiteVisionCurlOptPost = 47,                 // CURLOPT_POST: a POST whose body comes from READFUNCTION
  kLiteVisionCurlOptPostFieldSizeLarge = 30120, // CURLOPT_POSTFIELDSIZE_LARGE (OFF_T + 120)
  kLiteVisionCurlOptCustomRequest = 10036,     // CURLOPT_CUSTOMREQUEST (STRINGPOINT + 36), e.g. "DELETE"
  kLiteVisionCurlOptCAInfo = 10065,            // CURLOPT_CAINFO (STRINGPOINT + 65): trusted certificates (PEM)
  kLiteVisionCurlOptBufferSize = 98            // CURLOPT_BUFFERSIZE (LONG + 98): receive buffer, bytes
};

enum {
  kLiteVisionCurlInfoResponseCode = 0x200002, // CURLINFO_RESPONSE_CODE (CURLINFO_LONG + 2)
  kLiteVisionCurlGlobalDefault = 3,           // CURL_GLOBAL_DEFAULT (CURL_GLOBAL_SSL | CURL_GLOBAL_WIN32)
  kLiteVisionCurlErrorSize = 256,             // CURL_ERROR_SIZE
};

// CURLcode values the downloader explains.
enum {
  kLiteVisionCurlOK = 0,
  kLiteVisionCurlUnsupportedProtocol = 1,
  kLiteVisionCurlCouldntResolveHost = 6,
  kLiteVisionCurlCouldntConnect = 7,
  kLiteVisionCurlPartialFile = 18,
  kLiteVisionCurlHTTPReturnedError = 22,
  kLiteVisionCurlWriteError = 23,
  kLiteVisionCurlRangeError = 33,
  kLiteVisionCurlAbortedByCallback = 42,
  kLiteVisionCurlSSLConnectError = 35,
  kLiteVisionCurlPeerFailedVerification = 60,
  kLiteVisionCurlOperationTimedOut = 28,
  kLiteVisionCurlTooManyRedirects = 47,
  kLiteVisionCurlGotNothing = 52,
  kLiteVisionCurlRecvError = 56,
  kLiteVisionCurlFileSizeExceeded = 63,
};

/// curl_write_callback: return the number of bytes taken; anything else aborts with CURLE_WRITE_ERROR.
typedef size_t (*LiteVisionCurlWriteCallback)(char* _Nonnull data, size_t size, size_t count,
                                              void* _Nullable userdata);
// CURLOPT_XFERINFOFUNCTION: called about once a second and on every chunk; non-zero aborts the transfer.
typedef int (*LiteVisionCurlXferInfoCallback)(void* _Nullable userdata, int64_t download_total, int64_t download_now,
                                              int64_t upload_total, int64_t upload_now);
typedef struct LiteVisionCurlSlist LiteVisionCurlSlist;  // struct curl_slist

/// The functions LiteVision calls, resolved with dlsym. Every pointer is non-null once loaded.
typedef struct {
  LiteVisionCurlCode (*_Nonnull global_init)(long flags);
  LiteVisionCurl* _Nullable (*_Nonnull easy_init)(void);
  LiteVisionCurlCode (*_Nonnull easy_setopt)(LiteVisionCurl* _Nonnull handle, int option, ...);
  LiteVisionCurlCode (*_Nonnull easy_perform)(LiteVisionCurl* _Nonnull handle);
  LiteVisionCurlCode (*_Nonnull easy_getinfo)(LiteVisionCurl* _Nonnull handle, int info, ...);
  void (*_Nonnull easy_cleanup)(LiteVisionCurl* _Nonnull handle);
  const char* _Nonnull (*_Nonnull easy_strerror)(LiteVisionCurlCode code);
  LiteVisionCurlSlist* _Nullable (*_Nonnull slist_append)(LiteVisionCurlSlist* _Nullable list,
                                                          const char* _Nonnull text);
  void (*_Nonnull slist_free_all)(LiteVisionCurlSlist* _Nullable list);
} LiteVisionCurlApi;

/// dlopen()s the library at `path` (e.g. "libcurl.so.4") and resolves the functions above; NULL with a
/// message in `error` when the library or a symbol is missing. The table is never freed.
const LiteVisionCurlApi* _Nullable litevision_curl_load(const char* _Nonnull path, char* _Nonnull error,
                                                        size_t error_capacity);

// Non-variadic wrappers of curl_easy_setopt / curl_easy_getinfo, one per argument type.
LiteVisionCurlCode litevision_curl_setopt_long(const LiteVisionCurlApi* _Nonnull api, LiteVisionCurl* _Nonnull handle,
                                               int option, long value);
LiteVisionCurlCode litevision_curl_setopt_string(const LiteVisionCurlApi* _Nonnull api,
                                                 LiteVisionCurl* _Nonnull handle, int option,
                                                 const char* _Nonnull value);
LiteVisionCurlCode litevision_curl_setopt_pointer(const LiteVisionCurlApi* _Nonnull api,
                                                  LiteVisionCurl* _Nonnull handle, int option,
                                                  void* _Nullable value);
LiteVisionCurlCode litevision_curl_setopt_write_function(const LiteVisionCurlApi* _Nonnull api,
                                                         LiteVisionCurl* _Nonnull handle,
                                                         LiteVisionCurlWriteCallback _Nonnull callback);
/// CURLOPT_READFUNCTION: the request body; the callback has curl_read_callback's shape, which is the write
/// callback's (fill at most size * count bytes, return how many; 0 ends the body).
LiteVisionCurlCode litevision_curl_setopt_read_function(const LiteVisionCurlApi* _Nonnull api,
                                                        LiteVisionCurl* _Nonnull handle,
                                                        LiteVisionCurlWriteCallback _Nonnull callback);
LiteVisionCurlCode litevision_curl_setopt_header_function(const LiteVisionCurlApi* _Nonnull api,
                                                          LiteVisionCurl* _Nonnull handle,
                                                          LiteVisionCurlWriteCallback _Nonnull callback);
LiteVisionCurlCode litevision_curl_setopt_xferinfo_function(const LiteVisionCurlApi* _Nonnull api,
                                                            LiteVisionCurl* _Nonnull handle,
                                                            LiteVisionCurlXferInfoCallback _Nonnull callback);
LiteVisionCurlCode litevision_curl_setopt_off_t(const LiteVisionCurlApi* _Nonnull api, LiteVisionCurl* _Nonnull handle,
                                                int option, int64_t value);
LiteVisionCurlCode litevision_curl_getinfo_long(const LiteVisionCurlApi* _Nonnull api, LiteVisionCurl* _Nonnull handle,
                                                int info, long* _Nonnull value);

#ifdef __cplusplus
}
#endif

#endif
