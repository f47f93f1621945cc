/* text_out.c - printing profile-provided names safely (see text_out.h). */
#include "text_out.h"

#include <inttypes.h>

#include "pathprof-abi.h"

void out_safe(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        fputc(ch < 0x20 || ch == 0x7f ? '?' : ch, out);
    }
}

void out_func(FILE *out, const struct pp_func_meta *f)
{
    out_safe(out, f->name);
    if (f->file) {
        fputs(" (", out);
        out_safe(out, f->file);
        fprintf(out, ":%" PRIu32 ")", f->line);
    }
    if (f->variant) {
        fputs(" [", out);
        out_safe(out, f->variant);
        fputc(']', out);
    }
}

void node_name(char *buf, size_t size, const struct pp_func_meta *f, uint32_t node)
{
    if (node == 0)
        snprintf(buf, size, "ENTRY");
    else if (node == 1)
        snprintf(buf, size, "EXIT");
    else
        snprintf(buf, size, "bb %" PRIu32, f->nodes[node].bb);
}

void out_node(FILE *out, const struct pp_func_meta *f, uint32_t node)
{
    char name[24];
    node_name(name, sizeof name, f, node);
    fputs(name, out);
}

void out_lines(FILE *out, const char *file, uint32_t first, uint32_t last)
{
    out_safe(out, file);
    if (first == last)
        fprintf(out, ":%" PRIu32, first);
    else
        fprintf(out, ":%" PRIu32 "-%" PRIu32, first, last);
}

void out_flags(FILE *out, uint32_t flags)
{
    const char *sep = "";
    size_t i;
    for (i = 0; i < PP_NFLAG_NAMES; i++) {
        if (flags & pp_flag_names[i].bit) {
            fprintf(out, "%s%s", sep, pp_flag_names[i].name);
            sep = " ";
        }
    }
    if (!*sep)
        fputs("-", out);
}
