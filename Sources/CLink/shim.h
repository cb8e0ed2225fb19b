#ifndef AQUAVATE_CLINK_SHIM_H
#define AQUAVATE_CLINK_SHIM_H
// dl_iterate_phdr(3): the loaded objects and their program headers (Glibc's Swift module leaves
// link.h out). ResidentCode reads their read-only segments from it.
#define _GNU_SOURCE 1  /* dl_iterate_phdr and struct dl_phdr_info are GNU extensions */
#include <link.h>
// ElfW(Dyn), the dynamic-section entry of this machine's word size (a macro Swift cannot expand).
typedef ElfW(Dyn) ElfW_Dyn;
#endif
