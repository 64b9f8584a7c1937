#define _GNU_SOURCE
#include "litevision_dynamic_library.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void* litevision_dynamic_library_load(const char* path, const LiteVisionSymbol* symbols, size_t symbol_count,
                                      size_t table_size, char* error, size_t error_capacity) {
  if (error_capacity > 0) error[0] = '\0';
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char* message = dlerror();
    snprintf(error, error_capacity, "%s", message ? message : "dlopen failed");
    return NULL;
  }
  unsigned char* table = calloc(1, table_size);
  if (table == NULL) {
    snprintf(error, error_capacity, "out of memory");
    dlclose(handle);
    return NULL;
  }
  for (size_t i = 0; i < symbol_count; i++) {
    void* address = dlsym(handle, symbols[i].name);
    if (address == NULL || symbols[i].offset + sizeof(address) > table_size) {
      snprintf(error, error_capacity, "%s does not export %s", path, symbols[i].name);
      dlclose(handle);
      free(table);
      return NULL;
    }
    memcpy(table + symbols[i].offset, &address, sizeof(address));
  }
  return table;  // never freed: the library stays loaded for the life of the process
}

int litevision_dynamic_library_file(const void* address, char* path, size_t capacity) {
  Dl_info info;
  if (capacity == 0 || dladdr(address, &info) == 0 || info.dli_fname == NULL) return 0;
  size_t length = strlen(info.dli_fname);
  if (length >= capacity) return 0;
  memcpy(path, info.dli_fname, length + 1);
  return 1;
}
