// The objects the dynamic loader has loaded, and their program headers (dl_iterate_phdr(3)), for
// ResidentCode, which gives back the pages of their read-only segments.
//
// Why a C file and not a module map over <link.h>: dl_iterate_phdr is a GNU extension, declared
// only under _GNU_SOURCE, and a module map that defined it would see fd_set differently from the
// other system modules (CTimex's), which clang refuses on a fresh build. The .c file defines it;
// this header declares only plain types.
#ifndef AQUAVATE_CLINK_H
#define AQUAVATE_CLINK_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

/// One program header, in this machine's word size.
typedef struct {
    uint32_t type;      ///< p_type: PT_LOAD, PT_DYNAMIC, …
    uint32_t flags;     ///< p_flags: PF_R, PF_W, PF_X
    uintptr_t address;  ///< p_vaddr, relative to the object's base
    uintptr_t size;     ///< p_memsz
} aq_segment_header;

/// One loaded object: its name ("" for the executable), where it is loaded, its program headers,
/// and whether the loader wrote into its read-only segments (DT_TEXTREL or DF_TEXTREL).
typedef struct {
    const char *name;
    uintptr_t base;
    const aq_segment_header *headers;
    size_t count;
    int has_text_relocations;
} aq_loaded_object;

/// Calls `visit` for each loaded object, under the loader's lock (no object is unloaded
/// meanwhile); a non-zero return from `visit` stops the walk and is returned.
int aq_for_each_loaded_object(int (*visit)(const aq_loaded_object *object, void *context), void *context);

#endif
