// Loads a shared library with dlopen and fills a table of its functions: the one loader behind
// LiteVision's run-time dependencies (libLiteRt.so, libcurl), so neither is linked at build time.
#ifndef LITEVISION_DYNAMIC_LIBRARY_H
#define LITEVISION_DYNAMIC_LIBRARY_H

#include <stddef.h>

/// One function to resolve: its exported name and where its address goes in the caller's table.
typedef struct {
  const char* _Nonnull name;
  size_t offset;
} LiteVisionSymbol;

/// dlopen()s `path` (RTLD_NOW | RTLD_LOCAL) and resolves `symbols`, in the order given, into a zeroed table
/// of `table_size` bytes allocated here. Returns the table, which stays valid for the life of the process
/// (the library is never closed), or NULL with a message in `error` (always NUL-terminated when
/// `error_capacity` > 0): the dynamic loader's message, or "PATH does not export NAME" for the first
/// symbol missing (list a version-guard symbol first to report an old library by it).
void* _Nullable litevision_dynamic_library_load(const char* _Nonnull path, const LiteVisionSymbol* _Nonnull symbols,
                                                size_t symbol_count, size_t table_size, char* _Nonnull error,
                                                size_t error_capacity);

/// Writes the path of the loaded shared object that contains `address` (a function from a table above) to `path`
/// (NUL-terminated). Returns 1, or 0 when the address is in no loaded object or the path does not fit.
int litevision_dynamic_library_file(const void* _Nonnull address, char* _Nonnull path, size_t capacity);

#endif
