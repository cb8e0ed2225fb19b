#ifndef AQUAVATE_CMALLOC_SHIM_H
#define AQUAVATE_CMALLOC_SHIM_H
// glibc's malloc tuning, mallopt(3) and malloc_trim(3) (Glibc's Swift module leaves malloc.h out).
#include <malloc.h>
#endif
