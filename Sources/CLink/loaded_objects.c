// See include/CLink.h.
#define _GNU_SOURCE 1
#include "CLink.h"

#include <link.h>

enum { most_headers = 64 };  // an ELF object has a dozen; more are not looked at

struct walk {
    int (*visit)(const aq_loaded_object *, void *);
    void *context;
};

static int has_text_relocations(const struct dl_phdr_info *info) {
    for (int index = 0; index < info->dlpi_phnum; index++) {
        if (info->dlpi_phdr[index].p_type != PT_DYNAMIC) continue;
        const ElfW(Dyn) *entry = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[index].p_vaddr);
        for (; entry->d_tag != DT_NULL; entry++) {
            if (entry->d_tag == DT_TEXTREL) return 1;
            if (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_TEXTREL)) return 1;
        }
    }
    return 0;
}

static int each(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct walk *walk = data;
    aq_segment_header headers[most_headers];
    size_t count = 0;
    for (int index = 0; index < info->dlpi_phnum && count < most_headers; index++, count++) {
        headers[count] = (aq_segment_header){
            .type = info->dlpi_phdr[index].p_type, .flags = info->dlpi_phdr[index].p_flags,
            .address = (uintptr_t)info->dlpi_phdr[index].p_vaddr, .size = (uintptr_t)info->dlpi_phdr[index].p_memsz,
        };
    }
    aq_loaded_object object = {
        .name = info->dlpi_name ? info->dlpi_name : "", .base = (uintptr_t)info->dlpi_addr,
        .headers = headers, .count = count, .has_text_relocations = has_text_relocations(info),
    };
    return walk->visit(&object, walk->context);
}

int aq_for_each_loaded_object(int (*visit)(const aq_loaded_object *object, void *context), void *context) {
    struct walk walk = {visit, context};
    return dl_iterate_phdr(each, &walk);
}
